/* ncu's measured DRAM bytes and FLOPs per kernel (analysis/trace/ncu_measured.h) from either
 * page, and the estimate beside them (gs_ncu_join_estimate). The raw page's numbers are those
 * of the H100 GPT-2 export's kernel ID 1 (../shared/gpu-captures/ncu/ncu_gpt_raw.csv), an
 * nvjet bf16 GEMM of 4096x768 by 768x768: 2 x 4096 x 768 x 768 = 4,831,838,208 FLOPs (its
 * dfma count, 0 there, is made up here to count FP64; its tensor pipe's total, 45.44 %, too, to
 * show that the matrix multiplies' own activity is the one read). */
#include <math.h>

#include "analysis/trace/ncu_join.h"
#include "analysis/trace/ncu_measured.h"
#include "check.h"
#include "ingest/ncu_csv.h"
#include "trace_builder.h"

#define CHECK_NEAR(got, want, tol) CHECK(fabs((double)(got) - (double)(want)) <= (tol))

#define GEMM_FLOPS (2.0 * 4096 * 768 * 768)

static const char raw[] =
    "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"CC\",\"gpu__time_duration.sum\","
    "\"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum.per_cycle_elapsed\","
    "\"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum.per_cycle_elapsed\","
    "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum.per_cycle_elapsed\","
    "\"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum.per_cycle_elapsed\","
    "\"smsp__cycles_elapsed.avg.per_second\",\"sm__cycles_elapsed.avg.per_second\","
    "\"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed\","
    "\"sm__pipe_tensor_type_hmma_hgmma_qgmma_imma_igmma_bmma_bgmma_cycles_active.avg."
    "pct_of_peak_sustained_elapsed\",\"launch__sm_count\","
    "\"dram__bytes.sum.per_second\"\n"
    "\"\",\"\",\"\",\"\",\"\",\"ns\",\"inst/cycle\",\"inst/cycle\",\"inst/cycle\",\"inst/cycle\","
    "\"hz\",\"hz\",\"%\",\"%\",\"SM\",\"byte/s\"\n"
    "\"1\",\"nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_bias_NNT\",\"(384, 1, 1)\",\"(2, 64, 1)\","
    "\"9.0\",\"13,888\",\"159.95\",\"0\",\"0\",\"0.5\",\"1,416,098,266.65\",\"1,416,098,266.65\","
    "\"47.5\",\"45.44\",\"132\",\"539,834,101,382.49\"\n";

/* The elapsed SM cycles of ID 1 and what its tensor pipe did in them at 4096 bf16 FLOPs per
 * cycle per SM (an H100 SM's 2048 dense FMA). */
#define CYCLES (13888e-9 * 1416098266.65)
#define TENSOR_FLOPS (0.4544 * 132 * 4096 * CYCLES)
#define SASS_FLOPS ((159.95 + 2 * 0.5) * 1416098266.65 * 13888e-9)

static void test_raw_page(void)
{
    gs_ncu_report r;
    gs_error err;
    CHECK_INT(gs_ncu_read_buffer(raw, sizeof raw - 1, "raw.csv", &r, &err), 0);
    const gs_ncu_kernel *k = &r.kernels.v[0];
    CHECK(k->cc == 9.0);
    CHECK(k->metric[GS_NCU_SM_COUNT] == 132);
    gs_ncu_measured m;
    gs_ncu_measure(k, GS_DTYPE_BF16, &m);
    CHECK_INT(m.bytes_from, GS_NCU_BYTES_RATE);
    CHECK_NEAR(m.dram_bytes, 539834101382.49 * 13888e-9, 1e-3);
    CHECK_NEAR(m.sass_flops, SASS_FLOPS, 1e-3); /* FP32 and FP64; no FP16 counts: none */
    CHECK_NEAR(m.tensor_flops, TENSOR_FLOPS, 1);
    CHECK_NEAR(m.flops, SASS_FLOPS + TENSOR_FLOPS, 1);
    CHECK(fabs(m.flops / GEMM_FLOPS - 1) < 0.001); /* the measurement is the hand count */
    gs_ncu_measure(k, GS_DTYPE_UNKNOWN, &m); /* the pipe ran, in a type not known */
    CHECK(isnan(m.tensor_flops) && isnan(m.flops));
    gs_ncu_measure(k, GS_DTYPE_FP32, &m); /* fp32 matrix work runs as tf32: half bf16's rate */
    CHECK_NEAR(m.tensor_flops, TENSOR_FLOPS / 2, 1);
    gs_ncu_report_free(&r);
}

