#include "collect/capture_client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "collect/run_sampler.h"
#include "common/log.h"
#include "common/out_pattern.h"
#include "probe/nvml_guard.h"

/* The agents' period, at which they read requests (GPUSCOPE_FLUSH_MS's default). */
#define POLL_NS 200000000LL
#define WAIT_STEP_NS 50000000L
#define MAX_MARGIN 1000
/* How long past its deadline an agent may take to write its window out. */
#define WRITE_GRACE_NS 5000000000LL
/* The window's samples: `gpuscope run`'s default rate, and how long NVML may take to open. */
#define SAMPLE_RATE_HZ 10
#define NVML_OPEN_WAIT_NS 5000000000LL

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t gs_capture_start_step(const gs_capture_agent *v, size_t n, int64_t now, int64_t poll_ns)
{
    int64_t latest = -1, oldest = now, shortest = 0;
    for (size_t i = 0; i < n; i++) {
        const gs_od_status *st = &v[i].st;
        if (st->step > latest)
            latest = st->step;
        if (st->updated_ns > 0 && st->updated_ns < oldest)
            oldest = st->updated_ns;
        if (st->step_ns > 0 && (shortest == 0 || st->step_ns < shortest))
            shortest = st->step_ns;
    }
    if (latest < 0)
        return -1;
    int64_t margin = 2; /* no step's length known yet */
    if (shortest > 0) {
        int64_t late = now - oldest + 2 * poll_ns;
        margin = 1 + (late + shortest - 1) / shortest;
    }
    return latest + (margin < MAX_MARGIN ? margin : MAX_MARGIN);
}

uint64_t gs_capture_next_id(const gs_capture_targets *t)
{
    uint64_t id = 0;
    char text[GS_OD_TEXT_MAX], why[160];
    gs_od_request last;
    if (gs_od_read_file(t->folder, GS_OD_REQUEST_FILE, text, sizeof text, NULL) >= 0 &&
        gs_od_request_parse(text, strlen(text), &last, why, sizeof why) == 0)
        id = last.id;
    for (size_t i = 0; i < t->n; i++)
        if (t->v[i].st.request > id)
            id = t->v[i].st.request;
    return id + 1; /* 0 past the largest */
}

/* The folder the agents write the window's files into: private, and theirs. */
static int make_window_dir(const char *folder, uint64_t id, char *out, size_t cap, gs_error *err)
{
    if (snprintf(out, cap, "%s/window-%llu-XXXXXX", folder, (unsigned long long)id) >= (int)cap)
        return gs_fail(err, GS_EXIT_USAGE, "%s: the path is too long", folder);
    if (!mkdtemp(out))
        return gs_fail(err, GS_EXIT_ENV, "cannot make a folder in %s: %s", folder,
                       strerror(errno));
    struct stat st;
    /* Root asking for a user's process: the agent runs as that user. */
    if (geteuid() == 0 && stat(folder, &st) == 0 && st.st_uid != 0 &&
        chown(out, st.st_uid, st.st_gid) != 0) {
        int e = errno;
        rmdir(out);
        return gs_fail(err, GS_EXIT_ENV, "cannot give %s to its owner: %s", out, strerror(e));
    }
    return 0;
}

static int absolute_pattern(const char *output, char *out, size_t cap, gs_error *err)
{
    char cwd[PATH_MAX], probe[PATH_MAX];
    if (output[0] != '/' && !getcwd(cwd, sizeof cwd))
        return gs_fail(err, GS_EXIT_ENV, "cannot read the current folder: %s", strerror(errno));
    int n = output[0] == '/' ? snprintf(out, cap, "%s", output)
                             : snprintf(out, cap, "%s/%s", cwd, output);
    if (n <= 0 || (size_t)n >= cap ||
        gs_expand_output(out, 1, 1, "host", NULL, NULL, probe, sizeof probe) != 0)
        return gs_fail(err, GS_EXIT_USAGE,
                       "-o '%s': use %%p, %%h, %%q{VAR}, %%w or %%%% after a %%", output);
    return 0;
}

