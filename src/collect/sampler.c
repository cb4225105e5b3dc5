/* The launcher's sampler: NVML + /proc into COUNTER records of a .gst file. */
#include "collect/sampler.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/gst_writer.h"
#include "probe/proc.h"

#define WRITER_BUFFER (64u << 10)
#define NS_PER_S 1000000000LL
/* PCIe throughput blocks ~20 ms per direction and device: read it at most this often. */
#define PCIE_PERIOD_NS NS_PER_S

/* Fixed string ids: NVML metrics are 1 + their enum value, then the host counters; ids from
 * FIRST_DYNAMIC_ID on are given out as names appear (devices, per-process counters). */
enum {
    ID_HOST_CPU = GS_NVML_NMETRICS + 1,
    ID_HOST_RSS,
    ID_HOST_PROCS,
    FIRST_DYNAMIC_ID
};

typedef struct pid_name {
    uint32_t pid;
    gst_strid id; /* of "gpu_proc_mem_bytes:<pid>" */
} pid_name;

struct gs_sampler {
    gs_sampler_opts o;
    gst_writer w;
    uint8_t *buf;
    gst_strid next_id;
    pid_name *pids; /* per-process counter names defined so far */
    size_t npids, pids_cap;

    gs_proc_tree trees[2]; /* the previous and the current read of the tree */
    int prev;              /* index of the previous one in trees */
    bool have_prev;
    int64_t prev_ns;
    long ticks_per_s;

    gs_nvml_sample nv;
    int64_t last_pcie_ns; /* 0: never */
    uint64_t samples;

    pthread_t thread;
    bool running, stopping, finished; /* finished: the thread is about to return */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int thread_rc;
    gs_error thread_err;
    /* The writer and what a tick counts are used under wmu, which a tick lets go only while
     * NVML is called: so a stop that gives up on a thread stuck in NVML still writes the note
     * and the last samples, and once it has set `abandoned` the thread writes nothing more. */
    pthread_mutex_t wmu;
    bool abandoned;
    int64_t busy_since; /* CLOCK_MONOTONIC ns when the tick in progress began; 0 between (mu) */
};

/* What a tick returns when the sampler was abandoned while it was inside NVML. */
#define TICK_ABANDONED 1

static int write_failed(gs_error *err, int rc)
{
    return gs_fail(err, GS_EXIT_ENV, "cannot write the sampler's trace: %s", strerror(-rc));
}

static int flush(gs_sampler *s, gs_error *err)
{
    int rc = gst_writer_flush(&s->w);
    return rc ? write_failed(err, rc) : 0;
}

static int define(gs_sampler *s, gst_strid id, const char *text, gs_error *err)
{
    int rc = gst_writer_string(&s->w, id, 0, text, strlen(text));
    return rc ? write_failed(err, rc) : 0;
}

static int write_counter(gs_sampler *s, int64_t ts, gst_strid name, int32_t device, double value,
                         gs_error *err)
{
    gst_counter c = {ts, value, device, name};
    int rc = gst_writer_add(&s->w, GST_REC_COUNTER, &c);
    return rc ? write_failed(err, rc) : 0;
}

/* The string id of "gpu_proc_mem_bytes:<pid>", defined in the file on first use. */
static int intern_pid_name(gs_sampler *s, uint32_t pid, gst_strid *id, gs_error *err)
{
    for (size_t i = 0; i < s->npids; i++)
        if (s->pids[i].pid == pid) {
            *id = s->pids[i].id;
            return 0;
        }
    if (s->npids == s->pids_cap) {
        size_t cap = s->pids_cap ? 2 * s->pids_cap : 16;
        pid_name *v = realloc(s->pids, cap * sizeof *v);
        if (!v)
            return gs_fail_oom(err);
        s->pids = v;
        s->pids_cap = cap;
    }
    char text[48];
    snprintf(text, sizeof text, "gpu_proc_mem_bytes:%u", pid);
    *id = s->next_id++;
    s->pids[s->npids++] = (pid_name){pid, *id};
    return define(s, *id, text, err);
}

