/* What the host was doing during a stretch of time (an idle GPU gap): on the threads of one
 * process, the deepest operator or annotation where the time went, the CUDA API call and the
 * synchronizing call that overlapped it most, and the time under DataLoader ranges — the answer
 * users want when the GPU waits (doc/design.md §15).
 *
 * An index over the trace's host events is built once (sorted by thread and start); each query
 * is then a binary search per thread plus the events that overlap the window, never a scan. */
#ifndef GS_ANALYSIS_HOST_DURING_H
#define GS_ANALYSIS_HOST_DURING_H

#include <stdint.h>

#include "analysis/base/intervals.h"
#include "analysis/base/trace_ctx.h"
#include "model/trace.h"

/* Names point into the trace (a result that keeps them owns copies). Durations are time inside
 * the window. */
typedef struct gs_gap_host {
    const char *op;       /* the deepest operator/annotation with the most time in the window */
    gs_ns op_ns;          /* its time in the window not covered by its own children */
    const char *api;      /* the CUDA API call with the most time in the window, NULL */
    gs_ns api_ns;
    const char *sync_api; /* the blocking CUDA call (cudaStreamSynchronize, a pageable
                             cudaMemcpyAsync, ...: sync.c's) with the most time in the window,
                             NULL; whatever the trace's source, the operator that made it is
                             `op`'s to say */
    gs_ns sync_ns;
    gs_ns dataloader_ns;  /* time under `enumerate(DataLoader)#...` ranges (outermost only) */
} gs_gap_host;

typedef struct gs_host_index gs_host_index;

/* 0, or -1 out of memory (*out may then be non-NULL: free it). */
int gs_host_index_build(const gs_trace_ctx *c, gs_host_index **out);
void gs_host_index_free(gs_host_index *ix);

/* Host activity in [start, end) on the threads of process pid (every thread when pid is 0).
 * 0, or -1 out of memory. */
int gs_host_during(const gs_host_index *ix, int64_t pid, gs_ns start, gs_ns end, gs_gap_host *h);

#endif
