/* The report's lines on how each rank's trace was recorded and what ran (trace_facts.h): the
 * collector and the options on, training or inference, parallelism, precision, and the
 * profiler's estimated cost on the host, as text under "What was profiled" and as JSON. */
#ifndef GS_RENDER_REPORT_CONTEXT_H
#define GS_RENDER_REPORT_CONTEXT_H

#include <stdio.h>

#include "analysis/pipeline/report.h"
#include "common/json_write.h"

/* One line per group of consecutive ranks with the same context, and a line per rank whose
 * profiler cost is noticeable (gs_profiler_cost_noticeable). Nothing for ranks whose context is
 * not known (summaries of an earlier .gsum minor). */
void gs_put_context_lines(FILE *out, const gs_report *r);

/* The member "context": {...} for one rank's verdict inputs (null when not known). */
void gs_put_context_json(gs_json_writer *w, const gs_diag_inputs *in);

#endif
