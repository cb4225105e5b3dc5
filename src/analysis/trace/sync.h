/* Sync points (doc/design.md §18): time the host spends blocked in synchronizing calls,
 * per step and in total, and the operators that caused them.
 *
 * A blocking call is a CUDA/HIP API call that makes the host wait for the GPU: stream, device and
 * event synchronize, a synchronous cudaMemcpy, and a cudaMemcpyAsync whose host side is pageable
 * (the driver stages it, so it blocks). cudaStreamWaitEvent only makes a stream wait on the GPU
 * (the host call is cheap): it is counted apart and not in the blocked time.
 *
 * Each call is given to a cause: the outermost operator of its enclosing op chain that is a known
 * synchronizing operator (aten::item over aten::_local_scalar_dense, aten::to over aten::copy_);
 * else the outermost framework operator; else the innermost annotation that is not a step;
 * else "(no operator)" — an explicit torch.cuda.synchronize() has none. Step ranges never count. */
#ifndef GS_ANALYSIS_SYNC_H
#define GS_ANALYSIS_SYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/base/steps.h"
#include "analysis/base/sync_calls.h"
#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "model/strtab.h"
#include "model/trace.h"

/* One cause: an operator and the blocking API call it made. */
typedef struct gs_sync_cause {
    const char *op;     /* e.g. "aten::item"; "(no operator)" */
    const char *api;    /* e.g. "cudaStreamSynchronize" */
    uint8_t kind;       /* enum gs_sync_kind */
    uint64_t calls;
    gs_ns blocked;      /* Σ host duration of the calls (0 for stream-wait-event rows) */
    gs_ns gpu_wait;     /* Σ duration of the GPU-side sync records linked to the calls */
    uint64_t gpu_wait_records; /* calls with such a record (none: the GPU wait is not recorded) */
    gs_ns max;          /* longest call */
    double step_pct;    /* blocked / Σ kept step time × 100 (over all selected traces) */
} gs_sync_cause;

typedef struct gs_sync_step {
    int64_t number;
    gs_ns start, end;
    bool warmup;
    uint64_t calls;     /* blocking calls starting in the step (wait-event excluded) */
    gs_ns blocked;
    double pct;         /* blocked / step duration × 100 */
} gs_sync_step;

typedef struct gs_sync_rank {
    int32_t rank;
    char *path;             /* the trace's file (owned) */
    enum gs_step_source step_source;
    uint64_t calls;         /* blocking calls (wait-event excluded) */
    gs_ns blocked;          /* Σ their host durations */
    gs_ns gpu_wait;         /* Σ linked GPU-side sync records */
    uint64_t wait_event_calls;
    gs_sync_step *steps;
    size_t nsteps;
    /* Over the kept steps (warm-up left out unless --keep-warmup): */
    gs_ns kept_step_time;   /* Σ durations of the kept steps */
    gs_ns kept_blocked;     /* Σ blocked time inside them */
    double blocked_pct;     /* kept_blocked / kept_step_time × 100 */
} gs_sync_rank;

typedef struct gs_sync_summary {
    gs_sync_cause *causes;  /* blocked desc, then calls desc, then op, then api */
    size_t ncauses;
    gs_sync_rank *ranks;    /* by rank */
    size_t nranks;
    gs_ns blocked;          /* Σ over ranks, all steps and outside them */
    gs_ns kept_step_time;   /* Σ over ranks */
    gs_ns kept_blocked;     /* Σ over ranks */
    double blocked_pct;     /* kept_blocked / kept_step_time × 100 */
    gs_strtab names;        /* owns the cause names */
    struct gs_sync_calls *calls; /* the traces' blocking calls, until _finish */
} gs_sync_summary;

/* Over the traces added one at a time (init, add each, finish; build is the three for one
 * trace): every blocking call of a trace per step of its context, the calls inside its context's
 * window in the totals and causes. Each returns 0, or -1 with err; a failed summary is freed. */
int gs_sync_init(gs_sync_summary *s, gs_error *err);
int gs_sync_add(gs_sync_summary *s, const gs_trace_ctx *c, gs_error *err);
int gs_sync_finish(gs_sync_summary *s, gs_error *err);
int gs_sync_build(const gs_trace_ctx *c, gs_sync_summary *out, gs_error *err);
void gs_sync_summary_free(gs_sync_summary *s);

#endif
