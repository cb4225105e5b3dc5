/* Communication per rank (doc/design.md §16; kernel classes §13): how long each rank
 * communicates, how much of it runs under computation, how much is exposed, and what its
 * collectives move at what bandwidth.
 *
 *   communication = |union of communication kernels|
 *   compute       = |union of compute kernels|
 *   overlap       = |compute ∧ communication|      (HTA's get_comm_comp_overlap)
 *   overlap_pct   = 100 × overlap / communication
 *   exposed       = communication − overlap        (communication no compute hides)
 *
 * The same per step, over each step's span. Per collective kind: count, time (sum of kernel
 * durations), message bytes from the collectives' args, and bandwidth as nccl-tests defines it:
 * algbw = bytes / time, busbw = algbw × a factor of the group size n (all-reduce 2(n−1)/n,
 * all-gather, reduce-scatter and all-to-all (n−1)/n, broadcast, reduce and send/recv 1). */
#ifndef GS_ANALYSIS_COMM_H
#define GS_ANALYSIS_COMM_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/base/collectives.h"
#include "analysis/base/steps.h"
#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "model/trace.h"

/* The collectives of one kind on one rank. */
typedef struct gs_comm_kind {
    int32_t rank;
    gs_coll_kind kind;
    size_t count;
    gs_ns total, mean;     /* sum and mean of kernel durations */
    gs_ns min, max;
    size_t sized;          /* collectives whose message size is known */
    int64_t bytes;         /* their total size */
    gs_ns sized_time;      /* their total duration */
    double algbw_gbps;     /* bytes / sized_time in GB/s (1e9 B/s); < 0 when no size is known */
    double busbw_gbps;     /* Σ bytes × factor(n) / time over those whose group size n is also
                            * known; < 0 when none */
    int32_t group_size;    /* when every sized collective agrees, else -1 */
} gs_comm_kind;

/* One rank. */
typedef struct gs_comm_rank {
    int32_t rank;
    char *path;               /* the trace's file (owned) */
    size_t steps;             /* steps kept for the statistics */
    gs_ns step_median;        /* median step time over the kept steps */
    gs_ns window;             /* GPU window of the temporal breakdown (idle.h) */
    gs_ns idle;               /* idle time of the temporal breakdown */
    double idle_pct;
    gs_ns compute, communication, overlap, exposed;
    double overlap_pct;       /* of communication; < 0 when the rank has none */
    double exposed_pct;       /* of the GPU window */
    gs_ns exposed_per_step;   /* mean over kept steps of the exposed time inside each step */
    double exposed_step_pct;  /* exposed_per_step / mean kept step time */
    size_t collectives;       /* communication kernels */
} gs_comm_rank;

typedef struct gs_comm_step {
    int32_t rank;
    int64_t number;
    bool warmup;
    gs_ns start, end;
    gs_ns compute, communication, overlap, exposed;
    double exposed_pct; /* of the step */
} gs_comm_step;

typedef struct gs_comm {
    gs_comm_rank *ranks;
    size_t nranks;
    gs_comm_kind *kinds; /* per rank, in gs_coll_kind order, only kinds that occur */
    size_t nkinds;
    gs_comm_step *steps;
    size_t nsteps;
    bool hta_compat;
} gs_comm;

/* The rows of c's trace (over the whole trace and c's steps); several ranks' rows are merged
 * from their summaries (analysis/pipeline/merge.h). hta_compat reproduces HTA's
 * get_comm_comp_overlap: its trace cut (last ProfilerStep and unlaunched GPU work dropped), times
 * rounded to µs, its kernel classes over every GPU row with a stream (so GPU-side sync records
 * count as computation where its names say so). The collectives table and the steps keep
 * gpuscope's definitions. 0, or -1 with err; a failed result is freed. */
int gs_comm_build(const gs_trace_ctx *c, bool hta_compat, gs_comm *out, gs_error *err);
void gs_comm_free(gs_comm *comm);

/* busbw / algbw for a collective kind over n ranks (nccl-tests); 0 when n < 1. */
double gs_comm_bus_factor(gs_coll_kind kind, int32_t n);

#endif
