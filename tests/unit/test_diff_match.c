/* Pairing kernels across two runs (compare/match.h): by name, then a leftover kernel by a launch
 * shape that is unique among the leftovers of both sides; the rest is added or removed; times and
 * counts per kept step; the order of the lists. */
#include <math.h>

#include "check.h"
#include "compare/match.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static gs_act act(const char *name, int32_t grid, int32_t block, uint64_t count, gs_ns total)
{
    return (gs_act){.name = name, .grid = {grid, 1, 1}, .block = {block, 1, 1}, .count = count,
                    .total = total};
}

/* Sets are in strcmp order, as gs_activity_build leaves them. */
static gs_act base_v[6], new_v[5];

static void make_sets(gs_act_set *b, gs_act_set *n)
{
    base_v[0] = act("gemm", 128, 256, 20, 2000000); /* 10 steps: 2 per step, 100 us per step */
    base_v[1] = act("gone", 2, 32, 10, 30000);
    base_v[2] = act("no_shape", 0, 0, 10, 5000);
    base_v[3] = act("triton_poi_fused_add_0", 7, 64, 10, 50000);
    base_v[4] = act("twin_a", 5, 128, 10, 7000);
    base_v[5] = act("twin_b", 5, 128, 10, 8000);
    new_v[0] = act("fresh", 3, 32, 5, 40000); /* 5 steps */
    new_v[1] = act("gemm", 128, 256, 10, 1500000);
    new_v[2] = act("no_shape_2", 0, 0, 5, 2500);
    new_v[3] = act("other", 5, 128, 5, 4000);
    new_v[4] = act("triton_poi_fused_add_1", 7, 64, 5, 26000);
    *b = (gs_act_set){.v = base_v, .n = N_OF(base_v)};
    *n = (gs_act_set){.v = new_v, .n = N_OF(new_v)};
}

static const gs_delta *find(const gs_delta_list *l, const char *name)
{
    for (size_t i = 0; i < l->n; i++) {
        const gs_act *const *a2 = l->v[i].act;
        const gs_act *a = a2[GS_SIDE_NEW] ? a2[GS_SIDE_NEW] : a2[GS_SIDE_BASE];
        if (!strcmp(a->name, name))
            return &l->v[i];
    }
    return NULL;
}

static void test_by_shape(void)
{
    gs_act_set b, n;
    make_sets(&b, &n);
    const gs_act_set *sets[GS_SIDES] = {&b, &n};
    const size_t steps[GS_SIDES] = {10, 5};
    gs_delta_list matched, only;
    CHECK_INT(gs_match_sets(sets, steps, true, &matched, &only), 0);
    CHECK_INT(matched.n, 2);
    /* gemm: 200 us -> 300 us per step, 2 calls per step on both sides, avg 100 us -> 150 us. */
    CHECK_STR(matched.v[0].act[GS_SIDE_NEW]->name, "gemm");
    CHECK_INT(matched.v[0].match, GS_MATCH_NAME);
    CHECK(matched.v[0].time[GS_SIDE_BASE] == 200000 && matched.v[0].time[GS_SIDE_NEW] == 300000);
    CHECK(matched.v[0].dtime == 100000 && matched.v[0].dtime_pct == 50);
    CHECK(matched.v[0].count[GS_SIDE_BASE] == 2 && matched.v[0].count[GS_SIDE_NEW] == 2);
    CHECK(matched.v[0].avg[GS_SIDE_BASE] == 100000 && matched.v[0].avg[GS_SIDE_NEW] == 150000);
    /* The renamed Triton kernel: its shape 7x1x1/64x1x1 is unique on both sides. */
    CHECK_INT(matched.v[1].match, GS_MATCH_SHAPE);
    CHECK_STR(matched.v[1].act[GS_SIDE_BASE]->name, "triton_poi_fused_add_0");
    CHECK_STR(matched.v[1].act[GS_SIDE_NEW]->name, "triton_poi_fused_add_1");
    CHECK(matched.v[1].dtime == 200);
    /* twin_a and twin_b share 5x1x1/128x1x1 in BASE: "other" is not paired with either; kernels
     * of unknown shape are never paired. */
    CHECK_INT(only.n, 7);
    const char *removed[] = {"gone", "no_shape", "twin_a", "twin_b"};
    for (size_t i = 0; i < N_OF(removed); i++) {
        const gs_delta *d = find(&only, removed[i]);
        CHECK(d && d->match == GS_MATCH_REMOVED && !d->act[GS_SIDE_NEW] && d->dtime_pct == -100);
    }
    const char *added[] = {"fresh", "other", "no_shape_2"};
    for (size_t i = 0; i < N_OF(added); i++) {
        const gs_delta *d = find(&only, added[i]);
        CHECK(d && d->match == GS_MATCH_ADDED && !d->act[GS_SIDE_BASE] && isnan(d->dtime_pct));
    }
    /* By time per step on its side: fresh 8 us, gone 3 us, other 800 ns, twin_b 800 ns, twin_a
     * 700 ns, no_shape 500 ns, no_shape_2 500 ns; equal times: removed before added, then name. */
    CHECK_STR(only.v[0].act[GS_SIDE_NEW]->name, "fresh");
    CHECK(only.v[0].time[GS_SIDE_NEW] == 8000);
    CHECK_STR(only.v[1].act[GS_SIDE_BASE]->name, "gone");
    CHECK_INT(only.v[2].match, GS_MATCH_REMOVED);
    CHECK_STR(only.v[2].act[GS_SIDE_BASE]->name, "twin_b");
    CHECK_STR(only.v[3].act[GS_SIDE_NEW]->name, "other");
    gs_delta_list_free(&matched);
    gs_delta_list_free(&only);
}

