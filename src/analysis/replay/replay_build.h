/* The state of building a replay graph (replay_host.c, replay_build.c, replay.c): the points and
 * edges so far, the host lanes, and where each call, range and op landed. Private to this
 * folder. */
#ifndef GS_ANALYSIS_REPLAY_BUILD_H
#define GS_ANALYSIS_REPLAY_BUILD_H

#include "analysis/replay/replay_model.h"
#include "common/vec.h"

#define RP_MAX_DEPTH 256 /* open ranges and calls on one thread */

/* A host thread that launched or waited for GPU work in the window; lane 0 is the main one (the
 * steps' thread). */
typedef struct rp_lane {
    uint32_t id;
    int64_t pid, tid;
    /* Its points, in time order, are numbered one after another, first .. last: a lane is swept
     * whole before the next, and nothing else adds points meanwhile (rp_build_host). */
    uint32_t first, last;
    size_t npoints;
    size_t finger; /* rp_lane_before's last answer, where its next search starts */
} rp_lane;

typedef struct rp_builder {
    const gs_trace_ctx *c;
    const gs_trace *t;
    gs_ns w0, w1; /* the window: the kept steps, host start to end */
    GS_VEC(gs_ns) time;
    GS_VEC(rp_edge) edges;      /* in the order they were built (the lanes' first: nhost), */
    GS_VEC(uint32_t) edge_to;   /* the point each ends at, */
    rp_lags lags;               /* and each one's lag */
    size_t nhost;
    GS_VEC(rp_op) ops;
    GS_VEC(rp_step) steps;
    rp_lane *lanes;
    size_t nlanes;
    /* Per API call of the trace (GS_NONE when not in the graph): its points, the top-level call
     * standing for it, the edge of its duration, its lane. */
    uint32_t *call_start, *call_end, *call_top, *call_edge, *call_lane;
    uint32_t *range_start, *range_end; /* per range of the trace */
    uint32_t *ends; /* ops by end time */
    size_t nends;
    gs_replay_inputs inputs;
} rp_builder;

int rp_point(rp_builder *b, gs_ns ts, uint32_t *out);
int rp_edge_add(rp_builder *b, uint32_t from, uint32_t to, gs_ns lag, uint8_t kind,
                uint8_t flags, uint32_t ref);
/* Makes point p, just added, the lane's next. */
void rp_lane_point(rp_lane *lane, uint32_t p);

/* The host lane point p is on, GS_NONE for the others. */
uint32_t rp_point_lane(const rp_builder *b, uint32_t p);

/* Makes the built edges and their lags m's, the chains' segments apart (rp_chains_split: the first
 * nhost edges are the lanes', rp_build_host's), numbers the graph's points in an order every edge
 * goes forward in and groups its edges by the point they end at, the chains' segments after them
 * (replay_graph.c). m takes edges and lags, and `to` is freed, whatever the outcome. 0, or -1 out
 * of memory. */
int rp_finish(gs_replay *m, rp_edge *edges, uint32_t *to, rp_lags *lags, size_t nhost);

/* The model's edges and lags as rp_finish leaves them, made by rp_chains_split: room for the
 * graph's edges, which the grouping by end scatters into it, then the chains' segments, in their
 * order, in place already. */
typedef struct rp_final {
    rp_edge *edges;  /* a segment's `from`: GS_NONE, until rp_finish points it at its chain's */
    rp_lags lags;
    size_t ngraph, nsegs;
} rp_final;

/* Each run of a lane's segments whose inner points nothing else holds becomes one edge of the
 * graph (replay_chains.c). m's edges (their ends in *to), the first nhost of them the lanes' own
 * (rp_build_host), are moved down in place, each chain's RP_CHAIN edge into its segments' place,
 * its lag their sum, and the arrays shrunk; the segments go into *final. The inner points are
 * dropped, every point the edges, ops, steps and ranges hold renumbered. m->chain_first gets the
 * chains' first segments by their places in the final arrays, and m->range_seg the segment into
 * the start of each range that starts inside a chain. 0, or -1 out of memory (*final then holds
 * what to free). */
int rp_chains_split(gs_replay *m, uint32_t **to, size_t nhost, rp_final *final);

/* How many of the lane's points (in time order) come before ts, or at ts too when `at`. Searched
 * from the lane's last answer outwards (rp_lane.finger): the ops and ranges ask in about the
 * time order of their launches, a few points from the answer before. */
size_t rp_lane_before(const rp_builder *b, rp_lane *lane, gs_ns ts, bool at);

int rp_build_host(rp_builder *b);
int rp_build_gpu(rp_builder *b);
int rp_build_waits(rp_builder *b);
int rp_build_wakes(rp_builder *b);

/* Point p's bit in a bitmap of points, 64 to a word. */
static inline bool rp_point_bit(const uint64_t *bits, uint32_t p)
{
    return bits[p / 64] >> (p % 64) & 1;
}

static inline void rp_point_bit_set(uint64_t *bits, uint32_t p)
{
    bits[p / 64] |= UINT64_C(1) << (p % 64);
}

static inline int32_t rp_op_device(const rp_builder *b, const rp_op *o)
{
    return o->is_memop ? b->t->memops.v[o->index].device : b->t->kernels.v[o->index].device;
}

static inline int32_t rp_op_stream(const rp_builder *b, const rp_op *o)
{
    return o->is_memop ? b->t->memops.v[o->index].stream : b->t->kernels.v[o->index].stream;
}

static inline bool rp_same_stream(const rp_builder *b, const rp_op *x, const rp_op *y)
{
    return rp_op_device(b, x) == rp_op_device(b, y) && rp_op_stream(b, x) == rp_op_stream(b, y);
}

#endif