static gs_ncu_kernel kernel(double cc, double tensor_pct)
{
    gs_ncu_kernel k = {.cc = cc};
    for (int i = 0; i < GS_NCU__COUNT; i++)
        k.metric[i] = NAN;
    k.metric[GS_NCU_TENSOR_PCT] = tensor_pct;
    k.metric[GS_NCU_DURATION_NS] = 1e6;
    k.metric[GS_NCU_SM_CYCLES_PER_S] = 1e9;
    k.metric[GS_NCU_SM_COUNT] = 108;
    return k;
}

static void test_tensor_rates(void)
{
    gs_ncu_measured m;
    gs_ncu_kernel idle = kernel(9.0, 0);
    gs_ncu_measure(&idle, GS_DTYPE_UNKNOWN, &m);
    CHECK(m.tensor_flops == 0);  /* an idle pipe did nothing, whatever the type */
    CHECK(isnan(m.sass_flops));  /* no SASS counts exported: unknown, not 0 */
    CHECK(isnan(m.flops));
    CHECK(isnan(m.dram_bytes));
    CHECK_INT(m.bytes_from, GS_NCU_BYTES_UNKNOWN);
    CHECK(gs_ncu_bytes_from_name(m.bytes_from) == NULL);
    gs_ncu_kernel a100 = kernel(8.0, 50); /* 1e6 cycles, half of them, 108 SMs */
    gs_ncu_measure(&a100, GS_DTYPE_BF16, &m);
    CHECK_NEAR(m.tensor_flops, 0.5 * 108 * 2048 * 1e6, 1);
    gs_ncu_measure(&a100, GS_DTYPE_FP64, &m);
    CHECK_NEAR(m.tensor_flops, 0.5 * 108 * 128 * 1e6, 1);
    gs_ncu_kernel fp64 = kernel(8.0, 10); /* the pipe's total, all of it FP64 */
    fp64.metric[GS_NCU_TENSOR_DMMA_PCT] = 10;
    gs_ncu_measure(&fp64, GS_DTYPE_BF16, &m);
    CHECK_NEAR(m.tensor_flops, 0.1 * 108 * 128 * 1e6, 1);
    gs_ncu_kernel unknown_gpu = kernel(12.0, 50);
    gs_ncu_measure(&unknown_gpu, GS_DTYPE_BF16, &m);
    CHECK(isnan(m.tensor_flops));
    gs_ncu_kernel no_cc = kernel(NAN, 50);
    gs_ncu_measure(&no_cc, GS_DTYPE_BF16, &m);
    CHECK(isnan(m.tensor_flops));
}

/* The counters come first, in whatever unit ncu wrote them. */
static void test_counters_and_units(void)
{
    static const char csv[] =
        "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"gpu__time_duration.sum\","
        "\"dram__bytes_read.sum\",\"dram__bytes_write.sum\",\"dram__bytes.sum.per_second\"\n"
        "\"\",\"\",\"\",\"\",\"usecond\",\"Mbyte\",\"Kbyte\",\"Gbyte/second\"\n"
        "\"0\",\"k\",\"(1, 1, 1)\",\"(1, 1, 1)\",\"2\",\"3.5\",\"250\",\"100\"\n";
    gs_ncu_report r;
    gs_error err;
    CHECK_INT(gs_ncu_read_buffer(csv, sizeof csv - 1, "c.csv", &r, &err), 0);
    const gs_ncu_kernel *k = &r.kernels.v[0];
    CHECK(isnan(k->cc)); /* no CC column */
    CHECK(k->metric[GS_NCU_DRAM_BYTES_PER_S] == 100e9);
    gs_ncu_measured m;
    gs_ncu_measure(k, GS_DTYPE_UNKNOWN, &m);
    CHECK_INT(m.bytes_from, GS_NCU_BYTES_COUNTED);
    CHECK_NEAR(m.dram_bytes, 3.75e6, 1e-6);
    CHECK_STR(gs_ncu_bytes_from_name(m.bytes_from), "dram counters");
    gs_ncu_report_free(&r);
}

