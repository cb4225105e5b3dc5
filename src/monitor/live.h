/* The live source: NVML and the host's /proc sampled on a thread every interval, each sample
 * published to a feed. The thread is what keeps the monitor responsive: a slow or hung NVML
 * call delays only the next sample, while the table and the exporter go on showing the latest
 * complete one. */
#ifndef GS_MONITOR_LIVE_H
#define GS_MONITOR_LIVE_H

#include <stdint.h>

#include "common/error.h"
#include "monitor/feed.h"
#include "monitor/snapshot.h"
#include "probe/nvml.h"

/* PCIe throughput blocks ~20 ms per direction and GPU inside NVML: read it at most this often,
 * and show the last reading in between. */
#define GS_LIVE_PCIE_PERIOD_NS 1000000000LL

typedef struct gs_live_opts {
    gs_nvml *nvml;         /* NULL: host metrics only */
    const char *proc_root; /* "/proc" */
    const char *hostname;
    int64_t interval_ns;   /* > 0 */
    uint64_t count;        /* stop after this many samples; 0 = until stopped */
    const char *agents;    /* a control folder whose agents' steps each sample reads, or NULL */
} gs_live_opts;

typedef struct gs_live gs_live;

int gs_live_create(const gs_live_opts *o, gs_live **out, gs_error *err);
void gs_live_destroy(gs_live *l);

/* One sample, at wall time now_ms (ms since the epoch), into out. -1 only when memory is
 * exhausted: NVML failures are recorded per metric and counted. */
int gs_live_sample(gs_live *l, int64_t now_ms, gs_snapshot *out, gs_error *err);

/* Failed NVML reads so far (metrics and process lists). */
uint64_t gs_live_nvml_errors(const gs_live *l);

/* Starts the thread: samples every interval (a sample that overruns skips the slots it
 * missed), publishes to feed, and closes the feed after `count` samples or on failure. */
int gs_live_start(gs_live *l, gs_feed *feed, gs_error *err);
/* How long a stop waits for the thread to come back from NVML: a sample of every GPU takes well
 * under a second. */
#define GS_LIVE_STOP_WAIT_NS 1000000000LL
/* What gs_live_stop returns when it gave up on the thread. */
#define GS_LIVE_ABANDONED 1

/* Stops and joins the thread; -1 with the thread's error if it failed. A thread still inside an
 * NVML call after `wait_ns` is left behind: GS_LIVE_ABANDONED, with a message in err. It will
 * not touch the feed again, but it may still be in NVML: the caller must not close the gs_nvml,
 * and gs_live_destroy then frees nothing. */
int gs_live_stop(gs_live *l, int64_t wait_ns, gs_error *err);

#endif
