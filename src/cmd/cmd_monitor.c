/* gpuscope monitor: a live GPU table, a JSONL log and a Prometheus exporter, from NVML or from a
 * recorded log (--replay). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "cmd/monitor_watch.h"
#include "cmd/say.h"
#include "common/error.h"
#include "common/output_file.h"
#include "common/util.h"
#include "monitor/feed.h"
#include "monitor/http.h"
#include "monitor/live.h"
#include "monitor/replay.h"
#include "monitor/live_table.h"
#include "monitor/webhook.h"
#include "probe/nvml.h"
#include "probe/nvml_guard.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/monitor.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char monitor_intro[] =
    "usage: gpuscope monitor [OPTIONS]\n"
    "\n"
    "Shows every GPU's utilization, memory, power, temperature, clocks, PCIe traffic\n"
    "and throttle reasons, and the processes holding GPU memory, from NVML; writes\n"
    "them to a JSONL log; serves them to Prometheus with dcgm-exporter's metric\n"
    "names and labels, plus GPU memory per process.\n"
    "\n";

static const char *const help_order[] = {
    "interval", "once", "count", "format", "log", "replay", "serve", "host-only", "agents",
    "trigger", "cooldown", "capture-steps", "capture-duration", "capture-output",
    "trigger-token-file", NULL};

static const gs_cli_help_part help_parts[] = {
    {"\n"
     "exit status: 0 ok, 2 usage error, 3 bad --replay log (the message names the\n"
     "line), 4 no NVML or no GPU (without --host-only), NVML hung, a log or port\n"
     "that cannot be used.\n"},
};

typedef struct request {
    double interval_s;
    const char *interval_text; /* as given, for messages */
    unsigned long long count; /* 0: until interrupted or the end of the log */
    enum gs_format format;
    const char *log, *replay, *serve;
    bool host_only;
    const char *agents, *trigger, *capture_output, *token_file;
    const char *triggers[GS_WATCH_MAX_TRIGGERS];
    size_t ntriggers;
    size_t capture_steps;
    double capture_duration_s, cooldown_s;
} request;

#define MAX_INTERVAL_S 86400.0
#define MIN_LIVE_INTERVAL_S 0.01 /* NVML's own counters refresh no faster */
#define DEFAULT_SERVE "127.0.0.1:9400"

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
    (void)sig;
    stop_requested = 1;
}

static int fail(const gs_error *err)
{
    gs_say("monitor: %s", err->msg);
    return err->code ? (int)err->code : GS_EXIT_ENV;
}

