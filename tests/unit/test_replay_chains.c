/* The chains of segments (analysis/replay/replay_chains.c) on a lane built point by point: each
 * run of segments whose inner points nothing else holds becomes one edge of the graph with their
 * sum for lag, and its segments follow the graph's edges, pointing at it; a call, a launch's
 * source and a point another thread's edge ends at each end a chain. The points left are numbered
 * again, the op's with them. A range starting inside a chain gets the segment into its start; a
 * run's change of a segment (put_lag) moves its chain's lag by as much, and the evaluation
 * follows. */
#include "analysis/replay/replay_tx.h"
#include "check.h"
#include "replay_graph_fixture.h"

enum { NPOINTS = 10 };

static void test_chains(void)
{
    gs_trace *t = tb_new("chains.json", 0);
    tb_range(t, GS_RANGE_OP, "aten::add", 20, 25, NULL); /* starts inside the first chain */
    tb_range(t, GS_RANGE_OP, "aten::mul", 30, 40, NULL); /* starts at the call, no chain's */
    rp_fixture f;
    rpf_begin(&f, t);
    rp_builder *b = &f.b;
    /* the lane p0 .. p7, then a GPU op g0 .. g1 */
    static const gs_ns times[NPOINTS] = {10, 15, 20, 30, 40, 45, 47, 49, 35, 50};
    uint32_t p[NPOINTS];
    for (int i = 0; i < NPOINTS; i++)
        CHECK_INT(rp_point(b, times[i], &p[i]), 0);
    static const uint8_t kinds[7] = {RP_SEGMENT, RP_SEGMENT, RP_SEGMENT, RP_CALL,
                                     RP_SEGMENT, RP_SEGMENT, RP_SEGMENT};
    for (int k = 0; k < 7; k++) /* the lane's own edges, first */
        CHECK_INT(rp_edge_add(b, p[k], p[k + 1], times[k + 1] - times[k], kinds[k], 0,
                              kinds[k] == RP_CALL ? 0 : GS_NONE),
                  0);
    CHECK_INT(rp_edge_add(b, p[3], p[8], 5, RP_LAUNCH, 0, 0), 0);
    CHECK_INT(rp_edge_add(b, p[8], p[9], 15, RP_GPU, 0, 0), 0);
    CHECK_INT(rp_edge_add(b, p[8], p[6], 12, RP_WAKE, 0, GS_NONE), 0);

    gs_replay *m = rpf_model(&f);
    m->range_start[0] = p[2];
    m->range_start[1] = p[3];
    m->ops = calloc(1, sizeof *m->ops);
    m->ops[0] = (rp_op){.start = p[8], .end = p[9], .call = GS_NONE, .launch = p[3], .step = -1};
    m->nops = 1;
    CHECK_INT(rpf_finish(&f, m, 7), 0);

    /* p1, p2 and p5 are inner: chains p0-p3 (3 segments) and p4-p6 (2); p6 ends the second, as
     * the wake's end; p3 and p4 are the call's */
    CHECK_INT(m->npoints, NPOINTS - 3);
    CHECK_INT(m->nchains, 2);
    CHECK_INT(m->ngraph, 7); /* 2 chains, the call, the last segment, launch, op, wake */
    CHECK_INT(m->nedges, 12);
    CHECK_INT(m->chain_first[0], 7);
    CHECK_INT(m->chain_first[1], 10);
    CHECK_INT(m->chain_first[2], 12);
    uint32_t chain[2] = {GS_NONE, GS_NONE};
    for (uint32_t e = 0; e < m->ngraph; e++)
        if (m->edges[e].kind == RP_CHAIN)
            chain[m->edges[e].ref] = e;
    CHECK(chain[0] != GS_NONE && chain[1] != GS_NONE);
    CHECK_INT(rp_lag(&m->lags, chain[0]), 20);
    CHECK_INT(rp_lag(&m->lags, chain[1]), 7);
    for (uint32_t s = 7; s < 12; s++) {
        CHECK_INT(m->edges[s].kind, RP_SEGMENT);
        CHECK_INT(m->edges[s].from, chain[s < 10 ? 0 : 1]);
    }
    CHECK_INT(rp_lag(&m->lags, 8), 5); /* p1 to p2 */
    CHECK_INT(rp_lag(&m->lags, 9), 10);
    /* the range at p2 gets the segment into it; the one at p3 keeps its point (the second) */
    CHECK(m->range_seg != NULL);
    CHECK_INT(m->range_seg[0], 8); /* p1 to p2 */
    CHECK_INT(m->range_seg[1], GS_NONE);
    CHECK_INT(m->range_start[0], GS_NONE);
    CHECK_INT(m->range_start[1], 1);

    /* in order: p0 10, p3 30, g0 35, p4 40, p6 47, p7 49, g1 50; the op's points follow */
    CHECK_INT(m->ops[0].launch, 1);
    CHECK_INT(m->ops[0].start, 2);
    CHECK_INT(m->ops[0].end, 6);
    gs_ns at[NPOINTS - 3];
    static const gs_ns measured[NPOINTS - 3] = {10, 30, 35, 40, 47, 49, 50};
    rp_evaluate(m, &m->lags, NULL, at);
    for (int i = 0; i < NPOINTS - 3; i++)
        CHECK_INT(at[i], measured[i]);

    /* a run takes 3 from the segment p1-p2: its chain's lag and every point after follow */
    rp_lags run;
    CHECK_INT(rp_lags_init(&run, m->nedges), 0);
    CHECK_INT(rp_lags_copy(&run, &m->lags), 0);
    tx x = {.m = m, .t = f.t, .e = m->edges, .lag = &run};
    put_lag(&x, 8, 2);
    CHECK(x.touched && !x.failed);
    CHECK_INT(rp_lag(&run, chain[0]), 17);
    put_lag(&x, 10, RP_OFF); /* a segment stays on */
    CHECK(x.kept_off);
    rp_evaluate(m, &run, NULL, at);
    static const gs_ns replayed[NPOINTS - 3] = {10, 27, 32, 37, 44, 46, 47};
    for (int i = 0; i < NPOINTS - 3; i++)
        CHECK_INT(at[i], replayed[i]);
    rp_lags_free(&run);
    rpf_end(&f, m);
}

/* A lane without a run to join (a call between every two segments) keeps every point and edge,
 * and no segment follows the graph's. */
static void test_no_chain(void)
{
    rp_fixture f;
    rpf_begin(&f, tb_new("nochain.json", 0));
    rp_builder *b = &f.b;
    uint32_t p[4];
    for (int i = 0; i < 4; i++)
        CHECK_INT(rp_point(b, 10 * i, &p[i]), 0);
    CHECK_INT(rp_edge_add(b, p[0], p[1], 10, RP_SEGMENT, 0, GS_NONE), 0);
    CHECK_INT(rp_edge_add(b, p[1], p[2], 10, RP_CALL, 0, 0), 0);
    CHECK_INT(rp_edge_add(b, p[2], p[3], 10, RP_SEGMENT, 0, GS_NONE), 0);
    gs_replay *m = rpf_model(&f);
    CHECK_INT(rpf_finish(&f, m, 3), 0);
    CHECK_INT(m->npoints, 4);
    CHECK_INT(m->nchains, 0);
    CHECK_INT(m->ngraph, 3);
    CHECK_INT(m->nedges, 3);
    CHECK(m->range_seg == NULL);
    rpf_end(&f, m);
}

int main(void)
{
    test_chains();
    test_no_chain();
    return check_done("test_replay_chains");
}
