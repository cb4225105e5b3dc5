/* A rank's roofline (doc/roofline.md, "In the report"): its operator groups by name over the
 * kept steps, the largest by GPU time, with what the traffic model leaves out, and the GPU's roofs
 * the HTML chart draws. Kept in the rank summary and its .gsum file (doc/FORMAT.md). */
#ifndef GS_ANALYSIS_PIPELINE_ROOF_SUMMARY_H
#define GS_ANALYSIS_PIPELINE_ROOF_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/base/trace_ctx.h"
#include "analysis/diagnosis/diagnose.h"
#include "analysis/replay/replay.h"
#include "analysis/trace/roofline.h"
#include "common/error.h"

/* Operator groups a rank keeps: enough for the chart and the finding, few enough to read. */
#define GS_RANK_ROOF_ROWS 24

/* One operator group: the roofline row's numbers (roofline.h), its name owned. */
typedef struct gs_sum_roof {
    char *name;
    enum gs_op_class cls;
    enum gs_dtype dtype;
    enum gs_roof_bound bound;
    uint64_t calls;
    gs_ns gpu_ns, modelled_ns;
    double flops, bytes, intensity, tflops, tbps, peak_tflops, roof_tflops, roof_share;
} gs_sum_roof;

typedef struct gs_rank_roof {
    gs_sum_roof *rows; /* by GPU time, largest first, at most GS_RANK_ROOF_ROWS */
    size_t nrows;
    size_t groups;     /* the rank's groups before the cut */
    gs_ns gpu_ns;      /* every GPU activity launched by an operator in the window */
    gs_ns modelled_ns; /* ... by calls with FLOPs or bytes known */
    gs_ns unmodelled_ns; /* ... by the rest: no model, or no shapes or types to use it */
    /* The roofs the chart draws, 0 when the GPU is not in the peaks table: its HBM bandwidth,
     * the CUDA cores' fp32 peak, and the Tensor Cores' peak in the type of most matrix time. */
    double peak_tbps, fp32_tflops, tc_tflops;
    enum gs_dtype tc_dtype;
} gs_rank_roof;

/* The roofline of c's window, cut to its largest groups. 0, or -1 with err (out of memory). */
int gs_rank_roof_build(const gs_trace_ctx *c, gs_rank_roof *out, gs_error *err);
void gs_rank_roof_free(gs_rank_roof *r);

/* The roofline rule's inputs (diagnose.h) from r's largest group, over `kept` steps (at least
 * one); r NULL (no roofline: a .gsum of an earlier minor) leaves them unknown. in->roof_op then
 * points into r. */
void gs_rank_roof_inputs(const gs_rank_roof *r, size_t kept, gs_diag_inputs *in);

/* The replay's parameters of GS_REPLAY_ROOF_TARGET (replay.h) from r's largest group: its calls'
 * GPU work at GS_ROOF_TARGET_SHARE of its roof, when it reached less. p->roof_op then points into
 * r; left unset when the group is not on the roofline or reached the target. */
void gs_rank_roof_target(const gs_rank_roof *r, gs_replay_params *p);

#endif
