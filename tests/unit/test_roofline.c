/* The roofline per operator on a trace built by hand, on an H100 SXM (3.35 TB/s; dense bf16
 * 989.4 TFLOP/s, so the ridge is at 295.3 FLOP/byte):
 *
 *   aten::addmm (fp32 inputs, autocast's outer call)        [0, 200000)
 *     aten::addmm bias [1024], [8944, 1024] @ [1024, 1024] in bf16
 *       memset 872 ns, then the GEMM kernel 31476 ns on Tensor Cores
 *   aten::_scaled_dot_product_flash_attention q, k, v [16, 16, 559, 64] bf16, one kernel 113446 ns
 *   aten::mm [8, 8] @ [8, 8] bf16, one kernel of 3000 ns: far too small for either roof
 *   aten::mm as above, launching two kernels of 1000 ns: neither is the call's main kernel
 *   aten::mm as above, launching a main kernel of 9500 ns and a helper of 500 ns
 *   custom::op, no model: 5000 ns; aten::copy_'s host-to-device copy and nccl:all_reduce's
 *   kernel: not on the roofline (the link and the interconnect limit them)
 *
 * The bytes are TraceLens's for the same shapes (its GEMM.csv and SDPA_fwd.csv for Qwen1.5 on
 * an H100: 36.939453125 MiB and 69.875 MiB). */
#include <math.h>
#include <string.h>

#include "analysis/trace/kernel_costs.h"
#include "analysis/trace/roofline.h"
#include "check.h"
#include "trace_builder.h"

#define CHECK_NEAR(got, want, tol) CHECK(fabs((double)(got) - (double)(want)) <= (tol))

static void op(gs_trace *t, const char *name, gs_ns start, gs_ns end, const char *dims,
               const char *types)
{
    tb_range(t, GS_RANGE_OP, name, start, end, dims);
    t->ranges.v[t->ranges.n - 1].input_types = types ? tb_str(t, types) : GS_STR_EMPTY;
}

static void launch(gs_trace *t, gs_ns at, const char *kernel, gs_ns start, gs_ns dur,
                   uint64_t corr)
{
    tb_api(t, "cudaLaunchKernel", at, at + 10, corr);
    tb_kernel(t, kernel, start, start + dur, corr);
}

static gs_trace *build(bool with_device)
{
    gs_trace *t = tb_new("roof.json", 0);
    if (with_device)
        tb_device(t, 0, "NVIDIA H100 80GB HBM3", 80ull << 30, 132, 9, 0);
    op(t, "aten::addmm", 0, 200000, "[[1024], [8944, 1024], [1024, 1024], [], []]",
       "[\"float\", \"float\", \"float\", \"Scalar\", \"Scalar\"]");
    op(t, "aten::addmm", 100, 190000, "[[1024], [8944, 1024], [1024, 1024], [], []]",
       "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\"]");
    tb_api(t, "cudaMemsetAsync", 200, 210, 1);
    tb_memop(t, GS_MEMOP_MEMSET, GS_LOC_DEVICE, GS_LOC_DEVICE, 64, 300000, 300872, 1);
    launch(t, 300, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n", 301000, 31476, 2);
    op(t, "aten::_scaled_dot_product_flash_attention", 210000, 220000,
       "[[16, 16, 559, 64], [16, 16, 559, 64], [16, 16, 559, 64], [], [], [], []]",
       "[\"c10::BFloat16\", \"c10::BFloat16\", \"c10::BFloat16\", \"Scalar\", \"Scalar\", "
       "\"Scalar\", \"Scalar\"]");
    launch(t, 211000, "flash_fwd_kernel", 340000, 113446, 3);
    op(t, "aten::mm", 230000, 231000, "[[8, 8], [8, 8]]", "[\"c10::BFloat16\", \"c10::BFloat16\"]");
    launch(t, 230100, "small_gemm", 460000, 3000, 4);
    op(t, "aten::mm", 232000, 233000, "[[8, 8], [8, 8]]", "[\"c10::BFloat16\", \"c10::BFloat16\"]");
    launch(t, 232100, "small_gemm", 470000, 1000, 5);
    launch(t, 232200, "small_gemm_tail", 472000, 1000, 6);
    op(t, "aten::mm", 234000, 235000, "[[8, 8], [8, 8]]", "[\"c10::BFloat16\", \"c10::BFloat16\"]");
    launch(t, 234100, "philox_unpack", 474000, 500, 10);
    launch(t, 234200, "mm_main", 475000, 9500, 11);
    op(t, "custom::op", 240000, 241000, NULL, NULL);
    launch(t, 240100, "custom_kernel", 480000, 5000, 7);
    op(t, "aten::copy_", 250000, 251000, "[[1024], [1024]]", "[\"float\", \"float\"]");
    tb_api(t, "cudaMemcpyAsync", 250100, 250200, 8);
    tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PINNED, GS_LOC_DEVICE, 4096, 490000, 491000, 8);
    op(t, "nccl:all_reduce", 260000, 261000, "[[1024]]", "[\"float\"]");
    launch(t, 260100, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
           500000, 9000, 9);
    return t;
}

