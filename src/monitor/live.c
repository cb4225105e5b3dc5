/* Sampling NVML and /proc into snapshots on a thread. */
#include "monitor/live.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "monitor/agents.h"
#include "probe/proc.h"

#define NS_PER_S 1000000000LL

/* Last PCIe reading of one GPU, shown until the next one. */
typedef struct pcie_reading {
    double value[2];
    uint8_t avail[2];
} pcie_reading;

struct gs_live {
    gs_live_opts o;
    gs_host_probe host;
    gs_nvml_sample nv;
    pcie_reading *pcie; /* per device */
    int64_t last_pcie_ms;
    bool pcie_read;
    uint64_t nvml_errors;

    gs_feed *feed;
    gs_snapshot work; /* sampled into, then swapped with the feed's */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    /* finished: the thread is about to return; abandoned: the stop gave up on it while it was in
     * NVML, so it must not touch the feed (whose owner goes on to free it) when it comes back. */
    bool running, stopping, finished, abandoned;
    int64_t busy_since; /* CLOCK_MONOTONIC ns when the sample in progress began; 0 between */
    int thread_rc;
    gs_error thread_err;
};

int gs_live_create(const gs_live_opts *o, gs_live **out, gs_error *err)
{
    *out = NULL;
    if (o->interval_ns <= 0)
        return gs_fail(err, GS_EXIT_USAGE, "the interval must be more than 0");
    gs_live *l = calloc(1, sizeof *l);
    unsigned ndev = gs_nvml_device_count(o->nvml);
    pcie_reading *pcie = calloc(ndev ? ndev : 1, sizeof *pcie);
    if (!l || !pcie) {
        free(l);
        free(pcie);
        return gs_fail_oom(err);
    }
    l->o = *o;
    l->pcie = pcie;
    l->host.proc_root = o->proc_root;
    pthread_mutex_init(&l->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&l->cv, &ca);
    pthread_condattr_destroy(&ca);
    *out = l;
    return 0;
}

void gs_live_destroy(gs_live *l)
{
    /* An abandoned thread may still come back from NVML and read its state: never freed. */
    if (!l || l->abandoned)
        return;
    if (l->running && gs_live_stop(l, GS_LIVE_STOP_WAIT_NS, NULL) == GS_LIVE_ABANDONED)
        return;
    gs_nvml_sample_free(&l->nv);
    gs_snapshot_free(&l->work);
    pthread_cond_destroy(&l->cv);
    pthread_mutex_destroy(&l->mu);
    free(l->pcie);
    free(l);
}

uint64_t gs_live_nvml_errors(const gs_live *l)
{
    return l->nvml_errors;
}

static void count_errors(gs_live *l, const gs_nvml_sample *s)
{
    for (int m = 0; m < GS_NVML_NMETRICS; m++)
        l->nvml_errors += s->avail[m] == GS_NVML_FAILED;
    l->nvml_errors += s->procs_avail == GS_NVML_FAILED;
}

/* Fresh PCIe values when this sample read them; the last reading otherwise. */
static void carry_pcie(gs_live *l, unsigned dev, bool fresh, gs_mon_gpu *g)
{
    static const enum gs_nvml_metric pcie[2] = {GS_NVML_PCIE_TX, GS_NVML_PCIE_RX};
    pcie_reading *r = &l->pcie[dev];
    for (int k = 0; k < 2; k++) {
        if (fresh) {
            r->value[k] = g->value[pcie[k]];
            r->avail[k] = g->avail[pcie[k]];
        }
        g->value[pcie[k]] = r->value[k];
        g->avail[pcie[k]] = r->avail[k];
    }
}

static int sample_gpu(gs_live *l, unsigned dev, unsigned flags, gs_snapshot *out, gs_error *err)
{
    const gs_nvml_device *d = gs_nvml_device_at(l->o.nvml, dev);
    if (gs_nvml_sample_device(l->o.nvml, dev, flags, &l->nv, err) != 0)
        return -1;
    count_errors(l, &l->nv);
    gs_mon_gpu *g = gs_snapshot_add_gpu(out);
    if (!g)
        return gs_fail_oom(err);
    g->index = d->index;
    gs_mon_strlcpy(g->name, sizeof g->name, d->name, strlen(d->name));
    gs_mon_strlcpy(g->uuid, sizeof g->uuid, d->uuid, strlen(d->uuid));
    gs_mon_strlcpy(g->pci_bus_id, sizeof g->pci_bus_id, d->pci_bus_id, strlen(d->pci_bus_id));
    memcpy(g->value, l->nv.value, sizeof g->value);
    memcpy(g->avail, l->nv.avail, sizeof g->avail);
    carry_pcie(l, dev, flags & GS_NVML_WITH_PCIE, g);
    g->procs_avail = l->nv.procs_avail;
    for (size_t p = 0; p < l->nv.nprocs; p++) {
        gs_mon_proc *q = gs_mon_gpu_add_proc(g);
        if (!q)
            return gs_fail_oom(err);
        q->pid = l->nv.procs[p].pid;
        q->known = l->nv.procs[p].known;
        q->used_bytes = l->nv.procs[p].used_bytes;
        gs_host_proc_name(l->o.proc_root, q->pid, q->name, sizeof q->name);
    }
    gs_mon_gpu_sort_procs(g);
    return 0;
}

