/* Report v1: what was profiled, then the top kernels, operators and copies. A composition of the
 * summaries, so that the report and the single views always agree. */
#ifndef GS_ANALYSIS_REPORT_H
#define GS_ANALYSIS_REPORT_H

#include "analysis/kernel_summary.h"
#include "analysis/memcpy_summary.h"
#include "analysis/op_summary.h"
#include "analysis/profile_facts.h"

typedef struct gs_report {
    gs_profile_facts facts;
    gs_kernel_summary kernels;
    gs_op_summary ops;
    gs_memcpy_summary memcpy;
} gs_report;

int gs_report_build(const gs_profile *p, const gs_select *sel, gs_report *out, gs_error *err);
void gs_report_free(gs_report *r);

#endif
