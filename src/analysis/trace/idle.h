/* Idle gaps (doc/design.md §15): the time a GPU stream, or a whole GPU, waits between two
 * activities (kernels, copies, sets; GPU-side sync records are not work and are left out, as HTA's
 * idle time breakdown, get_idle_time_breakdown, does).
 *
 * Each gap between consecutive activities is classified:
 *   host-wait   the launch call of the activity after the gap began after the previous activity
 *               ended (api.start > prev_end): the GPU drained and waited for the host;
 *   kernel-wait not host-wait and shorter than GS_TH_KERNEL_WAIT_NS: back-to-back launch latency;
 *   other       the rest (e.g. the next activity waited on an event or another stream).
 *
 * Per stream (HTA's scope) and GPU-wide (per device: gaps in the union of all its streams).
 * The largest GPU-wide gaps worth listing are reported with what the host was doing during them,
 * on the threads of the process that launched the work after the gap. */
#ifndef GS_ANALYSIS_IDLE_H
#define GS_ANALYSIS_IDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/trace/host_during.h"
#include "analysis/base/steps.h"
#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "model/trace.h"

#define GS_IDLE_DEFAULT_GAPS 10

enum gs_gap_class { GS_GAP_HOST_WAIT, GS_GAP_KERNEL_WAIT, GS_GAP_OTHER, GS_GAP__COUNT };

const char *gs_gap_class_name(enum gs_gap_class c); /* "host_wait", "kernel_wait", "other" */

typedef struct gs_gap_totals {
    uint64_t count[GS_GAP__COUNT];
    gs_ns total[GS_GAP__COUNT];
    double share_pct[GS_GAP__COUNT]; /* total / sum of the three totals × 100; 0 when no idle */
    gs_ns idle;                      /* sum of the three totals */
} gs_gap_totals;

/* One stream, or one device GPU-wide (stream == GS_IDLE_ALL_STREAMS). */
#define GS_IDLE_ALL_STREAMS (-1)
typedef struct gs_idle_scope {
    int32_t rank, device, stream;
    size_t activities;
    gs_ns window_start, window_end; /* first start, last end */
    gs_gap_totals gaps;
} gs_idle_scope;

/* A listed GPU-wide gap. */
typedef struct gs_gap {
    int32_t rank, device;
    gs_ns start, end;       /* the gap: [previous activity's end, next activity's start) */
    gs_ns offset;           /* start − the device's first activity start */
    uint8_t cls;            /* enum gs_gap_class */
    const char *before;     /* name of the activity that ended the busy period before */
    const char *after;      /* name of the activity that starts after the gap */
    int32_t after_stream;
    gs_ns launch_start;     /* start of the launch call of `after`, -1 when unknown */
    long step;              /* index into the trace's steps of the step holding start, -1 */
    int64_t step_number;    /* that step's number (gs_step.number), -1 */
    double step_pct;        /* gap length / that step's length × 100, 0 without a step */
    gs_gap_host host;       /* what the launching process's threads did (gs_host_during) */
} gs_gap;

/* Points the gap's names (before, after, what the host did) at their copies in `names`, so the
 * gap outlives its trace. 0, or -1 out of memory. */
int gs_gap_keep_names(gs_gap *g, gs_strtab *names);

/* Idle time per step of one trace (GPU-wide, summed over its devices). */
typedef struct gs_idle_step {
    int32_t rank;
    int64_t number;
    gs_ns start, end;
    bool warmup;
    gs_ns idle[GS_GAP__COUNT];
    gs_ns idle_total;
    double idle_pct; /* idle_total / (end - start) × 100 */
} gs_idle_step;

typedef struct gs_idle_opts {
    size_t max_gaps;       /* how many of the largest gaps to list; 0 lists none */
    bool hta_compat;       /* HTA's activity selection (gs_activity_opts) and, per stream, its
                              gap rule (consecutive pairs, negative gaps summed) */
} gs_idle_opts;

typedef struct gs_idle {
    gs_idle_scope *streams; /* per stream: traces by rank, then device, stream */
    size_t nstreams;
    gs_idle_scope *devices; /* GPU-wide per device: traces by rank, then device */
    size_t ndevices;
    gs_gap *gaps;           /* the largest listed GPU-wide gaps, longest first */
    size_t ngaps;
    size_t gaps_worth_listing; /* how many gaps met the listing threshold before max_gaps */
    gs_idle_step *steps;    /* per trace and step, by rank and step */
    size_t nsteps;
    gs_strtab names;        /* owns the listed gaps' names */
    struct gs_idle_building *building; /* what the traces added, until _finish */
} gs_idle;

/* Over the traces added one at a time (init, add each, finish; build is the three for one
 * trace), each inside its context's window, with its context's steps. Each returns 0, or -1 with
 * err (out of memory); a failed result is freed. */
int gs_idle_init(gs_idle *r, const gs_idle_opts *opts, gs_error *err);
int gs_idle_add(gs_idle *r, const gs_trace_ctx *c, gs_error *err);
int gs_idle_finish(gs_idle *r, gs_error *err);
int gs_idle_build(const gs_trace_ctx *c, const gs_idle_opts *opts, gs_idle *out, gs_error *err);
void gs_idle_free(gs_idle *r);

#endif
