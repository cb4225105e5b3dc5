/* CUDA runtime and driver calls summed by name (nsys cuda_api_sum). */
#ifndef GS_ANALYSIS_API_SUMMARY_H
#define GS_ANALYSIS_API_SUMMARY_H

#include <stddef.h>

#include "analysis/base/select.h"
#include "analysis/base/stats.h"
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
    gs_strtab names;
} gs_api_summary;

int gs_api_summary_build(const gs_profile *p, const gs_select *sel, gs_api_summary *out,
                         gs_error *err);
void gs_api_summary_free(gs_api_summary *s);

/* Length of an API name without its version suffix: "cudaLaunchKernel_v7000" -> 16. */
size_t gs_api_name_len(const char *name, size_t len);

#endif
