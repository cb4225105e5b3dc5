/* What a change would buy: a replay of the trace's kept steps (doc/whatif.md).
 *
 * The model is a graph of the step's events as points in time: per host thread (a lane) the
 * boundaries of its operators, annotations and CUDA calls in order, the CPU time between two of
 * them a segment; per GPU stream each kernel's, copy's and set's start and end. Edges carry the
 * least time from one point to the next: a segment's or call's duration along a lane, a GPU op's
 * duration, its launch (the call's start to the op's start), stream order, a wait on another
 * stream, a blocking call waiting for the GPU work it returned after, a thread waking another.
 * Each point happens at the latest of its edges. An edge that decided the point's measured time
 * keeps the measured gap; one that did not keeps only its physical least (a launch latency, the
 * gap between two kernels), so that when the deciding edge shortens the point moves no earlier
 * than the other allows. Replaying the unchanged graph gives back the measured steps, except where
 * the trace's times contradict its dependencies (clipped, counted in the error).
 *
 * An action is a transformation of the edges (the table in replay_actions.c, each with its
 * assumptions and their source); several actions apply together and the replay, not a product of
 * speedups, says what they give. Steps are measured on the replayed times as steps.h measures them
 * (the TensorBoard plugin's rule: from the host range's start, or the previous step's end, to the
 * end of the GPU work it launched). */
#ifndef GS_ANALYSIS_REPLAY_H
#define GS_ANALYSIS_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/base/trace_ctx.h"
#include "analysis/trace/trace_facts.h"
#include "common/error.h"
#include "model/trace.h"

/* The changes a replay can apply, one per action of the verdict. */
enum gs_replay_action {
    GS_REPLAY_NONE,
    GS_REPLAY_CUDA_GRAPHS,        /* capture the step's launches in CUDA graphs */
    GS_REPLAY_COMPILE,            /* torch.compile: elementwise chains fused */
    GS_REPLAY_DATALOADER_WORKERS, /* more DataLoader worker processes */
    GS_REPLAY_PINNED_MEMORY,      /* pinned host memory and non_blocking copies */
    GS_REPLAY_REMOVE_SYNCS,       /* no host wait for the GPU (.item(), synchronize) */
    GS_REPLAY_MIXED_PRECISION,    /* Tensor-Core precision (bf16/fp16 autocast, TF32) */
    GS_REPLAY_FUSED_OPTIMIZER,    /* a foreach/fused optimizer instead of a loop per parameter */
    GS_REPLAY_OVERLAP_COMM,       /* collectives under the backward pass's compute */
    GS_REPLAY_ROOF_TARGET,        /* the operator group farthest below its roof brought up */
    GS_REPLAY_NO_PROFILER,        /* the profiler's own host cost removed */
    GS_REPLAY__COUNT
};

/* A set of actions: bit (1u << action). */
typedef uint32_t gs_replay_set;
#define GS_REPLAY_BIT(a) ((gs_replay_set)1u << (a))

typedef struct gs_replay_action_info {
    const char *name;    /* "cuda_graphs": what whatif --action takes and JSON's key */
    const char *title;   /* "CUDA graphs" */
    const char *models;  /* what the transformation changes, one sentence */
    const char *assumes; /* its assumptions and their public source */
} gs_replay_action_info;

/* The action's description; NULL for GS_REPLAY_NONE or out of range. */
const gs_replay_action_info *gs_replay_action_get(enum gs_replay_action a);
/* The action named `name` (len bytes), GS_REPLAY_NONE when none is. */
enum gs_replay_action gs_replay_action_find(const char *name, size_t len);

/* The knobs of the actions that have one. */
typedef struct gs_replay_params {
    /* Workers after the change when the trace loads in the main process (0: 4); with workers
     * already, their number is unknown and the change doubles it whatever this says. */
    int dataloader_workers;
    /* GS_REPLAY_ROOF_TARGET: the GPU work of the calls of operator roof_op (the roofline's
     * group, doc/roofline.md) takes roof_scale of its time; NULL or a scale outside (0, 1):
     * nothing changes. */
    const char *roof_op;
    double roof_scale;
} gs_replay_params;

