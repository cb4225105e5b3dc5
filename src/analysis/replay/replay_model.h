/* The replay's graph (replay.h says what it models): private to the files of this folder, which
 * build it (replay_host.c, replay_build.c), transform it (replay_transform.c) and evaluate it
 * (replay.c). */
#ifndef GS_ANALYSIS_REPLAY_MODEL_H
#define GS_ANALYSIS_REPLAY_MODEL_H

#include "analysis/replay/replay.h"
#include "analysis/replay/replay_lags.h"

/* What an edge stands for; a transformation changes edges by kind and flags. */
enum rp_edge_kind {
    RP_SEGMENT, /* CPU time on a host thread between two of its points */
    RP_CALL,    /* a CUDA call's duration, start to end */
    RP_GPU,     /* a GPU op's duration, start to end */
    RP_LAUNCH,  /* a launch call's start to its GPU op's start */
    RP_STREAM,  /* the previous op's end on the stream to the op's start */
    RP_XSTREAM, /* an op's end on another stream to the op's start: a wait between streams */
    RP_WAIT,    /* a GPU op's end to the end of the blocking call that waited for it */
    RP_WAKE,    /* another host thread's point to this thread's: one hands work to the other */
    RP_BATCH,   /* a DataLoader batch's arrival (off unless the workers' action is on) */
    RP_CHAIN,   /* a chain of segments (replay_chains.c): their sum, start to end */
};

/* Flags of a segment or a call: what encloses it on its thread. */
enum {
    RP_IN_OP = 1u << 0,       /* inside a framework operator: its dispatch */
    RP_IN_DATA = 1u << 1,     /* inside a DataLoader fetch */
    RP_IN_OPT = 1u << 2,      /* inside the optimizer's step */
    RP_IN_COMPILED = 1u << 3, /* inside a region torch.compile compiled */
    RP_LAUNCHES = 1u << 4,    /* a call that launched GPU work */
    RP_BLOCKS = 1u << 5,      /* a call that blocks the host until the GPU is done */
    RP_HTOD = 1u << 6,        /* a call that copied host to device */
    RP_IDLE = 1u << 7,        /* a segment where the thread waited for another (RP_WAKE) */
};

#define RP_MAX_LANES 64 /* host lanes of a model: an edge's lane fits a byte */

/* An edge of the model. The graph's edges are grouped by the point they end at (rp_finish), which
 * is then theirs: gs_replay.first_in says where each point's edges are. Its lag, the least time
 * from `from` to that point (RP_OFF: off), is in gs_replay.lags. The segments of chains follow the
 * graph's edges, joining points that are not the graph's. */
typedef struct rp_edge {
    uint32_t from;     /* point; a chain's segment's: its chain's edge */
    uint32_t ref; /* RP_CALL: the API call; RP_SEGMENT: the innermost operator (GS_NONE);
                   * RP_CHAIN: the chain (gs_replay.chain_first);
                   * RP_GPU, RP_LAUNCH, RP_STREAM, RP_XSTREAM: the GPU op (rp_model.ops);
                   * RP_WAIT: the call; RP_BATCH: the DataLoader range */
    uint8_t kind;      /* enum rp_edge_kind */
    uint8_t flags;
    uint8_t lane;      /* a host edge's lane (rp_is_host), 0 for the others */
} rp_edge;

/* Whether an action may turn an edge of this kind off (RP_OFF): the others stay on in every run,
 * so that a point with one of them never falls back on its measured time (gs_replay.anchors). */
static inline bool rp_kind_may_go_off(uint8_t kind)
{
    return kind == RP_LAUNCH || kind == RP_WAIT || kind == RP_XSTREAM || kind == RP_BATCH;
}

/* Whether e is a host thread's: its CPU time between two points, or a call's duration. */
static inline bool rp_is_host(const rp_edge *e)
{
    return e->kind == RP_SEGMENT || e->kind == RP_CALL;
}

/* A GPU op of the model: a kernel, copy or set. */
typedef struct rp_op {
    uint32_t index;       /* into the trace's kernels, or memops when is_memop */
    bool is_memop;
    uint32_t start, end;  /* points */
    uint32_t call;        /* the top-level API call that launched it, GS_NONE */
    uint32_t launch;      /* the point its launch leaves from: the call's start, or for a call
                           * inside another (a driver call under a runtime one) the outer call's
                           * last point before the inner one started; GS_NONE */
    int32_t step;         /* the kept step (rp_model.steps) it was launched in, -1 */
    gs_ns dur;
} rp_op;

/* An edge the profiler's cost is taken from, and how much (GS_REPLAY_NO_PROFILER): a few unit
 * costs at most (trace_facts.h), so 32 bits of ns; 8 bytes a cut, as many cuts as events. */
typedef struct rp_cut {
    uint32_t edge;
    uint32_t cost;
} rp_cut;

