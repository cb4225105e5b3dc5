/* The cross-rank phase of a multi-rank analysis (issue 7 part 4): rank summaries (rank_summary.h)
 * in, the multi-rank results out. Clock offsets and stragglers come from the summaries'
 * collectives and steps through the same code as from full traces (straggler.h), so they agree
 * to the nanosecond; every rank's verdict is its own inputs plus the straggler finding; the
 * kernel and operator tables are the per-rank aggregates merged by name (count and totals add,
 * min of mins, max of maxes: exact, but no median or deviation across ranks). */
#ifndef GS_ANALYSIS_RANKS_MERGE_H
#define GS_ANALYSIS_RANKS_MERGE_H

#include "analysis/comm.h"
#include "analysis/diagnose.h"
#include "analysis/ranks/summary.h"
#include "analysis/straggler.h"

typedef struct gs_merged_report {
    gs_rank_summary *ranks; /* borrowed: sorted by rank, then path */
    size_t n;
    size_t distinct_ranks;
    int32_t world_size;     /* largest any rank reports */
    gs_ns span;             /* longest rank's */
    uint64_t profiler_steps; /* most any rank has */
    gs_event_counts events; /* summed */
    gs_stragglers stragglers; /* empty for one rank */
    gs_diagnosis *diagnosis;  /* parallel to ranks */
    gs_comm comm;             /* the ranks' communication, concatenated */
    gs_sum_kernel *kernels;   /* merged by name, by total; names borrowed */
    size_t nkernels;
    gs_ns kernels_total;
    gs_sum_op *ops;           /* merged by name, by CUDA total (CPU total without GPU work) */
    size_t nops;
    bool ops_gpu;
} gs_merged_report;

/* Orders summaries by rank, then path, as a profile orders its traces. */
void gs_rank_summaries_sort(gs_rank_summary *ranks, size_t n);

/* Fills every rank's straggler inputs (ranks[i].inputs) and the results. 0, or -1 with err. */
int gs_merge_ranks(gs_rank_summary *ranks, size_t n, bool align, gs_merged_report *out,
                   gs_error *err);
void gs_merged_report_free(gs_merged_report *m);

#endif