static const gs_roof_row *find(const gs_roofline *r, const char *name)
{
    for (size_t i = 0; i < r->nrows; i++)
        if (!strcmp(r->rows[i].name, name))
            return &r->rows[i];
    return NULL;
}

static void test_rows_and_roofs(void)
{
    gs_profile p = {0};
    tb_add(&p, build(true));
    gs_trace_ctx c = tb_ctx(p.traces.v[0], NULL);
    gs_roofline r;
    gs_error err;
    CHECK_INT(gs_roofline_build(&c, GS_ROOF_BY_NAME, &r, &err), 0);
    /* GPU time: 872 + 31476 + 113446 + 3000 + 2000 + 10000 + 5000; the host-to-device copy and
     * the collective left out */
    CHECK_INT(r.gpu_ns, 165794);
    CHECK_INT(r.no_model_ns, 5000);
    CHECK_INT(r.no_shapes_ns, 0);
    CHECK_INT(r.modelled_ns, 160794);
    CHECK_INT(r.nrows, 4);
    CHECK_STR(r.rows[0].name, "aten::_scaled_dot_product_flash_attention");

    const gs_roof_row *gemm = find(&r, "aten::addmm");
    CHECK(gemm != NULL);
    if (gemm) {
        CHECK_INT(gemm->calls, 1); /* the inner call is part of the outer one */
        CHECK_INT(gemm->kernels, 2);
        CHECK_INT(gemm->gpu_ns, 32348);
        CHECK(gemm->cls == GS_OPC_GEMM && gemm->dtype == GS_DTYPE_BF16);
        CHECK_NEAR(gemm->flops, 2.0 * 8944 * 1024 * 1024, 0.5);
        CHECK_NEAR(gemm->bytes, 38733824, 0.5); /* 36.939453125 MiB */
        CHECK_NEAR(gemm->peak_tflops, 989.4, 1e-9);
        CHECK_NEAR(gemm->peak_tbps, 3.35, 1e-9);
        CHECK_NEAR(gemm->ridge, 989.4 / 3.35, 1e-9);
        CHECK(gemm->bound == GS_BOUND_COMPUTE);
        CHECK_NEAR(gemm->ideal_ns, gemm->flops / 989.4e3, 1e-6);
        CHECK_NEAR(gemm->roof_share, gemm->ideal_ns / 32348, 1e-12);
        CHECK_NEAR(gemm->roof_tflops, 989.4, 1e-9);
    }
    const gs_roof_row *attn = &r.rows[0];
    CHECK_NEAR(attn->flops, 4.0 * 16 * 16 * 559 * 559 * 64, 0.5);
    CHECK_NEAR(attn->bytes, 73269248, 0.5); /* 69.875 MiB */
    CHECK(attn->bound == GS_BOUND_MEMORY); /* 279.5 FLOP/byte, under the ridge */
    CHECK_NEAR(attn->intensity, attn->flops / attn->bytes, 1e-9);
    CHECK_NEAR(attn->roof_tflops, attn->intensity * 3.35, 1e-9);
    CHECK_NEAR(attn->ideal_ns, 73269248 / 3.35e3, 1e-6);
    CHECK_NEAR(attn->tbps, 73269248 / 113446.0 / 1e3, 1e-12);

    const gs_roof_row *mm = find(&r, "aten::mm");
    CHECK(mm && mm->calls == 3 && mm->kernels == 5 && mm->bound == GS_BOUND_LATENCY);
    const gs_roof_row *custom = find(&r, "custom::op");
    CHECK(custom && custom->cls == GS_OPC_NONE && custom->modelled_calls == 0 &&
          custom->bound == GS_BOUND_UNKNOWN && custom->roof_share < 0);
    gs_roofline_free(&r);

    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
}

