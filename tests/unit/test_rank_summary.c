/* The per-rank phase of the pipeline (analysis/pipeline/summarise.h, series.h) on a hand-made rank
 * (rank_fixture.h), and its .gsum round trip (gsum_read.h, gsum_write.h). */
#include "analysis/pipeline/summarise.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pipeline/gsum_read.h"
#include "check.h"
#include "analysis/pipeline/gsum_write.h"
#include "analysis/pipeline/merge.h"
#include "rank_fixture.h"

/* The summary of t as report and summarize make it: every stage, the default steps. */
static int summarise(const gs_trace *t, bool detail, gs_rank_summary *s, gs_error *err)
{
    gs_trace_ctx c = tb_ctx(t, NULL);
    int rc = gs_rank_summarise(&c, &(gs_summarise_opts){.stages = GS_STAGE_ALL, .detail = detail},
                               s, err);
    gs_trace_ctx_free(&c);
    return rc;
}

static const gs_sum_kernel *kernel_named(const gs_rank_summary *s, const char *name)
{
    for (size_t i = 0; i < s->nkernels; i++)
        if (strcmp(s->kernels[i].name, name) == 0)
            return &s->kernels[i];
    return NULL;
}

static void test_summary(void)
{
    gs_trace *t = fixture_rank(1);
    gs_rank_summary s;
    gs_error err;
    CHECK(summarise(t, true, &s, &err) == 0);
    CHECK_INT(s.stages, GS_STAGE_ALL);
    CHECK_STR(s.id.path, "rank-1.json");
    CHECK(s.id.path != t->id.path); /* the summary's own copy */
    CHECK_INT(s.id.rank, 1);
    CHECK_INT(s.id.world_size, 2);
    CHECK_STR(s.format, "kineto");
    CHECK_INT(s.profiler_steps, STEPS);
    CHECK_INT(s.steps.n, STEPS);
    CHECK_INT(s.nkept, STEPS);
    CHECK_INT(s.span, 10000 * STEPS * US);
    CHECK_INT(s.events.kernels, 2 * STEPS);
    CHECK_INT(s.events.memcpys, STEPS);
    /* gemm of step k: 7000 + k µs */
    const gs_sum_kernel *gemm = kernel_named(&s, "gemm");
    CHECK(gemm != NULL);
    CHECK_INT(gemm ? gemm->count : 0, STEPS);
    CHECK_INT(gemm ? gemm->total : 0, (4 * 7000 + 6) * US);
    CHECK_INT(gemm ? gemm->min : 0, 7000 * US);
    CHECK_INT(gemm ? gemm->max : 0, 7003 * US);
    CHECK_INT(s.nops, 1 + STEPS); /* aten::mm and each step's annotation, by name */
    CHECK_STR(s.ops[0].name, "aten::mm"); /* by CUDA total: it launched every kernel */
    CHECK_INT(s.ops[0].calls, STEPS);
    /* the GPUs, the copies, the collectives, compute per step */
    CHECK(s.has_devices && s.has_gaps && s.has_copies);
    CHECK_INT(s.ndevices, 1);
    CHECK_STR(s.devices[0].name, "NVIDIA H100 80GB HBM3");
    CHECK_INT(s.ncopies, 1);
    CHECK_INT(s.copies[0].time.count, STEPS);
    CHECK_INT(s.copies[0].time.total, STEPS * 60 * US);
    CHECK_INT(s.copies[0].bytes, STEPS * 1000000);
    CHECK(s.copies[0].pageable);
    CHECK_INT(s.coll.n, STEPS);
    CHECK_INT(s.coll.v[0].kind, GS_COLL_ALL_REDUCE);
    CHECK_INT(s.coll.v[3].seq, 3);
    CHECK_INT(s.coll.v[0].kernel, 0); /* no index into events the summary does not keep */
    CHECK_INT(s.compute_ns, (7000 * US) + 1500); /* mean of 7000..7003 µs */
    CHECK_INT(s.comm.collectives, STEPS);
    CHECK(s.inputs.rank == 1 && s.inputs.steps == STEPS);
    /* the detail: every duration, each name's ascending */
    CHECK(s.detail != NULL);
    size_t g = (size_t)(gemm - s.kernels);
    CHECK_INT(s.detail->kernel_durs[s.detail->kernel_first[g]], 7000 * US);
    CHECK_INT(s.detail->kernel_durs[s.detail->kernel_first[g] + 3], 7003 * US);
    CHECK_INT(s.detail->memcpy_durs[s.copies[0].first], 60 * US);
    gs_rank_summary_free(&s);
    gs_trace_delete(t);
}

