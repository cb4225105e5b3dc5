/* Several runs in one folder (doc/report.md, "Several runs"): the TensorBoard plugin groups a log
 * directory's traces by run and worker; a folder that holds two runs of a 2-rank job has every
 * rank twice, and merging them would compare a rank with itself from another run. Traces are
 * grouped into runs by time: the traces of one run overlap in time (every rank runs the same
 * steps), two runs do not. A rank that appears twice is how a second run shows. */
#ifndef GS_ANALYSIS_RUNS_H
#define GS_ANALYSIS_RUNS_H

#include <stddef.h>

#include "analysis/pipeline/summary.h"
#include "common/error.h"

/* 0 when the summaries are one run (no rank twice). Otherwise -1 with err (GS_EXIT_INPUT): the
 * runs found, each with its ranks and files, and how to report one of them. */
int gs_runs_check(const gs_rank_summary *v, size_t n, gs_error *err);

#endif