static int write_devices(gs_sampler *s, gs_error *err)
{
    for (unsigned i = 0; i < gs_nvml_device_count(s->o.nvml); i++) {
        const gs_nvml_device *d = gs_nvml_device_at(s->o.nvml, i);
        gst_strid name = s->next_id++, uuid = s->next_id++;
        gst_device rec = {(int32_t)d->index, 0, d->total_memory, d->cc_major > 0 ? d->cc_major : 0,
                          d->cc_major > 0 ? d->cc_minor : 0, 0, name, uuid};
        int rc = gst_writer_add(&s->w, GST_REC_DEVICE, &rec);
        if (rc)
            return write_failed(err, rc);
        if (define(s, name, d->name, err) || define(s, uuid, d->uuid, err))
            return -1;
    }
    return 0;
}

int gs_sampler_create(const gs_sampler_opts *o, gs_sampler **out, gs_error *err)
{
    *out = NULL;
    if (!(o->rate_hz > 0 && o->rate_hz <= 1000))
        return gs_fail(err, GS_EXIT_USAGE, "sample rate %g Hz: want more than 0 and at most 1000",
                       o->rate_hz);
    gs_sampler *s = calloc(1, sizeof *s);
    uint8_t *buf = malloc(WRITER_BUFFER);
    if (!s || !buf) {
        free(s);
        free(buf);
        return gs_fail_oom(err);
    }
    s->o = *o;
    s->buf = buf;
    s->next_id = FIRST_DYNAMIC_ID;
    s->ticks_per_s = gs_proc_ticks_per_second();
    pthread_mutex_init(&s->mu, NULL);
    pthread_mutex_init(&s->wmu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    /* Deadlines on the monotonic clock: a jump of the wall clock neither stalls nor rushes. */
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->cv, &ca);
    pthread_condattr_destroy(&ca);

    int rc = gst_writer_open(&s->w, o->fd, buf, WRITER_BUFFER, GST_CLOCK_REALTIME, 0);
    if (rc) {
        write_failed(err, rc);
        goto fail;
    }
    for (int m = 0; m < GS_NVML_NMETRICS; m++)
        if (define(s, (gst_strid)(m + 1), gs_nvml_metric_name((enum gs_nvml_metric)m), err))
            goto fail;
    if (define(s, ID_HOST_CPU, "host_cpu_pct", err) ||
        define(s, ID_HOST_RSS, "host_rss_bytes", err) ||
        define(s, ID_HOST_PROCS, "host_procs", err) || write_devices(s, err) || flush(s, err))
        goto fail;
    *out = s;
    return 0;
fail:
    gs_sampler_destroy(s);
    return -1;
}

/* Reads the tree; writes its counters when `keep`. A tree that cannot be read is skipped: the
 * CPU % then restarts from the next good read. */
static int sample_host(gs_sampler *s, int64_t now, bool keep, gs_error *err)
{
    gs_proc_tree *cur = &s->trees[1 - s->prev], *prev = &s->trees[s->prev];
    gs_error ignored;
    if (gs_proc_read_tree(s->o.proc_root, s->o.root_pid, cur, &ignored) != 0) {
        s->have_prev = false;
        return 0;
    }
    if (keep) {
        if (s->have_prev &&
            write_counter(s, now, ID_HOST_CPU, -1,
                          gs_proc_cpu_pct(prev, cur, now - s->prev_ns, s->ticks_per_s), err))
            return -1;
        if (write_counter(s, now, ID_HOST_RSS, -1, (double)cur->rss_bytes, err) ||
            write_counter(s, now, ID_HOST_PROCS, -1, (double)cur->n, err))
            return -1;
    }
    s->prev = 1 - s->prev;
    s->have_prev = true;
    s->prev_ns = now;
    return 0;
}

