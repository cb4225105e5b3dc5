/* GPU kernels summed by name (nsys cuda_gpu_kern_sum), or by name and launch configuration
 * (nsys cuda_gpu_kern_gb_sum). */
#ifndef GS_ANALYSIS_KERNEL_SUMMARY_H
#define GS_ANALYSIS_KERNEL_SUMMARY_H

#include <stdbool.h>

#include "analysis/base/dur_groups.h"
#include "analysis/base/stats.h"
#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "model/trace.h"

typedef struct gs_kernel_row {
    const char *name;
    int32_t grid[3], block[3]; /* zero unless grouped by launch */
    gs_dur_stats time;
    double time_pct; /* time.total / sum of all rows' totals × 100 */
    const char *op;  /* the operator that launched most of its time (op_pct of it), NULL when
                      * no operator launched any */
    double op_pct;
    size_t first;    /* its time.count durations start at durations[first] */
} gs_kernel_row;

typedef struct gs_kernel_summary {
    gs_kernel_row *rows; /* Total desc, then Instances asc, then Name asc (then grid, block) */
    size_t nrows;
    bool by_launch;
    gs_ns total; /* sum of all rows' totals */
    gs_strtab names; /* owns the row and operator names */
    /* Every kernel's duration, each row's ascending: a merge of ranks summarised one at a time
     * (analysis/pipeline/summary.h) needs them for the exact median and deviation across ranks. */
    gs_ns *durations;
    gs_dur_items kernels; /* the traces' kernels, until _finish */
} gs_kernel_summary;

/* A summary of the traces added one at a time (init, add each, finish); build is the three for
 * one trace. Each returns 0, or -1 with err (out of memory); a failed summary is freed. */
int gs_kernel_summary_init(gs_kernel_summary *s, bool by_launch, gs_error *err);
/* The kernels of c's trace whose launch (or start, when the launch is not recorded) falls in
 * c's window. */
int gs_kernel_summary_add(gs_kernel_summary *s, const gs_trace_ctx *c, gs_error *err);
int gs_kernel_summary_finish(gs_kernel_summary *s, gs_error *err);
int gs_kernel_summary_build(const gs_trace_ctx *c, bool by_launch, gs_kernel_summary *out,
                            gs_error *err);
void gs_kernel_summary_free(gs_kernel_summary *s);

#endif