#define HEAD "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"CC\",\"Section Name\"," \
             "\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
#define ROW "\"0\",\"k\",\"(1, 1, 1)\",\"(1, 1, 1)\",\"9.0\","

/* The details page has neither counters nor the DRAM rate: its Memory Workload Analysis's
 * Memory Throughput (byte/s, the one of that section, not Speed Of Light's %) x Duration; no
 * FLOP counts at all. */
static void test_details_page(void)
{
    static const char csv[] =
        HEAD
        ROW "\"GPU Speed Of Light Throughput\",\"Memory Throughput\",\"%\",\"47.47\"\n"
        ROW "\"GPU Speed Of Light Throughput\",\"Duration\",\"usecond\",\"14.18\"\n"
        ROW "\"GPU Speed Of Light Throughput\",\"SM Frequency\",\"Ghz\",\"1.42\"\n"
        ROW "\"Memory Workload Analysis\",\"Memory Throughput\",\"Gbyte/second\",\"528.90\"\n"
        ROW "\"Launch Statistics\",\"# SMs\",\"SM\",\"132\"\n";
    gs_ncu_report r;
    gs_error err;
    CHECK_INT(gs_ncu_read_buffer(csv, sizeof csv - 1, "d.csv", &r, &err), 0);
    const gs_ncu_kernel *k = &r.kernels.v[0];
    CHECK(k->metric[GS_NCU_MEMORY_PCT] == 47.47);
    CHECK(k->metric[GS_NCU_SM_CYCLES_PER_S] == 1.42e9);
    CHECK(k->metric[GS_NCU_SM_COUNT] == 132);
    gs_ncu_measured m;
    gs_ncu_measure(k, GS_DTYPE_BF16, &m);
    CHECK_INT(m.bytes_from, GS_NCU_BYTES_THROUGHPUT);
    CHECK_NEAR(m.dram_bytes, 528.90e9 * 14.18e-6, 1e-3);
    CHECK(isnan(m.flops));
    gs_ncu_report_free(&r);
}

static void op(gs_trace *t, const char *name, gs_ns start, const char *dims, const char *types)
{
    tb_range(t, GS_RANGE_OP, name, start, start + 1000, dims);
    t->ranges.v[t->ranges.n - 1].input_types = tb_str(t, types);
}

static void launch(gs_trace *t, gs_ns at, const char *kernel, gs_ns start, gs_ns dur,
                   uint64_t corr)
{
    tb_api(t, "cudaLaunchKernel", at + 10, at + 20, corr);
    tb_kernel(t, kernel, start, start + dur, corr);
    gs_kernel *k = &t->kernels.v[t->kernels.n - 1];
    k->grid[0] = 2, k->grid[1] = 64, k->block[0] = 384;
}

#define NVJET "nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_bias_NNT"
#define BF16_2 "[\"c10::BFloat16\", \"c10::BFloat16\"]"

/* The trace's kernels of ID 1's launch ran two shapes: the 768 x 768 projection (10 µs each)
 * and a 3072-deep one (30 µs); ncu's 13.9 µs is nearest the first. */
