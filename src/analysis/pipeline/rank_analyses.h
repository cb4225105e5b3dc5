/* The analyses of one rank's trace that its summary is read from (summarise.h), run on two
 * threads: the replay of the verdict's expected gains on one, and the others, taken in turn from
 * a queue, by whichever thread is free. */
#ifndef GS_ANALYSIS_PIPELINE_RANK_ANALYSES_H
#define GS_ANALYSIS_PIPELINE_RANK_ANALYSES_H

#include "analysis/diagnosis/diag_inputs.h"
#include "analysis/pipeline/roof_summary.h"
#include "analysis/pipeline/summarise.h"
#include "analysis/trace/compute.h"
#include "analysis/trace/idle.h"
#include "analysis/trace/kernel_summary.h"
#include "analysis/trace/memcpy_summary.h"
#include "analysis/trace/op_summary.h"
#include "analysis/trace/profile_facts.h"
#include "analysis/trace/temporal.h"
#include "analysis/trace/trace_facts.h"

/* Every analysis of the rank's trace the summary is read from; what they keep of the trace they
 * own. */
typedef struct gs_rank_analyses {
    gs_profile_facts facts;
    gs_breakdown breakdown;
    gs_launch_summary launch;
    gs_sync_summary sync;
    gs_memory_summary memory;
    gs_temporal temporal;
    gs_idle idle;
    gs_comm comm;
    gs_kernel_summary kernels;
    gs_op_summary ops;
    gs_memcpy_summary memcpy;
    /* When the diagnosis is asked for: the trace's facts, and the verdict's expected gains. */
    gs_trace_facts trace_facts;
    gs_diag_replay replay;
    gs_rank_roof roof; /* the kept steps' roofline, whose largest group the replay brings up */
    gs_diag_inputs inputs; /* the verdict's, but the replay's */
    gs_compute compute;
} gs_rank_analyses;

/* Runs the analyses of the stages o asks for (gs_stages_needed's, with their dependencies) over
 * c into *a. 0, or -1 with err (a then holds nothing). */
int gs_rank_analyses_run(const gs_trace_ctx *c, const gs_summarise_opts *o, gs_rank_analyses *a,
                         gs_error *err);

void gs_rank_analyses_free(gs_rank_analyses *a);

#endif