static int sample_gpus(gs_sampler *s, int64_t now, gs_error *err)
{
    unsigned flags = GS_NVML_WITH_PROCS;
    if (s->last_pcie_ns == 0 || now - s->last_pcie_ns >= PCIE_PERIOD_NS) {
        flags |= GS_NVML_WITH_PCIE;
        s->last_pcie_ns = now;
    }
    for (unsigned i = 0; i < gs_nvml_device_count(s->o.nvml); i++) {
        int32_t dev = (int32_t)gs_nvml_device_at(s->o.nvml, i)->index;
        pthread_mutex_unlock(&s->wmu);
        int rc = gs_nvml_sample_device(s->o.nvml, i, flags, &s->nv, err);
        pthread_mutex_lock(&s->wmu);
        if (s->abandoned)
            return TICK_ABANDONED;
        if (rc != 0)
            return -1;
        for (int m = 0; m < GS_NVML_NMETRICS; m++)
            if (s->nv.avail[m] == GS_NVML_OK &&
                write_counter(s, now, (gst_strid)(m + 1), dev, s->nv.value[m], err))
                return -1;
        for (size_t p = 0; p < s->nv.nprocs; p++) {
            const gs_nvml_proc *pr = &s->nv.procs[p];
            gst_strid id = 0;
            if (!pr->known)
                continue;
            if (intern_pid_name(s, pr->pid, &id, err) ||
                write_counter(s, now, id, dev, (double)pr->used_bytes, err))
                return -1;
        }
    }
    return 0;
}

/* gs_sampler_tick under wmu: -1, 0, or TICK_ABANDONED. */
static int tick_locked(gs_sampler *s, int64_t now_ns, gs_error *err)
{
    if (s->abandoned)
        return TICK_ABANDONED;
    bool keep = (!s->o.from_ns || now_ns >= s->o.from_ns) &&
                (!s->o.until_ns || now_ns <= s->o.until_ns);
    if (s->o.proc_root && sample_host(s, now_ns, keep, err) != 0)
        return -1;
    if (!keep)
        return 0;
    s->samples++;
    int rc = s->o.nvml ? sample_gpus(s, now_ns, err) : 0;
    return rc != 0 ? rc : flush(s, err);
}

int gs_sampler_tick(gs_sampler *s, int64_t now_ns, gs_error *err)
{
    pthread_mutex_lock(&s->wmu);
    int rc = tick_locked(s, now_ns, err);
    pthread_mutex_unlock(&s->wmu);
    return rc == TICK_ABANDONED ? 0 : rc;
}

