/* The profiler's cost in the replay (GS_REPLAY_NO_PROFILER): each recorded range gives its unit
 * cost back from the host edge into its start, each traced GPU activity from its launch call
 * (trace_facts.h's unit costs). The edges and costs are the same in every run: found once per
 * model, they spare each run a pass over the trace's ranges.
 *
 * A cost larger than its edge takes the edge and no more: the measured gap already holds whatever
 * the profiler spent in it, and events closer together than their unit cost (Python function
 * events a few hundred nanoseconds apart under with_stack) say the unit cost is too high there.
 * Carrying the rest back into the thread's earlier CPU time was tried: it predicted the with_stack
 * GPT-2 capture's gain better (doc/whatif.md), on the capture the unit costs were fitted on, but
 * left eager inference traces with almost no host time (479 operators in 0.4 ms). */
#include "analysis/replay/replay_model.h"

#include <stdlib.h>

#include "common/vec.h"

typedef GS_VEC(rp_cut) cut_vec;

/* The host edge into point p (a lane's points have one, its first none), a chain's last
 * segment where a chain ends there; GS_NONE. */
static uint32_t host_edge_into(const gs_replay *m, uint32_t p)
{
    for (uint32_t e = m->first_in[p]; e < m->first_in[p + 1]; e++) {
        if (rp_is_host(&m->edges[e]))
            return e;
        if (m->edges[e].kind == RP_CHAIN)
            return m->chain_first[m->edges[e].ref + 1] - 1;
    }
    return GS_NONE;
}

/* The host edge into range r's start: into its point, or the segment into its place in a
 * chain; GS_NONE. */
static uint32_t edge_into_range(const gs_replay *m, size_t r)
{
    if (m->range_start[r] != GS_NONE)
        return host_edge_into(m, m->range_start[r]);
    return m->range_seg ? m->range_seg[r] : GS_NONE;
}

static int push_cut(cut_vec *cuts, uint32_t edge, gs_ns cost)
{
    rp_cut *c = GS_VEC_PUSH(cuts);
    if (!c)
        return -1;
    *c = (rp_cut){edge, cost < UINT32_MAX ? (uint32_t)cost : UINT32_MAX};
    return 0;
}

static int event_cuts(const gs_replay *m, cut_vec *cuts)
{
    const gs_trace *t = m->ctx->trace;
    for (size_t r = 0; r < t->ranges.n; r++) {
        uint32_t e = edge_into_range(m, r);
        gs_ns cost = e != GS_NONE ? gs_profiler_range_cost(&m->facts, &t->ranges.v[r]) : 0;
        if (cost && push_cut(cuts, e, cost) != 0)
            return -1;
    }
    for (size_t i = 0; i < m->nops; i++) {
        uint32_t call = m->ops[i].call;
        if (call == GS_NONE || m->call_edge[call] == GS_NONE)
            continue;
        gs_ns call_ns = t->apis.v[call].end - t->apis.v[call].start;
        if (push_cut(cuts, m->call_edge[call], gs_profiler_activity_cost(&m->facts, call_ns)) != 0)
            return -1;
    }
    return 0;
}

int rp_profiler_cuts(gs_replay *m)
{
    cut_vec cuts = {0};
    if (event_cuts(m, &cuts) != 0) {
        GS_VEC_FREE(&cuts);
        return -1;
    }
    m->profiler_cuts = cuts.v;
    m->nprofiler_cuts = cuts.n;
    free(m->range_seg); /* read by the cuts only */
    m->range_seg = NULL;
    return 0;
}
