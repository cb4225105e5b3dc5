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

#define DAY_MS (24 * 3600 * 1000LL)
#define EPOCH_MS 1795000000000LL /* 2026-11-18 11:06:40 UTC: a time on the Unix clock */

/* A summary of rank `rank` of a job of `world` ranks whose trace spans [start, end] ms after
 * EPOCH_MS, on the Unix clock (epoch_ns as a .gst or PyTorch >= 2.4 trace has it). */
static void fake_job(gs_rank_summary *s, const char *path, int rank, int world, long long start,
                     long long end)
{
    fake(s, path, rank, start, end);
    s->id.world_size = world;
    s->id.epoch_ns = EPOCH_MS * MS;
}

/* Ranks 0-3 of a 4-rank job and 4-7 of an 8-rank one, at the same time: no rank twice, but two
 * jobs, refused with both listed. */
static void test_world_sizes(void)
{
    gs_rank_summary v[8];
    char path[32];
    for (int r = 0; r < 8; r++) {
        snprintf(path, sizeof path, "d/rank%d.json", r);
        fake_job(&v[r], path, r, r < 4 ? 4 : 8, 0, 100);
    }
    gs_error err;
    CHECK_INT(gs_runs_check(v, 8, &err), -1);
    CHECK_INT(err.code, GS_EXIT_INPUT);
    CHECK_STR(err.msg, "the 8 traces are not one job, their world sizes differ: world size 4: "
                       "rank 0 rank0.json, rank 1 rank1.json, rank 2 rank2.json, rank 3 "
                       "rank3.json; world size 8: rank 4 rank4.json, rank 5 rank5.json, rank 6 "
                       "rank6.json, rank 7 rank7.json. Name one job's traces to report it, e.g. "
                       "gpuscope report DIR/rank0.json DIR/rank1.json DIR/rank2.json "
                       "DIR/rank3.json");
    /* A trace that does not give its world size agrees with any. */
    for (int r = 4; r < 8; r++)
        v[r].id.world_size = 0;
    CHECK_INT(gs_runs_check(v, 8, &err), 0);
    free_all(v, 8);
}

/* Ranks 0 and 1 a day after ranks 2 and 3: the "straggler" would be a day late. */
static void test_clocks_a_day_apart(void)
{
    gs_rank_summary v[4];
    fake_job(&v[0], "d/rank0.json", 0, 4, DAY_MS, DAY_MS + 100);
    fake_job(&v[1], "d/rank1.json", 1, 4, DAY_MS + 2, DAY_MS + 99);
    fake_job(&v[2], "d/rank2.json", 2, 4, 0, 100);
    fake_job(&v[3], "d/rank3.json", 3, 4, 1, 101);
    gs_error err;
    CHECK_INT(gs_runs_check(v, 4, &err), -1);
    CHECK_INT(err.code, GS_EXIT_INPUT);
    CHECK_STR(err.msg, "the 4 traces are 2 runs, not one job: their times are more than an hour "
                       "apart: run 1 (from 2026-11-18 11:06:40 UTC): rank 2 rank2.json, rank 3 "
                       "rank3.json; run 2 (from 2026-11-19 11:06:40 UTC): rank 0 rank0.json, "
                       "rank 1 rank1.json. Name one run's traces to report it, e.g. gpuscope "
                       "report DIR/rank2.json DIR/rank3.json");
    /* Hosts whose clocks are minutes apart run one job: not refused (stragglers aligns them). */
    v[0].id.epoch_ns = v[1].id.epoch_ns = (EPOCH_MS - DAY_MS + 10 * 60 * 1000) * MS;
    CHECK_INT(gs_runs_check(v, 4, &err), 0);
    /* Times on a clock of the trace's own (not the Unix clock) say nothing about when it ran. */
    v[0].id.epoch_ns = v[1].id.epoch_ns = 0;
    CHECK_INT(gs_runs_check(v, 4, &err), 0);
    free_all(v, 4);
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
    test_world_sizes();
    test_clocks_a_day_apart();
    return check_done("test_runs");
}
