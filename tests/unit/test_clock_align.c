/* Clock alignment (analysis/crossrank/clock_align.h) on hand-made ranks whose clocks are shifted by known
 * offsets: every all-reduce ends at the same true instant on every rank, give or take a known
 * jitter, so the median of the end differences is the offset; one instance where a rank's end is
 * far off (descheduled) must not move it. Times in µs. */
#include "analysis/crossrank/clock_align.h"

#include "check.h"
#include "trace_builder.h"

#define US 1000
#define MAX_RANKS 8
#define AR "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"

static void test_median(void)
{
    gs_ns odd[] = {5, -3, 9}, even[] = {4, 1, 3, 2}, neg[] = {-3, -2}, one[] = {7};
    CHECK_INT(gs_median_ns(odd, 3), 5);
    CHECK_INT(gs_median_ns(even, 4), 2); /* (2 + 3) / 2 rounded down */
    CHECK_INT(gs_median_ns(neg, 2), -3); /* -2.5 toward minus infinity */
    CHECK_INT(gs_median_ns(one, 1), 7);
}

/* Rank r: n all-reduces, the i-th from (1000 i + start) to (1000 i + 500 + jitter) true µs,
 * written on a clock `offset` µs ahead. */
static gs_trace *rank_trace(int32_t rank, gs_ns offset, size_t n, const gs_ns *start,
                            const gs_ns *jitter)
{
    gs_trace *t = tb_new("rank.json", rank);
    for (size_t i = 0; i < n; i++) {
        gs_ns base = (gs_ns)i * 1000 + offset;
        tb_kernel(t, AR, (base + start[i]) * US, (base + 500 + jitter[i]) * US, i + 1);
    }
    return t;
}

/* The collectives of the ranks `sel` selects, matched as the report matches its ranks: each
 * trace's collectives found through its context, then matched by rank id. */
static int match(const gs_profile *p, const gs_select *sel, gs_coll_match *m, gs_error *err)
{
    const gs_rank_id *ids[MAX_RANKS];
    gs_collectives colls[MAX_RANKS];
    size_t n = 0;
    int rc = 0;
    for (size_t i = 0; i < p->traces.n && n < MAX_RANKS && rc == 0; i++) {
        if (!gs_selected(sel, &p->traces.v[i]->id))
            continue;
        gs_trace_ctx c = tb_ctx(p->traces.v[i], NULL);
        rc = gs_collectives_find(&c, &colls[n], err);
        gs_trace_ctx_free(&c);
        if (rc == 0)
            ids[n++] = &p->traces.v[i]->id;
    }
    if (rc == 0)
        rc = gs_coll_match_from(ids, colls, n, m, err);
    for (size_t r = 0; r < n; r++)
        gs_collectives_free(&colls[r]); /* the match holds copies */
    return rc;
}

static void test_offsets_and_residual(void)
{
    const gs_ns s0[] = {100, 100, 100, 100, 100}, s1[] = {50, 60, 70, 80, 90},
                s2[] = {300, 300, 300, 300, 300};
    const gs_ns j0[] = {0, 0, 0, 0, 0}, j1[] = {2, 0, -2, 0, 0}, j2[] = {0, 1, 0, 400, -1};
    gs_profile p = {0};
    tb_add(&p, rank_trace(0, 0, 5, s0, j0));
    tb_add(&p, rank_trace(1, 5000, 5, s1, j1));   /* 5 ms ahead */
    tb_add(&p, rank_trace(2, -3000, 5, s2, j2));  /* 3 ms behind, one end 400 µs late */
    gs_coll_match m;
    gs_clock c;
    gs_error err;
    CHECK(match(&p, NULL, &m, &err) == 0);
    CHECK_INT(m.n, 5);
    CHECK(gs_clock_align(&m, true, &c, &err) == 0);
    CHECK(c.aligned);
    CHECK_INT(c.ranks[0].offset_ns, 0);
    /* differences 2, 0, -2, 0, 0 µs: median 0 */
    CHECK_INT(c.ranks[1].offset_ns, 5000 * US);
    /* differences 0, 1, 0, 400, -1 µs: median 0, the outlier ignored */
    CHECK_INT(c.ranks[2].offset_ns, -3000 * US);
    /* aligned ends per instance (µs past 500): {0,2,0} {0,0,1} {0,-2,0} {0,0,400} {0,0,-1};
     * median 0 each, so the residuals are |jitter|: rank 1 {2,0,2,0,0}, rank 2 {0,1,0,400,1} */
    CHECK_INT(c.ranks[0].residual_max_ns, 0);
    CHECK_INT(c.ranks[1].residual_med_ns, 0);
    CHECK_INT(c.ranks[1].residual_max_ns, 2 * US);
    CHECK_INT(c.ranks[2].residual_med_ns, 1 * US);
    CHECK_INT(c.ranks[2].residual_max_ns, 400 * US);
    CHECK_INT(c.residual_max_ns, 400 * US);
    CHECK_INT(c.residual_med_ns, 0); /* 15 values, 10 of them 0 */
    /* the common clock: rank 1's time minus 5 ms */
    CHECK_INT(gs_clock_at(&c, 1, 5100 * US), 100 * US);
    gs_clock_free(&c);

    /* not aligned: offsets 0, the residual shows how far apart the clocks are */
    CHECK(gs_clock_align(&m, false, &c, &err) == 0);
    CHECK(!c.aligned);
    CHECK_INT(c.ranks[1].offset_ns, 0);
    CHECK_INT(c.ranks[1].residual_med_ns, 5000 * US); /* median end is rank 0's */
    gs_clock_free(&c);
    gs_coll_match_free(&m);
    gs_profile_free(&p);
}

