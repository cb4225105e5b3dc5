/* Temporal breakdown per rank (doc/design.md §14; HTA's get_temporal_breakdown in
 * hta/analyzers/breakdown_analysis.py). Over a trace's GPU activity — kernels, copies, sets and,
 * as HTA does, the GPU-side sync records that carry a stream — :
 *
 *   window      = first GPU start -> last GPU end
 *   idle        = window - |union of all activity|
 *   compute     = |union of compute kernels|
 *   non_compute = |union of all| - compute  (communication and memory time not under compute)
 *
 * Percentages are of the window. gpuscope uses the whole trace; hta_compat reproduces HTA's
 * defaults (last ProfilerStep and unlaunched GPU work dropped; see gs_activity_opts). */
#ifndef GS_ANALYSIS_TEMPORAL_H
#define GS_ANALYSIS_TEMPORAL_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "model/trace.h"

typedef struct gs_temporal_row {
    int32_t rank;
    char *path;                  /* the trace's file (owned) */
    size_t activities;           /* GPU intervals counted */
    gs_ns window_start, window_end; /* 0, 0 when the trace has no GPU activity */
    gs_ns window;                /* window_end - window_start */
    gs_ns busy;                  /* |union of all activity| */
    gs_ns idle, compute, non_compute;
    gs_ns communication, memory; /* |union| of each class, overlaps with compute included */
    double idle_pct, compute_pct, non_compute_pct; /* of the window; 0 when the window is empty */
} gs_temporal_row;

typedef struct gs_temporal {
    gs_temporal_row *rows; /* one per trace, by rank */
    size_t nrows;
    bool hta_compat;
} gs_temporal;

/* One trace's row, over what its context's window holds. 0, or -1 out of memory. */
int gs_temporal_row_fill(const gs_trace_ctx *c, bool hta_compat, gs_temporal_row *row);
void gs_temporal_row_free(gs_temporal_row *row);

/* Appends c's row; finish puts the rows in rank order. 0, or -1 with err; a failed result is
 * freed. */
int gs_temporal_add(gs_temporal *t, const gs_trace_ctx *c, bool hta_compat, gs_error *err);
void gs_temporal_finish(gs_temporal *t);
int gs_temporal_build(const gs_trace_ctx *c, bool hta_compat, gs_temporal *out, gs_error *err);
void gs_temporal_free(gs_temporal *t);

#endif
