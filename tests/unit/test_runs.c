/* Several runs among the inputs (runs.h): traces of one run overlap in time and have distinct
 * ranks; a folder holding two runs of a 2-rank job has each rank twice, and is refused with the
 * runs listed (as on the tokenomics traces: two pairs of rank 0 and rank 1). */
#include <stdio.h>
#include <string.h>

#include "analysis/pipeline/runs.h"
#include "check.h"

#define MS 1000000LL

/* A summary of rank `rank` whose trace spans [start, end] ms (steps hold the span). */
static void fake(gs_rank_summary *s, const char *path, int rank, long start, long end)
{
    gs_error err;
    char own_path[64];
    snprintf(own_path, sizeof own_path, "%s", path);
    const gs_rank_id id = {.path = own_path, .rank = rank, .world_size = 2};
    CHECK_INT(gs_rank_summary_init(s, &id, &err), 0);
    CHECK(s->id.path != own_path); /* the summary's own copy */
    CHECK_STR(s->id.path, path);
    CHECK_INT(s->id.rank, rank);
    CHECK_INT(s->id.world_size, 2);
    s->series.has_util = true;
    s->series.util.first = start * MS;
    s->series.util.last = end * MS;
}

static void free_all(gs_rank_summary *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        gs_rank_summary_free(&v[i]);
}

/* Two runs of a 16-rank job: the runs are listed whole, with every trace name (no list cut at a
 * fixed size inside a name); the message, longer than gs_error holds, ends in "...". */
static void test_many_traces(void)
{
    enum { RANKS = 16, TRACES = 2 * RANKS };
    gs_rank_summary v[TRACES];
    for (int i = 0; i < TRACES; i++) {
        char path[64];
        snprintf(path, sizeof path, "dir/run%d_rank%02d.pt.trace.json", i % 2, i / 2);
        long start = i % 2 ? 3600000 : 0;
        fake(&v[i], path, i / 2, start, start + 100);
    }
    gs_error err;
    CHECK_INT(gs_runs_check(v, TRACES, &err), -1);
    CHECK(strstr(err.msg, "the 32 traces are 2 runs") != NULL);
    CHECK(strstr(err.msg, "run 1: rank 0 run0_rank00.pt.trace.json, rank 1 "
                          "run0_rank01.pt.trace.json,") != NULL);
    CHECK_INT(strlen(err.msg), sizeof err.msg - 1);
    CHECK(strcmp(err.msg + sizeof err.msg - 4, "...") == 0);
    free_all(v, TRACES);
}

int main(void)
{
    gs_rank_summary v[4];
    gs_error err;
    /* One run: ranks 0 and 1 overlapping. */
    fake(&v[0], "dir/a0.json", 0, 0, 100);
    fake(&v[1], "dir/a1.json", 1, 5, 104);
    CHECK_INT(gs_runs_check(v, 2, &err), 0);
    /* Two runs, an hour apart: rank 0 and rank 1 twice (sorted by rank, as the report sorts). */
    fake(&v[2], "dir/b0.json", 0, 3600000, 3600100);
    fake(&v[3], "dir/b1.json", 1, 3600002, 3600099);
    gs_rank_summary sorted[4] = {v[0], v[2], v[1], v[3]};
    CHECK_INT(gs_runs_check(sorted, 4, &err), -1);
    CHECK_INT(err.code, GS_EXIT_INPUT);
    CHECK(strstr(err.msg, "the 4 traces are 2 runs") != NULL);
    CHECK(strstr(err.msg, "run 1: rank 0 a0.json, rank 1 a1.json; run 2: rank 0 b0.json, rank 1 "
                          "b1.json") != NULL);
    CHECK(strstr(err.msg, "gpuscope report DIR/a0.json DIR/a1.json") != NULL);
    /* A rank twice at the same time cannot be told apart by time: refused all the same. */
    gs_rank_summary_free(&v[2]);
    fake(&v[2], "dir/c0.json", 0, 10, 90);
    gs_rank_summary same[3] = {v[0], v[2], v[1]};
    CHECK_INT(gs_runs_check(same, 3, &err), -1);
    CHECK(strstr(err.msg, "a rank appears in several of the 3 traces, which overlap in time") != NULL);
    free_all(v, 4);
    test_many_traces();
    return check_done("test_runs");
}