static int parse(int argc, char **argv, request *rq)
{
    *rq = (request){.interval_s = 1, .interval_text = "1", .cooldown_s = 600};
    bool once = false;
    double count = 0;
    const gs_cli_flag flags[] = {
        {"once", &once, .help = "one sample, then exit (same as --count 1)"},
        {"host-only", &rq->host_only, .help = "no GPU: host CPU and memory only"},
    };
    const gs_cli_number numbers[] = {
        {"interval", &rq->interval_s, 0, MAX_INTERVAL_S, false,
         "--interval wants seconds from 0 to 86400, not '%s'", &rq->interval_text,
         .arg = "SECONDS",
         .help = "time between samples (default 1; PCIe throughput is\n"
                 "read at most once a second, it blocks NVML ~20 ms)"},
        {"count", &count, 1, 1e12, true, "--count wants a whole number of samples, not '%s'",
         .arg = "N",
         .help = "N samples, then exit (with --serve: stop sampling and\n"
                 "keep serving the last)"},
        {"cooldown", &rq->cooldown_s, 0, 1e7, false, "--cooldown wants seconds, not '%s'",
         .arg = "SECONDS", .help = "at most one capture per SECONDS (default 600)"},
        {"capture-duration", &rq->capture_duration_s, 0.001, 1e6, false,
         "--capture-duration wants seconds, not '%s'", .arg = "SECONDS",
         .help = "a capture records SECONDS instead of steps"},
    };
    const gs_cli_count counts[] = {
        {"capture-steps", &rq->capture_steps, 1000000, .arg = "N",
         .help = "a capture records N steps (default 5)"},
    };
    const gs_cli_text texts[] = {
        {"log", &rq->log, .arg = "FILE.jsonl",
         .help = "append every sample to FILE, one line per GPU"},
        {"replay", &rq->replay, .arg = "FILE.jsonl",
         .help = "read samples from a log instead of NVML, one per\n"
                 "--interval (0: as fast as possible)"},
        /* "--serve" alone, or followed by another option, serves on the default address. */
        {"serve", &rq->serve, .bare = DEFAULT_SERVE, .arg = "[[ADDR:]PORT]",
         .help = "serve Prometheus text on http://ADDR:PORT/metrics\n"
                 "(default 127.0.0.1:9400; port 0 picks a free one)\n"
                 "instead of printing; runs until interrupted"},
        {"agents", &rq->agents, .arg = "DIR",
         .help = "watch the steps of the programs run with `gpuscope\n"
                 "run --on-demand --job DIR`; captures are of them"},
        {"trigger", &rq->trigger, .values = rq->triggers, .max_values = GS_WATCH_MAX_TRIGGERS,
         .nvalues = &rq->ntriggers, .arg = "COND",
         .help = "capture when COND holds, e.g. 'step_time>1.2*baseline\n"
                 "for 20s' (metrics step_time, gpu_util, mem_used;\n"
                 "doc/monitor.md); without --agents, of the GPU\n"
                 "processes run with --on-demand; up to 8 times: when\n"
                 "any holds"},
        {"capture-output", &rq->capture_output, .arg = "PATTERN",
         .help = "the captures' -o (default: each run's own)"},
        {"trigger-token-file", &rq->token_file, .arg = "FILE",
         .help = "with --serve: accept Alertmanager's webhook, POST\n"
                 "/trigger from this machine with the bearer token\n"
                 "in FILE (readable by its owner only)"},
    };
    const gs_cli_spec spec = {
        .command = "monitor",
        .help = {.intro = monitor_intro, .order = help_order, .indent = 25,
                 .format = "table (default; redrawn in place on a terminal), csv\n"
                           "(a row per GPU per sample) or json (an object per\n"
                           "sample per line)",
                 .parts = help_parts, .nparts = COUNT_OF(help_parts)},
        .operands = GS_CLI_NONE, .csv = true, .flags = flags, .nflags = 2, .numbers = numbers,
        .nnumbers = COUNT_OF(numbers), .texts = texts, .ntexts = COUNT_OF(texts),
        .counts = counts, .ncounts = COUNT_OF(counts)};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    rq->format = cli.format;
    rq->count = once ? 1 : (unsigned long long)count; /* --once wins, wherever it stands */
    if (rq->replay && rq->host_only)
        return gs_cli_usage("monitor", "%s", "--replay and --host-only cannot be used together");
    gs_error err;
    /* Logging what is replayed into the log being replayed would read its own lines for ever. */
    if (rq->replay && rq->log && gs_output_check_inputs(rq->log, &rq->replay, 1, &err) != 0)
        return gs_cli_fail(&err);
    if (!rq->replay && rq->interval_s < MIN_LIVE_INTERVAL_S)
        return gs_cli_usage("monitor", "--interval: at least 0.01 s when sampling NVML, not '%s'",
                            rq->interval_text);
    if (rq->token_file && !rq->serve)
        return gs_cli_usage("monitor", "%s", "--trigger-token-file needs --serve");
    if (rq->capture_steps && rq->capture_duration_s > 0)
        return gs_cli_usage("monitor", "%s", "give --capture-steps or --capture-duration, not both");
    if (!rq->capture_steps && !(rq->capture_duration_s > 0))
        rq->capture_steps = 5;
    return GS_CLI_RUN;
}

/* ---- output ---------------------------------------------------------------------------------- */

typedef struct printer {
    enum gs_format format;
    bool tty, csv_header_done;
    unsigned long long printed;
} printer;

static void print_sample(printer *p, const gs_snapshot *s, const char *note)
{
    switch (p->format) {
    case GS_FORMAT_TABLE:
        /* On a terminal the table is redrawn in place; on a pipe samples follow each other. */
        if (p->tty)
            fputs("\033[H\033[2J", stdout);
        else if (p->printed)
            fputc('\n', stdout);
        gs_live_table_text(stdout, s, note);
        break;
    case GS_FORMAT_CSV:
        gs_live_table_csv(stdout, s, !p->csv_header_done);
        p->csv_header_done = true;
        break;
    case GS_FORMAT_JSON:
        gs_live_table_json(stdout, s);
        break;
    }
    p->printed++;
    fflush(stdout);
}

/* Serves until a signal; what is watched still acts (a webhook's capture). */
static void wait_for_signal(gs_watch *w)
{
    struct timespec tick = {0, 100 * 1000 * 1000};
    while (!stop_requested) {
        if (w)
            gs_watch_idle(w);
        nanosleep(&tick, NULL);
    }
}

