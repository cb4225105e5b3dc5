/* Gathers the per-step numbers the diagnosis rules read (diagnose.h) from the analyses of one
 * trace. Everything is a mean over the kept steps (warm-up left out unless asked). */
#ifndef GS_ANALYSIS_DIAG_INPUTS_H
#define GS_ANALYSIS_DIAG_INPUTS_H

#include "analysis/trace/breakdown.h"
#include "analysis/trace/comm.h"
#include "analysis/trace/compute.h"
#include "analysis/trace/first_use.h"
#include "analysis/diagnosis/diagnose.h"
#include "analysis/trace/launch.h"
#include "analysis/trace/memory.h"
#include "analysis/crossrank/straggler.h"
#include "analysis/trace/sync.h"

/* The replay's numbers the verdict reads (diagnose.h): the mean kept step replayed unchanged, and
 * with each action on top of the profiler's cost removed; -1 when unknown. */
typedef struct gs_diag_replay {
    gs_ns step_ns;
    gs_ns expected_ns[GS_REPLAY__COUNT];
} gs_diag_replay;

/* The replay's graph of c's kept steps into *m (gs_replay_graph; gs_replay_finish completes it with
 * the trace's facts): NULL when there is nothing to replay (the numbers then stay unknown). It
 * reads only the trace and its context, so it may be built beside the other analyses, on a
 * thread of its own. 0, or -1 with err. */
int gs_diag_replay_model(const gs_trace_ctx *c, gs_replay **m, gs_error *err);

/* Runs the actions the rules' gains are estimated by on model m (NULL: all unknown), with the
 * parameters p (NULL: the defaults; the roofline's target comes from the rank's roofline,
 * roof_summary.h), into *out. 0, or -1 with err. */
int gs_diag_replay_runs(const gs_replay *m, const gs_replay_params *p, gs_diag_replay *out,
                        gs_error *err);

typedef struct gs_diag_sources {
    const gs_bd_trace *breakdown; /* required: holds the steps */
    const gs_launch_rank *launch; /* NULL when not computed */
    const gs_sync_rank *sync;
    const char *sync_top_op;
    const gs_memory_summary *memory; /* the trace's alone */
    /* comm's rank row: its exposed communication per step is the rule's (one number for report and
     * comm); NULL: the breakdown's Communication category stands in */
    const gs_comm_rank *comm;
    const gs_stragglers *stragglers; /* NULL for a single trace */
    const gs_trace_facts *facts;     /* required: gs_trace_facts_build's, the replay's too */
} gs_diag_sources;

/* The profile-level straggler numbers (s NULL: a single trace), and rank id's own wait for the
 * straggler. Rank summaries fill them in the cross-rank phase, so they are apart. */
void gs_diag_straggler_inputs(const gs_rank_id *id, const gs_stragglers *s, gs_diag_inputs *in);

/* Every input but the replay's (left unknown: gs_diag_replay_inputs puts them in), so that they
 * may be built beside the replay. */
int gs_diag_inputs_build(const gs_trace_ctx *c, const gs_diag_sources *src, gs_diag_inputs *out,
                         gs_error *err);

/* The replay's numbers into the inputs. */
void gs_diag_replay_inputs(const gs_diag_replay *r, gs_diag_inputs *in);

/* The compute-use inputs from a rank's gs_compute, or "unknown" (-1) when c is NULL (a summary
 * read from a .gsum written before they existed). */
void gs_diag_compute_inputs(const gs_compute *c, gs_diag_inputs *in);

/* The replay inputs unknown (-1): a summary read from a .gsum written before they existed. */
void gs_diag_replay_unknown(gs_diag_inputs *in);

#endif
