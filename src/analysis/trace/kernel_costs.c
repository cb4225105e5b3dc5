#include "analysis/trace/kernel_costs.h"

#include <stdlib.h>

#include "analysis/trace/op_summary.h"
#include "common/vec.h"

/* The share of its call's kernel time a kernel must have for the call's cost to be its own. */
#define MAIN_KERNEL_SHARE 0.9

struct gs_call_kernels {
    uint32_t count;
    gs_ns total;
};

bool gs_kernel_is_main(uint32_t kernels, gs_ns kernel_ns, gs_ns dur)
{
    return kernels == 1 || (double)dur >= MAIN_KERNEL_SHARE * (double)kernel_ns;
}

int gs_kernel_costs_init(gs_kernel_costs *kc, const gs_trace *t, gs_error *err)
{
    kc->trace = t;
    kc->calls = gs_array_zeroed(t->ranges.n, sizeof *kc->calls);
    if (!kc->calls)
        return gs_fail_oom(err);
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        if (k->op == GS_NONE)
            continue;
        struct gs_call_kernels *x = &kc->calls[gs_op_call_of(t, k->op)];
        x->count++;
        x->total += k->end - k->start;
    }
    return 0;
}

void gs_kernel_costs_free(gs_kernel_costs *kc)
{
    free(kc->calls);
    kc->calls = NULL;
}

static const char *str_or_null(const gs_trace *t, gs_str s)
{
    return s == GS_STR_EMPTY ? NULL : gs_trace_str(t, s);
}

enum gs_op_class gs_range_cost(const gs_trace *t, const gs_range *r, gs_op_cost *out)
{
    return gs_op_cost_compute(gs_trace_str(t, r->name), str_or_null(t, r->input_dims),
                              str_or_null(t, r->input_types), str_or_null(t, r->concrete_inputs),
                              out);
}

bool gs_kernel_cost(const gs_kernel_costs *kc, size_t k, gs_op_cost *out)
{
    const gs_trace *t = kc->trace;
    *out = (gs_op_cost){0};
    const gs_kernel *kn = k < t->kernels.n ? &t->kernels.v[k] : NULL;
    if (!kn || kn->op == GS_NONE)
        return false;
    const struct gs_call_kernels *call = &kc->calls[gs_op_call_of(t, kn->op)];
    if (!gs_kernel_is_main(call->count, call->total, kn->end - kn->start))
        return false;
    gs_range_cost(t, &t->ranges.v[kn->op], out);
    return out->bytes > 0 || out->flops > 0;
}
