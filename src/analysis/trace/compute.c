#include "analysis/trace/compute.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/gpu_peaks.h"
#include "common/log.h"
#include "common/vec.h"

static const char *str_or_null(const gs_trace *t, gs_str s)
{
    return s == GS_STR_EMPTY ? NULL : gs_trace_str(t, s);
}

enum gs_flop_kind gs_range_flops(const gs_trace *t, const gs_range *r, gs_op_flops *out)
{
    enum gs_flop_kind k = gs_op_flops_compute(gs_trace_str(t, r->name),
                                              str_or_null(t, r->input_dims),
                                              str_or_null(t, r->input_types),
                                              str_or_null(t, r->concrete_inputs), out);
    if (k != GS_FLOP_NONE && r->flops > 0)
        out->flops = r->flops;
    return k;
}

void gs_compute_init(gs_compute *c)
{
    memset(c, 0, sizeof *c);
    c->mfu = -1;
    c->flop_op_share = c->tc_share = c->eligible_share = c->eligible_unused_share = -1;
}

static bool kept_at(const gs_steps *steps, gs_ns ts)
{
    long s = gs_steps_at(steps, ts);
    return s >= 0 && gs_step_kept(steps, (size_t)s);
}

typedef struct flop_tally {
    double kind[GS_FLOP__COUNT], dtype[GS_DTYPE__COUNT];
    uint64_t ops, from_trace, mismatch;
} flop_tally;

/* root[i]: the outermost range with a formula and the shapes to count it enclosing range i
 * (itself included), GS_NONE when none; filled in parents-before-children order. */
static void count_flops(const gs_trace_ctx *c, uint32_t *root, flop_tally *tally)
{
    const gs_trace *t = c->trace;
    const gs_steps *steps = &c->steps;
    size_t n = t->ranges.n;
    double *flops = gs_array_zeroed(n, sizeof *flops);
    uint8_t *dtype = gs_array_zeroed(n, 1), *kind = gs_array_zeroed(n, 1);
    for (size_t i = 0; i < n; i++)
        root[i] = GS_NONE;
    for (size_t o = 0; flops && dtype && kind && o < t->thread_ranges.n; o++) {
        uint32_t i = t->thread_ranges.v[o];
        const gs_range *r = &t->ranges.v[i];
        uint32_t up = r->parent != GS_NONE ? root[r->parent] : GS_NONE;
        if (gs_ctx_name(c, r->name, GS_NAME_FLOP_KIND) == GS_FLOP_NONE) {
            root[i] = up;
            continue;
        }
        gs_op_flops f;
        gs_range_flops(t, r, &f);
        if (up != GS_NONE) {
            root[i] = up; /* counted with the outer call; its dtype is the one that ran */
            if (f.dtype != GS_DTYPE_UNKNOWN)
                dtype[up] = (uint8_t)f.dtype;
            continue;
        }
        if (f.flops <= 0) {
            /* No shapes to count it from: an operator inside it may have them (an
             * aten::linear recorded without, its aten::addmm with), and counts instead. */
            root[i] = GS_NONE;
            continue;
        }
        root[i] = i;
        flops[i] = f.flops;
        dtype[i] = (uint8_t)f.dtype;
        kind[i] = (uint8_t)f.kind;
        if (r->flops > 0) {
            gs_op_flops shapes;
            gs_op_flops_compute(gs_trace_str(t, r->name), str_or_null(t, r->input_dims), NULL,
                                str_or_null(t, r->concrete_inputs), &shapes);
            tally->from_trace++;
            if (shapes.flops > 0 && fabs(shapes.flops - r->flops) > 0.01 * r->flops &&
                tally->mismatch++ == 0)
                GS_LOG(GS_LOG_INFO,
                       "%s: %s: the trace's flops %.0f differ from the shapes' %.0f (the first such "
                       "call; doc/flops.md)",
                       t->id.path, gs_trace_str(t, r->name), r->flops, shapes.flops);
        }
    }
    for (size_t i = 0; flops && dtype && kind && i < n; i++) {
        if (root[i] != i || !kept_at(steps, t->ranges.v[i].start))
            continue;
        tally->ops++;
        tally->kind[kind[i]] += flops[i];
        tally->dtype[dtype[i]] += flops[i];
    }
    free(flops), free(dtype), free(kind);
}

typedef struct kernel_tally {
    gs_ns all, tc, under_flop_ops, eligible, eligible_tc, flop_ops_tc;
    gs_ns under_ops; /* launched inside a recorded operator (or a range inside one) */
} kernel_tally;

/* in_op[i]: range i is an operator or inside one; filled in parents-before-children order. A
 * capture's NVTX steps and library ranges (CUB's) are not operators: kernels launched only under
 * them say nothing of their operators' eligibility. */
static void mark_in_ops(const gs_trace *t, bool *in_op)
{
    for (size_t o = 0; o < t->thread_ranges.n; o++) {
        uint32_t i = t->thread_ranges.v[o];
        const gs_range *r = &t->ranges.v[i];
        in_op[i] = r->kind == GS_RANGE_OP || (r->parent != GS_NONE && in_op[r->parent]);
    }
}

/* The plugin's rule: a kernel is eligible when the operator that launched it (the innermost) is
 * in the eligible list; it used Tensor Cores when its name says so. */