/* Sleeps `seconds`, waking early on a signal. */
static void pause_for(double seconds)
{
    int64_t end = gs_mono_ns() + (int64_t)(seconds * 1e9);
    while (!stop_requested) {
        int64_t left = end - gs_mono_ns();
        if (left <= 0)
            return;
        int64_t step = left < 100000000 ? left : 100000000;
        struct timespec ts = {0, (long)step};
        nanosleep(&ts, NULL);
    }
}

/* ---- the two sources ------------------------------------------------------------------------- */

/* Replays the log: each sample is published (served, logged), watched and, without --serve,
 * printed. */
static int run_replay(const request *rq, gs_feed *feed, printer *p, gs_watch *w)
{
    gs_replay *r;
    gs_error err;
    if (gs_replay_open(rq->replay, &r, &err))
        return fail(&err);
    gs_snapshot s = {0};
    uint64_t nvml_errors = 0; /* the failed reads the log recorded */
    int rc = GS_EXIT_OK;
    for (unsigned long long n = 0; !stop_requested && (!rq->count || n < rq->count); n++) {
        int got = gs_replay_next(r, &s, &err);
        if (got < 0) {
            rc = fail(&err);
            break;
        }
        if (got == 0)
            break;
        if (n > 0)
            pause_for(rq->interval_s);
        if (!rq->serve)
            print_sample(p, &s, NULL);
        nvml_errors += gs_snapshot_failed_reads(&s);
        if (w && gs_watch_sample(w, &s) != 0) {
            gs_say("monitor: out of memory");
            rc = GS_EXIT_ENV;
            break;
        }
        if (gs_feed_publish(feed, &s, nvml_errors, &err)) {
            rc = fail(&err);
            break;
        }
    }
    gs_snapshot_free(&s);
    gs_replay_close(r);
    if (rc == GS_EXIT_OK && rq->serve)
        wait_for_signal(w);
    return rc;
}

/* A signal does not wake a wait on the feed: wait in slices this long, to stop soon after one. */
#define SIGNAL_POLL_NS 100000000LL

/* Waits for a sample newer than *seq until `deadline`, or until a signal asks to stop. */
static int wait_sample(gs_feed *feed, uint64_t *seq, int64_t deadline, gs_snapshot *out)
{
    int rc = GS_FEED_TIMEOUT;
    for (int64_t now = gs_mono_ns(); rc == GS_FEED_TIMEOUT && !stop_requested && now < deadline;
         now = gs_mono_ns())
        rc = gs_feed_wait(feed, seq, deadline - now > SIGNAL_POLL_NS ? now + SIGNAL_POLL_NS
                                                                     : deadline, out);
    return rc;
}

/* Prints (without --serve) and watches each new sample; on a terminal, a sample late by more
 * than an interval (NVML hung in a call) redraws the last one marked stale, so the screen never
 * freezes silently. */
static void display_live(const request *rq, gs_feed *feed, printer *p, gs_watch *w)
{
    gs_snapshot shown = {0};
    uint64_t seq = 0;
    int64_t interval = (int64_t)(rq->interval_s * 1e9);
    while (!stop_requested) {
        int rc = wait_sample(feed, &seq, gs_mono_ns() + interval, &shown);
        if (stop_requested || rc == GS_FEED_CLOSED || rc < 0)
            break;
        if (rc == GS_FEED_NEW) {
            if (!rq->serve)
                print_sample(p, &shown, NULL);
            if (w && gs_watch_sample(w, &shown) != 0)
                break;
        } else if (!rq->serve && p->tty && p->format == GS_FORMAT_TABLE && p->printed) {
            char note[64];
            snprintf(note, sizeof note, "(stale: sampled %.1f s ago, NVML is slow)",
                     (double)(gs_wall_ms() - shown.ts_ms) / 1000.0);
            print_sample(p, &shown, note);
        }
    }
    gs_snapshot_free(&shown);
}

static int run_live(const request *rq, gs_feed *feed, printer *p, gs_watch *w)
{
    gs_error err;
    gs_nvml *nvml = NULL;
    if (!rq->host_only) {
        /* On a thread: a hung driver may never return from nvmlInit, and a signal must still
         * stop the monitor. */
        if (gs_nvml_open_guarded(NULL, 0, &stop_requested, &nvml, &err)) {
            gs_say("monitor: %s; use --host-only for host metrics or --replay to read a log",
                   err.msg);
            return GS_EXIT_ENV;
        }
        if (gs_nvml_device_count(nvml) == 0) {
            gs_nvml_close(nvml);
            gs_say("monitor: NVML sees no GPU that this process may use; use --host-only for host "
                   "metrics");
            return GS_EXIT_ENV;
        }
    }
    char host[GS_MON_HOST_MAX] = "";
    gethostname(host, sizeof host - 1);
    gs_live_opts o = {nvml, "/proc", host, (int64_t)(rq->interval_s * 1e9), rq->count,
                      rq->agents};
    gs_live *live = NULL;
    int rc = GS_EXIT_OK;
    if (gs_live_create(&o, &live, &err) || gs_live_start(live, feed, &err)) {
        rc = fail(&err);
    } else {
        if (rq->serve && !w)
            wait_for_signal(NULL);
        else
            display_live(rq, feed, p, w);
        int stopped = gs_live_stop(live, GS_LIVE_STOP_WAIT_NS, &err);
        if (stopped != 0)
            rc = fail(&err);
        if (stopped == GS_LIVE_ABANDONED)
            return rc; /* its thread may still be inside NVML: neither it nor NVML is freed */
    }
    gs_live_destroy(live);
    gs_nvml_close(nvml);
    return rc;
}