static int fill_request(const gs_capture_opts *o, gs_capture_result *r, gs_od_request *q,
                        int64_t now, gs_error *err)
{
    const gs_capture_targets *t = &r->targets;
    *q = (gs_od_request){.id = r->window, .steps = o->steps, .start_step = -1, .kinds = o->kinds};
    if (o->job_dir) {
        snprintf(q->targets, sizeof q->targets, "*");
    } else {
        size_t used = 0;
        for (size_t i = 0; i < t->n; i++) {
            int w = snprintf(q->targets + used, sizeof q->targets - used, "%s%s:%ld",
                             i ? "," : "", t->v[i].st.host, t->v[i].st.pid);
            if (w < 0 || (size_t)w >= sizeof q->targets - used)
                return gs_fail(err, GS_EXIT_USAGE, "too many processes to name in one request");
            used += (size_t)w;
        }
    }
    double timeout = o->timeout_s > 0 ? o->timeout_s : o->steps ? 600 : o->duration_s + 30;
    if (o->steps) {
        /* One process starts at its next step; several at one step number they all reach. */
        r->start_step = t->n == 1 && !o->job_dir ? -1
                                                 : gs_capture_start_step(t->v, t->n, now, POLL_NS);
        q->start_step = r->start_step;
    } else {
        r->start_step = -1;
        q->from_ns = now + 2 * POLL_NS; /* every agent has read the request by then */
        q->duration_ns = (int64_t)(o->duration_s * 1e9);
    }
    q->deadline_ns = now + (int64_t)(timeout * 1e9);
    if (o->output && absolute_pattern(o->output, q->output, sizeof q->output, err) != 0)
        return -1;
    return 0;
}

bool gs_capture_wrote(const gs_capture_agent *a, uint64_t id)
{
    return a->st.request == id && a->st.state == GS_OD_WRITTEN;
}

static bool finished(const gs_capture_agent *a, uint64_t id)
{
    return gs_capture_wrote(a, id) || (a->st.request == id && a->st.state == GS_OD_FAILED) ||
           gs_capture_gone(a);
}

/* Until every target wrote its window (or failed, or ended), or the deadline passed (then
 * r->unfinished counts those left), or *o->stop is set. */
static int wait_for(const gs_capture_opts *o, gs_capture_result *r, int64_t deadline,
                    gs_error *err)
{
    gs_capture_targets *t = &r->targets;
    for (;;) {
        size_t left = 0;
        for (size_t i = 0; i < t->n; i++) {
            gs_capture_agent *a = &t->v[i];
            if (finished(a, r->window) || !gs_capture_reread(t->folder, a))
                continue;
            if (finished(a, r->window))
                GS_LOG(GS_LOG_INFO, "capture: process %ld: %s", a->st.pid,
                       gs_capture_gone(a) ? "ended" : gs_od_state_name(a->st.state));
            left += !finished(a, r->window);
        }
        if (left == 0 || now_ns() > deadline + WRITE_GRACE_NS) {
            r->unfinished = left;
            return 0;
        }
        if (o->stop && *o->stop)
            return gs_fail(err, GS_EXIT_ENV,
                           "stopped waiting for window %llu: what the processes write stays in %s",
                           (unsigned long long)r->window, r->dir);
        struct timespec step = {0, WAIT_STEP_NS};
        nanosleep(&step, NULL);
    }
}

/* No process wrote its window: the samples alone are no window. Their file goes, and the folder
 * with it unless a process may still write there. */
static void drop_window(const gs_capture_result *r)
{
    if (r->unfinished)
        return;
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", r->dir, GS_RUN_SAMPLER_FILE) < (int)sizeof path)
        unlink(path);
    rmdir(r->dir);
}

/* The window's GPU and CPU samples, as `gpuscope run` takes them (NVML when it opens in time,
 * the process tree's CPU), merged into every output. A capture of one process only: a job's
 * ranks may run on other hosts. Without samples the window is still written. */
static void sample(gs_run_sampler *rs, const char *dir, long pid, int64_t from, int64_t until)
{
    gs_nvml *nvml = NULL;
    gs_error err;
    if (gs_nvml_open_guarded(NULL, NVML_OPEN_WAIT_NS, NULL, &nvml, &err) != 0)
        nvml = NULL;
    gs_run_sampler_start(rs, dir, nvml, pid, SAMPLE_RATE_HZ, from, until, &err);
}

/* Processes that ended while recording leave their status for us: it is stale now. */
static void remove_ended(const gs_capture_targets *t)
{
    for (size_t i = 0; i < t->n; i++)
        if (gs_capture_gone(&t->v[i])) {
            char path[PATH_MAX];
            if (snprintf(path, sizeof path, "%s/%s", t->folder, t->v[i].name) < (int)sizeof path)
                unlink(path);
        }
}

/* Several processes aligned on a step need every one's step count: a process whose agent has
 * seen no step yet gets up to this long to see one. */
#define FIRST_STEP_WAIT_NS 3000000000LL

