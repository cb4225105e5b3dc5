/* Nsight Compute's kernels joined with the trace's: each kernel of an ncu CSV export
 * (ingest/ncu_csv.h) with the trace's kernels of the same function and launch configuration
 * (grid, block), and what ncu measured of it: speed of light, occupancy and its limiter, the FP32
 * roofline position, the rule findings. doc/kernels.md "Nsight Compute" has the definitions. */
#ifndef GS_ANALYSIS_NCU_JOIN_H
#define GS_ANALYSIS_NCU_JOIN_H

#include <stddef.h>

#include "analysis/base/op_cost.h"
#include "analysis/base/trace_ctx.h"
#include "analysis/trace/kernel_summary.h"
#include "analysis/trace/ncu_measured.h"
#include "common/error.h"
#include "model/ncu.h"
#include "model/trace.h"

enum gs_ncu_match {
    GS_NCU_UNMATCHED, /* no trace kernel of that function and launch */
    GS_NCU_MATCH_NAME,     /* the same name, grid and block */
    GS_NCU_MATCH_FUNCTION, /* the same function, grid and block; the names are spelt differently
                              (two demanglers, or template arguments) */
};

typedef struct gs_ncu_row {
    const gs_ncu_kernel *k;
    const char *name;            /* ncu's Kernel Name */
    const gs_kernel_row *trace;  /* the joined kernels of the trace, by launch; NULL: unmatched */
    enum gs_ncu_match match;
    const char *limiter;         /* what limits occupancy (static text), NULL when unknown */
    double flop_per_s;           /* FP32 work per second, NaN when the export lacks it */
    double intensity;            /* FP32 FLOP per DRAM byte, NaN when unknown */
    double ridge;                /* the roofline's ridge point in FLOP/byte, NaN when unknown */
    const char *bound;           /* "compute" or "memory" by the roofline, NULL when unknown */
    const gs_ncu_rule *top_rule; /* its finding with the largest estimated speedup, NULL */
    size_t nrules;
    /* Beside ncu's measurement, gpuscope's estimate from the trace (gs_ncu_join_estimate): the
     * own cost (kernel_costs.h) of the trace's kernels of the same function and launch. Those
     * kernels may have run several shapes; ncu profiled one launch, so the estimate is the
     * shape whose kernels' mean time is nearest ncu's duration. */
    gs_ncu_measured measured;
    gs_op_cost estimate;         /* cls GS_OPC_NONE: no estimate */
    uint32_t shapes;             /* distinct costs among those kernels (0: none) */
    double flops_ratio, bytes_ratio; /* measured / estimated; NaN when either is unknown */
} gs_ncu_row;

typedef struct gs_ncu_join {
    gs_ncu_row *rows; /* in the export's order */
    size_t nrows, matched;
    const gs_ncu_report *ncu;
    gs_kernel_summary kernels; /* the trace's kernels by launch, which rows point into */
} gs_ncu_join;

/* The join of ncu's kernels with `kernels` (the traces' kernels by launch, finished), which the
 * join takes over (it is emptied, and freed with the join). ncu must outlive the join. 0, or -1
 * with err. */
int gs_ncu_join_build(gs_kernel_summary *kernels, const gs_ncu_report *ncu, gs_ncu_join *out,
                      gs_error *err);
void gs_ncu_join_free(gs_ncu_join *j);

/* The costs of the trace kernels that ncu's kernels may be, gathered one trace at a time (the
 * traces' operators are gone by the time the join is built): init, add each trace, then
 * gs_ncu_join_estimate, then free. ncu must outlive them. */
typedef struct gs_ncu_estimates {
    const gs_ncu_report *ncu;
    struct gs_ncu_shapes *per_kernel; /* one per ncu kernel */
    struct gs_ncu_function *functions; /* the ncu kernels' function names */
} gs_ncu_estimates;

int gs_ncu_estimates_init(gs_ncu_estimates *e, const gs_ncu_report *ncu, gs_error *err);
/* The kernels of c's trace in c's window; 0, or -1 with err (out of memory, the estimates
 * freed). */
int gs_ncu_estimates_add(gs_ncu_estimates *e, const gs_trace_ctx *c, gs_error *err);
void gs_ncu_estimates_free(gs_ncu_estimates *e);

/* Each row's estimate, its measurement in the estimate's element type, and their ratios. */
void gs_ncu_join_estimate(gs_ncu_join *j, const gs_ncu_estimates *e);

#endif