/* A command that shows one section asks for its stage alone: the communication, without the
 * kernels, operators or copies; the diagnosis brings the stages it reads. */
static void test_stages(void)
{
    CHECK_INT(gs_stages_needed(GS_STAGE_COMM), GS_STAGE_COMM);
    CHECK_INT(gs_stages_needed(GS_STAGE_DIAGNOSIS),
              GS_STAGE_DIAGNOSIS | GS_STAGE_BREAKDOWN | GS_STAGE_LAUNCH | GS_STAGE_SYNC |
                  GS_STAGE_MEMORY | GS_STAGE_COMM);
    CHECK_INT(gs_stages_needed(GS_STAGE_SERIES),
              GS_STAGE_SERIES | GS_STAGE_BREAKDOWN | GS_STAGE_MEMORY);
    char buf[64];
    CHECK_STR(gs_stages_describe(GS_STAGE_FACTS | GS_STAGE_COMM, buf, sizeof buf), "facts, comm");

    gs_trace *t = fixture_rank(1);
    gs_trace_ctx c = tb_ctx(t, NULL);
    gs_rank_summary s;
    gs_error err;
    CHECK(gs_rank_summarise(&c, &(gs_summarise_opts){.stages = GS_STAGE_COMM}, &s, &err) == 0);
    CHECK_INT(s.stages, GS_STAGE_COMM);
    CHECK_INT(s.comm.collectives, STEPS);
    CHECK_INT(s.steps.n, STEPS); /* the steps, whatever the stages */
    CHECK_INT(s.nkernels, 0);
    CHECK_INT(s.nops, 0);
    CHECK_INT(s.ncopies, 0);
    gs_rank_summary_free(&s);
    gs_trace_ctx_free(&c);
    gs_trace_delete(t);
}

/* The charts' series: one bar per step, the utilization buckets add up to the union of kernels
 * (per step [T + 100, T + 100 + CMAX + 600): 7603 µs). */
static void test_series(void)
{
    gs_trace *t = fixture_rank(0);
    gs_rank_summary s;
    gs_error err;
    CHECK(summarise(t, false, &s, &err) == 0);
    const gs_rank_series *v = &s.series;
    CHECK(v->has_util && v->has_steps && v->has_memory);
    CHECK(v->util.kernels);
    CHECK_INT(v->util.nbusy, GS_SERIES_UTIL_BUCKETS);
    CHECK_INT(v->util.first, OFFSET(0) * US);
    CHECK_INT(v->util.last, (OFFSET(0) + 10000 * STEPS) * US);
    CHECK_INT(v->util.nnvml, 0);
    double w = (double)(v->util.last - v->util.first) / (double)v->util.nbusy, busy = 0;
    for (size_t i = 0; i < v->util.nbusy; i++)
        busy += v->util.busy_pct[i] * w / 100;
    CHECK(fabs(busy - (double)(STEPS * 7603 * US)) < 1);
    CHECK(v->util.busy_pct[0] == 0); /* the first 83 µs: no kernel yet */
    CHECK_INT(v->nbars, STEPS);
    CHECK_INT(v->bars[2].first, 2);
    CHECK_INT(v->bars[2].first_number, 3);
    CHECK(v->bars[2].total == 10000.0 * US);
    double sum = 0;
    for (int c = 0; c < GS_BD__COUNT; c++)
        sum += v->bars[2].mean[c];
    CHECK(sum == v->bars[2].total);
    CHECK(v->bars[2].mean[GS_BD_KERNEL] == (6000.0 + 2) * US);
    CHECK_INT(v->nmemory, 0); /* no allocator records */
    gs_rank_summary_free(&s);
    gs_trace_delete(t);
}

