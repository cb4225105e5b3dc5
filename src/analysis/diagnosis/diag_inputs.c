#include "analysis/diagnosis/diag_inputs.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/gpu_caps.h"
#include "analysis/base/intervals.h"
#include "analysis/base/stage_times.h"
#include "common/log.h"

static double per_step(double total, size_t nkept)
{
    return nkept ? total / (double)nkept : 0.0;
}

/* The GPU idle that follows each blocking call: the gap of the busy timeline holding the call's
 * end, from there until the next GPU activity. When the host had to wait, the pipeline was
 * drained; what the GPU then waits is what the synchronization cost — except the time the host
 * spends in the DataLoader, which the data-loading rule claims: a loop that reads loss.item()
 * and then waits for its next batch is starved of data first. Each gap counts once, clipped to
 * the kept steps. */
static int sum_sync_idle(const gs_trace_ctx *c, const gs_steps *steps, gs_ns *out)
{
    const gs_trace *t = c->trace;
    gs_spans busy = {0}, kept = {0}, loading = {0}, kept_loading = {0};
    int rc = 0;
    for (size_t i = 0; i < t->ranges.n && rc == 0; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (r->kind != GS_RANGE_NVTX && gs_range_in_op_tree(r) &&
            gs_ctx_name(c, r->name, GS_NAME_DATALOADER))
            rc = gs_spans_add(&loading, r->start, r->end);
    }
    for (size_t i = 0; i < t->kernels.n && rc == 0; i++)
        rc = gs_spans_add(&busy, t->kernels.v[i].start, t->kernels.v[i].end);
    for (size_t i = 0; i < t->memops.n && rc == 0; i++)
        rc = gs_spans_add(&busy, t->memops.v[i].start, t->memops.v[i].end);
    for (size_t i = 0; i < steps->n && rc == 0; i++)
        if (gs_step_kept(steps, i))
            rc = gs_spans_add(&kept, steps->v[i].start, steps->v[i].end);
    gs_spans_merge(&busy);
    gs_spans_merge(&kept);
    gs_spans_merge(&loading);
    if (rc == 0)
        rc = gs_spans_intersect(&kept, &loading, &kept_loading);
    *out = 0;
    gs_ns last_gap_start = -1;
    for (size_t i = 0; i < t->apis.n && rc == 0 && busy.n > 0; i++) {
        const gs_api *a = &t->apis.v[i];
        int kind = gs_sync_call_kind(t, &c->names, a);
        if (kind < 0 || kind == GS_SYNC_WAIT_EVENT)
            continue;
        /* The first busy interval ending after the call's end; the gap is before it. */
        size_t lo = 0, hi = busy.n;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (busy.v[mid].end <= a->end)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo == busy.n || busy.v[lo].start <= a->end)
            continue; /* the GPU was still busy when the call returned, or never ran again */
        gs_ns gap_start = lo > 0 ? busy.v[lo - 1].end : a->end;
        if (gap_start == last_gap_start)
            continue; /* calls are sorted by start: a repeated gap comes right after */
        last_gap_start = gap_start;
        *out += gs_spans_overlap(&kept, gap_start, busy.v[lo].start) -
                gs_spans_overlap(&kept_loading, gap_start, busy.v[lo].start);
    }
    gs_spans_free(&busy);
    gs_spans_free(&kept);
    gs_spans_free(&loading);
    gs_spans_free(&kept_loading);
    return rc;
}

static void sum_kept_copies(const gs_trace *t, const gs_steps *steps, gs_ns *pageable)
{
    *pageable = 0;
    for (size_t i = 0; i < t->memops.n; i++) {
        const gs_memop *m = &t->memops.v[i];
        if (m->src != GS_LOC_PAGEABLE && m->dst != GS_LOC_PAGEABLE)
            continue;
        long s = gs_steps_at(steps, m->start);
        if (s >= 0 && gs_step_kept(steps, (size_t)s))
            *pageable += m->end - m->start;
    }
}

static double measure_tensor_core_share(const gs_trace_ctx *c)
{
    const gs_trace *t = c->trace;
    gs_ns all = 0, tc = 0;
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        all += k->end - k->start;
        tc += gs_ctx_name(c, k->name, GS_NAME_TENSOR_CORE) ? k->end - k->start : 0;
    }
    return all ? (double)tc / (double)all : -1.0;
}

