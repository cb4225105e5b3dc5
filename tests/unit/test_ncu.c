/* The Nsight Compute CSV reader (both pages, errors with their line) and the join with a trace's
 * kernels, on small exports written here with known values. */
#include <math.h>

#include "analysis/base/kernel_function.h"
#include "analysis/trace/ncu_join.h"
#include "check.h"
#include "ingest/ncu_csv.h"
#include "trace_builder.h"

#define HEAD "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\"," \
             "\"Stream\",\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\","     \
             "\"Metric Name\",\"Metric Unit\",\"Metric Value\",\"Rule Name\",\"Rule Type\","    \
             "\"Rule Description\",\"Estimated Speedup Type\",\"Estimated Speedup\"\n"
#define ROW(id, name, block, grid) "\"" id "\",\"1\",\"python3\",\"host\",\"" name "\",\"1\",\"7\",\"" block "\",\"" grid "\",\"0\",\"9.0\","

static const char details[] =
    "==PROF== Connected to process 1 (/usr/bin/python3)\n"
    HEAD
    ROW("0", "gemm_kernel", "(128, 1, 1)", "(4, 2, 1)") "\"GPU Speed Of Light Throughput\",\"Duration\",\"us\",\"12.50\",\n"
    ROW("0", "gemm_kernel", "(128, 1, 1)", "(4, 2, 1)") "\"GPU Speed Of Light Throughput\",\"Compute (SM) Throughput\",\"%\",\"71.25\",\n"
    ROW("0", "gemm_kernel", "(128, 1, 1)", "(4, 2, 1)") "\"GPU Speed Of Light Throughput\",\"Memory Throughput\",\"%\",\"1,012.5\",\n"
    ROW("0", "gemm_kernel", "(128, 1, 1)", "(4, 2, 1)") "\"Memory Workload Analysis\",\"Memory Throughput\",\"byte/s\",\"410,856,368,563.69\",\n"
    ROW("0", "gemm_kernel", "(128, 1, 1)", "(4, 2, 1)") "\"Occupancy\",\"Block Limit Registers\",\"block\",\"3\",\n"
    ROW("0", "gemm_kernel", "(128, 1, 1)", "(4, 2, 1)") "\"Occupancy\",\"Block Limit Shared Mem\",\"block\",\"2\",\n"
    ROW("0", "gemm_kernel", "(128, 1, 1)", "(4, 2, 1)") "\"Occupancy\",\"Block Limit Warps\",\"block\",\"16\",\n"
    ROW("0", "gemm_kernel", "(128, 1, 1)", "(4, 2, 1)") "\"Occupancy\",\"Theoretical Occupancy\",\"%\",\"25\",\n"
    ROW("0", "gemm_kernel", "(128, 1, 1)", "(4, 2, 1)") "\"Occupancy\",\"Achieved Occupancy\",\"%\",\"20.5\",\n"
    ROW("0", "gemm_kernel", "(128, 1, 1)", "(4, 2, 1)") "\"Occupancy\",\"\",\"\",\"\",\"TheoreticalOccupancy\",\"OPT\",\"Says \"\"why\"\", over\ntwo lines\",\"local\",\"60.5\"\n"
    ROW("0", "gemm_kernel", "(128, 1, 1)", "(4, 2, 1)") "\"SpeedOfLight\",\"\",\"\",\"\",\"SOLBottleneck\",\"INF\",\"no speedup\",\"\",\"\"\n"
    ROW("1", "void at::<unnamed>::norm_kernel<float, 0>(int, T2 *)", "(32, 4, 1)", "(64, 1, 1)") "\"GPU Speed Of Light Throughput\",\"Compute (SM) Throughput\",\"%\",\"5\",\n"
    ROW("1", "void at::<unnamed>::norm_kernel<float, 0>(int, T2 *)", "(32, 4, 1)", "(64, 1, 1)") "\"WorkloadDistribution\",\"\",\"\",\"\",\"WorkloadImbalance\",\"OPT\",\"x\",\"global\",\"7\"\n"
    ROW("2", "not_in_the_trace", "(32, 1, 1)", "(1, 1, 1)") "\"GPU Speed Of Light Throughput\",\"Duration\",\"ns\",\"900\",\n";

static void test_details_page(void)
{
    gs_ncu_report r;
    gs_error err;
    CHECK_INT(gs_ncu_read_buffer(details, sizeof details - 1, "d.csv", &r, &err), 0);
    CHECK_INT(r.kernels.n, 3);
    CHECK_INT(r.details_runs, 1);
    const gs_ncu_kernel *k = &r.kernels.v[0];
    CHECK_STR(gs_ncu_str(&r, k->name), "gemm_kernel");
    CHECK_INT(k->grid[0], 4);
    CHECK_INT(k->grid[1], 2);
    CHECK_INT(k->block[0], 128);
    CHECK_INT(k->line, 3);
    CHECK(k->metric[GS_NCU_DURATION_NS] == 12500); /* us -> ns */
    CHECK(k->metric[GS_NCU_COMPUTE_PCT] == 71.25);
    CHECK(k->metric[GS_NCU_MEMORY_PCT] == 1012.5); /* the SOL row, not the byte/s one */
    CHECK(k->metric[GS_NCU_ACHIEVED_OCC_PCT] == 20.5);
    CHECK(isnan(k->metric[GS_NCU_LIMIT_SM]));
    CHECK_INT(r.rules.n, 3);
    CHECK_STR(gs_ncu_str(&r, r.rules.v[0].description), "Says \"why\", over\ntwo lines");
    CHECK(r.rules.v[0].speedup_pct == 60.5);
    CHECK_INT(r.rules.v[0].line, 12);
    CHECK(isnan(r.rules.v[1].speedup_pct));
    CHECK_INT(r.rules.v[2].kernel, 1);
    CHECK_INT(r.kernels.v[2].line, 17);
    gs_ncu_report_free(&r);
}