static void wait_first_steps(gs_capture_targets *t, const volatile sig_atomic_t *stop)
{
    for (int64_t until = now_ns() + FIRST_STEP_WAIT_NS; now_ns() < until && !(stop && *stop);) {
        bool all = true;
        for (size_t i = 0; i < t->n; i++)
            all &= t->v[i].st.step >= 0 || !gs_capture_reread(t->folder, &t->v[i]) ||
                   t->v[i].st.step >= 0;
        if (all)
            return;
        struct timespec step = {0, WAIT_STEP_NS};
        nanosleep(&step, NULL);
    }
}

int gs_capture_run(const gs_capture_opts *o, gs_capture_result *r, gs_error *err)
{
    *r = (gs_capture_result){.start_step = -1};
    char folder[PATH_MAX];
    const char *proc = o->proc_root ? o->proc_root : "/proc";
    if (o->job_dir ? !realpath(o->job_dir, folder)
                   : gs_capture_folder_of(o->pid, proc, folder, sizeof folder, err) != 0)
        return o->job_dir ? gs_fail(err, GS_EXIT_USAGE, "--job %s: %s", o->job_dir,
                                    strerror(errno))
                          : -1;
    if (gs_capture_check_folder(folder, err) != 0 ||
        gs_capture_find(folder, o->job_dir ? 0 : o->pid, proc, &r->targets, err) != 0)
        return -1;
    for (size_t i = 0; i < r->targets.n; i++) {
        const gs_od_status *st = &r->targets.v[i].st;
        if (st->state == GS_OD_ARMED || st->state == GS_OD_RECORDING)
            return gs_fail(err, GS_EXIT_ENV,
                           "process %ld is recording window %llu already: one window at a time",
                           st->pid, (unsigned long long)st->request);
    }
    r->window = gs_capture_next_id(&r->targets);
    if (r->window == 0) /* an agent takes only a request of a larger id than the last it saw */
        return gs_fail(err, GS_EXIT_INPUT,
                       "%s: the window ids are used up (a request or status holds %llu, the "
                       "largest): start the programs again with a new control folder",
                       folder, (unsigned long long)UINT64_MAX);
    if (o->steps && (o->job_dir || r->targets.n > 1))
        wait_first_steps(&r->targets, o->stop);
    if (o->stop && *o->stop)
        return gs_fail(err, GS_EXIT_ENV, "stopped before window %llu was asked for",
                       (unsigned long long)r->window);
    int64_t now = now_ns();
    gs_od_request q;
    char text[GS_OD_TEXT_MAX];
    if (fill_request(o, r, &q, now, err) != 0 ||
        make_window_dir(folder, r->window, q.dir, sizeof q.dir, err) != 0)
        return -1;
    snprintf(r->dir, sizeof r->dir, "%s", q.dir);
    if (gs_od_request_format(&q, text, sizeof text) != 0 ||
        gs_od_write_file(folder, GS_OD_REQUEST_FILE, text, strlen(text)) != 0) {
        int e = errno;
        rmdir(q.dir);
        return gs_fail(err, GS_EXIT_ENV, "cannot write the request in %s: %s", folder,
                       strerror(e));
    }
    GS_LOG(GS_LOG_INFO, "capture: asked %zu process(es) for window %llu (%u steps from step %lld, "
           "or %.3f s), files into %s", r->targets.n, (unsigned long long)r->window, q.steps,
           (long long)q.start_step, q.duration_ns / 1e9, q.dir);
    gs_run_sampler rs = {.fd = -1};
    if (!o->job_dir) /* a window of time has its bounds; one of steps, from now on */
        sample(&rs, q.dir, o->pid, q.from_ns ? q.from_ns : now,
               q.from_ns ? q.from_ns + q.duration_ns : 0);
    int waited = wait_for(o, r, q.deadline_ns, err);
    gs_error serr;
    gs_run_sampler_stop(&rs, &serr);
    if (waited != 0)
        return -1;
    remove_ended(&r->targets);
    for (size_t i = 0; i < r->targets.n; i++)
        r->written += gs_capture_wrote(&r->targets.v[i], r->window);
    if (r->written == 0) {
        drop_window(r);
        return 0;
    }
    const char *fallback = q.output[0] ? q.output : "gpuscope-capture-%p.gst";
    return gs_run_outputs_write(q.dir, fallback, o->pid, o->force, &r->outs, err);
}

void gs_capture_result_free(gs_capture_result *r)
{
    gs_capture_targets_free(&r->targets);
    gs_run_outputs_free(&r->outs);
}
