/* A rank's identity (model/trace.h): the order of a profile's traces (by rank, then path) and the
 * copy a result keeps of it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/util.h"
#include "model/trace.h"

static int sign(int v)
{
    return (v > 0) - (v < 0);
}

static void test_order(void)
{
    char a[] = "a/rank.json", b[] = "b/rank.json";
    const gs_rank_id r0a = {.path = a, .rank = 0}, r0b = {.path = b, .rank = 0},
                     r1a = {.path = a, .rank = 1};
    /* the rank first, whatever the paths */
    CHECK_INT(sign(gs_rank_id_cmp(&r0b, &r1a)), -1);
    CHECK_INT(sign(gs_rank_id_cmp(&r1a, &r0b)), 1);
    /* then the path */
    CHECK_INT(sign(gs_rank_id_cmp(&r0a, &r0b)), -1);
    CHECK_INT(sign(gs_rank_id_cmp(&r0b, &r0a)), 1);
    CHECK_INT(gs_rank_id_cmp(&r0a, &r0a), 0);
    /* the same rank and path: equal, whatever else differs */
    char a_again[] = "a/rank.json";
    const gs_rank_id r0a_other = {.path = a_again, .rank = 0, .world_size = 8, .epoch_ns = 5,
                                  .source = GS_RANK_FROM_FILENAME};
    CHECK_INT(gs_rank_id_cmp(&r0a, &r0a_other), 0);
    /* no path orders as an empty one */
    const gs_rank_id no_path = {.rank = 0}, empty = {.path = (char[]){""}, .rank = 0};
    CHECK_INT(gs_rank_id_cmp(&no_path, &empty), 0);
    CHECK_INT(sign(gs_rank_id_cmp(&no_path, &r0a)), -1);
    /* the extremes compare without overflow */
    const gs_rank_id low = {.path = a, .rank = INT32_MIN}, high = {.path = a, .rank = INT32_MAX};
    CHECK_INT(sign(gs_rank_id_cmp(&low, &high)), -1);
    CHECK_INT(sign(gs_rank_id_cmp(&high, &low)), 1);
}

static int cmp_id_ptr(const void *pa, const void *pb)
{
    return gs_rank_id_cmp(*(const gs_rank_id *const *)pa, *(const gs_rank_id *const *)pb);
}

/* Traces as a folder lists them, put in a profile's order. */
static void test_profile_order(void)
{
    char p0[] = "run/r0.json", p1[] = "run/r1.json", p10[] = "run/r10.json", q1[] = "old/r1.json";
    gs_rank_id ids[] = {{.path = p10, .rank = 10}, {.path = p1, .rank = 1},
                        {.path = q1, .rank = 1},   {.path = p0, .rank = 0}};
    const gs_rank_id *v[] = {&ids[0], &ids[1], &ids[2], &ids[3]};
    gs_stable_sort(v, COUNT_OF(v), sizeof v[0], cmp_id_ptr);
    CHECK(v[0] == &ids[3]);
    CHECK(v[1] == &ids[2]); /* rank 1: "old/..." before "run/..." */
    CHECK(v[2] == &ids[1]);
    CHECK(v[3] == &ids[0]); /* 10 after 1 as a number, not as text */
}

static void test_copy(void)
{
    char path[] = "rank3.json";
    const gs_rank_id src = {.path = path, .rank = 3, .world_size = 8,
                            .source = GS_RANK_FROM_METADATA, .epoch_ns = 1700000000000000000};
    gs_rank_id copy;
    CHECK_INT(gs_rank_id_copy(&copy, &src), 0);
    CHECK(copy.path != src.path); /* its own */
    CHECK_STR(copy.path, "rank3.json");
    CHECK_INT(copy.rank, 3);
    CHECK_INT(copy.world_size, 8);
    CHECK_INT(copy.source, GS_RANK_FROM_METADATA);
    CHECK_INT(copy.epoch_ns, 1700000000000000000);
    CHECK_INT(gs_rank_id_cmp(&copy, &src), 0);
    path[0] = 'X'; /* the source changes or goes: the copy keeps its path */
    CHECK_STR(copy.path, "rank3.json");

    /* a copy of a copy, freed in either order */
    gs_rank_id again;
    CHECK_INT(gs_rank_id_copy(&again, &copy), 0);
    gs_rank_id_free(&copy);
    CHECK(copy.path == NULL);
    CHECK_INT(copy.rank, 0);
    CHECK_STR(again.path, "rank3.json");
    gs_rank_id_free(&again);

    /* no path: the copy has an empty one */
    gs_rank_id none;
    CHECK_INT(gs_rank_id_copy(&none, &(gs_rank_id){.rank = 2}), 0);
    CHECK_STR(none.path, "");
    CHECK_INT(none.rank, 2);
    gs_rank_id_free(&none);
    gs_rank_id_free(&none); /* freed and zeroed: freeing again is harmless */
}

/* A trace owns its id: gs_trace_new sets the path, gs_trace_free releases it. */
static void test_trace_owns_its_id(void)
{
    gs_error err;
    gs_trace *t = gs_trace_new("dir/trace.json", &err);
    CHECK(t != NULL);
    if (!t)
        return;
    CHECK_STR(t->id.path, "dir/trace.json");
    CHECK_INT(t->id.rank, 0);
    CHECK_INT(t->id.source, GS_RANK_DEFAULT);
    gs_rank_id kept;
    CHECK_INT(gs_rank_id_copy(&kept, &t->id), 0);
    gs_trace_delete(t);
    CHECK_STR(kept.path, "dir/trace.json");
    gs_rank_id_free(&kept);
}

int main(void)
{
    test_order();
    test_profile_order();
    test_copy();
    test_trace_owns_its_id();
    return check_done("test_rank_id");
}
