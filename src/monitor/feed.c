/* The latest snapshot under a lock, with the exporter's health counters. */
#include "monitor/feed.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "monitor/jsonl.h"
#include "monitor/prometheus.h"

#define NS_PER_S 1000000000LL

struct gs_feed {
    gs_feed_opts o;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    gs_snapshot latest;
    uint64_t seq; /* snapshots published; 0: none yet */
    uint64_t nvml_errors, scrapes;
    bool closed;
};

int64_t gs_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

int64_t gs_wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int gs_feed_create(const gs_feed_opts *o, gs_feed **out, gs_error *err)
{
    gs_feed *f = calloc(1, sizeof *f);
    if (!f)
        return gs_fail_oom(err);
    f->o = *o;
    pthread_mutex_init(&f->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    /* Deadlines on the monotonic clock: a jump of the wall clock neither stalls nor rushes. */
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&f->cv, &ca);
    pthread_condattr_destroy(&ca);
    *out = f;
    return 0;
}

void gs_feed_destroy(gs_feed *f)
{
    if (!f)
        return;
    gs_snapshot_free(&f->latest);
    pthread_cond_destroy(&f->cv);
    pthread_mutex_destroy(&f->mu);
    free(f);
}

int gs_feed_publish(gs_feed *f, gs_snapshot *s, uint64_t nvml_errors, gs_error *err)
{
    /* The log is written by the producer, outside the lock: a slow disk delays no reader. */
    int rc = f->o.log_fd >= 0 ? gs_jsonl_append(f->o.log_fd, s, err) : 0;
    pthread_mutex_lock(&f->mu);
    gs_snapshot tmp = f->latest;
    f->latest = *s;
    *s = tmp;
    f->seq++;
    f->nvml_errors = nvml_errors;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
    return rc;
}

void gs_feed_close(gs_feed *f)
{
    pthread_mutex_lock(&f->mu);
    f->closed = true;
    pthread_cond_broadcast(&f->cv);
    pthread_mutex_unlock(&f->mu);
}

int gs_feed_wait(gs_feed *f, uint64_t *seq, int64_t deadline_mono_ns, gs_snapshot *out)
{
    struct timespec deadline = {(time_t)(deadline_mono_ns / NS_PER_S),
                                (long)(deadline_mono_ns % NS_PER_S)};
    int rc = GS_FEED_TIMEOUT;
    pthread_mutex_lock(&f->mu);
    while (f->seq == *seq && !f->closed &&
           pthread_cond_timedwait(&f->cv, &f->mu, &deadline) != ETIMEDOUT)
        ;
    if (f->seq != *seq) {
        rc = gs_snapshot_copy(out, &f->latest) == 0 ? GS_FEED_NEW : -1;
        *seq = f->seq;
    } else if (f->closed) {
        rc = GS_FEED_CLOSED;
    }
    pthread_mutex_unlock(&f->mu);
    return rc;
}

char *gs_feed_metrics(gs_feed *f, size_t *len)
{
    char *text = NULL;
    FILE *out = open_memstream(&text, len);
    if (!out)
        return NULL;
    pthread_mutex_lock(&f->mu);
    f->scrapes++;
    gs_prom_health h = {f->seq > 0, f->scrapes, f->seq, f->nvml_errors, 0};
    if (h.up) {
        int64_t now = f->o.replay_clock ? f->latest.ts_ms : gs_wall_ms();
        h.sample_age_s = now > f->latest.ts_ms ? (double)(now - f->latest.ts_ms) / 1000.0 : 0;
    }
    gs_prom_write(out, h.up ? &f->latest : NULL, &h);
    pthread_mutex_unlock(&f->mu);
    if (fclose(out) != 0) {
        free(text);
        return NULL;
    }
    return text;
}
