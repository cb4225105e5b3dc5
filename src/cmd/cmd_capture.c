/* gpuscope capture: asks the dormant agent of a process started by `gpuscope run --on-demand`
 * (and of its descendants), or of every rank of a job, to record one window of steps or of
 * time, waits for it, and writes the window's trace files. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "cmd/say.h"
#include "collect/capture_client.h"
#include "common/error.h"
#include "common/gst_format.h"
#include "common/util.h"
#include "render/units.h"

/* The start of --help: the rest is made from the spec. doc/capture.md shows the whole;
 * tests/cli/test_docs.sh keeps the two equal. */
static const char capture_intro[] =
    "usage: gpuscope capture PID (--steps N | --duration S) [OPTIONS]\n"
    "       gpuscope capture --job DIR (--steps N | --duration S) [OPTIONS]\n"
    "\n"
    "Records one window of a program started by `gpuscope run --on-demand`, which\n"
    "records nothing until asked: N steps from the next one (ProfilerStep#N ranges,\n"
    "the Python hooks' steps, or --step-name's), or S seconds. PID's process and\n"
    "its descendants that carry the agent are captured; with --job, every rank of a\n"
    "job run with `--job DIR`, all from the same step number. The agents then record\n"
    "nothing again. Prints each window's file (one per process unless -o names\n"
    "several processes alike: %p, %h, %q{VAR} and %w, the window's index).\n"
    "\n";

static const char *const help_order[] = {"steps", "duration", "job", "output", "kinds",
                                         "timeout", "force", "report", "quiet", NULL};

static const gs_cli_help_part help_parts[] = {
    {"\n"
     "exit status: 0 when every process wrote its window; 2 for a usage error or a\n"
     "process that is not there or not started with --on-demand; 3 when it has no\n"
     "agent yet; 4 when refused (another user's process, a folder others can write\n"
     "in, a window under way), when a process wrote no window by --timeout (the\n"
     "others' files are kept), or when stopped by SIGINT or SIGTERM.\n"},
};

static bool valid_pid(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    return *s && !*end && v > 0 && v <= 4194304;
}

static void say_window(const gs_capture_result *r, const gs_run_output *o)
{
    char size[32];
    gs_fmt_bytes(size, sizeof size, (int64_t)o->stats.bytes_written);
    unsigned long long k = o->stats.records[GST_REC_KERNEL], n = o->stats.records[GST_REC_NVTX_RANGE];
    printf("window %llu: %s (%zu process%s, %llu kernel%s, %llu NVTX range%s, %s)\n",
           (unsigned long long)r->window, o->path, o->nprocesses, o->nprocesses == 1 ? "" : "es",
           k, k == 1 ? "" : "s", n, n == 1 ? "" : "s", size);
}

/* What became of each process's window when not all were written: why one wrote none, which
 * ended first, which were still at it when --timeout passed. */
static void say_targets(const gs_capture_result *r)
{
    char late[512] = "";
    size_t used = 0;
    for (size_t i = 0; i < r->targets.n; i++) {
        const gs_capture_agent *a = &r->targets.v[i];
        const gs_od_status *st = &a->st;
        bool failed = st->request == r->window && st->state == GS_OD_FAILED;
        if (failed || (gs_capture_wrote(a, r->window) && st->error[0]))
            gs_say("process %ld%s: %s", st->pid, failed ? " wrote no window" : "",
                   st->error[0] ? st->error : "no reason given");
        else if (gs_capture_gone(a) && !gs_capture_wrote(a, r->window))
            gs_say("process %ld ended before it wrote window %llu", st->pid,
                   (unsigned long long)r->window);
        else if (!gs_capture_wrote(a, r->window) && used < sizeof late) {
            int w = snprintf(late + used, sizeof late - used, "%s%s:%ld", used ? ", " : "",
                             st->host, st->pid);
            used += w > 0 ? (size_t)w : 0;
        }
    }
    if (r->unfinished)
        gs_say("%zu of %zu processes did not finish window %llu in time (%s)%s%s", r->unfinished,
               r->targets.n, (unsigned long long)r->window, late,
               r->written ? "" : ": what they write stays in ", r->written ? "" : r->dir);
}

/* Set by SIGINT or SIGTERM: capture stops waiting and says where the window's files go. A second
 * signal (Ctrl-C again, while the windows are merged) ends it as the signal does. */
static volatile sig_atomic_t stop_waiting;