static void fill_memory_inputs(const gs_memory_summary *m, gs_diag_inputs *in)
{
    in->mem_peak_share = in->mem_fragmentation = in->mem_growth_r2 = -1.0;
    if (!m)
        return;
    const gs_mem_device *worst = NULL;
    for (size_t i = 0; i < m->ndevices; i++) {
        const gs_mem_device *d = &m->devices[i];
        if (d->device_type == GS_MEM_DEVICE_CUDA &&
            (!worst || d->peak_held > worst->peak_held))
            worst = d;
    }
    if (!worst)
        return;
    if (worst->device_memory)
        in->mem_peak_share = worst->peak_pct / 100.0;
    if (worst->peak_allocated > 0 && worst->reserved_known)
        in->mem_fragmentation = worst->fragmentation;
    in->mem_growth_per_step = worst->slope;
    in->mem_growth_r2 = worst->r2;
    in->mem_growth_steps = worst->fit_steps;
}

static int fill_first_use(const gs_trace_ctx *c, gs_diag_inputs *in, gs_error *err)
{
    gs_first_use u;
    if (gs_first_use_build(c, &u, err) != 0)
        return -1;
    in->first_use_steps = u.steps;
    in->first_use_new_steps = u.new_steps;
    in->first_use_shape_steps = u.shape_steps;
    in->first_use_load_steps = u.load_steps;
    in->first_use_mean_ns = u.mean_ns;
    in->first_use_new_ns = u.new_mean_ns;
    in->first_use_seen_ns = u.seen_med_ns;
    in->first_use_extra_ns = u.extra_ns;
    return 0;
}

void gs_diag_replay_unknown(gs_diag_inputs *in)
{
    in->replay_step_ns = -1;
    for (int a = 0; a < GS_REPLAY__COUNT; a++)
        in->replay_expected_ns[a] = -1;
}

int gs_diag_replay_model(const gs_trace_ctx *c, gs_replay **m, gs_error *err)
{
    const char *why = NULL;
    *m = NULL;
    if (gs_replay_graph(c, m, &why, err) != 0)
        return -1;
    if (!*m)
        GS_LOG(GS_LOG_INFO, "no replay of rank %d: %s", (int)c->trace->id.rank, why ? why : "?");
    return 0;
}

/* The replay's mean step unchanged, without the profiler's cost, and with each other action alone
 * on top of that (diagnose.h): one run per action (each linear in the trace). */
int gs_diag_replay_runs(const gs_replay *m, const gs_replay_params *p, gs_diag_replay *out,
                        gs_error *err)
{
    out->step_ns = -1;
    for (int a = 0; a < GS_REPLAY__COUNT; a++)
        out->expected_ns[a] = -1;
    if (!m)
        return 0;
    /* Only the actions some rule's gain is estimated by, and the profiler's, which they are
     * measured without. */
    gs_replay_set used = GS_REPLAY_BIT(GS_REPLAY_NONE) | GS_REPLAY_BIT(GS_REPLAY_NO_PROFILER);
    size_t nrules;
    const gs_rule *rules = gs_rules(&nrules);
    for (size_t i = 0; i < nrules; i++)
        used |= GS_REPLAY_BIT(rules[i].replay);
    gs_diag_replay got = *out;
    for (int a = GS_REPLAY_NONE; a < GS_REPLAY__COUNT; a++) {
        if (!(used & GS_REPLAY_BIT(a)))
            continue;
        gs_replay_result r;
        gs_replay_set set = a == GS_REPLAY_NONE ? 0
                            : GS_REPLAY_BIT(a) | GS_REPLAY_BIT(GS_REPLAY_NO_PROFILER);
        if (gs_replay_run(m, set, p, &r, err) != 0)
            return -1;
        if (a == GS_REPLAY_NONE)
            got.step_ns = r.replayed_mean_ns;
        else
            got.expected_ns[a] = r.changed_mean_ns;
        gs_replay_result_free(&r);
    }
    *out = got;
    return 0;
}

void gs_diag_compute_inputs(const gs_compute *c, gs_diag_inputs *in)
{
    in->mfu = c ? c->mfu : -1;
    in->flop_op_share = c ? c->flop_op_share : -1;
    in->tc_eligible_share = c ? c->eligible_share : -1;
    in->tc_unused_share = c ? c->eligible_unused_share : -1;
}

void gs_diag_straggler_inputs(const gs_rank_id *id, const gs_stragglers *s, gs_diag_inputs *in)
{
    in->strag_rank = -1;
    in->strag_ranks = 1; /* a report of one trace runs no straggler analysis */
    if (!s)
        return;
    in->strag_ranks = s->nranks;
    in->strag_collectives = s->n;
    int self = gs_stragglers_rank_of(s, id);
    if (s->candidate < 0)
        return;
    const gs_strag_rank *c = &s->ranks[s->candidate];
    in->strag_rank = c->id->rank;
    in->strag_is_self = self == s->candidate;
    in->strag_last_share = c->last_share;
    in->strag_compute_excess = s->compute_excess;
    in->strag_lateness_ns = c->mean_lateness_ns;
    in->strag_others_wait_ns = s->others_wait_ns;
    in->strag_step_ns = s->median_step_ns;
    in->strag_wait_ns = self >= 0 && !in->strag_is_self ? s->ranks[self].wait_straggler_ns : 0;
}