int cmd_monitor(int argc, char **argv)
{
    request rq;
    int rc = parse(argc, argv, &rq);
    if (rc != GS_CLI_RUN)
        return rc;
    gs_error err;
    int log_fd = -1;
    if (rq.log && (log_fd = open(rq.log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644)) < 0) {
        gs_say("monitor: cannot open the log %s: %s", rq.log,
                strerror(errno));
        return GS_EXIT_ENV;
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    gs_watch watch = {.agents = rq.agents, .capture_steps = rq.capture_steps,
                      .capture_duration_s = rq.capture_duration_s,
                      .capture_output = rq.capture_output,
                      .cooldown_ms = (int64_t)(rq.cooldown_s * 1000),
                      .last_capture_ms = INT64_MIN, .sample_ms = INT64_MIN,
                      .webhook_lock = PTHREAD_MUTEX_INITIALIZER};
    char why[512], token[GS_WEBHOOK_TOKEN_MAX];
    for (; watch.ntriggers < rq.ntriggers; watch.ntriggers++) {
        gs_trigger *t = &watch.triggers[watch.ntriggers];
        int bad = gs_trigger_parse(rq.triggers[watch.ntriggers], t, why, sizeof why);
        /* Live, step times come only from --agents; a replayed log carries its own. */
        if (!bad && gs_trigger_needs_steps(t) && !rq.agents && !rq.replay) {
            snprintf(why, sizeof why,
                     "--trigger '%s' needs --agents DIR: the step times are the statuses of the "
                     "agents of `gpuscope run --on-demand --job DIR`",
                     t->text);
            bad = -1;
        }
        if (bad) {
            gs_watch_finish(&watch);
            if (log_fd >= 0)
                close(log_fd);
            return gs_cli_usage("monitor", "%s", why);
        }
    }
    gs_http_trigger webhook = {token, gs_watch_webhook, &watch};
    if (rq.token_file && gs_webhook_read_token(rq.token_file, token, sizeof token, &err) != 0) {
        if (log_fd >= 0)
            close(log_fd);
        return fail(&err);
    }
    gs_watch *w = gs_watch_active(&watch, rq.token_file != NULL) ? &watch : NULL;
    /* Read each sample: a folder not there (a typo, or a job that starts later) would show no
     * steps and fire no step trigger without a word. */
    struct stat st;
    if (rq.agents && !rq.replay && stat(rq.agents, &st) != 0)
        gs_say("monitor: --agents %s: %s (yet?): no steps until a job runs with it", rq.agents,
               strerror(errno));
    gs_feed *feed = NULL;
    gs_http *http = NULL;
    gs_feed_opts fo = {log_fd, rq.replay != NULL};
    if (gs_feed_create(&fo, &feed, &err) ||
        (rq.serve &&
         gs_http_start(rq.serve, feed, rq.token_file ? &webhook : NULL, &http, &err))) {
        rc = fail(&err);
    } else {
        if (http) {
            const char *a = gs_http_addr(http);
            bool v6 = strchr(a, ':') != NULL;
            gs_say("monitor: serving http://%s%s%s:%u/metrics", v6 ? "[" : "",
                    a, v6 ? "]" : "", gs_http_port(http));
        }
        printer p = {rq.format, isatty(STDOUT_FILENO) == 1, false, 0};
        rc = rq.replay ? run_replay(&rq, feed, &p, w) : run_live(&rq, feed, &p, w);
    }
    gs_http_stop(http);
    gs_watch_finish(&watch);
    gs_feed_destroy(feed);
    if (log_fd >= 0 && close(log_fd) != 0 && rc == GS_EXIT_OK) {
        gs_say("monitor: cannot write the log %s: %s", rq.log,
                strerror(errno));
        rc = GS_EXIT_ENV;
    }
    return rc;
}
