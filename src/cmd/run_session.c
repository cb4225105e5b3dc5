#include "cmd/run_session.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cmd/say.h"
#include "collect/child.h"
#include "collect/run_notes.h"
#include "collect/run_outputs.h"
#include "collect/run_sampler.h"
#include "common/error.h"
#include "common/gst_format.h"
#include "common/log.h"
#include "common/ondemand.h"
#include "common/out_pattern.h"
#include "common/run_env.h"
#include "common/util.h"
#include "probe/nvml.h"
#include "probe/nvml_guard.h"
#include "render/units.h"

/* How long the launcher waits for NVML to start before it runs the program without GPU
 * samples: a cold start on a machine without persistence mode takes seconds. */
#define NVML_OPEN_WAIT_NS 5000000000LL

typedef struct session {
    const gs_run_request *rq;
    bool cuda, nvtx, memory, sampler;
    char agent[PATH_MAX];
    char pattern[PATH_MAX]; /* absolute */
    char run_dir[PATH_MAX];
    char control[PATH_MAX]; /* on demand: --job DIR, else the run folder */
    bool have_driver;
    gs_nvml *nvml;
    gs_run_sampler sampling;
} session;

/* An error line: printed even with --quiet. Returns `code`. */
static int fail(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gs_vsay(fmt, ap);
    va_end(ap);
    return code;
}

/* A line of the launcher's own: notes and the summary, not with --quiet. */
static void say(const session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const session *s, const char *fmt, ...)
{
    if (s->rq->quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    gs_vsay(fmt, ap);
    va_end(ap);
}

/* dir/name into out; false when it does not fit (then nothing usable is there). */
static bool join_path(char *out, size_t cap, const char *dir, const char *name)
{
    int n = snprintf(out, cap, "%s/%s", dir, name);
    return n > 0 && (size_t)n < cap;
}

static bool has_part(const char *parts, const char *name)
{
    if (!parts)
        return true;
    size_t n = strlen(name);
    for (const char *p = parts; (p = strstr(p, name)); p += n)
        if ((p == parts || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
            return true;
    return false;
}

/* The agent is installed beside the binary (the build folder, or bin/ next to lib/gpuscope/). */
static int find_agent(session *s)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return fail(GS_EXIT_ENV, "cannot find the agent: /proc/self/exe: %s", strerror(errno));
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    *slash = '\0';
    const char *const places[] = {GS_AGENT_FILE, "../lib/gpuscope/" GS_AGENT_FILE};
    for (size_t i = 0; i < COUNT_OF(places); i++)
        if (join_path(s->agent, sizeof s->agent, exe, places[i]) && access(s->agent, R_OK) == 0) {
            GS_LOG(GS_LOG_INFO, "run: agent %s", s->agent);
            return 0;
        }
    return fail(GS_EXIT_ENV,
                "the agent %s is not beside gpuscope in %s: it is built only where the CUDA "
                "toolkit's CUPTI and NVTX headers are found (set CUDA_HOME)",
                GS_AGENT_FILE, exe);
}

/* The Python hooks' folder is beside the agent (the build folder, lib/gpuscope/, the wheel's
 * _bin/). First on PYTHONPATH, its sitecustomize runs in every Python the program starts, runs
 * the one the environment had, and waits for torch to be imported (doc/run.md). */
static int set_python_hooks_env(const session *s)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", s->agent);
    *strrchr(dir, '/') = '\0';
    char hooks[PATH_MAX], site[PATH_MAX];
    if (!join_path(hooks, sizeof hooks, dir, GS_PYTHON_HOOKS_DIR) ||
        !join_path(site, sizeof site, hooks, "sitecustomize.py") || access(site, R_OK) != 0) {
        say(s, "the Python hooks are not beside the agent (%s): Python programs are traced "
               "without them (no steps or DataLoader ranges unless the program marks them)",
            hooks);
        return 0;
    }
    const char *old = getenv(GS_ENV_PYTHONPATH);
    size_t n = strlen(hooks) + (old ? strlen(old) : 0) + 2;
    char *path = malloc(n);
    if (!path)
        return fail(GS_EXIT_ENV, "out of memory");
    /* An empty entry would add the current folder to sys.path: none is added for an empty one. */
    snprintf(path, n, "%s%s%s", hooks, old && *old ? ":" : "", old && *old ? old : "");
    setenv(GS_ENV_PYTHONPATH, path, 1);
    setenv(GS_ENV_AGENT, s->agent, 1);
    if (s->rq->torch_ops)
        setenv(GS_ENV_TORCH_OPS, "1", 1);
    GS_LOG(GS_LOG_INFO, "run: Python hooks: %s=%s%s", GS_ENV_PYTHONPATH, path,
           s->rq->torch_ops ? ", every operator" : "");
    free(path);
    return 0;
}

static int refuse_foreign_injection(void)
{
    const char *vars[] = {GS_ENV_CUDA_INJECTION, GS_ENV_NVTX_INJECTION};
    for (size_t i = 0; i < 2; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v)
            return fail(GS_EXIT_ENV,
                        "%s is already set (%s): another tool (nsys, ncu, a profiler) injects "
                        "itself; unset it to trace with gpuscope",
                        vars[i], v);
    }
    return 0;
}