/* A kernel's own cost: its call's, when the call launched it alone (memsets aside) or it took
 * 90 % of the call's kernel time. */
static void test_kernel_costs(void)
{
    gs_profile p = {0};
    tb_add(&p, build(true));
    gs_kernel_costs kc;
    gs_error err;
    CHECK_INT(gs_kernel_costs_init(&kc, p.traces.v[0], &err), 0);
    gs_op_cost cost;
    CHECK(gs_kernel_cost(&kc, 0, &cost)); /* the GEMM, its memset aside */
    CHECK_NEAR(cost.bytes, 38733824, 0.5);
    CHECK(gs_kernel_cost(&kc, 2, &cost)); /* the 3 us mm */
    CHECK_NEAR(cost.flops, 1024, 0);
    CHECK(!gs_kernel_cost(&kc, 3, &cost) && cost.flops == 0); /* half of its call's time */
    CHECK(!gs_kernel_cost(&kc, 5, &cost));                    /* philox_unpack: 5 % */
    CHECK(gs_kernel_cost(&kc, 6, &cost) && cost.flops == 1024); /* mm_main: 95 % */
    CHECK(!gs_kernel_cost(&kc, 7, &cost));                    /* custom::op: no model */
    gs_kernel_costs_free(&kc);
    gs_profile_free(&p);
}

static void test_by_shape_and_unknown_gpu(void)
{
    gs_profile p = {0};
    tb_add(&p, build(false));
    gs_trace_ctx c = tb_ctx(p.traces.v[0], NULL);
    gs_roofline r;
    gs_error err;
    CHECK_INT(gs_roofline_build(&c, GS_ROOF_BY_SHAPE, &r, &err), 0);
    CHECK_INT(r.nrows, 4);
    const gs_roof_row *mm = find(&r, "aten::mm");
    CHECK(mm && !strcmp(mm->input_dims, "[[8, 8], [8, 8]]") &&
          !strcmp(mm->input_types, "[\"c10::BFloat16\", \"c10::BFloat16\"]"));
    for (size_t i = 0; i < r.nrows; i++) {
        CHECK(r.rows[i].gpu_model == NULL && r.rows[i].bound == GS_BOUND_UNKNOWN);
        CHECK(r.rows[i].peak_tbps == 0 && r.rows[i].roof_share < 0);
    }
    const gs_roof_row *gemm = find(&r, "aten::addmm");
    /* the shapes and types of the call that ran (the inner, bf16 one) */
    CHECK(gemm && strstr(gemm->input_types, "BFloat16") && gemm->tbps > 0);
    gs_roofline_free(&r);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
}

static void test_by_kernel(void)
{
    gs_profile p = {0};
    tb_add(&p, build(true));
    gs_trace_ctx c = tb_ctx(p.traces.v[0], NULL);
    gs_roofline r;
    gs_error err;
    CHECK_INT(gs_roofline_build(&c, GS_ROOF_BY_KERNEL, &r, &err), 0);
    CHECK_INT(r.gpu_ns, 165794);
    /* the mm whose two kernels are equal: no row; the other's helper kernel: apart */
    CHECK_INT(r.several_kernels_ns, 2500);
    CHECK_INT(r.nrows, 5);
    const gs_roof_row *gemm = find(&r, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n");
    CHECK(gemm && !strcmp(gemm->op_name, "aten::addmm") && gemm->gpu_ns == 32348 &&
          gemm->bound == GS_BOUND_COMPUTE && gemm->bytes == 38733824);
    const gs_roof_row *small = find(&r, "small_gemm");
    CHECK(small && small->calls == 1 && small->gpu_ns == 3000 && small->flops == 1024);
    CHECK(find(&r, "small_gemm_tail") == NULL && find(&r, "philox_unpack") == NULL);
    const gs_roof_row *main_kernel = find(&r, "mm_main");
    CHECK(main_kernel && main_kernel->gpu_ns == 9500 && main_kernel->kernels == 1 &&
          !strcmp(main_kernel->op_name, "aten::mm"));
    gs_roofline_free(&r);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
}

int main(void)
{
    test_rows_and_roofs();
    test_by_shape_and_unknown_gpu();
    test_by_kernel();
    test_kernel_costs();
    return check_done("test_roofline");
}