int gs_diag_inputs_build(const gs_trace_ctx *c, const gs_diag_sources *src, gs_diag_inputs *out,
                         gs_error *err)
{
    const gs_trace *t = c->trace;
    const gs_bd_trace *bd = src->breakdown;
    const gs_steps *steps = &bd->steps;
    memset(out, 0, sizeof *out);
    out->rank = t->id.rank;
    out->steps = bd->nkept;
    out->gpu_activities = t->kernels.n + t->memops.n;
    out->warmup_steps = steps->nwarmup;
    for (size_t i = 0; i < steps->n; i++)
        if (steps->v[i].warmup && steps->stats.med > 0) {
            double r = (double)(steps->v[i].end - steps->v[i].start) / (double)steps->stats.med;
            if (r > out->warmup_ratio)
                out->warmup_ratio = r;
        }
    out->step_ns = (gs_ns)bd->avg_total_ns;
    gs_ns *cat[GS_BD__COUNT] = {
        [GS_BD_KERNEL] = &out->kernel_ns,   [GS_BD_MEMCPY] = &out->memcpy_ns,
        [GS_BD_MEMSET] = &out->memset_ns,   [GS_BD_COMM] = &out->comm_ns,
        [GS_BD_RUNTIME] = &out->runtime_ns, [GS_BD_DATALOADER] = &out->dataloader_ns,
        [GS_BD_CPU_EXEC] = &out->cpu_exec_ns, [GS_BD_OTHER] = &out->other_ns,
    };
    for (int k = 0; k < GS_BD__COUNT; k++)
        *cat[k] = (gs_ns)bd->avg_ns[k];
    /* Exposed communication is comm's, computed once (gs_comm_build) and shown the same by report
     * and comm: collective time no compute kernel hides, per kept step. */
    if (src->comm)
        out->comm_ns = src->comm->exposed_per_step;
    out->gpu_util = 0.0;
    for (size_t d = 0; d < bd->gpu.n; d++)
        if (bd->gpu.v[d].utilization > out->gpu_util)
            out->gpu_util = bd->gpu.v[d].utilization;

    gs_ns idle = 0, pageable = 0;
    if (sum_sync_idle(c, steps, &idle) != 0)
        return gs_fail_oom(err);
    out->sync_idle_ns = (gs_ns)per_step((double)idle, bd->nkept);
    sum_kept_copies(t, steps, &pageable);
    out->pageable_copy_ns = (gs_ns)per_step((double)pageable, bd->nkept);
    if (src->sync) {
        out->sync_blocked_ns = (gs_ns)per_step((double)src->sync->kept_blocked, bd->nkept);
        out->sync_top_op = src->sync_top_op;
    }
    out->median_kernel_ns = out->median_launch_ns = -1;
    out->short_kernel_share = -1.0;
    if (src->launch) {
        const gs_launch_stats *k = &src->launch->kept;
        out->kernels_per_step = src->launch->kernels_per_step;
        out->median_kernel_ns = k->med_kernel;
        out->median_launch_ns = k->med_launch_cost;
        out->short_kernel_share = k->launched ? (double)k->short_kernels / (double)k->launched : 0;
        out->graphs = src->launch->graphs;
    } else {
        gs_graph_facts_count(t, &out->graphs);
    }
    fill_memory_inputs(src->memory, out);
    out->tensor_core_share = measure_tensor_core_share(c);
    out->compute_major = t->devices.n ? t->devices.v[0].compute_major : 0;
    out->compute_minor = t->devices.n ? t->devices.v[0].compute_minor : 0;
    out->gpu_vendor = t->devices.n ? gs_gpu_vendor_of(gs_trace_str(t, t->devices.v[0].name))
                                   : GS_VENDOR_NVIDIA;
    gs_diag_compute_inputs(NULL, out);
    out->roof_op_share = out->roof_share = out->roof_intensity = -1; /* the rank summary's */
    gs_diag_straggler_inputs(&t->id, src->stragglers, out);
    out->facts = *src->facts;
    if (fill_first_use(c, out, err) != 0)
        return -1;
    out->facts.profiler_step_ns = gs_profiler_step_cost(t, &out->facts, steps, bd->nkept);
    if (out->facts.profiler_step_ns > out->step_ns) /* unit costs of a slower host: all of it */
        out->facts.profiler_step_ns = out->step_ns;
    gs_diag_replay_unknown(out);
    return 0;
}

void gs_diag_replay_inputs(const gs_diag_replay *r, gs_diag_inputs *in)
{
    in->replay_step_ns = r->step_ns;
    memcpy(in->replay_expected_ns, r->expected_ns, sizeof in->replay_expected_ns);
}