/* What would make writing the trace fail once the program has run, said before it starts: the
 * program's run is not lost to a typo. A symbolic link, even a dangling one, is never written
 * through (the merge opens with O_EXCL or O_NOFOLLOW as well). */
static int check_output(const char *path, bool force)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return 0;
    if (S_ISDIR(st.st_mode))
        return fail(GS_EXIT_USAGE, "-o %s is a folder: name the trace file (e.g. %s/gpuscope.gst)",
                    path, path);
    if (S_ISLNK(st.st_mode))
        return fail(GS_EXIT_USAGE, "%s is a symbolic link: no trace is written through one",
                    path);
    if (!S_ISREG(st.st_mode))
        return fail(GS_EXIT_USAGE, "%s exists and is not a regular file", path);
    if (!force)
        return fail(GS_EXIT_USAGE, "%s exists; --force overwrites it", path);
    return 0;
}

static int prepare_output(session *s)
{
    const char *o = s->rq->output;
    char cwd[PATH_MAX];
    if (o[0] != '/' && !getcwd(cwd, sizeof cwd))
        return fail(GS_EXIT_ENV, "cannot read the current folder: %s", strerror(errno));
    int n = o[0] == '/' ? snprintf(s->pattern, sizeof s->pattern, "%s", o)
                        : snprintf(s->pattern, sizeof s->pattern, "%s/%s", cwd, o);
    char probe[PATH_MAX];
    long window = s->rq->on_demand ? 1 : -1;
    if (n <= 0 || (size_t)n >= sizeof s->pattern ||
        gs_expand_output(s->pattern, 1, window, "host", NULL, NULL, probe, sizeof probe) != 0)
        return fail(GS_EXIT_USAGE, "-o '%s': use %%p, %%h, %%q{VAR}%s or %%%% after a %%", o,
                    s->rq->on_demand ? ", %w" : "");
    /* On demand the windows' files are written by `gpuscope capture`, which checks them. */
    int rc = gs_output_is_per_process(s->pattern) || s->rq->on_demand
                 ? 0
                 : check_output(probe, s->rq->force);
    if (rc != 0)
        return rc;
    /* The run folder sits beside the output, so the files are on the disk the user chose. */
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", s->pattern);
    char *slash = strrchr(dir, '/');
    *slash = '\0';
    if (strchr(dir, '%') || !*dir)
        snprintf(dir, sizeof dir, "%s", o[0] == '/' ? "/tmp" : cwd);
    if (!join_path(s->run_dir, sizeof s->run_dir, dir, ".gpuscope-run-XXXXXX") ||
        !mkdtemp(s->run_dir))
        return fail(GS_EXIT_ENV, "cannot make a folder in %s: %s", dir, strerror(errno));
    return 0;
}

