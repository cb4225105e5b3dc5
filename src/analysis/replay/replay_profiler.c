/* The profiler's cost in the replay (GS_REPLAY_NO_PROFILER): each recorded range gives its unit
 * cost back from the host time before it, each traced GPU activity from its launch call
 * (trace_facts.h's unit costs). The edges and costs are the same in every run: found once per
 * model, they spare each run a pass over the trace's ranges.
 *
 * Events closer together than their cost (Python function events a few hundred nanoseconds apart
 * under with_stack) leave the edge before each one too short to hold it. What an edge cannot hold
 * is taken from the thread's CPU time before it, back to the step's start: the profiler's
 * callbacks run around each event, so the time they took lies between the event and the thread's
 * earlier work, and the unit costs were measured as such (host time per event, doc/whatif.md). */
#include "analysis/replay/replay_model.h"

#include <stdlib.h>

#include "common/vec.h"

typedef GS_VEC(rp_cut) cut_vec;

/* A cost on its way back along a host lane: `ns` still to take before point `at`. */
typedef struct rp_debt {
    uint32_t at;
    gs_ns ns;
} rp_debt;

typedef GS_VEC(rp_debt) debt_vec;

static bool is_host_edge(const rp_edge *e)
{
    return e->kind == RP_SEGMENT || e->kind == RP_CALL;
}

/* The host edge into point p (a lane's points have one, its first none); GS_NONE. */
static uint32_t host_edge_into(const gs_replay *m, uint32_t p)
{
    for (uint32_t k = m->first_in[p]; k < m->first_in[p + 1]; k++)
        if (is_host_edge(&m->edges[m->in_edges[k]]))
            return m->in_edges[k];
    return GS_NONE;
}

static int push_cut(cut_vec *cuts, uint32_t edge, gs_ns cost)
{
    rp_cut *c = GS_VEC_PUSH(cuts);
    if (!c)
        return -1;
    *c = (rp_cut){edge, cost};
    return 0;
}

/* Each event's cost on the host edge into it. */
static int direct_cuts(const gs_replay *m, cut_vec *cuts)
{
    const gs_trace *t = m->ctx->trace;
    for (size_t r = 0; r < t->ranges.n; r++) {
        uint32_t p = m->range_start[r];
        gs_ns cost = p != GS_NONE ? gs_profiler_range_cost(&m->facts, &t->ranges.v[r]) : 0;
        uint32_t e = cost ? host_edge_into(m, p) : GS_NONE;
        if (e != GS_NONE && push_cut(cuts, e, cost) != 0)
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

/* Adds `ns` to what is owed before point `at`, unless `at` starts or ends a kept step: the cost
 * stays in its step. */
static int owe(const gs_replay *m, debt_vec *debts, uint32_t at, gs_ns ns)
{
    if (ns <= 0 || m->step_mark[at])
        return 0;
    for (size_t i = 0; i < debts->n; i++)
        if (debts->v[i].at == at) {
            debts->v[i].ns += ns;
            return 0;
        }
    rp_debt *d = GS_VEC_PUSH(debts);
    if (!d)
        return -1;
    *d = (rp_debt){at, ns};
    return 0;
}

/* What is owed before point p, taken off the list (a lane's debt moves point by point). */
static gs_ns settle(debt_vec *debts, uint32_t p)
{
    for (size_t i = 0; i < debts->n; i++)
        if (debts->v[i].at == p) {
            gs_ns ns = debts->v[i].ns;
            debts->v[i] = debts->v[--debts->n];
            return ns;
        }
    return 0;
}

/* Walks the points from the last back, each lane's debt moving to the point before: a busy
 * segment (not a wait for another thread, not a call, whose time is the runtime's) pays what
 * its own events' costs left free; the rest moves on. The list of debts holds at most one per
 * host lane. */
static int carry_back(const gs_replay *m, cut_vec *cuts)
{
    gs_ns *direct = calloc(m->npoints ? m->npoints : 1, sizeof *direct);
    debt_vec debts = {0};
    if (!direct)
        return -1;
    for (size_t i = 0; i < cuts->n; i++)
        direct[m->edges[cuts->v[i].edge].to] += cuts->v[i].cost;
    int rc = 0;
    for (size_t i = m->npoints; i-- > 0 && rc == 0;) {
        uint32_t p = m->order[i];
        gs_ns owed = debts.n ? settle(&debts, p) : 0;
        if (!owed && !direct[p])
            continue;
        uint32_t e = host_edge_into(m, p);
        if (e == GS_NONE)
            continue;
        const rp_edge *edge = &m->edges[e];
        gs_ns lag = edge->lag == RP_OFF ? 0 : edge->lag;
        gs_ns left = lag > direct[p] ? lag - direct[p] : 0;
        gs_ns over = direct[p] - (lag - left);
        gs_ns take = 0;
        if (edge->kind == RP_SEGMENT && !(edge->flags & RP_IDLE))
            take = owed < left ? owed : left;
        if (take)
            rc = push_cut(cuts, e, take);
        if (rc == 0)
            rc = owe(m, &debts, edge->from, owed - take + over);
    }
    free(direct);
    GS_VEC_FREE(&debts);
    return rc;
}

int rp_profiler_cuts(gs_replay *m)
{
    cut_vec cuts = {0};
    if (direct_cuts(m, &cuts) != 0 || carry_back(m, &cuts) != 0) {
        GS_VEC_FREE(&cuts);
        return -1;
    }
    m->profiler_cuts = cuts.v;
    m->nprofiler_cuts = cuts.n;
    return 0;
}
