/* The report: what was profiled, the verdict per rank with the numbers behind it, the steps, the
 * breakdown, GPU time and the largest idle gaps, then the top kernels, operators and copies. A
 * composition of the analyses, so that the report and the single views always agree. */
#ifndef GS_ANALYSIS_REPORT_H
#define GS_ANALYSIS_REPORT_H

#include "analysis/breakdown.h"
#include "analysis/comm.h"
#include "analysis/diag_inputs.h"
#include "analysis/diagnose.h"
#include "analysis/idle.h"
#include "analysis/kernel_summary.h"
#include "analysis/launch.h"
#include "analysis/memcpy_summary.h"
#include "analysis/memory.h"
#include "analysis/op_summary.h"
#include "analysis/profile_facts.h"
#include "analysis/straggler.h"
#include "analysis/sync.h"
#include "analysis/temporal.h"

/* The verdict of one trace (rank), with the inputs it was reached from. */
typedef struct gs_report_rank {
    const gs_bd_trace *breakdown; /* points into gs_report.breakdown */
    gs_diag_inputs inputs;
    gs_diagnosis diagnosis;
    char *sync_top_op; /* inputs.sync_top_op: the operator under which this rank blocks most */
} gs_report_rank;

typedef struct gs_report_opts {
    gs_step_opts steps;
    size_t gaps; /* largest idle gaps to list */
} gs_report_opts;

typedef struct gs_report {
    gs_profile_facts facts;
    gs_breakdown breakdown; /* one per selected trace, with its steps */
    gs_launch_summary launch;
    gs_sync_summary sync;
    gs_memory_summary memory;
    gs_temporal temporal;
    gs_idle idle;
    gs_comm comm;          /* communication per rank; shown when a rank communicates */
    gs_report_rank *ranks; /* parallel to breakdown.v */
    size_t nranks;
    gs_kernel_summary kernels;
    gs_op_summary ops;
    gs_memcpy_summary memcpy;
    gs_stragglers stragglers; /* across the selected traces; empty for one */
    /* Built from rank summaries (report_ranks.h): no devices, idle gaps or copies, and the
     * kernels' medians and deviations are unknown (0); renderers leave them out. */
    bool from_summaries;
} gs_report;

int gs_report_build(const gs_profile *p, const gs_select *sel, const gs_report_opts *opts,
                    gs_report *out, gs_error *err);
void gs_report_free(gs_report *r);

#endif
