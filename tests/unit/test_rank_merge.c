/* The cross-rank phase and the pipeline (analysis/pipeline/merge.h, pipeline.h, analysis/pipeline/report.h)
 * on two hand-made ranks (rank_fixture.h): the report merged from their summaries has the numbers
 * of the analyses of both traces at once, medians included when every rank has its durations;
 * without them (as from .gsum files) the totals still add up exactly. */
#include "analysis/pipeline/pipeline.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/trace/kernel_summary.h"
#include "analysis/trace/memcpy_summary.h"
#include "analysis/trace/op_summary.h"
#include "analysis/pipeline/merge.h"
#include "analysis/pipeline/summarise.h"
#include "check.h"
#include "analysis/pipeline/gsum_write.h"
#include "profile_fold.h"
#include "rank_fixture.h"

static void fixture_profile(gs_profile *p)
{
    memset(p, 0, sizeof *p);
    for (int32_t r = 0; r < 2; r++) {
        gs_trace **slot = GS_VEC_PUSH(&p->traces);
        if (!slot)
            abort();
        *slot = fixture_rank(r);
    }
}

/* The summary of t as the report makes it: every stage, the default steps. */
static int summarise(const gs_trace *t, bool detail, gs_rank_summary *s, gs_error *err)
{
    gs_trace_ctx c = tb_ctx(t, NULL);
    int rc = gs_rank_summarise(&c, &(gs_summarise_opts){.stages = GS_STAGE_ALL, .detail = detail},
                               s, err);
    gs_trace_ctx_free(&c);
    return rc;
}

static const gs_report_opts whole_report = {.stages = GS_STAGE_ALL, .align = true};

/* The report of the profile's traces summarised one by one (rank 1 first: the merge sorts). */
static void merged_report(const gs_profile *p, bool detail, gs_report *r)
{
    gs_rank_summary *v = calloc(2, sizeof *v);
    gs_error err;
    CHECK(summarise(p->traces.v[1], detail, &v[0], &err) == 0);
    CHECK(summarise(p->traces.v[0], detail, &v[1], &err) == 0);
    CHECK(gs_report_build(v, 2, &whole_report, r, &err) == 0);
}

static bool same_stats(const gs_dur_stats *a, const gs_dur_stats *b)
{
    return a->count == b->count && a->total == b->total && a->avg == b->avg && a->med == b->med &&
           a->min == b->min && a->max == b->max && a->stddev == b->stddev;
}