/* --job DIR: made private when new; an existing one must be a folder of this user's that no
 * one else can write in, since a request found there is obeyed. */
static int prepare_control(session *s)
{
    const char *dir = s->rq->job_dir;
    if (!dir) {
        snprintf(s->control, sizeof s->control, "%s", s->run_dir);
        return 0;
    }
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return fail(GS_EXIT_ENV, "--job %s: %s", dir, strerror(errno));
    struct stat st;
    if (lstat(dir, &st) != 0)
        return fail(GS_EXIT_ENV, "--job %s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return fail(GS_EXIT_USAGE, "--job %s is not a folder", dir);
    if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
        return fail(GS_EXIT_USAGE,
                    "--job %s must be a folder of yours that no one else can write in (its "
                    "requests are obeyed): chmod go-w it, or name a new one",
                    dir);
    if (!realpath(dir, s->control))
        return fail(GS_EXIT_ENV, "--job %s: %s", dir, strerror(errno));
    return 0;
}

/* After its program ended, how long the launcher waits for the other processes that still have
 * a status in its run folder: stopped by the same signal (Ctrl-C, a batch system's stop), they
 * end a moment after it, and their statuses are stale then. One that goes on running keeps its
 * status (it can still be captured), and the folder stays. A --job folder is shared by other
 * ranks' launchers: there nothing is waited for (the next `capture` removes what is stale). */
#define ENDING_WAIT_NS 1000000000LL
#define ENDING_STEP_NS 50000000L

/* A status of an ended process is still needed only while a capture may be waiting to read it:
 * the process wrote a window (or was cut by its end) and the window's file is still in its
 * folder, which `capture` empties when it merges the files. Any other one (dormant, failed, or a
 * window `capture` took already) can reach no one. */
static bool still_needed(const gs_od_status *st)
{
    struct stat file;
    return st->state == GS_OD_WRITTEN && st->file[0] && lstat(st->file, &file) == 0;
}

/* Removes the statuses of this host's ended processes that no capture needs; returns how many
 * name a process of this host still running. */
static size_t remove_stale_statuses(const char *folder, const char *host)
{
    size_t running = 0;
    DIR *d = opendir(folder);
    for (struct dirent *e; d && (e = readdir(d));) {
        const char *dot = strrchr(e->d_name, '.');
        char path[PATH_MAX], text[GS_OD_TEXT_MAX], err[160];
        gs_od_status st;
        if (!dot || strcmp(dot, GS_OD_AGENT_SUFFIX) != 0 ||
            !join_path(path, sizeof path, folder, e->d_name) ||
            gs_od_read_file(folder, e->d_name, text, sizeof text, NULL) < 0 ||
            gs_od_status_parse(text, strlen(text), &st, err, sizeof err) != 0 ||
            strncmp(st.host, host, sizeof st.host - 1) != 0)
            continue;
        if (!gs_od_process_ended(st.pid))
            running++;
        else if (!still_needed(&st))
            unlink(path);
    }
    if (d)
        closedir(d);
    return running;
}

/* After the program: the control files it left. A status whose process is gone is stale; the
 * request is spent. The run folder goes when nothing else is in it (a capture still writing a
 * window keeps its folder there). */
static void finish_on_demand(const session *s)
{
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    for (int64_t waited = 0; remove_stale_statuses(s->control, host) > 0 && !s->rq->job_dir &&
                             waited < ENDING_WAIT_NS; waited += ENDING_STEP_NS) {
        struct timespec step = {0, ENDING_STEP_NS};
        nanosleep(&step, NULL);
    }
    if (!s->rq->job_dir) {
        char path[PATH_MAX];
        if (join_path(path, sizeof path, s->control, GS_OD_REQUEST_FILE))
            unlink(path);
        rmdir(s->control);
    }
}

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void find_capture_window(const gs_run_request *rq, int64_t *from, int64_t *until)
{
    int64_t t0 = now_ns();
    *from = rq->delay_s > 0 ? t0 + (int64_t)(rq->delay_s * 1e9) : 0;
    *until = rq->duration_s > 0 ? (*from ? *from : t0) + (int64_t)(rq->duration_s * 1e9) : 0;
}

static int set_agent_env(session *s, int64_t from, int64_t until)
{
    const gs_run_request *rq = s->rq;
    char parts[64], capture[1024] = "", num[32];
    snprintf(parts, sizeof parts, "%s%s%s", s->cuda ? "cuda," : "", s->nvtx ? "nvtx," : "",
             s->memory ? "memory," : "");
    if (*parts)
        parts[strlen(parts) - 1] = '\0';
    size_t n = 0;
    /* n counts what would have been written, so an overflow is seen below. */
#define ADD(...)                                                                               \
    n += (size_t)snprintf(capture + n, n < sizeof capture ? sizeof capture - n : 0, __VA_ARGS__)
    if (from)
        ADD("from=%lld;", (long long)from);
    if (until)
        ADD("until=%lld;", (long long)until);
    if (rq->capture_range)
        ADD("range=%s;", rq->capture_range);
    if (rq->on_demand)
        ADD("range=on-demand;");
    if (rq->steps)
        ADD("steps=%s;", rq->steps);
    if (rq->step_name)
        ADD("step=%s;", rq->step_name);
#undef ADD
    if (n >= sizeof capture)
        return fail(GS_EXIT_USAGE, "the capture options are too long (%zu bytes)", n);
    snprintf(num, sizeof num, "%d", rq->flush_ms);
    setenv(GS_ENV_RUN_DIR, s->run_dir, 1);
    setenv(GS_ENV_OUTPUT, s->pattern, 1);
    setenv(GS_ENV_TRACE, parts, 1);
    setenv(GS_ENV_FLUSH_MS, num, 1);
    setenv(GS_ENV_CAPTURE, capture, 1);
    setenv(GS_ENV_KINDS, rq->kinds ? rq->kinds : "full", 1);
    if (rq->on_demand)
        setenv(GS_ENV_CONTROL, s->control, 1);
    if (s->cuda)
        setenv(GS_ENV_CUDA_INJECTION, s->agent, 1);
    if (s->nvtx)
        setenv(GS_ENV_NVTX_INJECTION, s->agent, 1);
    /* The hooks record NVTX ranges: nothing for them to do without that part. */
    if (s->nvtx && rq->python_hooks && set_python_hooks_env(s) != 0)
        return GS_EXIT_ENV;
    GS_LOG(GS_LOG_INFO, "run: to the agent: %s=%s %s=%s %s=%s %s=%s, run folder %s",
           GS_ENV_OUTPUT, s->pattern, GS_ENV_TRACE, parts, GS_ENV_FLUSH_MS, num, GS_ENV_CAPTURE,
           capture, s->run_dir);
    return 0;
}

/* Says once, before the program's own output, what cannot be recorded on this machine. */
static void check_machine(session *s)
{
    void *cuda = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
    s->have_driver = cuda != NULL;
    if (cuda)
        dlclose(cuda);
    GS_LOG(GS_LOG_INFO, "run: libcuda.so.1 %s", s->have_driver ? "found" : "not found");
    if (!s->have_driver && (s->cuda || s->sampler))
        say(s, "no NVIDIA driver (libcuda.so.1 not found): recording %s only",
            s->nvtx ? (s->sampler ? "NVTX ranges and CPU samples" : "NVTX ranges")
                    : "CPU samples");
    if (!s->sampler)
        return;
    gs_error err;
    if (gs_nvml_open_guarded(NULL, NVML_OPEN_WAIT_NS, NULL, &s->nvml, &err) != 0) {
        s->nvml = NULL;
        if (s->have_driver)
            say(s, "%s: GPU samples are off", err.msg);
    }
}

static void start_sampler(session *s, pid_t pid, int64_t from, int64_t until)
{
    gs_error err;
    gs_nvml *nvml = s->nvml;
    s->nvml = NULL; /* the sampler's now */
    if (gs_run_sampler_start(&s->sampling, s->run_dir, nvml, pid, s->rq->sample_rate_hz, from,
                             until, &err) != 0)
        say(s, "the sampler did not start: %s", err.msg);
}

/* A sampler stuck in NVML is abandoned with a note in its file (the summary says it): the
 * program's status and the trace do not wait for a call that may never return. */
static void stop_sampler(session *s)
{
    gs_error err;
    if (gs_run_sampler_stop(&s->sampling, &err) != 0)
        say(s, "sampler: %s", err.msg);
    gs_nvml_close(s->nvml); /* when the sampler never took it */
    s->nvml = NULL;
}

/* The collector's notes in words a PyTorch user reads (run_notes.h): what CUDA tracing cost
 * the program, then what was lost or failed and what to do. */
static void say_notes(const session *s, const gs_run_output *o, int64_t run_ns)
{
    gs_run_notes notes;
    gs_error err;
    if (gs_run_notes_make(&o->stats, run_ns, &notes, &err) != 0) {
        say(s, "%s", err.msg);
        return;
    }
    for (size_t k = 0; k < notes.n; k++)
        say(s, "%s", notes.lines[k]);
    gs_run_notes_free(&notes);
}

static void summarise(const session *s, const gs_run_outputs *outs, int64_t run_ns)
{
    if (s->rq->cupti_yield)
        say(s, "--cupti yield: CUDA tracing was left to the program's own profiler "
               "(torch.profiler records its kernels); this trace has NVTX ranges and samples");
    if (outs->n == 0) {
        /* What became of the file at the output's path: the words before and after it. */
        static const struct {
            const char *before, *after;
        } earlier[] = {
            [GS_EARLIER_NONE] = {"", ""},
            [GS_EARLIER_REMOVED] = {"; removed ", ", an earlier run's trace"},
            [GS_EARLIER_NOT_GST] = {"; ", " is not a .gst trace: left as it was"},
            [GS_EARLIER_NOT_FORCED] = {"; ", " is an earlier run's trace (--force removes it)"},
            [GS_EARLIER_NOT_FILE] = {"; ", " is not a regular file: left as it was"},
            [GS_EARLIER_FAILED] = {"; ", ", an earlier run's trace, could not be removed"},
        };
        bool said = outs->earlier != GS_EARLIER_NONE;
        say(s, "nothing recorded: '%s' used neither CUDA nor NVTX%s%s%s%s", s->rq->argv[0],
            s->sampler ? "" : ", and the sampler was off", earlier[outs->earlier].before,
            said ? outs->earlier_path : "", earlier[outs->earlier].after);
        return;
    }
    for (size_t i = 0; i < outs->n; i++) {
        const gs_run_output *o = &outs->v[i];
        say_notes(s, o, run_ns);
        static const struct {
            int type; /* GST_REC_*, or 0 for the sampler's samples */
            const char *one, *many;
        } counts[] = {
            {GST_REC_KERNEL, "kernel", "kernels"},     {GST_REC_MEMCPY, "copy", "copies"},
            {GST_REC_MEMSET, "set", "sets"},           {GST_REC_API, "CUDA call", "CUDA calls"},
            {GST_REC_NVTX_RANGE, "NVTX range", "NVTX ranges"}, {0, "sample", "samples"},
        };
        char line[512], size[32];
        int n = snprintf(line, sizeof line, "%zu process%s", o->nprocesses,
                         o->nprocesses == 1 ? "" : "es");
        for (size_t k = 0; k < COUNT_OF(counts) && n > 0 &&
                           (size_t)n < sizeof line; k++) {
            unsigned long long v = counts[k].type ? o->stats.records[counts[k].type] : s->sampling.samples;
            n += snprintf(line + n, sizeof line - (size_t)n, ", %llu %s", v,
                          v == 1 ? counts[k].one : counts[k].many);
        }
        gs_fmt_bytes(size, sizeof size, (int64_t)o->stats.bytes_written);
        say(s, "%s: %s (%s)", o->path, line, size);
    }
}

/* Launched with stdin, stdout or stderr closed (cron, daemons, `>&-`), the launcher's own files
 * (the sampler's, the merged trace) would take those numbers, and its messages land in them.
 * /dev/null holds each closed one, close-on-exec: the program still starts with it closed. */
static void hold_closed_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        int got = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (got >= 0 && got != fd)
            close(got); /* a lower one was free after all: it is held by now */
    }
}

