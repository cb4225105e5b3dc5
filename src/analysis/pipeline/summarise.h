/* The per-rank phase of the pipeline (pipeline.h): one trace reduced to its rank's summary
 * (summary.h) by the same analyses a report runs, so the summary holds the numbers a report on
 * that trace shows for its rank. */
#ifndef GS_ANALYSIS_RANKS_SUMMARISE_H
#define GS_ANALYSIS_RANKS_SUMMARISE_H

#include <stdbool.h>

#include "analysis/pipeline/summary.h"

/* Summarises t with the given step options, with its detail (detail.h) when `detail`. 0, or -1
 * with err. */
int gs_rank_summarise(gs_trace *t, const gs_step_opts *steps, bool detail, gs_rank_summary *out,
                      gs_error *err);

#endif
