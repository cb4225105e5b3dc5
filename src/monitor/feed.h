/* The latest snapshot, shared between the thread that samples (live NVML or a replayed log), the
 * command that prints it and the HTTP exporter that serves it.
 *
 * The producer samples into its own snapshot, outside any lock, then publishes it with a swap
 * under the lock: a slow NVML call delays the next sample, never a reader. Readers copy or
 * render under the lock, which is held for microseconds. */
#ifndef GS_MONITOR_FEED_H
#define GS_MONITOR_FEED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "monitor/snapshot.h"

typedef struct gs_feed gs_feed;

typedef struct gs_feed_opts {
    int log_fd;        /* -1: none; else every published snapshot is appended as JSONL */
    bool replay_clock; /* ages are measured on the log's clock (the latest sample's time) */
} gs_feed_opts;

int gs_feed_create(const gs_feed_opts *o, gs_feed **out, gs_error *err);
void gs_feed_destroy(gs_feed *f);

/* Logs s (when a log is open), then makes it the latest: `s` comes back holding the previous
 * snapshot's memory, to sample into next. nvml_errors is the producer's running count of failed
 * NVML calls. -1 when the log cannot be written (the snapshot is still published). */
int gs_feed_publish(gs_feed *f, gs_snapshot *s, uint64_t nvml_errors, gs_error *err);

/* The producer is done (end of the log, --count reached, or it failed): wakes the waiters. */
void gs_feed_close(gs_feed *f);

enum gs_feed_wait {
    GS_FEED_TIMEOUT = 0, /* nothing newer before the deadline */
    GS_FEED_NEW = 1,     /* a newer snapshot was copied into out */
    GS_FEED_CLOSED = 2,  /* the producer is done and there is nothing newer */
};

/* Waits until a snapshot newer than *seq is published or the deadline (CLOCK_MONOTONIC, ns)
 * passes. On GS_FEED_NEW copies it into out and updates *seq. -1 when memory is exhausted. */
int gs_feed_wait(gs_feed *f, uint64_t *seq, int64_t deadline_mono_ns, gs_snapshot *out);

/* The Prometheus text of the latest snapshot and the exporter's health, counting one scrape;
 * a malloc'd string (the caller frees it) or NULL when memory is exhausted. */
char *gs_feed_metrics(gs_feed *f, size_t *len);

/* CLOCK_MONOTONIC and CLOCK_REALTIME in ns and ms. */
int64_t gs_mono_ns(void);
int64_t gs_wall_ms(void);

#endif