/* A run's arrays: each point's time, each edge's lag, each op's launch source, each kept step's
 * end and length. Allocated once per model and used by every run in turn (runs of one model are not
 * concurrent): fresh arrays per run cost more in page faults than the run itself. */
typedef struct rp_run_arrays {
    gs_ns *at, *ends, *len;
    rp_lags lag;
    uint32_t *launch_from;
    bool edges_changed; /* lag and launch_from may differ from the model's: a run copies them
                         * first. A run whose actions changed nothing leaves them as they were,
                         * and the next needs no copy (12 MB for 3 M edges). */
} rp_run_arrays;

/* A point that keeps its measured time: one whose in-edges may all be off in a run (none of them
 * of a kind that stays on, or on in the model), and one an edge against the order leaves from. */
typedef struct rp_anchor {
    uint32_t point;
    gs_ns time;
} rp_anchor;

typedef struct rp_step {
    const gs_step *step;
    uint32_t host_start, host_end; /* points */
    gs_ns floor;                   /* GPU work before the first kept step: its earliest start */
} rp_step;

struct gs_replay {
    const gs_trace_ctx *ctx;
    gs_trace_facts facts;
    size_t npoints;
    /* The points are numbered in an order every edge goes forward in (by time, and by
     * dependency where times tie). Each point's measured time is in time[] while rp_finish orders
     * them; then only the anchors keep theirs, in the order of their points. */
    gs_ns *time;
    rp_anchor *anchors;
    size_t nanchors;
    rp_edge *edges;     /* the graph's grouped by the point they end at, in the order they were
                         * built; then the chains' segments, chain after chain: */
    uint32_t *first_in; /* npoints + 1: edges[first_in[p] .. first_in[p + 1]) end at p */
    size_t ngraph;      /* the graph's edges: first_in[npoints] */
    size_t nedges;      /* and the segments of the chains after them */
    rp_lags lags; /* each edge's */
    /* Chain c's segments are edges[chain_first[c] .. chain_first[c + 1]) (nchains + 1), in their
     * order on the lane; its edge in the graph (each segment's `from`) has their sum for lag. */
    uint32_t *chain_first;
    size_t nchains;
    rp_op *ops;
    size_t nops;
    rp_step *steps;
    size_t nsteps;
    gs_replay_inputs inputs;
    /* What the transformations look up: per API call of the trace, the edge of its duration
     * (GS_NONE when not in the graph). */
    uint32_t *call_edge;
    uint32_t *range_start; /* per range of the trace: the point it starts at (for a range
                            * outside the operator tree, the end of the segment it starts in),
                            * GS_NONE; also GS_NONE where that point is inside a chain, and then */
    uint32_t *range_seg;   /* ... the segment that ends there, until the profiler's cuts are
                            * found (NULL when no range starts inside a chain) */
    int32_t compute_major, compute_minor, vendor; /* the first GPU's, 0.0 when unknown */
    gs_ns *replayed;          /* each kept step's length in the unchanged replay */
    gs_ns *without_profiler;  /* ... and without the profiler's cost (GS_REPLAY_NO_PROFILER) */
    gs_replay_change no_profiler_change; /* what that took from the model's own lags */
    uint8_t *step_mark;       /* per point: 1 when it is a kept step's host start or end */
    rp_cut *profiler_cuts;    /* what GS_REPLAY_NO_PROFILER takes from which edge, in its order:
                               * every run but the unchanged one applies it */
    size_t nprofiler_cuts;
    rp_run_arrays *run;       /* the runs' arrays (not the model's: a const model's runs use it) */
};

/* Applies `actions` to a run's lags and launch sources (rp_copy_edges' copies, changed in place;
 * only a launch edge's source moves, and only to a point earlier in m's order, so the order
 * holds), summing what each changed into change[] over the whole window; *touched is set when a
 * lag or a source changed (and never cleared). 0, or -1 with err. */
int rp_transform(const gs_replay *m, gs_replay_set actions, const gs_replay_params *p,
                 rp_lags *lag, uint32_t *launch_from, gs_replay_change change[GS_REPLAY__COUNT],
                 bool *touched, gs_error *err);

/* Finds m->profiler_cuts, once m is finished (rp_finish; replay_profiler.c). 0, or -1 out of
 * memory. */
int rp_profiler_cuts(gs_replay *m);

/* Each point's time with lags (the model's own, or a run's) and a run's launch sources (NULL: the
 * model's own), into at[]: the latest of its in-edges, its measured time when all are off (an
 * anchor's). An edge against the order (a cycle broken by rp_finish) reads its source's measured
 * time. */
void rp_evaluate(const gs_replay *m, const rp_lags *lag, const uint32_t *launch_from, gs_ns *at);

/* A run's lags and launch sources, copied from the model's: lag (per edge) and launch_from[] (per
 * op). 0, or -1 out of memory. */
int rp_copy_edges(const gs_replay *m, rp_lags *lag, uint32_t *launch_from);

#endif
