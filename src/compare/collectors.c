#include "compare/collectors.h"

#include <stdlib.h>

#include "analysis/trace/trace_facts.h"

/* GPU work of each kept step, in step order: kernels, copies and sets, each counted in the step it
 * starts in (as the kernel deltas count them), summed by duration. NULL when memory is exhausted. */
static gs_ns *gpu_work_per_step(const gs_trace *t, const gs_steps *s, size_t *n)
{
    gs_ns *per_step = calloc(s->n + 1, sizeof *per_step);
    gs_ns *kept = malloc((s->n + 1) * sizeof *kept);
    *n = 0;
    if (!per_step || !kept) {
        free(per_step);
        free(kept);
        return NULL;
    }
    for (size_t i = 0; i < t->kernels.n; i++) {
        long k = gs_steps_at(s, t->kernels.v[i].start);
        if (k >= 0)
            per_step[k] += t->kernels.v[i].end - t->kernels.v[i].start;
    }
    for (size_t i = 0; i < t->memops.n; i++) {
        long k = gs_steps_at(s, t->memops.v[i].start);
        if (k >= 0)
            per_step[k] += t->memops.v[i].end - t->memops.v[i].start;
    }
    for (size_t i = 0; i < s->n; i++)
        if (gs_step_kept(s, i))
            kept[(*n)++] = per_step[i];
    free(per_step);
    return kept;
}

static int compare_gpu_work(const gs_trace_ctx *const ctx[GS_SIDES],
                            const gs_steps *const steps[GS_SIDES], gs_collector_change *out)
{
    gs_ns *work[GS_SIDES];
    size_t n[GS_SIDES];
    for (int s = 0; s < GS_SIDES; s++)
        work[s] = gpu_work_per_step(ctx[s]->trace, steps[s], &n[s]);
    int rc = work[0] && work[1] ? 0 : -1;
    if (rc == 0)
        rc = gs_compare_samples(work[0], n[0], work[1], n[1], &out->gpu_ci, &out->gpu_mw);
    /* A median step without GPU work on BASE gives no change in percent: nothing to rest on. */
    out->has_ci = rc == 0 && out->gpu_ci.base_med > 0;
    out->gpu_significant = out->has_ci && gs_boot_ci_excludes_zero(&out->gpu_ci);
    free(work[0]);
    free(work[1]);
    return rc;
}

int gs_collector_change_build(const gs_trace_ctx *const ctx[GS_SIDES],
                              const gs_steps *const steps[GS_SIDES], const double step_ns[GS_SIDES],
                              bool with_ci, gs_collector_change *out, gs_error *err)
{
    *out = (gs_collector_change){0};
    for (int s = 0; s < GS_SIDES; s++) {
        gs_trace_facts facts;
        if (gs_trace_facts_build(ctx[s], &facts, err) != 0)
            return -1;
        out->collector[s] = facts.collector;
        out->cost[s] = gs_profiler_step_cost(ctx[s]->trace, &facts, steps[s], steps[s]->stats.n);
        /* unit costs measured on a slower host can pass the step: then all of it */
        if ((double)out->cost[s] > step_ns[s])
            out->cost[s] = (gs_ns)step_ns[s];
    }
    if (with_ci && compare_gpu_work(ctx, steps, out) != 0)
        return gs_fail_oom(err);
    return 0;
}

void gs_collector_change_attribute(gs_collector_change *c, const gs_boot_ci *step)
{
    gs_ns cost_change = c->cost[GS_SIDE_NEW] - c->cost[GS_SIDE_BASE];
    c->explained = step->diff_lo <= cost_change && cost_change <= step->diff_hi;
    c->unexplained_ns = step->diff - cost_change;
}