/* ncu's kernels joined with t's kernels by launch (the whole trace), as `kernels --ncu` joins
 * them: the summary, finished, is handed to the join. */
static int join(const gs_trace *t, const gs_ncu_report *r, gs_ncu_join *j, gs_error *err)
{
    gs_trace_ctx c = tb_ctx(t, NULL);
    gs_kernel_summary by_launch;
    int rc = gs_kernel_summary_build(&c, true, &by_launch, err);
    gs_trace_ctx_free(&c);
    if (rc != 0)
        return -1;
    rc = gs_ncu_join_build(&by_launch, r, j, err);
    CHECK_INT(by_launch.nrows, 0); /* the join took the summary over */
    CHECK(by_launch.rows == NULL);
    return rc;
}

static const char raw[] =
    "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"gpu__time_duration.sum\","
    "\"sm__throughput.avg.pct_of_peak_sustained_elapsed\","
    "\"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed\","
    "\"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed\","
    "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed\","
    "\"smsp__cycles_elapsed.avg.per_second\",\"dram__bytes.sum.per_second\","
    "\"sm__sass_thread_inst_executed_op_ffma_pred_on.sum.peak_sustained\","
    "\"sm__cycles_elapsed.avg.per_second\",\"dram__bytes.sum.peak_sustained\","
    "\"dram__cycles_elapsed.avg.per_second\",\"sm__maximum_warps_per_active_cycle_pct\"\r\n"
    "\"\",\"\",\"\",\"\",\"usecond\",\"%\",\"inst/cycle\",\"inst/cycle\",\"inst/cycle\",\"hz\","
    "\"byte/s\",\"inst/cycle\",\"hz\",\"byte/cycle\",\"hz\",\"%\"\r\n"
    /* work (10 + 20 + 2 x 35) x 1e9 = 1e11 FLOP/s over 1e10 B/s: 10 FLOP/B; ridge 2 x 100 x 1e9
     * over 20 x 1e9 = 10: compute-bound, at the ridge */
    "\"5\",\"gemm_kernel\",\"(128, 1, 1)\",\"(4, 2, 1)\",\"2\",\"33.5\",\"10\",\"20\",\"35\","
    "\"1,000,000,000\",\"10,000,000,000\",\"100\",\"1,000,000,000\",\"20\",\"1,000,000,000\",\"100\"\r\n";

static void test_raw_page_and_join(void)
{
    gs_ncu_report r;
    gs_error err;
    CHECK_INT(gs_ncu_read_buffer(raw, sizeof raw - 1, "r.csv", &r, &err), 0);
    CHECK_INT(r.raw_runs, 1);
    CHECK_INT(r.kernels.n, 1);
    const gs_ncu_kernel *k = &r.kernels.v[0];
    CHECK_INT(k->id, 5);
    CHECK(k->metric[GS_NCU_DURATION_NS] == 2000);
    CHECK(k->metric[GS_NCU_COMPUTE_PCT] == 33.5);

    gs_profile p = {0};
    gs_trace *t = tb_new("t.json", 0);
    tb_kernel(t, "gemm_kernel", 0, 10, 0);
    tb_kernel(t, "gemm_kernel", 20, 50, 0); /* another launch: not joined */
    tb_launch_config(t, 8, 128);
    tb_add(&p, t);
    gs_ncu_join j;
    CHECK_INT(join(p.traces.v[0], &r, &j, &err), 0);
    CHECK_INT(j.nrows, 1);
    CHECK_INT(j.matched, 0); /* grid (4,2,1) is in no trace kernel */
    gs_ncu_join_free(&j);
    gs_profile_free(&p);

    p = (gs_profile){0};
    t = tb_new("t.json", 0);
    tb_kernel(t, "gemm_kernel", 0, 10, 0);
    t->kernels.v[0].grid[0] = 4, t->kernels.v[0].grid[1] = 2, t->kernels.v[0].block[0] = 128;
    tb_add(&p, t);
    CHECK_INT(join(p.traces.v[0], &r, &j, &err), 0);
    CHECK_INT(j.matched, 1);
    CHECK_INT(j.rows[0].match, GS_NCU_MATCH_NAME);
    CHECK_INT(j.rows[0].trace->time.total, 10);
    CHECK(fabs(j.rows[0].intensity - 10) < 1e-9);
    CHECK(fabs(j.rows[0].ridge - 10) < 1e-9);
    CHECK_STR(j.rows[0].bound, "compute");
    CHECK_STR(j.rows[0].limiter, "none"); /* theoretical occupancy 100 % */
    gs_ncu_join_free(&j);
    gs_profile_free(&p);
    gs_ncu_report_free(&r);
}

