/* FLOPs per operator from shapes (torch/utils/flop_counter.py's formulas), the peaks table, and a
 * step's model FLOPs, MFU and Tensor Core use on a small trace with known answers. */
#include <math.h>

#include "analysis/base/flops.h"
#include "analysis/base/gpu_peaks.h"
#include "analysis/trace/compute.h"
#include "check.h"
#include "trace_builder.h"

#define NEAR(a, b) (fabs((a) - (b)) <= 1e-9 * fabs(b) + 1e-12)

static double flops_of(const char *name, const char *dims, const char *types, const char *concrete,
                       enum gs_dtype *dtype)
{
    gs_op_flops f;
    gs_op_flops_compute(name, dims, types, concrete, &f);
    if (dtype)
        *dtype = f.dtype;
    return f.flops;
}

static void test_formulas(void)
{
    enum gs_dtype d;
    CHECK(NEAR(flops_of("aten::mm", "[[4096, 768], [768, 2304]]", "[\"c10::BFloat16\", "
                        "\"c10::BFloat16\"]", NULL, &d),
               2.0 * 4096 * 768 * 2304));
    CHECK_INT(d, GS_DTYPE_BF16);
    /* addmm: the bias is argument 0; the dtype is the first matrix's */
    CHECK(NEAR(flops_of("aten::addmm", "[[2304], [4096, 768], [768, 2304], [], []]",
                        "[\"float\", \"c10::Half\", \"c10::Half\", \"Scalar\", \"Scalar\"]", NULL,
                        &d),
               2.0 * 4096 * 768 * 2304));
    CHECK_INT(d, GS_DTYPE_FP16);
    CHECK(NEAR(flops_of("aten::bmm", "[[8, 64, 32], [8, 32, 16]]", NULL, NULL, NULL),
               2.0 * 8 * 64 * 16 * 32));
    CHECK(NEAR(flops_of("aten::baddbmm", "[[8, 64, 16], [8, 64, 32], [8, 32, 16], [], []]", NULL,
                        NULL, NULL),
               2.0 * 8 * 64 * 16 * 32));
    /* matmul broadcasts: [8, 512, 768] @ [768, 50257] */
    CHECK(NEAR(flops_of("aten::matmul", "[[8, 512, 768], [768, 50257]]", NULL, NULL, NULL),
               2.0 * 8 * 512 * 768 * 50257));
    CHECK(NEAR(flops_of("aten::linear", "[[8, 512, 768], [50257, 768], []]", NULL, NULL, NULL),
               2.0 * 8 * 512 * 768 * 50257));
    CHECK(flops_of("aten::mm", "[[4, 5], [6, 7]]", NULL, NULL, NULL) == 0); /* K differs */
    /* ResNet-50's first convolution: 7x7 stride 2 padding 3 on 224x224 -> 112x112 */
    double conv = 2.0 * 32 * 64 * 3 * 7 * 7 * 112 * 112;
    CHECK(NEAR(flops_of("aten::conv2d", "[[32, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], []]",
                        NULL, "[\"\", \"\", \"\", \"[2, 2]\", \"[3, 3]\", \"[1, 1]\", \"1\"]", NULL),
               conv));
    CHECK(NEAR(flops_of("aten::convolution",
                        "[[32, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], [], [], []]", NULL,
                        "[\"\", \"\", \"\", \"[2, 2]\", \"[3, 3]\", \"[1, 1]\", \"False\", "
                        "\"[0, 0]\", \"1\"]",
                        NULL),
               conv));
    /* without stride and padding no output size: not counted */
    CHECK(flops_of("aten::conv2d", "[[32, 3, 224, 224], [64, 3, 7, 7], []]", NULL, NULL, NULL) == 0);
    /* backward: grad input and grad weight, twice the forward; the output from grad_output */
    CHECK(NEAR(flops_of("aten::convolution_backward",
                        "[[32, 64, 112, 112], [32, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], "
                        "[], [], [], []]",
                        NULL, "[\"\", \"\", \"\", \"\", \"[2, 2]\", \"[3, 3]\", \"[1, 1]\", "
                        "\"False\", \"[0, 0]\", \"1\", \"\"]", NULL),
               2 * conv));
    /* PyTorch < 1.11, one gradient each, as many FLOPs as the forward: the input's from
     * grad_output and the weight; the weight's needs the weight's size, an int list only
     * Concrete Inputs records (argument 0) */
    CHECK(NEAR(flops_of("aten::cudnn_convolution_backward_input",
                        "[[], [32, 64, 112, 112], [64, 3, 7, 7], [], [], [], [], [], [], []]",
                        NULL, NULL, NULL),
               conv));
    CHECK(NEAR(flops_of("aten::cudnn_convolution_backward_weight",
                        "[[], [32, 64, 112, 112], [32, 3, 224, 224], [], [], [], [], [], [], []]",
                        NULL, "[\"[64, 3, 7, 7]\", \"\", \"\"]", NULL),
               conv));
    CHECK(flops_of("aten::cudnn_convolution_backward_weight",
                   "[[], [32, 64, 112, 112], [32, 3, 224, 224], [], [], [], [], [], [], []]",
                   NULL, NULL, NULL) == 0);
    CHECK_INT(gs_flop_kind_of("aten::cudnn_convolution_backward_weight"), GS_FLOP_CONV);
    /* grouped (depthwise): weight [C, 1, 3, 3] */
    CHECK(NEAR(flops_of("aten::conv2d", "[[2, 16, 8, 8], [16, 1, 3, 3], []]", NULL,
                        "[\"\", \"\", \"\", \"[1, 1]\", \"[1, 1]\", \"[1, 1]\", \"16\"]", NULL),
               2.0 * 2 * 16 * 1 * 9 * 8 * 8));
    /* attention: forward 4 B H S S D, backward 2.5 times that */
    double sdpa = 4.0 * 8 * 12 * 512 * 512 * 64;
    const char *qkv = "[[8, 12, 512, 64], [8, 12, 512, 64], [8, 12, 512, 64], [], [], [], [], []]";
    CHECK(NEAR(flops_of("aten::scaled_dot_product_attention", qkv, NULL, NULL, NULL), sdpa));
    CHECK(NEAR(flops_of("aten::_scaled_dot_product_cudnn_attention_backward",
                        "[[8, 12, 512, 64], [8, 12, 512, 64], [8, 12, 512, 64], [8, 12, 512, 64], "
                        "[8, 12, 512, 64], [8, 12, 512, 1], [], []]",
                        NULL, NULL, NULL),
               2.5 * sdpa));
    /* the kernels' own operators take [B, S, H, D] */
    CHECK(NEAR(flops_of("aten::_flash_attention_forward",
                        "[[8, 512, 12, 64], [8, 512, 12, 64], [8, 512, 12, 64], [], []]", NULL,
                        NULL, NULL),
               sdpa));
    CHECK(gs_flop_kind_of("aten::add") == GS_FLOP_NONE);
    CHECK(gs_flop_kind_of("aten::_scaled_dot_product_flash_attention") == GS_FLOP_ATTENTION);
}