static void count_kernels(const gs_trace_ctx *c, const uint32_t *root, const bool *in_op,
                          kernel_tally *k)
{
    const gs_trace *t = c->trace;
    const gs_steps *steps = &c->steps;
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *kn = &t->kernels.v[i];
        if (!kept_at(steps, kn->start))
            continue;
        gs_ns d = kn->end - kn->start;
        bool tc = gs_ctx_name(c, kn->name, GS_NAME_TENSOR_CORE) != 0;
        k->all += d;
        k->tc += tc ? d : 0;
        if (kn->op == GS_NONE)
            continue;
        k->under_ops += in_op[kn->op] ? d : 0;
        if (root[kn->op] != GS_NONE) {
            k->under_flop_ops += d;
            k->flop_ops_tc += tc ? d : 0;
        }
        if (gs_ctx_name(c, t->ranges.v[kn->op].name, GS_NAME_TC_ELIGIBLE)) {
            k->eligible += d;
            k->eligible_tc += tc ? d : 0;
        }
    }
}

static double share(gs_ns part, gs_ns whole)
{
    return whole > 0 ? (double)part / (double)whole : -1;
}

const gs_device *gs_trace_main_device(const gs_trace *t)
{
    const gs_device *d = t->kernels.n ? gs_trace_device(t, t->kernels.v[0].device) : NULL;
    if (!d && t->devices.n)
        d = &t->devices.v[0];
    return d;
}

static void fill_peak(const gs_trace *t, gs_compute *c)
{
    const gs_device *d = gs_trace_main_device(t);
    const char *name = d && d->name != GS_STR_EMPTY ? gs_trace_str(t, d->name) : NULL;
    if (!name)
        return;
    snprintf(c->gpu, sizeof c->gpu, "%s", name);
    const gs_gpu_peaks *g = gs_gpu_peaks_find(name);
    if (!g)
        return;
    snprintf(c->peak_model, sizeof c->peak_model, "%s", g->model);
    c->peak_tflops = gs_gpu_peak_tflops(g, (enum gs_dtype)c->dtype);
    if (c->peak_tflops > 0 && c->step_ns > 0)
        c->mfu = c->tflops / c->peak_tflops;
}

int gs_compute_build(const gs_trace_ctx *c, gs_compute *out, gs_error *err)
{
    const gs_trace *t = c->trace;
    const gs_steps *steps = &c->steps;
    gs_compute_init(out);
    uint32_t *root = gs_array_new(t->ranges.n, sizeof *root);
    bool *in_op = gs_array_zeroed(t->ranges.n, sizeof *in_op);
    if (!root || !in_op) {
        free(root);
        free(in_op);
        return gs_fail_oom(err);
    }
    flop_tally ft = {0};
    kernel_tally kt = {0};
    count_flops(c, root, &ft);
    mark_in_ops(t, in_op);
    count_kernels(c, root, in_op, &kt);
    free(root);
    free(in_op);

    gs_ns kept = 0;
    for (size_t i = 0; i < steps->n; i++)
        if (gs_step_kept(steps, i)) {
            out->steps++;
            kept += steps->v[i].end - steps->v[i].start;
        }
    double n = out->steps ? (double)out->steps : 1;
    out->step_ns = out->steps ? (gs_ns)((double)kept / n) : 0;
    double best = 0;
    for (int k = 0; k < GS_FLOP__COUNT; k++) {
        out->kind_flops[k] = ft.kind[k] / n;
        out->flops_per_step += out->kind_flops[k];
    }
    /* the known type of most FLOPs; unknown only when no operator recorded its types */
    for (int d = 1; d < GS_DTYPE__COUNT; d++)
        if (ft.dtype[d] > best) {
            best = ft.dtype[d];
            out->dtype = (uint8_t)d;
        }
    /* fp32 operators whose kernels run on Tensor Cores run in TF32 (torch.backends.cuda.matmul.
     * allow_tf32, cudnn.allow_tf32): the trace records the tensors' type, not the math mode */
    if (out->dtype == GS_DTYPE_FP32 && kt.under_flop_ops > 0 &&
        kt.flop_ops_tc * 2 > kt.under_flop_ops)
        out->dtype = GS_DTYPE_TF32;
    out->counted_ops = ft.ops;
    out->trace_flops_ops = ft.from_trace;
    out->trace_flops_mismatch = ft.mismatch;
    out->tflops = out->step_ns > 0 ? out->flops_per_step / (double)out->step_ns / 1e3 : 0;
    out->kernel_ns = (gs_ns)((double)kt.all / n);
    out->flop_op_share = share(kt.under_flop_ops, kt.all);
    out->tc_share = share(kt.tc, kt.all);
    /* Eligibility is the launching operator's: unknown, not 0, when no kernel was launched
     * inside a recorded operator (a capture without operators, or with NVTX steps and CUB's
     * ranges only). */
    bool ops_known = kt.under_ops > 0;
    out->eligible_share = ops_known ? share(kt.eligible, kt.all) : -1;
    out->eligible_unused_share = !ops_known ? -1
                                 : kt.eligible > 0 ? share(kt.eligible - kt.eligible_tc, kt.eligible)
                                                   : 0;
    fill_peak(t, out);
    return 0;
}