/* Absolute clocks: a file whose times are relative to another epoch is aligned through
 * epoch_ns, and its offset is the difference of the true clocks only. */
static void test_epoch(void)
{
    const gs_ns s[] = {100, 100, 100}, j[] = {0, 0, 0};
    gs_profile p = {0};
    tb_add(&p, rank_trace(0, 0, 3, s, j));
    gs_trace *t = rank_trace(1, 7, 3, s, j);
    /* the same kernels written relative to an epoch 1 s later */
    for (size_t i = 0; i < t->kernels.n; i++) {
        t->kernels.v[i].start -= 1000000 * US;
        t->kernels.v[i].end -= 1000000 * US;
    }
    t->id.epoch_ns = 1000000 * US;
    tb_add(&p, t);
    gs_coll_match m;
    gs_clock c;
    gs_error err;
    CHECK(match(&p, NULL, &m, &err) == 0);
    CHECK(gs_clock_align(&m, true, &c, &err) == 0);
    CHECK_INT(c.ranks[1].offset_ns, 7 * US);
    CHECK_INT(c.ranks[1].shift_ns, 1000000 * US - 7 * US);
    CHECK_INT(c.residual_max_ns, 0);
    gs_clock_free(&c);
    gs_coll_match_free(&m);
    gs_profile_free(&p);
}

/* Matching: a rank with one all-reduce fewer leaves the last one unmatched; send/recv kernels
 * are never matched (they pair two peers, not every rank); nothing matched: not aligned. */
static void test_matching(void)
{
    const gs_ns s[] = {100, 100, 100}, j[] = {0, 0, 0};
    gs_profile p = {0};
    gs_trace *a = rank_trace(0, 0, 3, s, j), *b = rank_trace(1, 0, 2, s, j);
    tb_kernel(a, "ncclDevKernel_SendRecv_Sum_int8_t", 5000 * US, 5100 * US, 50);
    tb_kernel(b, "ncclDevKernel_SendRecv_Sum_int8_t", 6000 * US, 6100 * US, 50);
    tb_add(&p, a);
    tb_add(&p, b);
    gs_coll_match m;
    gs_clock c;
    gs_error err;
    CHECK(match(&p, NULL, &m, &err) == 0);
    CHECK_INT(m.nranks, 2);
    CHECK_INT(m.n, 2);
    CHECK_INT(m.v[1].seq, 1);
    CHECK(gs_coll_at(&m, 1, 1)->start == 1100 * US);
    gs_coll_match_free(&m);

    gs_select only0 = {.by_rank = true, .rank = 0};
    CHECK(match(&p, &only0, &m, &err) == 0);
    CHECK_INT(m.nranks, 1);
    CHECK(gs_clock_align(&m, true, &c, &err) == 0);
    CHECK(!c.aligned); /* one rank: nothing to align */
    gs_clock_free(&c);
    gs_coll_match_free(&m);
    gs_profile_free(&p);
}

int main(void)
{
    test_median();
    test_offsets_and_residual();
    test_epoch();
    test_matching();
    return check_done("clock_align");
}