/* Every duration at hand: the report is the one on both traces at once. */
static void test_merge_equals_traces(void)
{
    gs_profile p;
    fixture_profile(&p);
    gs_report r;
    merged_report(&p, true, &r);
    gs_error err;
    CHECK_INT(r.nranks, 2);
    CHECK_INT(r.ranks[0].summary->id.rank, 0);
    CHECK(r.kernel_spread && r.has_copies && r.copy_spread && r.has_devices && r.has_gaps);
    CHECK_INT(r.from_gsum, 0);
    CHECK_INT(r.facts.nfiles, 2);
    CHECK_INT(r.facts.nranks, 2);
    CHECK_INT(r.facts.world_size, 2);
    CHECK_INT(r.facts.events.kernels, 4 * STEPS);
    CHECK_INT(r.facts.ndevices, 2);

    gs_kernel_summary k;
    CHECK(fold_kernels(&p, NULL, false, &k, &err) == 0);
    CHECK_INT(r.kernels.nrows, k.nrows);
    for (size_t i = 0; i < k.nrows && i < r.kernels.nrows; i++) {
        CHECK_STR(r.kernels.rows[i].name, k.rows[i].name);
        CHECK(same_stats(&r.kernels.rows[i].time, &k.rows[i].time));
        CHECK(r.kernels.rows[i].time_pct == k.rows[i].time_pct);
    }
    /* gemm: 6000..6003 µs on rank 0, 7000..7003 on rank 1; the median is across both */
    const gs_kernel_row *gemm = strcmp(r.kernels.rows[0].name, "gemm") == 0 ? &r.kernels.rows[0]
                                                                            : &r.kernels.rows[1];
    CHECK_STR(gemm->name, "gemm");
    CHECK_INT(gemm->time.count, 2 * STEPS);
    CHECK_INT(gemm->time.total, (4 * 6000 + 6 + 4 * 7000 + 6) * US);
    CHECK_INT(gemm->time.min, 6000 * US);
    CHECK_INT(gemm->time.max, 7003 * US);
    CHECK_INT(gemm->time.med, 6501500); /* (6003 + 7000) / 2 µs */
    gs_kernel_summary_free(&k);

    gs_op_summary o;
    CHECK(fold_ops(&p, NULL, false, &o, &err) == 0);
    CHECK_INT(r.ops.nrows, o.nrows);
    for (size_t i = 0; i < o.nrows && i < r.ops.nrows; i++) {
        CHECK_STR(r.ops.rows[i].name, o.rows[i].name);
        CHECK(r.ops.rows[i].calls == o.rows[i].calls &&
              r.ops.rows[i].self_cpu == o.rows[i].self_cpu &&
              r.ops.rows[i].cpu_total == o.rows[i].cpu_total &&
              r.ops.rows[i].self_cuda == o.rows[i].self_cuda &&
              r.ops.rows[i].cuda_total == o.rows[i].cuda_total);
    }
    CHECK_INT(r.ops.rows[0].calls, 2 * STEPS);
    gs_op_summary_free(&o);

    gs_memcpy_summary m;
    CHECK(fold_copies(&p, NULL, &m, &err) == 0);
    CHECK_INT(r.memcpy.nrows, 1);
    CHECK_INT(m.nrows, 1);
    CHECK(same_stats(&r.memcpy.rows[0].time, &m.rows[0].time));
    CHECK_INT(r.memcpy.rows[0].bytes, m.rows[0].bytes);
    CHECK_STR(r.memcpy.rows[0].operation, m.rows[0].operation);
    CHECK_INT(r.memcpy.rows[0].time.med, 55 * US); /* 50 µs + 10 r: 50 and 60, pooled */
    gs_memcpy_summary_free(&m);

    /* stragglers and clock offsets through the same code as the traces' */
    gs_stragglers s;
    CHECK(fold_stragglers(&p, NULL, true, &s, &err) == 0);
    CHECK_INT(r.stragglers.nranks, 2);
    CHECK_INT(r.stragglers.n, s.n);
    CHECK_INT(r.stragglers.candidate, 1);
    CHECK_INT(r.stragglers.candidate, s.candidate);
    CHECK_INT(r.stragglers.straggler, s.straggler);
    for (size_t i = 0; i < 2; i++) {
        CHECK_INT(r.stragglers.clock.ranks[i].shift_ns, s.clock.ranks[i].shift_ns);
        CHECK_INT(r.stragglers.ranks[i].compute_ns, s.ranks[i].compute_ns);
        CHECK_INT(r.stragglers.ranks[i].wait_ns, s.ranks[i].wait_ns);
    }
    CHECK_INT(r.stragglers.clock.ranks[1].shift_ns, -OFFSET(1) * US);
    CHECK_INT(r.stragglers.skew_all.med, s.skew_all.med);
    gs_stragglers_free(&s);

    gs_comm c;
    CHECK(fold_comm(&p, NULL, false, &c, &err) == 0);
    CHECK_INT(r.comm.nranks, c.nranks);
    for (size_t i = 0; i < c.nranks && i < r.comm.nranks; i++)
        CHECK(r.comm.ranks[i].communication == c.ranks[i].communication &&
              r.comm.ranks[i].overlap == c.ranks[i].overlap &&
              r.comm.ranks[i].exposed == c.ranks[i].exposed);
    CHECK_INT(r.comm.nkinds, c.nkinds);
    CHECK_INT(r.comm.nsteps, c.nsteps);
    gs_comm_free(&c);

    /* every rank's verdict reads the straggler analysis of both */
    CHECK_INT(r.ranks[0].summary->inputs.strag_ranks, 2);
    CHECK_INT(r.ranks[0].summary->inputs.strag_rank, 1);
    gs_report_free(&r);
    gs_profile_free(&p);
}

/* Without the durations (summaries read from .gsum files): counts, totals, minima and maxima
 * still add up exactly; the medians are unknown and the sections say so. */
static void test_merge_without_detail(void)
{
    gs_profile p;
    fixture_profile(&p);
    gs_report with, without;
    merged_report(&p, true, &with);
    merged_report(&p, false, &without);
    CHECK(!without.kernel_spread && without.has_copies && !without.copy_spread);
    CHECK_INT(without.kernels.nrows, with.kernels.nrows);
    for (size_t i = 0; i < with.kernels.nrows && i < without.kernels.nrows; i++) {
        const gs_dur_stats *a = &with.kernels.rows[i].time, *b = &without.kernels.rows[i].time;
        CHECK_STR(without.kernels.rows[i].name, with.kernels.rows[i].name);
        CHECK(a->count == b->count && a->total == b->total && a->avg == b->avg &&
              a->min == b->min && a->max == b->max);
        CHECK(b->med == 0 && b->stddev == 0);
    }
    CHECK_INT(without.memcpy.rows[0].time.count, 2 * STEPS);
    CHECK_INT(without.memcpy.rows[0].time.total, STEPS * 110 * US);
    CHECK_INT(without.memcpy.rows[0].time.med, 0);
    CHECK(without.memcpy.rows[0].bandwidth_gbps == with.memcpy.rows[0].bandwidth_gbps);
    gs_report_free(&with);
    gs_report_free(&without);
    gs_profile_free(&p);
}

