/* The replay's graph storage (analysis/replay/replay_graph.c) on a graph built point by point:
 * Kahn's order with a cycle of two points that tie in time (the earliest is released, and the
 * edge back becomes one against the order), the edges grouped by their end in the order they
 * were built, the anchors (the points that keep their measured time), and evaluations that read
 * an anchor across the broken cycle and a lag too long for 32 bits. */
#include "check.h"
#include "replay_graph_fixture.h"

#define LONG_LAG ((gs_ns)3000000000)

static void test_cycle_order_and_evaluation(void)
{
    rp_fixture f;
    rpf_begin(&f, tb_new("graph.json", 0));
    rp_builder *b = &f.b;
    /* a and b tie at 10 and wait for each other; c (5) has no in-edge; d (20) ends c's GPU op
     * and b launches to it */
    uint32_t a, bb, cc, d;
    CHECK_INT(rp_point(b, 10, &a), 0);
    CHECK_INT(rp_point(b, 10, &bb), 0);
    CHECK_INT(rp_point(b, 5, &cc), 0);
    CHECK_INT(rp_point(b, 20, &d), 0);
    CHECK_INT(rp_edge_add(b, a, bb, 0, RP_SEGMENT, 0, GS_NONE), 0);
    CHECK_INT(rp_edge_add(b, bb, a, 0, RP_SEGMENT, 0, GS_NONE), 0);
    CHECK_INT(rp_edge_add(b, cc, d, 15, RP_GPU, 0, 0), 0);
    CHECK_INT(rp_edge_add(b, bb, d, 3, RP_LAUNCH, 0, 0), 0);

    gs_replay *m = rpf_model(&f);
    CHECK_INT(rpf_finish(&f, m, 0), 0);

    /* Kahn: c first (5, ready), then the cycle's earliest, a (10, the lower number), then b, d */
    CHECK_INT(m->inputs.clipped, 1);
    CHECK_INT(m->nedges, 4);
    static const uint32_t first_in[] = {0, 0, 1, 2, 4};
    for (int p = 0; p < 5; p++)
        CHECK_INT(m->first_in[p], first_in[p]);
    CHECK_INT(m->edges[0].from, 2); /* into a: from b, against the order */
    CHECK_INT(m->edges[1].from, 1); /* into b: from a */
    CHECK_INT(m->edges[2].kind, RP_GPU); /* into d, as built: c's op, then b's launch */
    CHECK_INT(m->edges[3].kind, RP_LAUNCH);
    /* anchors: c (no in-edge) and b (an edge against the order leaves from it) */
    CHECK_INT(m->nanchors, 2);
    CHECK_INT(m->anchors[0].point, 0);
    CHECK_INT(m->anchors[0].time, 5);
    CHECK_INT(m->anchors[1].point, 2);
    CHECK_INT(m->anchors[1].time, 10);
    CHECK(m->time == NULL);

    gs_ns at[4];
    rp_evaluate(m, &m->lags, NULL, at);
    CHECK_INT(at[0], 5);
    CHECK_INT(at[1], 10); /* b's measured time + 0 */
    CHECK_INT(at[2], 10);
    CHECK_INT(at[3], 20); /* c + 15, over b + 3 */

    rp_lags run;
    CHECK_INT(rp_lags_init(&run, m->nedges), 0);
    CHECK_INT(rp_lags_copy(&run, &m->lags), 0);
    CHECK_INT(rp_lag_set(&run, 0, 4), 0);        /* b to a: 4 */
    CHECK_INT(rp_lag_set(&run, 2, 1), 0);        /* c's op: 1 */
    CHECK_INT(rp_lag_set(&run, 3, LONG_LAG), 0); /* b's launch: 3 s */
    rp_evaluate(m, &run, NULL, at);
    CHECK_INT(at[1], 14);
    CHECK_INT(at[2], 14);
    CHECK_INT(at[3], 14 + LONG_LAG);
    CHECK_INT(rp_lag_set(&run, 3, RP_OFF), 0); /* the launch off: c's op alone */
    rp_evaluate(m, &run, NULL, at);
    CHECK_INT(at[3], 6);
    rp_lags_free(&run);
    rpf_end(&f, m);
}

/* rp_lane_before searches from its last answer: whatever came before, each answer is the one a
 * plain binary search gives, on a lane of 2,000 points with runs of equal times, for queries in
 * order, backwards, and at random, before, at and after its points. */
static void test_lane_before_from_last_answer(void)
{
    enum { N = 2000 };
    rp_builder b = {0};
    rp_lane lane = {0};
    for (uint32_t i = 0; i < N; i++) {
        uint32_t p;
        CHECK_INT(rp_point(&b, (gs_ns)(i / 3) * 10, &p), 0); /* three points a time */
        rp_lane_point(&lane, p);
    }
    uint64_t seed = 7;
    bool same = true;
    for (int q = 0; q < 30000; q++) {
        gs_ns ts;
        if (q < 7000)
            ts = q - 5; /* in order, from before the first point */
        else if (q < 14000)
            ts = 7000 - (q - 7000); /* backwards, to past the last */
        else {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            ts = (gs_ns)(seed % 7000) - 10;
        }
        bool at = q % 2;
        size_t lo = 0, hi = N;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            gs_ns v = b.time.v[mid];
            if (v < ts || (at && v == ts))
                lo = mid + 1;
            else
                hi = mid;
        }
        same &= rp_lane_before(&b, &lane, ts, at) == lo;
    }
    CHECK(same);
    GS_VEC_FREE(&b.time);
}

int main(void)
{
    test_cycle_order_and_evaluation();
    test_lane_before_from_last_answer();
    return check_done("test_replay_graph");
}