static void test_estimate(void)
{
    gs_ncu_report r;
    gs_error err;
    CHECK_INT(gs_ncu_read_buffer(raw, sizeof raw - 1, "raw.csv", &r, &err), 0);
    gs_profile p = {0};
    gs_trace *t = tb_new("t.json", 0);
    op(t, "aten::mm", 0, "[[4096, 768], [768, 768]]", BF16_2);
    launch(t, 0, NVJET, 10000, 10000, 1);
    op(t, "aten::mm", 2000, "[[4096, 768], [768, 768]]", BF16_2);
    launch(t, 2000, NVJET, 30000, 10000, 2);
    op(t, "aten::mm", 4000, "[[4096, 3072], [3072, 768]]", BF16_2);
    launch(t, 4000, NVJET, 50000, 30000, 3);
    tb_add(&p, t);
    gs_trace_ctx c = tb_ctx(p.traces.v[0], NULL);
    gs_ncu_estimates e;
    CHECK_INT(gs_ncu_estimates_init(&e, &r, &err), 0);
    CHECK_INT(gs_ncu_estimates_add(&e, &c, &err), 0);
    gs_kernel_summary by_launch;
    CHECK_INT(gs_kernel_summary_build(&c, true, &by_launch, &err), 0);
    gs_ncu_join j;
    CHECK_INT(gs_ncu_join_build(&by_launch, &r, &j, &err), 0);
    CHECK(isnan(j.rows[0].flops_ratio)); /* not estimated yet */
    gs_ncu_join_estimate(&j, &e);
    const gs_ncu_row *row = &j.rows[0];
    CHECK_INT(row->shapes, 2);
    CHECK_INT(row->estimate.cls, GS_OPC_GEMM);
    CHECK_INT(row->estimate.dtype, GS_DTYPE_BF16);
    CHECK(row->estimate.flops == GEMM_FLOPS);
    CHECK(row->estimate.bytes == 2.0 * (4096 * 768 + 768 * 768 + 4096 * 768));
    CHECK_NEAR(row->measured.tensor_flops, TENSOR_FLOPS, 1); /* measured in the estimate's type */
    CHECK_NEAR(row->flops_ratio, (SASS_FLOPS + TENSOR_FLOPS) / GEMM_FLOPS, 1e-9);
    CHECK_NEAR(row->bytes_ratio, 539834101382.49 * 13888e-9 / row->estimate.bytes, 1e-9);
    gs_ncu_join_free(&j);
    gs_ncu_estimates_free(&e);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
    gs_ncu_report_free(&r);
}

/* A call that launched a helper besides its main kernel lends the main one its cost when that
 * took at least 90 % of the call's kernel time; two kernels of one call otherwise share none. */
static void test_main_kernel_of_a_call(void)
{
    gs_ncu_report r;
    gs_error err;
    CHECK_INT(gs_ncu_read_buffer(raw, sizeof raw - 1, "raw.csv", &r, &err), 0);
    static const gs_ns helper[] = {1000, 5000};
    static const uint32_t shapes[] = {1, 0};
    for (int i = 0; i < 2; i++) {
        gs_profile p = {0};
        gs_trace *t = tb_new("t.json", 0);
        op(t, "aten::mm", 0, "[[4096, 768], [768, 768]]", BF16_2);
        tb_api(t, "cudaLaunchKernel", 10, 20, 1);
        tb_kernel(t, "helper", 5000, 5000 + helper[i], 1);
        launch(t, 100, NVJET, 10000, 10000, 2);
        tb_add(&p, t);
        gs_trace_ctx c = tb_ctx(p.traces.v[0], NULL);
        gs_ncu_estimates e;
        CHECK_INT(gs_ncu_estimates_init(&e, &r, &err), 0);
        CHECK_INT(gs_ncu_estimates_add(&e, &c, &err), 0);
        gs_kernel_summary by_launch;
        CHECK_INT(gs_kernel_summary_build(&c, true, &by_launch, &err), 0);
        gs_ncu_join j;
        CHECK_INT(gs_ncu_join_build(&by_launch, &r, &j, &err), 0);
        gs_ncu_join_estimate(&j, &e);
        CHECK_INT(j.rows[0].shapes, shapes[i]);
        CHECK_INT(j.rows[0].estimate.cls, shapes[i] ? GS_OPC_GEMM : GS_OPC_NONE);
        gs_ncu_join_free(&j);
        gs_ncu_estimates_free(&e);
        gs_trace_ctx_free(&c);
        gs_profile_free(&p);
    }
    gs_ncu_report_free(&r);
}

int main(void)
{
    test_raw_page();
    test_tensor_rates();
    test_counters_and_units();
    test_details_page();
    test_estimate();
    test_main_kernel_of_a_call();
    return check_done("test_ncu_measured");
}