static void test_join_by_function(void)
{
    gs_ncu_report r;
    gs_error err;
    CHECK_INT(gs_ncu_read_buffer(details, sizeof details - 1, "d.csv", &r, &err), 0);
    gs_profile p = {0};
    gs_trace *t = tb_new("t.json", 0);
    const char *norm = "void at::native::(anonymous namespace)::norm_kernel<float, false>(int, float*)";
    tb_kernel(t, norm, 0, 100, 0);
    t->kernels.v[0].grid[0] = 64, t->kernels.v[0].block[0] = 32, t->kernels.v[0].block[1] = 4;
    tb_kernel(t, "gemm_kernel", 200, 230, 0);
    t->kernels.v[1].grid[0] = 4, t->kernels.v[1].grid[1] = 2, t->kernels.v[1].block[0] = 128;
    tb_add(&p, t);
    gs_ncu_join j;
    CHECK_INT(join(p.traces.v[0], &r, &j, &err), 0);
    gs_profile_free(&p); /* the join owns the trace's kernel names */
    CHECK_INT(j.nrows, 3);
    CHECK_INT(j.matched, 2);
    CHECK_INT(j.rows[0].match, GS_NCU_MATCH_NAME);
    CHECK_STR(j.rows[0].limiter, "shared memory");
    CHECK_STR(j.rows[0].top_rule ? gs_ncu_str(&r, j.rows[0].top_rule->name) : "", "TheoreticalOccupancy");
    CHECK_INT(j.rows[0].nrules, 2);
    CHECK(j.rows[0].bound == NULL); /* no roofline metrics in the details page */
    CHECK_INT(j.rows[1].match, GS_NCU_MATCH_FUNCTION);
    CHECK_STR(j.rows[1].trace->name, norm);
    CHECK_INT(j.rows[2].match, GS_NCU_UNMATCHED);
    gs_ncu_join_free(&j);
    gs_ncu_report_free(&r);
}

static void expect_error(const char *csv, const char *want)
{
    gs_ncu_report r;
    gs_error err = {0};
    CHECK_INT(gs_ncu_read_buffer(csv, strlen(csv), "bad.csv", &r, &err), -1);
    CHECK_INT(err.code, GS_EXIT_INPUT);
    if (!strstr(err.msg, want))
        printf("message '%s' lacks '%s'\n", err.msg, want);
    CHECK(strstr(err.msg, want) != NULL);
    CHECK_INT(r.kernels.n, 0);
}

static void test_errors(void)
{
    expect_error("", "bad.csv: not an Nsight Compute CSV export");
    expect_error("a,b\n1,2\n", "bad.csv: line 1: not an Nsight Compute CSV export");
    expect_error("\"ID\",\"Name\"\n", "line 1: the header has no Kernel Name");
    expect_error(HEAD ROW("0", "k", "(1, 1, 1)", "(1, 1)") "\"s\",\"m\",\"\",\"1\"\n",
                 "bad.csv: line 2: Grid Size is not (x, y, z): (1, 1)");
    expect_error(HEAD "\n" ROW("x", "k", "(1, 1, 1)", "(1, 1, 1)") "\n", "line 3: ID is not a whole number");
    expect_error(HEAD "\"0\",\"k\n", "line 2: a quoted field is not closed");
    expect_error(HEAD "\"0\"\n", "line 2: a row shorter than the header");
}

static void test_function_names(void)
{
    static const struct { const char *name, *function; } cases[] = {
        {"nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_bias_NNT", "nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_bias_NNT"},
        {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float, false>(int, float, float const*, float*)", "vectorized_layer_norm_kernel"},
        {"void at::<unnamed>::vectorized_layer_norm_kernel<float, float, 0>(int, T2, const T1 *, T2 *)", "vectorized_layer_norm_kernel"},
        {"void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::FillFunctor<float> >(at::TensorIteratorBase&, at::native::FillFunctor<float> const&)::{lambda(int)#1}>(int, at::native::gpu_kernel_impl<at::native::FillFunctor<float> >(at::TensorIteratorBase&, at::native::FillFunctor<float> const&)::{lambda(int)#1})", "elementwise_kernel"},
        {"ampere_sgemm_128x64_tn", "ampere_sgemm_128x64_tn"},
        {"void f(int) const", "f"},
        {"<weird>", "<weird>"},
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *start;
        size_t n = gs_kernel_function(cases[i].name, &start);
        char buf[256];
        snprintf(buf, sizeof buf, "%.*s", (int)n, start);
        CHECK_STR(buf, cases[i].function);
    }
}

int main(void)
{
    test_details_page();
    test_raw_page_and_join();
    test_join_by_function();
    test_errors();
    test_function_names();
    return check_done("test_ncu");
}
