/* The pipeline of report, comm and stragglers: every input is a rank, one trace is a profile of
 * one rank.
 *
 *   paths --inputs.h--> files --+-- trace: load, summarise (summarise.h), drop --+--> summaries
 *                               +-- .gsum: read (gsum_read.h) -------------------+
 *   summaries --(--rank)--> merge (merge.h) --> gs_report (analysis/pipeline/report.h), which owns them
 *
 * Only one trace is in memory at a time; the summaries, their series and (for the report) their
 * durations stay. The command passes the paths and options and prints the result or the error. */
#ifndef GS_ANALYSIS_RANKS_PIPELINE_H
#define GS_ANALYSIS_RANKS_PIPELINE_H

#include <stdbool.h>

#include "analysis/pipeline/inputs.h"
#include "analysis/pipeline/report.h"

typedef struct gs_pipeline_opts {
    gs_rank_load_opts load; /* steps, --rank, the detail (report), progress */
    bool align;             /* estimate clock offsets between the ranks' files */
} gs_pipeline_opts;

/* The report of the inputs. 0, or -1 with err (GS_EXIT_USAGE when --rank keeps no input). */
int gs_pipeline_report(const gs_rank_inputs *in, const gs_pipeline_opts *o, gs_report *out,
                       gs_error *err);

#endif
