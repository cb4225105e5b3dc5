/* Stragglers (doc/design.md §21): which rank the others wait for.
 *
 * A blocking collective cannot finish before its last rank arrives, and all ranks leave it
 * together; so on the common clock (clock_align.h) the rank whose collective kernel starts last
 * is the one the others waited for, and each other rank's kernel ran that much longer, waiting.
 * Per matched collective: the last rank, its lateness (its start minus the median start of the
 * others) and the skew (latest minus earliest start). Per rank: how often it was last, its mean
 * lateness when it was, the time it waited per step, and its compute per step (the straggler's
 * compute is usually the cause: a slower GPU, a throttled clock, a larger shard).
 *
 * A rank is THE straggler when it arrives last at more than GS_TH_STRAGGLER_LAST_SHARE of at
 * least GS_TH_STRAGGLER_MIN_COLLECTIVES matched collectives and the others wait for it more than
 * GS_TH_STRAGGLER_WAIT_SHARE of the step. Unlike HTA's straggler analysis
 * (hta/analyzers/straggler.py), every communication kernel counts, ncclDevKernel_* included. */
#ifndef GS_ANALYSIS_STRAGGLER_H
#define GS_ANALYSIS_STRAGGLER_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/crossrank/clock_align.h"
#include "analysis/crossrank/coll_match.h"
#include "analysis/base/steps.h"
#include "analysis/base/trace_ctx.h"

typedef struct gs_strag_instance {
    gs_coll_kind kind;
    uint32_t seq;
    int64_t step;      /* ProfilerStep number on the first rank, -1 outside its steps */
    uint32_t last;     /* index into ranks of the rank that arrived last */
    gs_ns lateness_ns; /* last's start - median start of the others */
    gs_ns skew_ns;     /* latest start - earliest start */
} gs_strag_instance;

typedef struct gs_strag_rank {
    const gs_rank_id *id;      /* the match's (match.ranks[i].id) */
    size_t last;               /* instances it arrived last at */
    double last_share;         /* of all matched instances */
    gs_ns mean_lateness_ns;    /* over the instances it was last at; 0 when never */
    gs_ns wait_ns;             /* per step: waiting for the last rank inside collectives */
    gs_ns wait_straggler_ns;   /* per step: the part of it spent waiting for the straggler */
    gs_ns compute_ns;          /* per step: |union of compute kernels| in the kept steps */
    gs_ns step_ns;             /* mean kept step */
    size_t steps;              /* kept steps */
} gs_strag_rank;

typedef struct gs_skew_stats {
    size_t n;
    gs_ns med, p95, max; /* nearest-rank percentiles of skew_ns */
} gs_skew_stats;

typedef struct gs_stragglers {
    gs_coll_match match;
    gs_clock clock;
    gs_strag_rank *ranks; /* parallel to match.ranks */
    size_t nranks;
    gs_strag_instance *v; /* parallel to match.v */
    size_t n;
    gs_skew_stats skew[GS_COLL__COUNT], skew_all;
    int straggler;          /* index into ranks, -1 when none */
    int candidate;          /* the rank last most often (ties: the lower), -1 without instances */
    gs_ns others_wait_ns;   /* mean over the other ranks of wait_straggler_ns (candidate's) */
    gs_ns median_step_ns;   /* median over ranks of step_ns */
    gs_ns median_compute_ns;
    double compute_excess;  /* candidate's compute per step / median rank's - 1 */
} gs_stragglers;

/* The straggler test, shared by the analysis and the diagnosis rule so both always agree: last
 * at more than GS_TH_STRAGGLER_LAST_SHARE of at least GS_TH_STRAGGLER_MIN_COLLECTIVES matched
 * collectives, the others waiting more than GS_TH_STRAGGLER_WAIT_SHARE of the step. */
bool gs_straggler_qualifies(size_t collectives, double last_share, double wait_share);

/* What the analysis reads of one rank (its rank summary's, analysis/pipeline/summary.h): which
 * rank it is (rank, path, epoch_ns), its collectives and steps, and its compute per kept step
 * (gs_strag_compute_per_step). */
typedef struct gs_strag_input {
    const gs_rank_id *id;
    const gs_collectives *coll;
    const gs_steps *steps;
    gs_ns compute_ns;
} gs_strag_input;

/* |union of compute kernels| inside c's kept steps, per kept step. 0, or -1 (out of memory). */
int gs_strag_compute_per_step(const gs_trace_ctx *c, gs_ns *out);

/* The ranks' stragglers, clock offsets estimated when `align` (else the files' own clocks). The
 * result owns copies of what it reads. 0, or -1 with err. */
int gs_stragglers_from(const gs_strag_input *in, size_t n, bool align, gs_stragglers *out,
                       gs_error *err);
void gs_stragglers_free(gs_stragglers *s);

/* Where rank `id` is in s->ranks (for the diagnosis), or -1. */
int gs_stragglers_rank_of(const gs_stragglers *s, const gs_rank_id *id);

#endif