/* Written, read back and written again: the same bytes, and the numbers the merge reads. */
static char *write_gsum(const gs_rank_summary *s, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        abort();
    gs_gsum_write(f, s);
    fclose(f);
    return buf;
}

static void test_round_trip(void)
{
    gs_trace *t = fixture_rank(1);
    gs_rank_summary s, back;
    gs_error err;
    CHECK(summarise(t, true, &s, &err) == 0);
    size_t n1, n2;
    char *first = write_gsum(&s, &n1);
    CHECK(gs_gsum_read_buffer(first, n1, "rank-1.gsum", &back, &err) == 0);
    char *again = write_gsum(&back, &n2);
    CHECK(n1 == n2 && memcmp(first, again, n1) == 0);
    CHECK(strstr(first, "\"version\": 1, \"minor\": 7") != NULL);
    /* minor 7: the roofline's groups, so a report on summaries shows and judges the same */
    CHECK(s.has_roofline && back.has_roofline);
    CHECK(s.roof.nrows > 0 && back.roof.nrows == s.roof.nrows);
    CHECK(s.roof.gpu_ns > 0 && back.roof.gpu_ns == s.roof.gpu_ns);
    CHECK_INT(back.roof.groups, s.roof.groups);
    for (size_t i = 0; i < s.roof.nrows && i < back.roof.nrows; i++) {
        CHECK_STR(back.roof.rows[i].name, s.roof.rows[i].name);
        CHECK_INT(back.roof.rows[i].gpu_ns, s.roof.rows[i].gpu_ns);
        CHECK_INT(back.roof.rows[i].cls, s.roof.rows[i].cls);
        CHECK_INT(back.roof.rows[i].bound, s.roof.rows[i].bound);
    }
    CHECK(s.inputs.roof_op != NULL && back.inputs.roof_op != NULL);
    if (s.inputs.roof_op && back.inputs.roof_op)
        CHECK_STR(back.inputs.roof_op, s.inputs.roof_op);
    CHECK(back.inputs.roof_op_share == s.inputs.roof_op_share && s.inputs.roof_op_share > 0);
    CHECK_INT(back.inputs.roof_op_ns, s.inputs.roof_op_ns);
    /* minor 6: the replay's steps, so a report on summaries expects what one on traces does */
    CHECK(s.has_replay && back.has_replay);
    CHECK(s.inputs.replay_step_ns > 0);
    CHECK_INT(back.inputs.replay_step_ns, s.inputs.replay_step_ns);
    for (int a = GS_REPLAY_NONE + 1; a < GS_REPLAY__COUNT; a++) {
        /* no rule's gain is the fused optimizer's: not replayed for the verdict */
        if (a == GS_REPLAY_FUSED_OPTIMIZER)
            CHECK_INT(s.inputs.replay_expected_ns[a], -1);
        else
            CHECK(s.inputs.replay_expected_ns[a] > 0);
        CHECK_INT(back.inputs.replay_expected_ns[a], s.inputs.replay_expected_ns[a]);
    }
    /* minor 5: the profiled CPU time the merged operator table's CPU shares are of */
    CHECK(s.ops_cpu > 0 && back.ops_cpu == s.ops_cpu);
    CHECK(s.has_graphs && back.has_graphs); /* minor 3: the CUDA graph facts */
    CHECK_INT(back.inputs.graphs.kernels, s.inputs.graphs.kernels);
    CHECK(!s.has_tracing_cost && !back.has_tracing_cost); /* a PyTorch trace does not say */
    /* minor 3: the trace's context travels, so a merged report conditions its advice alike */
    CHECK(s.inputs.facts.known && back.inputs.facts.known);
    CHECK_INT(back.inputs.facts.collector, GS_COLLECTOR_TORCH_PROFILER);
    CHECK_INT(back.inputs.facts.collectives, s.inputs.facts.collectives);
    CHECK_INT(back.inputs.facts.parallel_kinds, s.inputs.facts.parallel_kinds);
    CHECK_INT(back.inputs.facts.profiler_step_ns, s.inputs.facts.profiler_step_ns);
    CHECK(s.inputs.facts.profiler_step_ns > 0);
    CHECK(back.from_gsum && !s.from_gsum);
    CHECK(back.detail == NULL);
    CHECK_STR(back.id.path, "rank-1.json");
    CHECK_INT(back.nkernels, s.nkernels);
    CHECK_INT(back.kernels[0].total, s.kernels[0].total);
    CHECK_INT(back.coll.n, STEPS);
    CHECK_INT(back.coll.v[2].end, s.coll.v[2].end);
    CHECK_INT(back.compute_ns, s.compute_ns);
    CHECK(back.has_devices && back.has_gaps && back.has_copies);
    CHECK_STR(back.devices[0].name, s.devices[0].name);
    CHECK_STR(back.devices[0].capability, "9.0");
    CHECK_INT(back.ngaps, s.ngaps);
    CHECK_INT(back.gaps_worth_listing, s.gaps_worth_listing);
    /* a copy's label, bandwidth and average are derived again */
    CHECK_STR(back.copies[0].operation, s.copies[0].operation);
    CHECK(back.copies[0].bandwidth_gbps == s.copies[0].bandwidth_gbps);
    CHECK_INT(back.copies[0].time.avg, 60 * US);
    CHECK_INT(back.copies[0].time.med, 0); /* not in a summary */
    CHECK_INT(back.series.util.nbusy, GS_SERIES_UTIL_BUCKETS);
    CHECK(memcmp(back.series.util.busy_pct, s.series.util.busy_pct,
                 GS_SERIES_UTIL_BUCKETS * sizeof(double)) == 0);
    CHECK_INT(back.series.nbars, STEPS);
    CHECK(back.series.bars[3].max == s.series.bars[3].max);
    free(first);
    free(again);
    gs_rank_summary_free(&back);
    gs_rank_summary_free(&s);
    gs_trace_delete(t);
}

