/* Where a command's time goes, for the debug log: `-v` ends with one table of the stages of the
 * pipeline (doc/design.md §8) with each one's wall time and its share of the command's
 * (doc/report.md, `-v`).
 *
 * One clock for all: gs_log_clock(GS_LOG_INFO). Off (no -v), a stage's start reads 0 and adding
 * it costs one branch: nothing is timed. Stages run on several threads (a rank's analyses on two,
 * the ranks on a worker), so the sums are kept under a lock; a stage met several times (one per
 * rank) sums its times. */
#ifndef GS_ANALYSIS_BASE_STAGE_TIMES_H
#define GS_ANALYSIS_BASE_STAGE_TIMES_H

/* The rows of the table, in its order. A row's parent (stage_times.c) is the stage it is part
 * of: the top rows follow one another and share out the command's time; the analyses under
 * `analyses` run on two threads at once, so each is its own thread's time and they add up to
 * more than their parent. */
enum gs_timed {
    GS_TIMED_LOAD,          /* reading and indexing a trace (the reader logs the split) */
    GS_TIMED_CONTEXT,       /* the trace context: steps, names (trace_ctx.h) */
    GS_TIMED_VIEW,          /* a view's analysis, one trace at a time (`_add`) */
    GS_TIMED_ANALYSES,      /* a rank's analyses, on two threads (summarise.h) */
    GS_TIMED_FACTS,
    GS_TIMED_BREAKDOWN,
    GS_TIMED_LAUNCH,
    GS_TIMED_SYNC,
    GS_TIMED_MEMORY,
    GS_TIMED_TEMPORAL,
    GS_TIMED_IDLE,
    GS_TIMED_COMM,
    GS_TIMED_KERNELS,
    GS_TIMED_OPS,
    GS_TIMED_COPIES,
    GS_TIMED_TRACE_FACTS,   /* the trace's facts (trace_facts.h), which the replay and the
                             * verdict's inputs read */
    GS_TIMED_ROOFLINE,      /* the kept steps' roofline (roofline.h), beside the replay */
    GS_TIMED_REPLAY,        /* the replays of the expected gains, beside the others */
    GS_TIMED_DIAGNOSIS,     /* the verdict's inputs (diag_inputs.h) */
    GS_TIMED_COMPUTE,       /* FLOPs, MFU, Tensor Cores (compute.h) */
    GS_TIMED_SUMMARY,       /* the rank summary, from the analyses */
    GS_TIMED_SERIES,        /* the HTML page's series (series.h) */
    GS_TIMED_STRAGGLERS,    /* the rank's collectives and compute per step (straggler.h) */
    GS_TIMED_DROP,          /* freeing the trace and the analyses */
    GS_TIMED_FINISH,        /* a view's `_finish` */
    GS_TIMED_MERGE,         /* the cross-rank phase (merge.h) */
    GS_TIMED_VERDICT,       /* the rules (diagnose.h) */
    GS_TIMED_RENDER,        /* tables, JSON, HTML written */
    GS_TIMED__COUNT
};

/* The command starts: the table's 100 %. Called once, before any stage. */
void gs_stage_times_begin(void);

/* A reading of the clock for gs_stage_time_add; 0 without -v. */
double gs_stage_clock(void);

/* Adds the time since `since` (a gs_stage_clock reading) to the row `what`. */
void gs_stage_time_add(enum gs_timed what, double since);

/* Logs the table (GS_LOG_INFO), when any stage was timed: each row's ms and % of the command's
 * time, the top rows and `other` (what no row holds: parsing options, listing the inputs)
 * adding up to 100 %. */
void gs_stage_times_log(void);

#endif
