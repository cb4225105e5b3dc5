/* What one side of a diff ran in its kept steps, by name: kernels and operators with their count
 * and time, to be divided by the number of kept steps. Only activity that starts in a kept step
 * counts, so warm-up (left out of the step-time statistics) and the profiler's ragged edges do
 * not show up as changes, and two runs that profiled a different number of steps compare per
 * step. The step ranges themselves (ProfilerStep#N, --step ranges) are not operators here: their
 * time is the step time, and their names change with the step number. */
#ifndef GS_COMPARE_ACTIVITY_H
#define GS_COMPARE_ACTIVITY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/base/steps.h"
#include "common/error.h"
#include "model/strtab.h"
#include "model/trace.h"

typedef struct gs_act {
    const char *name;          /* in the set's string table */
    int32_t grid[3], block[3]; /* kernels: the launch shape with the most time; zeros otherwise */
    uint64_t count;
    gs_ns total;      /* kernels: sum of durations; operators: CPU total (sum of durations) */
    gs_ns cuda_total; /* operators: GPU time launched by them or inside them; kernels: 0 */
} gs_act;

typedef struct gs_act_set {
    gs_act *v; /* by name (strcmp order) */
    size_t n;
    gs_strtab names;
} gs_act_set;

typedef struct gs_activity {
    gs_act_set kernels, ops;
    size_t steps; /* kept steps, summed over the traces */
} gs_activity;

/* traces[i] cut into steps[i]. 0, or -1 with err set. */
int gs_activity_build(const gs_trace *const *traces, const gs_steps *const *steps, size_t n,
                      gs_activity *out, gs_error *err);
void gs_activity_free(gs_activity *a);

#endif