/* What tracing cost the program (a .gst trace's CUPTI overhead records): in the summary, in the
 * .gsum's section of minor 2 and back, and in the merged report's file facts; a summary read from
 * a file without the section says nothing (-1), as a PyTorch trace's does. */
static void test_tracing_cost(void)
{
    gs_trace *t = fixture_rank(0);
    t->collector_overhead_ns = 34397636;
    gs_rank_summary s, back;
    gs_error err;
    CHECK(summarise(t, false, &s, &err) == 0);
    CHECK(s.has_tracing_cost);
    CHECK_INT(s.tracing_cost_ns, 34397636);
    size_t n;
    char *text = write_gsum(&s, &n);
    CHECK(strstr(text, "\"tracing\": {\"cost_ns\": 34397636}") != NULL);
    CHECK(gs_gsum_read_buffer(text, n, "rank-0.gsum", &back, &err) == 0);
    CHECK(back.has_tracing_cost);
    CHECK_INT(back.tracing_cost_ns, 34397636);
    gs_profile_facts f;
    bool devices;
    CHECK(gs_merge_facts(&back, 1, &f, &devices) == 0);
    CHECK_INT(f.files[0].tracing_cost, 34397636);
    /* 34 ms of a 40 ms trace is noticeable; of a year it would not be */
    CHECK(gs_file_tracing_cost_noticeable(&f.files[0]));
    f.files[0].span = 365LL * 24 * 3600 * 1000000000LL;
    CHECK(!gs_file_tracing_cost_noticeable(&f.files[0]));
    gs_profile_facts_free(&f);
    back.has_tracing_cost = false;
    CHECK(gs_merge_facts(&back, 1, &f, &devices) == 0);
    CHECK_INT(f.files[0].tracing_cost, -1);
    gs_profile_facts_free(&f);
    free(text);
    gs_rank_summary_free(&back);
    gs_rank_summary_free(&s);
    gs_trace_delete(t);
}