static void catch_stop(void (*handler)(int))
{
    struct sigaction sa = {.sa_handler = handler};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

static void on_stop(int sig)
{
    if (stop_waiting) {
        catch_stop(SIG_DFL);
        raise(sig);
    }
    stop_waiting = 1;
}

int cmd_capture(int argc, char **argv)
{
    gs_capture_opts o = {.kinds = GS_OD_KINDS_DEFAULT};
    bool report = false, quiet = false;
    size_t steps = 0;
    const gs_cli_flag flags[] = {
        {"force", &o.force, 'f', .help = "overwrite existing trace files"},
        {"report", &report, 0, .help = "then print `gpuscope report` of each window"},
        {"quiet", &quiet, 'q', .help = "print nothing but errors"},
    };
    const gs_cli_count counts[] = {
        {"steps", &steps, 1000000, .arg = "N",
         .help = "a window of N steps, from the next step to begin\n"
                 "(with several processes: from one step number all\n"
                 "of them reach)"},
    };
    const gs_cli_number numbers[] = {
        {"duration", &o.duration_s, 0.001, 1e6, false, "--duration takes 0.001 to 1000000 s, not '%s'",
         .arg = "S", .help = "a window of S seconds, from about 0.4 s from now"},
        {"timeout", &o.timeout_s, 0.1, 1e7, false, "--timeout takes 0.1 to 10000000 s, not '%s'",
         .arg = "S",
         .help = "give up waiting after S seconds (default: the\n"
                 "duration + 30 s, or 600 s for steps)"},
    };
    const gs_cli_text texts[] = {
        {"job", &o.job_dir, 0, NULL, NULL, .arg = "DIR",
         .help = "every process of a job run with `gpuscope run\n"
                 "--on-demand --job DIR`, instead of PID"},
        {"output", &o.output, 'o', .arg = "PATTERN",
         .help = "the windows' files (default: the run's -o); %p is\n"
                 "the process id, %h the host, %q{VAR} the value of\n"
                 "VAR in that process, %w the window's index"},
    };
    static const char *const kinds[] = {"full", "light"};
    size_t kinds_choice = 2;
    const gs_cli_choice choices[] = {
        {"kinds", kinds, 2, &kinds_choice, "--kinds takes full or light, not '%s'",
         .arg = "full|light",
         .help = "what the window records (default: the run's\n"
                 "--kinds); light: kernels, copies, sets and runtime\n"
                 "calls only"},
    };
    const gs_cli_spec spec = {
        .command = "capture",
        .help = {.intro = capture_intro, .order = help_order, .indent = 25, .parts = help_parts,
                 .nparts = COUNT_OF(help_parts)},
        .operands = GS_CLI_PROCESS, .no_format = true, .flags = flags, .nflags = COUNT_OF(flags),
        .counts = counts, .ncounts = COUNT_OF(counts), .numbers = numbers,
        .nnumbers = COUNT_OF(numbers), .texts = texts, .ntexts = COUNT_OF(texts),
        .choices = choices, .nchoices = COUNT_OF(choices)};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    if ((cli.npaths == 1) == (o.job_dir != NULL))
        return gs_cli_usage("capture", "%s", "name a process (PID) or a job's folder (--job DIR)");
    if (cli.npaths == 1 && !valid_pid(cli.paths[0]))
        return gs_cli_usage("capture", "'%s' is not a process id", cli.paths[0]);
    if ((steps > 0) == (o.duration_s > 0))
        return gs_cli_usage("capture", "%s", "give the window as --steps N or as --duration S");
    o.pid = cli.npaths ? strtol(cli.paths[0], NULL, 10) : 0;
    o.steps = (uint32_t)steps;
    if (kinds_choice < 2)
        o.kinds = kinds_choice == 0 ? GS_OD_KINDS_FULL : GS_OD_KINDS_LIGHT;
    gs_capture_result r;
    gs_error err;
    o.stop = &stop_waiting;
    struct sigaction old_int, old_term;
    sigaction(SIGINT, NULL, &old_int);
    sigaction(SIGTERM, NULL, &old_term);
    catch_stop(on_stop);
    rc = gs_capture_run(&o, &r, &err);
    sigaction(SIGINT, &old_int, NULL); /* the report that may follow stops as any command does */
    sigaction(SIGTERM, &old_term, NULL);
    for (size_t i = 0; i < r.targets.nstale; i++)
        gs_say("removed the control file of process %ld, which has ended", r.targets.stale[i]);
    if (rc != 0) {
        gs_say("%s", err.msg);
        gs_capture_result_free(&r);
        return err.code;
    }
    say_targets(&r);
    for (size_t i = 0; i < r.outs.n && !quiet; i++)
        say_window(&r, &r.outs.v[i]);
    fflush(stdout);
    int status = r.written == r.targets.n ? GS_EXIT_OK : GS_EXIT_ENV;
    if (!r.outs.n)
        gs_say("window %llu: no process wrote a file", (unsigned long long)r.window);
    for (size_t i = 0; i < r.outs.n && report; i++) {
        char *args[] = {"report", r.outs.v[i].path, NULL};
        int report_rc = cmd_report(2, args);
        if (report_rc != GS_EXIT_OK)
            status = report_rc;
    }
    gs_capture_result_free(&r);
    return status;
}
