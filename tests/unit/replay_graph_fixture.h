/* A replay graph built point by point in a unit test (rp_point, rp_edge_add) and taken into a
 * model that rp_finish orders, as gs_replay_graph does: the trace it belongs to, indexed, the
 * trace's context and the builder (test_replay_graph.c, test_replay_chains.c; the replays built
 * from whole traces are replay_fixture.h's). */
#ifndef GS_TEST_REPLAY_GRAPH_FIXTURE_H
#define GS_TEST_REPLAY_GRAPH_FIXTURE_H

#include <stdlib.h>
#include <string.h>

#include "analysis/replay/replay_build.h"
#include "trace_builder.h"

typedef struct rp_fixture {
    gs_trace *t;
    gs_trace_ctx c;
    rp_builder b;
} rp_fixture;

/* Indexes t (made with tb_new, its events added) and starts a builder over it. */
static inline void rpf_begin(rp_fixture *f, gs_trace *t)
{
    gs_error err;
    if (gs_trace_index(t, &err) != 0)
        abort();
    f->t = t;
    f->c = tb_ctx(t, NULL);
    f->b = (rp_builder){.c = &f->c, .t = t};
    if (rp_lags_init(&f->b.lags, 0) != 0)
        abort();
}

/* A model of the builder's points, for rp_finish: no range starts at a point (range_start all
 * GS_NONE), no op, no step. */
static inline gs_replay *rpf_model(rp_fixture *f)
{
    size_t nranges = f->t->ranges.n ? f->t->ranges.n : 1, napis = f->t->apis.n ? f->t->apis.n : 1;
    gs_replay *m = calloc(1, sizeof *m);
    if (!m)
        abort();
    m->ctx = &f->c;
    m->npoints = f->b.time.n;
    m->time = f->b.time.v;
    m->range_start = malloc(nranges * sizeof *m->range_start);
    m->call_edge = malloc(napis * sizeof *m->call_edge);
    if (!m->range_start || !m->call_edge)
        abort();
    memset(m->range_start, 0xff, nranges * sizeof *m->range_start);
    return m;
}

/* rp_finish on the builder's edges, the first nhost of them a lane's own (rp_build_host's). */
static inline int rpf_finish(rp_fixture *f, gs_replay *m, size_t nhost)
{
    return rp_finish(m, f->b.edges.v, f->b.edge_to.v, &f->b.lags, nhost);
}

static inline void rpf_end(rp_fixture *f, gs_replay *m)
{
    gs_replay_free(m);
    gs_trace_ctx_free(&f->c);
    gs_trace_delete(f->t);
}

#endif
