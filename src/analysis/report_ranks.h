/* The report from rank summaries (issue 7 part 4): the merged cross-rank results (rank_merge.h)
 * laid out as a gs_report, so one renderer writes both and a report from summaries has the same
 * shape and numbers as the report on the traces wherever a summary holds them. What it cannot
 * hold is marked by gs_report.from_summaries: the GPUs' properties, the idle gaps with what the
 * host was doing, the copies table, and medians and deviations of kernel durations (they need
 * every duration of every rank). The verdicts, steps, breakdown, GPU metrics, GPU time,
 * communication and the kernel and operator totals are those of the traces. */
#ifndef GS_ANALYSIS_REPORT_RANKS_H
#define GS_ANALYSIS_REPORT_RANKS_H

#include "analysis/rank_merge.h"
#include "analysis/report.h"

/* out borrows from m (and m's summaries), which must outlive it. 0, or -1 with err. */
int gs_report_from_ranks(const gs_merged_report *m, gs_report *out, gs_error *err);
/* Frees what gs_report_from_ranks allocated (not gs_report_free: most of it is borrowed). */
void gs_report_from_ranks_free(gs_report *r);

#endif