static int64_t clock_ns(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

static void *run(void *arg)
{
    gs_sampler *s = arg;
    int64_t interval = (int64_t)(NS_PER_S / s->o.rate_hz);
    if (interval < 1)
        interval = 1;
    int64_t next = clock_ns(CLOCK_MONOTONIC);
    pthread_mutex_lock(&s->mu);
    while (!s->stopping) {
        s->busy_since = clock_ns(CLOCK_MONOTONIC);
        pthread_mutex_unlock(&s->mu);
        int64_t now = clock_ns(CLOCK_REALTIME);
        pthread_mutex_lock(&s->wmu);
        int rc = tick_locked(s, now, &s->thread_err);
        pthread_mutex_unlock(&s->wmu);
        pthread_mutex_lock(&s->mu);
        s->busy_since = 0;
        if (rc == TICK_ABANDONED)
            break;
        if (rc != 0) {
            s->thread_rc = -1;
            break;
        }
        if (s->o.until_ns && now > s->o.until_ns)
            break;
        /* A tick that overran its slot skips the missed ones rather than bursting. */
        int64_t mono = clock_ns(CLOCK_MONOTONIC);
        next += interval;
        if (next <= mono)
            next = mono + interval - (mono - next) % interval;
        struct timespec deadline = {(time_t)(next / NS_PER_S), (long)(next % NS_PER_S)};
        /* A timed wait rather than clock_nanosleep: same absolute deadline, but stop wakes it. */
        while (!s->stopping && pthread_cond_timedwait(&s->cv, &s->mu, &deadline) != ETIMEDOUT)
            ;
    }
    s->finished = true;
    pthread_cond_broadcast(&s->cv);
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

int gs_sampler_start(gs_sampler *s, gs_error *err)
{
    if (s->running)
        return gs_fail(err, GS_EXIT_USAGE, "the sampler is already running");
    s->stopping = s->finished = false;
    s->thread_rc = 0;
    int rc = pthread_create(&s->thread, NULL, run, s);
    if (rc)
        return gs_fail(err, GS_EXIT_ENV, "cannot start the sampler thread: %s", strerror(rc));
    s->running = true;
    return 0;
}

/* Waits until the thread has finished, at most `wait_ns` from the start of the tick in progress
 * (a thread already inside NVML for longer is not waited for again); true when finished. */
static bool wait_finished(gs_sampler *s, int64_t wait_ns)
{
    pthread_mutex_lock(&s->mu);
    int64_t deadline = (s->busy_since ? s->busy_since : clock_ns(CLOCK_MONOTONIC)) + wait_ns;
    struct timespec ts = {(time_t)(deadline / NS_PER_S), (long)(deadline % NS_PER_S)};
    s->stopping = true;
    pthread_cond_broadcast(&s->cv);
    while (!s->finished && pthread_cond_timedwait(&s->cv, &s->mu, &ts) != ETIMEDOUT)
        ;
    bool finished = s->finished;
    pthread_mutex_unlock(&s->mu);
    return finished;
}

/* The thread is stuck in NVML: the samples so far and a note go to the file, then the thread is
 * left to itself. It holds wmu only outside NVML, so taking it waits at most for a write. */
static int abandon(gs_sampler *s, int64_t wait_ns, gs_error *err)
{
    pthread_mutex_lock(&s->wmu);
    char text[256];
    snprintf(text, sizeof text,
             "the GPU sampler was abandoned: an NVML call had not returned for more than "
             "%.1f s (a GPU or its driver is hung); the samples taken before it are kept",
             (double)wait_ns / NS_PER_S);
    gst_strid id = s->next_id++;
    gst_note note = {clock_ns(CLOCK_REALTIME), 0, 0, GST_NOTE_SAMPLER, id};
    int rc = gst_writer_add(&s->w, GST_REC_NOTE, &note);
    if (rc == 0)
        rc = gst_writer_string(&s->w, id, 0, text, strlen(text));
    if (rc == 0)
        rc = gst_writer_flush(&s->w);
    s->abandoned = true;
    pthread_mutex_unlock(&s->wmu);
    pthread_detach(s->thread);
    s->running = false;
    if (rc)
        write_failed(err, rc); /* the note is lost; the thread is left all the same */
    return GS_SAMPLER_ABANDONED;
}

int gs_sampler_stop(gs_sampler *s, int64_t wait_ns, gs_error *err)
{
    int rc = 0;
    if (s->running) {
        if (!wait_finished(s, wait_ns))
            return abandon(s, wait_ns, err);
        pthread_join(s->thread, NULL);
        s->running = false;
        if (s->thread_rc) {
            if (err)
                *err = s->thread_err;
            rc = -1;
        }
    }
    /* After a failed tick the writer holds the same error: keep the tick's message. */
    if (rc == 0)
        rc = flush(s, err);
    return rc;
}

uint64_t gs_sampler_samples(gs_sampler *s)
{
    pthread_mutex_lock(&s->wmu);
    uint64_t n = s->samples;
    pthread_mutex_unlock(&s->wmu);
    return n;
}

void gs_sampler_destroy(gs_sampler *s)
{
    /* An abandoned thread may still come back from NVML and read its sampler: it is never freed. */
    if (!s || s->abandoned)
        return;
    if (s->running && gs_sampler_stop(s, GS_SAMPLER_STOP_WAIT_NS, NULL) == GS_SAMPLER_ABANDONED)
        return;
    gs_proc_tree_free(&s->trees[0]);
    gs_proc_tree_free(&s->trees[1]);
    gs_nvml_sample_free(&s->nv);
    pthread_cond_destroy(&s->cv);
    pthread_mutex_destroy(&s->mu);
    pthread_mutex_destroy(&s->wmu);
    free(s->pids);
    free(s->buf);
    free(s);
}