int gs_run_session(const gs_run_request *rq)
{
    hold_closed_std_fds();
    session s = {.rq = rq, .sampling = {.fd = -1}};
    /* Yielding, the agent is not given to CUDA at all: CUPTI stays free for the program. */
    s.cuda = has_part(rq->parts, "cuda") && !rq->cupti_yield;
    s.nvtx = has_part(rq->parts, "nvtx");
    s.memory = has_part(rq->parts, "memory") && !rq->cupti_yield;
    /* On demand the launcher samples nothing: a window's samples are `gpuscope capture`'s. */
    s.sampler = has_part(rq->parts, "sampler") && rq->sample_rate_hz > 0 && !rq->on_demand;
    int rc;
    gs_error err;
    if (gs_child_check(rq->argv[0], &err) != 0)
        return fail(err.code, "%s", err.msg);
    if ((rc = refuse_foreign_injection()) || (rc = find_agent(&s)) || (rc = prepare_output(&s)))
        return rc;
    if (rq->on_demand && (rc = prepare_control(&s)) != 0) {
        rmdir(s.run_dir);
        return rc;
    }
    int64_t from, until;
    find_capture_window(rq, &from, &until);
    if ((rc = set_agent_env(&s, from, until)) != 0) {
        rmdir(s.run_dir);
        return rc;
    }
    check_machine(&s);
    /* Before the program starts: from then on its output is its own until it ends. */
    GS_LOG(GS_LOG_INFO, "run: starting %s; sampler %s", rq->argv[0],
           s.sampler ? (s.nvml ? "on, GPUs through NVML and the CPU" : "on, the CPU only") : "off");
    fflush(stderr);
    pid_t pid;
    if (gs_child_start(rq->argv, &pid, &err) != 0) {
        gs_nvml_close(s.nvml);
        rmdir(s.run_dir);
        return fail(err.code, "%s", err.msg);
    }
    gs_child_forward_signals(pid);
    int64_t started = now_ns();
    if (s.sampler)
        start_sampler(&s, pid, from, until);
    int status = gs_child_wait(pid);
    int64_t run_ns = now_ns() - started;
    stop_sampler(&s);
    GS_LOG(GS_LOG_INFO, "run: %s (process %ld) ended with status %d; %llu sample(s) taken",
           rq->argv[0], (long)pid, status, (unsigned long long)s.sampling.samples);
    if (rq->on_demand) { /* the windows were written by `gpuscope capture` */
        finish_on_demand(&s);
        rmdir(s.run_dir);
        return status;
    }
    gs_run_outputs outs;
    if (gs_run_outputs_write(s.run_dir, s.pattern, (long)pid, rq->force, &outs, &err) != 0) {
        fail(err.code, "%s", err.msg);
        gs_run_outputs_free(&outs);
        return status ? status : (int)err.code;
    }
    summarise(&s, &outs, run_ns);
    gs_run_outputs_free(&outs);
    return status;
}