int gs_live_sample(gs_live *l, int64_t now_ms, gs_snapshot *out, gs_error *err)
{
    gs_snapshot_clear(out);
    out->ts_ms = now_ms;
    gs_mon_strlcpy(out->hostname, sizeof out->hostname, l->o.hostname, strlen(l->o.hostname));
    gs_host_read(&l->host, &out->host);
    if (l->o.agents)
        gs_mon_agents_read(l->o.agents, &out->steps);
    unsigned flags = GS_NVML_WITH_PROCS;
    if (!l->pcie_read || now_ms - l->last_pcie_ms >= GS_LIVE_PCIE_PERIOD_NS / 1000000) {
        flags |= GS_NVML_WITH_PCIE;
        l->pcie_read = true;
        l->last_pcie_ms = now_ms;
    }
    for (unsigned i = 0; i < gs_nvml_device_count(l->o.nvml); i++)
        if (sample_gpu(l, i, flags, out, err) != 0)
            return -1;
    return 0;
}

static void *run(void *arg)
{
    gs_live *l = arg;
    int64_t interval = l->o.interval_ns, next = gs_mono_ns();
    uint64_t done = 0;
    pthread_mutex_lock(&l->mu);
    while (!l->stopping) {
        l->busy_since = gs_mono_ns();
        pthread_mutex_unlock(&l->mu);
        int rc = gs_live_sample(l, gs_wall_ms(), &l->work, &l->thread_err);
        pthread_mutex_lock(&l->mu);
        l->busy_since = 0;
        if (l->abandoned)
            break;
        /* Published under mu, so that a stop that abandons the thread waits for it to finish. */
        if (rc == 0)
            rc = gs_feed_publish(l->feed, &l->work, l->nvml_errors, &l->thread_err);
        if (rc != 0) {
            l->thread_rc = -1;
            break;
        }
        if (l->o.count && ++done >= l->o.count)
            break;
        /* A sample that overran its slot skips the missed ones rather than bursting. */
        int64_t mono = gs_mono_ns();
        next += interval;
        if (next <= mono)
            next = mono + interval - (mono - next) % interval;
        struct timespec deadline = {(time_t)(next / NS_PER_S), (long)(next % NS_PER_S)};
        while (!l->stopping && pthread_cond_timedwait(&l->cv, &l->mu, &deadline) != ETIMEDOUT)
            ;
    }
    if (!l->abandoned)
        gs_feed_close(l->feed);
    l->finished = true;
    pthread_cond_broadcast(&l->cv);
    pthread_mutex_unlock(&l->mu);
    return NULL;
}

int gs_live_start(gs_live *l, gs_feed *feed, gs_error *err)
{
    if (l->running)
        return gs_fail(err, GS_EXIT_USAGE, "the monitor is already sampling");
    l->feed = feed;
    l->stopping = l->finished = false;
    l->thread_rc = 0;
    int rc = pthread_create(&l->thread, NULL, run, l);
    if (rc)
        return gs_fail(err, GS_EXIT_ENV, "cannot start the sampling thread: %s", strerror(rc));
    l->running = true;
    return 0;
}

int gs_live_stop(gs_live *l, int64_t wait_ns, gs_error *err)
{
    if (!l->running)
        return 0;
    pthread_mutex_lock(&l->mu);
    /* The wait counts from the start of the sample in progress: a thread already inside NVML
     * for longer than that is not waited for again. */
    int64_t end = (l->busy_since ? l->busy_since : gs_mono_ns()) + wait_ns;
    struct timespec deadline = {(time_t)(end / NS_PER_S), (long)(end % NS_PER_S)};
    l->stopping = true;
    pthread_cond_broadcast(&l->cv);
    while (!l->finished && pthread_cond_timedwait(&l->cv, &l->mu, &deadline) != ETIMEDOUT)
        ;
    /* Still inside an NVML call that may never return: left behind, so that a signal ends the
     * monitor now rather than when (if) the driver answers. */
    l->abandoned = !l->finished;
    pthread_mutex_unlock(&l->mu);
    if (l->abandoned) {
        pthread_detach(l->thread);
        l->running = false;
        gs_fail(err, GS_EXIT_ENV,
                "NVML did not answer: the sampling thread was inside an NVML call for more "
                "than %.1f s (a GPU or its driver is hung) and was left behind",
                (double)wait_ns / NS_PER_S);
        return GS_LIVE_ABANDONED;
    }
    pthread_join(l->thread, NULL);
    l->running = false;
    if (l->thread_rc) {
        if (err)
            *err = l->thread_err;
        return -1;
    }
    return 0;
}
