/* The pipeline of every command that reads traces: every input is a rank, one trace is a
 * profile of one rank, and only one trace is in memory at a time.
 *
 *   paths --inputs.h--> files, one at a time:
 *     trace --load--> context (trace_ctx.h) --+--> a view: folded into its result (gs_traces_each)
 *                                             +--> summarised (summarise.h) --+
 *     .gsum --read (gsum_read.h)--------------------------------------------+--> rank summaries
 *   rank summaries --(--rank)--> merge (merge.h) --> gs_report (report.h), which owns them
 *
 * A command names the stages it shows (comm: the communication; stragglers: the collectives;
 * report: all), and only their analyses run on each rank; one input or many go through the same
 * code. The command passes the paths and options and prints the result or the error. */
#ifndef GS_ANALYSIS_PIPELINE_PIPELINE_H
#define GS_ANALYSIS_PIPELINE_PIPELINE_H

#include <stdbool.h>

#include "analysis/pipeline/inputs.h"
#include "analysis/pipeline/report.h"

typedef struct gs_pipeline_opts {
    gs_rank_load_opts load; /* steps, --rank, the stages and the detail, progress */
    bool align;             /* estimate clock offsets between the ranks' files */
} gs_pipeline_opts;

/* The report of the inputs: the sections of o->load.summary.stages. 0, or -1 with err
 * (GS_EXIT_USAGE when --rank keeps no input). */
int gs_pipeline_report(const gs_rank_inputs *in, const gs_pipeline_opts *o, gs_report *out,
                       gs_error *err);

#endif