static void test_peaks(void)
{
    const gs_gpu_peaks *g = gs_gpu_peaks_find("NVIDIA H100 80GB HBM3");
    CHECK(g && !strcmp(g->model, "H100 SXM"));
    CHECK(g && gs_gpu_peak_tflops(g, GS_DTYPE_BF16) == 989.4);
    g = gs_gpu_peaks_find("NVIDIA H100 PCIe");
    CHECK(g && !strcmp(g->model, "H100 PCIe"));
    g = gs_gpu_peaks_find("Tesla V100-SXM2-32GB");
    CHECK(g && !strcmp(g->model, "V100 SXM2") && gs_gpu_peak_tflops(g, GS_DTYPE_FP16) == 125);
    CHECK(g && gs_gpu_peak_tflops(g, GS_DTYPE_BF16) == 0); /* Volta has no bf16 */
    g = gs_gpu_peaks_find("NVIDIA A100-SXM4-80GB");
    CHECK(g && gs_gpu_peak_tflops(g, GS_DTYPE_TF32) == 156);
    CHECK(gs_gpu_peaks_find("NVIDIA A100-PG509-200") != NULL);
    g = gs_gpu_peaks_find("NVIDIA L4");
    CHECK(g && !strcmp(g->model, "L4"));
    g = gs_gpu_peaks_find("NVIDIA L40S");
    CHECK(g && !strcmp(g->model, "L40S"));
    CHECK(gs_gpu_peaks_find("NVIDIA GeForce RTX 4090") == NULL);
    CHECK(gs_gpu_peaks_find("NVIDIA B200") != NULL && gs_gpu_peaks_find("NVIDIA H200") != NULL);
}

