/* CUDA runtime and driver calls summed by name (nsys cuda_api_sum). */
#ifndef GS_ANALYSIS_API_SUMMARY_H
#define GS_ANALYSIS_API_SUMMARY_H

#include <stddef.h>

#include "analysis/base/dur_groups.h"
#include "analysis/base/stats.h"
#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "model/trace.h"

typedef struct gs_api_row {
    const char *name; /* without a trailing _v<digits> version suffix */
    gs_dur_stats time;
    double time_pct;
} gs_api_row;

typedef struct gs_api_summary {
    gs_api_row *rows; /* Total desc, then Num Calls asc, then Name asc */
    size_t nrows;
    gs_strtab names;     /* owns the row names */
    gs_dur_items calls;  /* the traces' calls, until _finish */
} gs_api_summary;

/* A summary of the traces added one at a time (init, add each, finish); build is the three for
 * one trace. Each returns 0, or -1 with err (out of memory); a failed summary is freed. */
int gs_api_summary_init(gs_api_summary *s, gs_error *err);
/* The calls of c's trace that start in c's window. */
int gs_api_summary_add(gs_api_summary *s, const gs_trace_ctx *c, gs_error *err);
int gs_api_summary_finish(gs_api_summary *s, gs_error *err);
int gs_api_summary_build(const gs_trace_ctx *c, gs_api_summary *out, gs_error *err);
void gs_api_summary_free(gs_api_summary *s);

/* Length of an API name without its version suffix: "cudaLaunchKernel_v7000" -> 16. */
size_t gs_api_name_len(const char *name, size_t len);

#endif