/* One rank: its own straggler row, nothing to compare, and a verdict without the rule's input. */
static void test_one_rank(void)
{
    gs_trace *t = fixture_rank(0);
    gs_rank_summary *v = calloc(1, sizeof *v);
    gs_error err;
    gs_report r;
    CHECK(summarise(t, true, v, &err) == 0);
    CHECK(gs_report_build(v, 1, &whole_report, &r, &err) == 0);
    CHECK_INT(r.stragglers.nranks, 1);
    CHECK_INT(r.stragglers.n, 0);
    CHECK_INT(r.stragglers.straggler, -1);
    CHECK_INT(r.ranks[0].summary->inputs.strag_ranks, 1); /* < 2: nothing to compare */
    CHECK_INT(r.facts.nranks, 1);
    CHECK(r.kernel_spread);
    gs_report_free(&r);
    gs_trace_delete(t);
}

/* The pipeline on .gsum files in a folder: listed once, read, merged; --rank keeps one rank or
 * says which ranks there are. */
static void write_summary(const char *dir, int32_t rank)
{
    gs_trace *t = fixture_rank(rank);
    gs_rank_summary s;
    gs_error err;
    CHECK(summarise(t, false, &s, &err) == 0);
    char path[256];
    snprintf(path, sizeof path, "%s/rank-%d.gsum", dir, (int)rank);
    FILE *f = fopen(path, "w");
    if (!f)
        abort();
    gs_gsum_write(f, &s);
    fclose(f);
    gs_rank_summary_free(&s);
    gs_trace_delete(t);
}

static void test_pipeline(void)
{
    char dir[] = "/tmp/gs_test_rank_merge_XXXXXX";
    if (!mkdtemp(dir))
        abort();
    write_summary(dir, 1);
    write_summary(dir, 0);
    const char *paths[] = {dir};
    gs_rank_inputs in;
    gs_error err;
    CHECK(gs_rank_inputs_list(paths, 1, true, &in, &err) == 0);
    CHECK_INT(in.n, 2);
    CHECK_INT(in.ngsum, 2);
    gs_pipeline_opts o = {.load.summary.stages = GS_STAGE_ALL, .align = true};
    gs_report r;
    CHECK(gs_pipeline_report(&in, &o, &r, &err) == 0);
    CHECK_INT(r.nranks, 2);
    CHECK_INT(r.from_gsum, 2);
    CHECK_STR(r.facts.files[0].path, "rank-0.json");
    CHECK_INT(r.stragglers.candidate, 1);
    CHECK(!r.kernel_spread && r.has_devices && r.has_gaps);
    gs_report_free(&r);

    o.load.select = (gs_select){.by_rank = true, .rank = 1};
    CHECK(gs_pipeline_report(&in, &o, &r, &err) == 0);
    CHECK_INT(r.nranks, 1);
    CHECK_INT(r.ranks[0].summary->id.rank, 1);
    gs_report_free(&r);

    o.load.select.rank = 5;
    CHECK(gs_pipeline_report(&in, &o, &r, &err) == -1);
    CHECK_INT(err.code, GS_EXIT_USAGE);
    CHECK_STR(err.msg, "no trace has rank 5 (ranks: 0 1)");
    for (size_t i = 0; i < in.n; i++)
        unlink(in.paths[i]);
    gs_rank_inputs_free(&in);
    rmdir(dir);
}

/* The rank table's steps are the steps the report uses: a rank whose steps were detected from the
 * repeating kernel sequence (no ProfilerStep#N range) has its detected steps there, not 0. */
static void test_facts_steps_used(void)
{
    gs_profile p;
    fixture_profile(&p);
    gs_rank_summary s;
    gs_error err;
    CHECK(summarise(p.traces.v[0], false, &s, &err) == 0);
    s.profiler_steps = 0; /* as a trace whose steps were detected */
    s.steps.source = GS_STEPS_DETECTED;
    gs_profile_facts f;
    bool has_devices;
    CHECK_INT(gs_merge_facts(&s, 1, &f, &has_devices), 0);
    CHECK_INT(f.files[0].steps, STEPS);
    CHECK_INT(f.files[0].step_source, GS_STEPS_DETECTED);
    gs_profile_facts_free(&f);
    gs_rank_summary_free(&s);
    gs_profile_free(&p);
}

int main(void)
{
    test_facts_steps_used();
    test_merge_equals_traces();
    test_merge_without_detail();
    test_one_rank();
    test_pipeline();
    return check_done("rank_merge");
}
