/* The multi-rank report from rank summaries (issue 7 part 4): the merged cross-rank results
 * (rank_merge.h) laid out as a gs_report, so one renderer writes both. The verdicts, steps,
 * breakdown, GPU metrics, GPU time, communication and the kernel and operator totals are those
 * of the traces. When every rank was summarised from a trace in this process with its detail
 * (rank_detail.h), the GPUs, the longest idle gaps, the copies and the kernels' medians and
 * deviations are exact too: the report is the one on the traces, though no more than two traces
 * were ever held at once. When some rank comes from a .gsum, those are left out and
 * gs_report.from_summaries says so. */
#ifndef GS_ANALYSIS_REPORT_RANKS_H
#define GS_ANALYSIS_REPORT_RANKS_H

#include "analysis/ranks/merge.h"
#include "analysis/report.h"

/* out borrows from m (and m's summaries), which must outlive it. 0, or -1 with err. */
int gs_report_from_ranks(const gs_merged_report *m, gs_report *out, gs_error *err);
/* Frees what gs_report_from_ranks allocated (not gs_report_free: most of it is borrowed). */
void gs_report_from_ranks_free(gs_report *r);

#endif