static void test_rate(void)
{
    /* The same unique shape, but 1 call per step against 5: not the same kernel. */
    gs_act b[] = {act("k_base", 9, 96, 10, 1000)}, n[] = {act("k_new", 9, 96, 50, 1000)};
    gs_act_set sb = {.v = b, .n = 1}, sn = {.v = n, .n = 1};
    const gs_act_set *sets[GS_SIDES] = {&sb, &sn};
    const size_t steps[GS_SIDES] = {10, 10};
    gs_delta_list matched, only;
    CHECK_INT(gs_match_sets(sets, steps, true, &matched, &only), 0);
    CHECK_INT(matched.n, 0);
    CHECK_INT(only.n, 2);
    gs_delta_list_free(&matched);
    gs_delta_list_free(&only);
    n[0].count = 20; /* 2 per step against 1: still the same kernel, launched twice as often */
    CHECK_INT(gs_match_sets(sets, steps, true, &matched, &only), 0);
    CHECK_INT(matched.n, 1);
    gs_delta_list_free(&matched);
    gs_delta_list_free(&only);
}

static void test_names_only(void)
{
    gs_act_set b, n;
    make_sets(&b, &n);
    const gs_act_set *sets[GS_SIDES] = {&b, &n};
    const size_t steps[GS_SIDES] = {10, 5};
    gs_delta_list matched, only;
    CHECK_INT(gs_match_sets(sets, steps, false, &matched, &only), 0);
    CHECK_INT(matched.n, 1); /* operators: by name only */
    CHECK_INT(only.n, 9);
    const gs_delta *d = find(&only, "triton_poi_fused_add_1");
    CHECK(d && d->match == GS_MATCH_ADDED);
    gs_delta_list_free(&matched);
    gs_delta_list_free(&only);
}

static void test_empty(void)
{
    gs_act_set e = {0};
    const gs_act_set *sets[GS_SIDES] = {&e, &e};
    const size_t steps[GS_SIDES] = {0, 0};
    gs_delta_list matched, only;
    CHECK_INT(gs_match_sets(sets, steps, true, &matched, &only), 0);
    CHECK_INT(matched.n, 0);
    CHECK_INT(only.n, 0);
    gs_delta_list_free(&matched);
    gs_delta_list_free(&only);
}

int main(void)
{
    test_by_shape();
    test_rate();
    test_names_only();
    test_empty();
    return check_done("test_diff_match");
}