/* A file of minor 0 lacks the sections of minor 1: read without them, written without them. */
static void test_minor0(void)
{
    static const char text[] = "{\"format\": \"gpuscope-rank-summary\", \"version\": 1,\n"
                               "\"rank\": {\"path\": \"a.json\", \"rank\": 3, \"format\": null},\n"
                               "\"future\": [1, {\"x\": 2}]}";
    gs_rank_summary s;
    gs_error err;
    CHECK(gs_gsum_read_buffer(text, sizeof text - 1, "a.gsum", &s, &err) == 0);
    CHECK_INT(s.id.rank, 3);
    CHECK_STR(s.format, "");
    CHECK(!s.has_devices && !s.has_gaps && !s.has_copies && !s.has_tracing_cost);
    CHECK(!s.series.has_util && !s.series.has_steps && !s.series.has_memory);
    /* nor the replay of minor 6: unknown, not 0 */
    CHECK(!s.has_replay);
    CHECK_INT(s.inputs.replay_step_ns, -1);
    /* nor the roofline of minor 7: its rule does not apply */
    CHECK(!s.has_roofline && s.inputs.roof_op == NULL && s.inputs.roof_share < 0);
    for (int a = 0; a < GS_REPLAY__COUNT; a++)
        CHECK_INT(s.inputs.replay_expected_ns[a], -1);
    size_t n;
    char *out = write_gsum(&s, &n);
    CHECK(strstr(out, "\"steps\"") != NULL);
    CHECK(strstr(out, "\"devices\"") == NULL && strstr(out, "\"idle_gaps\"") == NULL &&
          strstr(out, "\"step_bars\"") == NULL && strstr(out, "\"memory_charts\"") == NULL &&
          strstr(out, "\"replay\"") == NULL && strstr(out, "\"roofline\"") == NULL);
    free(out);
    gs_rank_summary_free(&s);
}

/* Indexes between sections that point nowhere are refused. */
static void test_bad_indexes(void)
{
    static const char chart[] =
        "{\"format\": \"gpuscope-rank-summary\", \"version\": 1, \"minor\": 1,\n"
        "\"memory_charts\": [{\"device\": 0, \"first_point\": 1, \"points\": 2}],\n"
        "\"memory_points\": [{\"ts_ns\": 1}, {\"ts_ns\": 2}]}";
    static const char nvml[] =
        "{\"format\": \"gpuscope-rank-summary\", \"version\": 1,\n"
        "\"gpu_utilization_buckets\": [{\"busy_pct\": 1}],\n"
        "\"gpu_utilization_nvml\": [{\"bucket\": 1, \"pct\": 50}]}";
    static const char cls[] = "{\"format\": \"gpuscope-rank-summary\", \"version\": 1,\n"
                              "\"idle_gaps\": [{\"class\": 3}]}";
    gs_rank_summary s;
    gs_error err;
    CHECK(gs_gsum_read_buffer(chart, sizeof chart - 1, "c.gsum", &s, &err) == -1);
    CHECK(strstr(err.msg, "a memory chart without its points") != NULL);
    CHECK_INT(err.code, GS_EXIT_INPUT);
    CHECK(gs_gsum_read_buffer(nvml, sizeof nvml - 1, "n.gsum", &s, &err) == -1);
    CHECK(strstr(err.msg, "an NVML sample outside the utilization buckets") != NULL);
    CHECK(gs_gsum_read_buffer(cls, sizeof cls - 1, "g.gsum", &s, &err) == -1);
    CHECK(strstr(err.msg, "\"class\" has a value of the wrong type or out of range") != NULL);
}

int main(void)
{
    test_summary();
    test_stages();
    test_series();
    test_round_trip();
    test_tracing_cost();
    test_minor0();
    test_bad_indexes();
    return check_done("rank_summary");
}