/* What one action changed, summed over the kept steps and divided by their number. */
typedef struct gs_replay_change {
    uint64_t items;                 /* calls, segments and GPU ops it changed, in all */
    gs_ns host_before, host_after;  /* host time it changed, per step, before and after */
    gs_ns gpu_before, gpu_after;    /* GPU time it changed, per step, before and after */
} gs_replay_change;

typedef struct gs_replay_step {
    int64_t number;    /* the step's number (steps.h) */
    gs_ns measured_ns; /* end - start as steps.h measured it */
    gs_ns replayed_ns; /* the unchanged model's */
    gs_ns changed_ns;  /* with the actions */
} gs_replay_step;

/* The model's size and the physical least gaps it used: what --explain prints. */
typedef struct gs_replay_inputs {
    size_t host_lanes, gpu_lanes;
    size_t host_calls, host_segments, gpu_ops;
    size_t blocking_waits;    /* blocking calls joined to the GPU work they waited for */
    size_t stream_waits;      /* GPU ops that waited for another stream */
    size_t thread_waits;      /* thread wake-ups and hand-offs between host threads */
    size_t clipped;           /* points whose measured time their dependencies contradict */
    gs_ns launch_latency_ns;  /* least time from a launch call's start to its GPU work */
    gs_ns stream_gap_ns;      /* least gap between two GPU ops on a stream */
    /* The usual most of each (90th percentile): a longer gap is a wait the model cannot explain,
     * which the structural replay leaves out. */
    gs_ns launch_latency_max_ns, stream_gap_max_ns;
} gs_replay_inputs;

typedef struct gs_replay_result {
    gs_replay_set actions;
    gs_replay_step *steps; /* the kept steps, owned */
    size_t nsteps;
    gs_ns measured_mean_ns, replayed_mean_ns, changed_mean_ns;
    double error;          /* replayed_mean / measured_mean - 1: the unchanged model's error */
    /* The model's own accuracy: the steps replayed with every launch, stream and cross-stream gap
     * that decided a GPU op's start cut to the usual most of its kind (inputs' *_max_ns), so that
     * waits the dependencies do not explain show as error. 0 until gs_replay_structural. */
    gs_ns structural_mean_ns;
    double structural_error; /* structural_mean / measured_mean - 1 */
    double speedup;        /* replayed_mean / changed_mean: 1 without actions */
    gs_ns expected_step_ns; /* measured_mean / speedup */
    gs_replay_change change[GS_REPLAY__COUNT];
    gs_replay_inputs inputs;
} gs_replay_result;

typedef struct gs_replay gs_replay; /* the model of one trace's kept steps */

/* The model of c's kept steps; facts are c's (trace_facts.h: the profiler's cost per event, what
 * ran). *out is NULL, with 0 returned and *why set, when there is nothing to replay (no kept step
 * launched GPU work); -1 with err when out of memory. */
int gs_replay_build(const gs_trace_ctx *c, const gs_trace_facts *facts, gs_replay **out,
                    const char **why, gs_error *err);
/* The same in two parts, for a caller that finds the facts meanwhile: the graph, which does not
 * read them (the same *out, *why and return), then the profiler's cost from them and the
 * unchanged replay (0, or -1 with err; m is then freed). */
int gs_replay_graph(const gs_trace_ctx *c, gs_replay **out, const char **why, gs_error *err);
int gs_replay_finish(gs_replay *m, const gs_trace_facts *facts, gs_error *err);
void gs_replay_free(gs_replay *m);

/* Replays m unchanged and with `actions` (p NULL: the defaults) into *out. 0, or -1 with err
 * when out of memory (*out is then empty). Runs of one model share its work arrays: one at a
 * time. */
int gs_replay_run(const gs_replay *m, gs_replay_set actions, const gs_replay_params *p,
                  gs_replay_result *out, gs_error *err);
void gs_replay_result_free(gs_replay_result *r);

/* The structural replay of m into r, a result of m (structural_mean_ns, structural_error): one
 * evaluation more, so only for those who show it (whatif), not for every run. 0, or -1 with err
 * when out of memory. */
int gs_replay_structural(const gs_replay *m, gs_replay_result *r, gs_error *err);

#endif