/* One ProfilerStep: an autocast addmm (float outside, bf16 inside: one GEMM), linear -> matmul
 * -> mm (one GEMM), and a backward node whose two mm carry the trace's own flops (one right,
 * one wrong: the trace's value counts, the mismatch is counted). */
static gs_trace *gemm_trace(void)
{
    gs_trace *t = tb_new("flops.json", 0);
    tb_device(t, 0, "NVIDIA H100 80GB HBM3", 80000000000ull, 132, 9, 0);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#1", 0, 1000000, NULL);
    tb_range(t, GS_RANGE_OP, "aten::addmm", 10, 100, "[[64], [128, 256], [256, 64], [], []]");
    t->ranges.v[t->ranges.n - 1].input_types = tb_str(t, "[\"float\", \"float\", \"float\"]");
    tb_range(t, GS_RANGE_OP, "aten::addmm", 20, 90, "[[64], [128, 256], [256, 64], [], []]");
    t->ranges.v[t->ranges.n - 1].input_types =
        tb_str(t, "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\"]");
    tb_api(t, "cudaLaunchKernel", 30, 40, 1);
    tb_range(t, GS_RANGE_OP, "aten::linear", 100, 300, "[[128, 256], [64, 256], []]");
    tb_range(t, GS_RANGE_OP, "aten::matmul", 110, 290, "[[128, 256], [256, 64]]");
    tb_range(t, GS_RANGE_OP, "aten::mm", 120, 280, "[[128, 256], [256, 64]]");
    tb_api(t, "cudaLaunchKernel", 130, 140, 2);
    tb_range(t, GS_RANGE_OP, "AddmmBackward0", 300, 600, NULL);
    tb_range(t, GS_RANGE_OP, "aten::mm", 310, 400, "[[128, 64], [64, 256]]");
    t->ranges.v[t->ranges.n - 1].flops = 2.0 * 128 * 64 * 256;
    tb_range(t, GS_RANGE_OP, "aten::mm", 400, 500, "[[256, 128], [128, 64]]");
    t->ranges.v[t->ranges.n - 1].flops = 1000; /* wrong on purpose */
    tb_api(t, "cudaLaunchKernel", 410, 420, 3);
    tb_range(t, GS_RANGE_OP, "aten::add", 600, 700, NULL);
    tb_api(t, "cudaLaunchKernel", 610, 620, 4);
    tb_kernel(t, "nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_TNT", 1000, 5000, 1);
    tb_kernel(t, "volta_sgemm_128x64_nn", 5000, 8000, 2);
    tb_kernel(t, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64", 8000, 9000, 3);
    tb_kernel(t, "void at::native::vectorized_elementwise_kernel<4, add>", 9000, 10000, 4);
    return t;
}

/* What compute gives over the default steps of t, a trace the test built (indexed here, deleted
 * after). */
static gs_compute compute_of(gs_trace *t)
{
    gs_error err;
    if (gs_trace_index(t, &err) != 0)
        abort();
    gs_trace_ctx ctx = tb_ctx(t, NULL);
    gs_compute c;
    CHECK(gs_compute_build(&ctx, &c, &err) == 0);
    gs_trace_ctx_free(&ctx);
    gs_trace_delete(t);
    return c;
}

static void test_step(void)
{
    gs_compute c = compute_of(gemm_trace());
    double gemm = 2.0 * 128 * 256 * 64;
    CHECK_INT(c.counted_ops, 4);
    CHECK_INT(c.trace_flops_ops, 2);
    CHECK_INT(c.trace_flops_mismatch, 1);
    CHECK(NEAR(c.flops_per_step, 3 * gemm + 1000));
    CHECK(NEAR(c.kind_flops[GS_FLOP_GEMM], c.flops_per_step));
    CHECK_INT(c.dtype, GS_DTYPE_BF16); /* the inner addmm's, which holds the most FLOPs */
    CHECK_STR(c.peak_model, "H100 SXM");
    CHECK(c.peak_tflops == 989.4);
    CHECK(c.step_ns > 0);
    CHECK(NEAR(c.tflops, c.flops_per_step / (double)c.step_ns / 1e3));
    CHECK(NEAR(c.mfu, c.tflops / 989.4));
    /* kernel time 9000 ns: Tensor Cores 4000 + 1000, eligible (addmm, mm, mm) 4000 + 3000 + 1000
     * of which 3000 (volta_sgemm) without; under counted operators the same 8000 */
    CHECK_INT(c.kernel_ns, 9000);
    CHECK(NEAR(c.tc_share, 5000.0 / 9000.0));
    CHECK(NEAR(c.eligible_share, 8000.0 / 9000.0));
    CHECK(NEAR(c.eligible_unused_share, 3000.0 / 8000.0));
    CHECK(NEAR(c.flop_op_share, 8000.0 / 9000.0));
}

/* An outer operator with a formula but no shapes (aten::linear recorded without them) does not
 * hide the GEMM inside it that has them: its aten::addmm counts, once. */
static void test_outer_without_shapes(void)
{
    gs_trace *t = tb_new("noshapes.json", 0);
    tb_device(t, 0, "NVIDIA H100 80GB HBM3", 80000000000ull, 132, 9, 0);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#1", 0, 1000000, NULL);
    tb_range(t, GS_RANGE_OP, "aten::linear", 10, 300, NULL);
    tb_range(t, GS_RANGE_OP, "aten::addmm", 20, 290, "[[64], [128, 256], [256, 64], [], []]");
    tb_api(t, "cudaLaunchKernel", 30, 40, 1);
    tb_kernel(t, "nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_TNT", 1000, 5000, 1);
    gs_compute c = compute_of(t);
    CHECK_INT(c.counted_ops, 1);
    CHECK(NEAR(c.flops_per_step, 2.0 * 128 * 256 * 64));
}

/* Kernels launched inside no recorded operator (a capture without operators): whether their
 * operators were Tensor-Core eligible is not known, -1, not 0 % (shown "-"). */
static void test_without_operators(void)
{
    gs_trace *t = tb_new("noops.json", 0);
    tb_device(t, 0, "NVIDIA H100 80GB HBM3", 80000000000ull, 132, 9, 0);
    tb_api(t, "cudaLaunchKernel", 30, 40, 1);
    tb_kernel(t, "nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_TNT", 1000, 5000, 1);
    gs_compute c = compute_of(t);
    CHECK(NEAR(c.tc_share, 1.0));
    CHECK(c.eligible_share == -1 && c.eligible_unused_share == -1);
}

/* Kernels launched inside NVTX ranges and annotations but no operator (a capture whose only
 * ranges are NVTX steps and CUB's ranges): eligibility is still not known (it read 0.0 %). A
 * kernel launched in an annotation inside an operator is under that operator: known.
 *
 *   NVTX "step" [0, 10000)
 *     annotation "cub::DeviceReduce" [10, 300)  launch [30, 40) -> kernel 4000 ns
 *   NVTX "step" [20000, 30000)
 *     aten::sum [20010, 20300)
 *       annotation "cub::DeviceReduce" [20020, 20200)  launch [20030, 20040) -> kernel 1000 ns */
static void test_ranges_without_operators(void)
{
    gs_trace *t = tb_new("nvtx_only.json", 0);
    tb_device(t, 0, "NVIDIA H100 80GB HBM3", 80000000000ull, 132, 9, 0);
    tb_range(t, GS_RANGE_NVTX, "step", 0, 10000, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "cub::DeviceReduce", 10, 300, NULL);
    tb_api(t, "cudaLaunchKernel", 30, 40, 1);
    tb_kernel(t, "cub_reduce_kernel", 1000, 5000, 1);
    gs_compute c = compute_of(t);
    CHECK(c.eligible_share == -1 && c.eligible_unused_share == -1);

    t = tb_new("op_around_cub.json", 0);
    tb_device(t, 0, "NVIDIA H100 80GB HBM3", 80000000000ull, 132, 9, 0);
    tb_range(t, GS_RANGE_NVTX, "step", 20000, 30000, NULL);
    tb_range(t, GS_RANGE_OP, "aten::sum", 20010, 20300, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "cub::DeviceReduce", 20020, 20200, NULL);
    tb_api(t, "cudaLaunchKernel", 20030, 20040, 2);
    tb_kernel(t, "cub_reduce_kernel", 21000, 22000, 2);
    c = compute_of(t);
    CHECK(c.eligible_share == 0 && c.eligible_unused_share == 0);
}

/* Shapes that are no sizes (found by fuzz_op_cost): no count rather than a negative or infinite
 * one. */
static void test_not_sizes(void)
{
    gs_op_flops f;
    const char *bf16 = "[\"c10::BFloat16\", \"c10::BFloat16\"]";
    gs_op_flops_compute("aten::mm", "[[894-4, 1024], [1024, 1024]]", bf16, NULL, &f);
    CHECK(f.flops == 0 && f.bytes == 0);
    gs_op_flops_compute("aten::mm", "[[-8, 1024], [1024, 1024]]", bf16, NULL, &f);
    CHECK(f.flops == 0 && f.bytes == 0);
    gs_op_flops_compute("aten::mm", "[[1e300, 1e300], [1e300, 1e300]]", bf16, NULL, &f);
    CHECK(f.flops == 0 && f.bytes == 0);
    gs_op_flops_compute("aten::mm", "[[1e14, 1e14], [1e14, 1e14]]", bf16, NULL, &f);
    CHECK(isfinite(f.flops) && f.flops > 0 && isfinite(f.bytes)); /* large, still numbers */
    /* a dilation no kernel fits in: no output size, not an overflow */
    gs_op_flops_compute("aten::convolution", "[[32, 64, 56, 56], [64, 64, 3, 3], [], [], [], [], "
                        "[], [], []]", bf16, "[\"\", \"\", \"\", \"[1, 1]\", \"[1, 1]\", "
                        "\"[8e68, 8e68]\", \"False\", \"[0, 0]\", \"1\"]", &f);
    CHECK(f.flops == 0 && f.bytes == 0);
    gs_op_flops_compute("aten::mm", "[[8, 16], [16, 4]]", bf16, NULL, &f);
    CHECK(f.flops == 2 * 8 * 16 * 4 && f.bytes == 2 * (8 * 16 + 16 * 4 + 8 * 4));
}

/* The words of a list entry of Concrete Inputs (a backward's output_mask). */
static void test_list_words(void)
{
    const char *c = "[\"\", \"[True, False, True]\", \"7\", \"[ False ]\"]";
    CHECK_INT(gs_op_arg_list_word_is(c, 1, 0, "True"), 1);
    CHECK_INT(gs_op_arg_list_word_is(c, 1, 1, "True"), 0);
    CHECK_INT(gs_op_arg_list_word_is(c, 1, 1, "False"), 1);
    CHECK_INT(gs_op_arg_list_word_is(c, 1, 3, "True"), -1); /* no fourth word */
    CHECK_INT(gs_op_arg_list_word_is(c, 2, 0, "True"), -1); /* not a list */
    CHECK_INT(gs_op_arg_list_word_is(c, 3, 0, "False"), 1);
    CHECK_INT(gs_op_arg_list_word_is(c, 4, 0, "True"), -1); /* not recorded */
    CHECK_INT(gs_op_arg_list_word_is(NULL, 0, 0, "True"), -1);
    CHECK_INT(gs_op_arg_list_word_is("[\"[Truer]\"]", 0, 0, "True"), 0);
    /* a stray brace ends the list (found by fuzz_op_cost: the scan stood still on it) */
    CHECK(gs_op_arg_shape("[[5]}", 1).n == -1);
    CHECK(gs_op_arg_shape("[[5]}", 0).n == 1);
}

int main(void)
{
    test_list_words();
    test_formulas();
    test_not_sizes();
    test_peaks();
    test_step();
    test_outer_without_shapes();
    test_without_operators();
    test_ranges_without_operators();
    return check_done("test_flops");
}
