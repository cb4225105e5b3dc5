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

#include "analysis/base/select.h"
#include "common/error.h"
#include "model/trace.h"

typedef struct gs_temporal_row {
    int32_t rank;
    const char *path;            /* the trace's file (owned by the trace) */
    size_t activities;           /* GPU intervals counted */
    gs_ns window_start, window_end; /* 0, 0 when the trace has no GPU activity */
    gs_ns window;                /* window_end - window_start */
    gs_ns busy;                  /* |union of all activity| */
    gs_ns idle, compute, non_compute;
    gs_ns communication, memory; /* |union| of each class, overlaps with compute included */
    double idle_pct, compute_pct, non_compute_pct; /* of the window; 0 when the window is empty */
} gs_temporal_row;

typedef struct gs_temporal {
    gs_temporal_row *rows; /* one per selected trace, in profile order */
    size_t nrows;
    bool hta_compat;
} gs_temporal;

int gs_temporal_build(const gs_profile *p, const gs_select *sel, bool hta_compat,
                      gs_temporal *out, gs_error *err);
void gs_temporal_free(gs_temporal *t);

#endif
