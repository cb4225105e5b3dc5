/* What compares when the two sides of a diff were recorded differently (doc/diff.md, "Different
 * collectors"): a profiler adds its own host time to every step (torch.profiler's operator and
 * Python events, CUPTI's launch callbacks, emit_nvtx's ranges), so the step time of a run under
 * torch.profiler against one under gpuscope run, or with emit_nvtx against without, moves with
 * the collectors and not with the code. The GPU work does not: a kernel runs as long whoever
 * records it. So the diff compares the GPU work per kept step (kernels, copies and sets that
 * start in the step, as the kernel table counts them) with the same interval and test as the
 * step time, and sets the step-time change beside the difference of the collectors' estimated
 * own host time per kept step (doc/diagnosis.md, "The profiler's own cost"). */
#ifndef GS_COMPARE_COLLECTORS_H
#define GS_COMPARE_COLLECTORS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "compare/bootstrap.h"
#include "compare/mann_whitney.h"
#include "compare/match.h"

typedef struct gs_collector_change {
    bool has_ci;                /* the interval and test below are valid: enough kept steps,
                                 * and GPU work in BASE's median step */
    gs_boot_ci gpu_ci;          /* GPU work per kept step: medians, change and its interval */
    gs_mw gpu_mw;
    bool gpu_significant;       /* the interval excludes 0 */
    uint8_t collector[GS_SIDES]; /* enum gs_collector */
    gs_ns cost[GS_SIDES];       /* the collector's estimated own host time per kept step */
    /* The step-time change against the change of the collectors' cost, valid with the step
     * time's interval: explained when that interval holds the cost change. */
    bool explained;
    gs_ns unexplained_ns;       /* step-time change (medians) - cost change */
} gs_collector_change;

/* One rank pair: ctx[s] cut into steps[s] (its kept steps), whose mean kept step is step_ns[s]
 * (the cost estimate is capped there). with_ci: both sides have enough kept steps for an
 * interval. 0, or -1 with err set. */
int gs_collector_change_build(const gs_trace_ctx *const ctx[GS_SIDES],
                              const gs_steps *const steps[GS_SIDES], const double step_ns[GS_SIDES],
                              bool with_ci, gs_collector_change *out, gs_error *err);

/* With the step time's interval (ns) of the same pair: whether the collectors' cost change lies
 * inside it, and what is left of the step-time change. */
void gs_collector_change_attribute(gs_collector_change *c, const gs_boot_ci *step);

#endif
