/* Several runs in one folder (doc/report.md, "Several runs"): the TensorBoard plugin groups a log
 * directory's traces by run and worker; a folder that holds two runs of a 2-rank job has every
 * rank twice, and merging them would compare a rank with itself from another run. Traces are
 * grouped into runs by time: the traces of one run overlap in time (every rank runs the same
 * steps), two runs do not. A rank that appears twice is how a second run shows; a world size
 * that differs, or clocks hours apart, show runs of different jobs that share no rank. Neither
 * Kineto nor .gst traces record a run id, so there is none to compare. */
#ifndef GS_ANALYSIS_RUNS_H
#define GS_ANALYSIS_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/pipeline/summary.h"
#include "common/error.h"

/* Traces of one job whose spans on the Unix clock are further apart than this are different
 * runs: a profile covers seconds to minutes, and the clocks of a job's hosts differ by far less
 * than an hour (doc/report.md, "Several runs"). */
#define GS_RUNS_CLOCK_GAP_NS (3600 * INT64_C(1000000000))

/* 0 when the summaries are one job's run: the world sizes the traces give agree, no rank appears
 * twice, and their spans on the Unix clock are within GS_RUNS_CLOCK_GAP_NS of each other.
 * Otherwise -1 with err (GS_EXIT_INPUT): the groups found, each with its ranks and files, and how
 * to report one of them. */
int gs_runs_check(const gs_rank_summary *v, size_t n, gs_error *err);

#endif
