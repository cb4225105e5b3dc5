/* What changed between two runs (gpuscope diff BASE NEW): step time with a confidence interval
 * and a rank test, the step breakdown's shift by category, kernel and operator deltas, what was
 * added or removed, and the memory peaks.
 *
 * Ranks: each trace of BASE is paired with the trace of NEW that has the same rank; when each
 * side is one trace, the two are paired whatever their ranks say (one run against another). Step
 * time is compared per pair; the verdict is the pair with the strongest evidence of a slowdown
 * (the highest lower bound of its interval), so a CI gate catches one slow rank among many. The
 * breakdown is averaged over the pairs; kernels, operators and memory sum the paired traces.
 * Traces with no partner are counted and left out. When the two sides were recorded differently
 * (another collector, or its options), the verdict rests on the GPU work per kept step instead,
 * with the step-time change set against the collectors' own cost (compare/collectors.h). */
#ifndef GS_COMPARE_DIFF_H
#define GS_COMPARE_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/trace/breakdown.h"
#include "analysis/base/select.h"
#include "analysis/base/steps.h"
#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "compare/activity.h"
#include "compare/bootstrap.h"
#include "compare/collectors.h"
#include "compare/mann_whitney.h"
#include "compare/match.h"
#include "compare/setup.h"
#include "model/trace.h"

/* Fewer kept steps than this on a side and the interval would be an artefact of resampling a
 * handful of values: no interval, no verdict, and the gate cannot trip. */
#define GS_DIFF_MIN_STEPS 3

typedef struct gs_diff_opts {
    gs_ctx_opts ctx;  /* --step, --keep-warmup: the same on both sides */
    gs_select select; /* --rank: the same on both sides */
} gs_diff_opts;

/* One BASE trace and its NEW partner. */
typedef struct gs_rank_change {
    const gs_trace_ctx *ctx[GS_SIDES]; /* the traces' contexts */
    const gs_bd_trace *bd[GS_SIDES];   /* each with its steps */
    size_t kept[GS_SIDES];           /* kept steps (bd[s]->steps.stats has their statistics) */
    bool has_ci;                     /* both sides have GS_DIFF_MIN_STEPS kept steps */
    gs_boot_ci ci;                   /* valid when has_ci */
    gs_mw mw;                        /* valid when has_ci */
    bool significant;                /* has_ci and the interval excludes 0 */
    gs_collector_change work;        /* GPU work per kept step, the collectors' own cost */
} gs_rank_change;

/* Peak memory of one device of one pair; a side without it has present = false and zeros. */
typedef struct gs_mem_change {
    size_t pair;
    int8_t device_type;
    int32_t device;
    bool present[GS_SIDES];
    int64_t peak_allocated[GS_SIDES], peak_reserved[GS_SIDES];
} gs_mem_change;

typedef struct gs_diff {
    gs_trace_ctx *ctx[GS_SIDES]; /* each selected trace's, in profile order */
    gs_breakdown bd[GS_SIDES];  /* per selected trace (parallel to ctx), with its steps */
    gs_rank_change *pairs;
    size_t npairs;
    size_t headline;            /* the pair the verdict speaks of */
    size_t unpaired[GS_SIDES];  /* traces left without a partner */
    double bd_avg[GS_SIDES][GS_BD__COUNT]; /* mean per kept step, averaged over the pairs */
    double bd_total[GS_SIDES];
    gs_activity act[GS_SIDES];
    gs_delta_list kernels, kernels_only, ops, ops_only;
    gs_mem_change *mem;
    size_t nmem;
    gs_diff_setup setup;        /* what differs in the setup, what one side did not record */
} gs_diff;

/* Both profiles must outlive the result. 0, or -1 with err set (no rank in common: exit 3). */
int gs_diff_build(const gs_profile *base, const gs_profile *next, const gs_diff_opts *opts,
                  gs_diff *out, gs_error *err);
void gs_diff_free(gs_diff *d);

/* Whether a breakdown category compares: not CPU Exec or Other when one side recorded no CPU
 * operators (its operator time is untraced, Other), not Runtime when one side recorded no runtime
 * calls. */
bool gs_diff_category_comparable(const gs_diff *d, enum gs_bd_cat c);

/* The verdict rests on the GPU work rather than the step time: the two sides were recorded
 * differently (setup.collection_differs), which moves the step time by the collectors' own cost. */
bool gs_diff_on_gpu_work(const gs_diff *d);

/* The CI gate: we are 95 % confident NEW's median step is more than pct % slower, i.e. the
 * headline interval's lower bound exceeds pct. */
bool gs_diff_gate(const gs_diff *d, double pct);

#endif
