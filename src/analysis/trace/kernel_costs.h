/* A kernel's own FLOPs and bytes (op_cost.h): its operator call's, when that call launched only
 * it (memsets aside), or when it took at least 90 % of the call's kernel time: cuDNN's attention
 * launches a philox-unpack kernel of a few µs beside its main one, and the call's work is the
 * main kernel's. A call that launched several kernels of comparable time gives none of them a
 * cost of its own. The operator is the innermost one around the launch, an operator directly
 * inside one of its own name being part of that call (op_summary.h). */
#ifndef GS_ANALYSIS_KERNEL_COSTS_H
#define GS_ANALYSIS_KERNEL_COSTS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/base/op_cost.h"
#include "common/error.h"
#include "model/trace.h"

/* The cost of one operator call, range r of t, from its name and recorded inputs. */
enum gs_op_class gs_range_cost(const gs_trace *t, const gs_range *r, gs_op_cost *out);

/* Whether a kernel of dur is its call's main one: the call launched `kernels` kernels of
 * kernel_ns in all. */
bool gs_kernel_is_main(uint32_t kernels, gs_ns kernel_ns, gs_ns dur);

/* Per trace, each call's kernels counted once, so that any kernel's cost is found at once. */
typedef struct gs_kernel_costs {
    const gs_trace *trace;
    struct gs_call_kernels *calls; /* by the call's outermost range */
} gs_kernel_costs;

/* 0, or -1 with err (out of memory). t must outlive it. */
int gs_kernel_costs_init(gs_kernel_costs *kc, const gs_trace *t, gs_error *err);
void gs_kernel_costs_free(gs_kernel_costs *kc);

/* Kernel k's own cost; false (and *out zeroed) when it has none: no operator, not its call's
 * main kernel, no model or no recorded shapes. */
bool gs_kernel_cost(const gs_kernel_costs *kc, size_t k, gs_op_cost *out);

#endif
