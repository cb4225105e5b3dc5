/* Known answers of the replay's GPU-side actions (analysis/replay/replay_transform.c):
 * torch.compile fusion, pinned memory, mixed precision, a fused optimizer, communication overlap,
 * each on a trace built by hand whose replayed step is counted in the comment above it, and a
 * trace where the action must change nothing. The unchanged replay gives back the measured steps
 * on each (replay_fixture.h). Launch latency is 3 us on every trace, and the stream gap 1 us. */
#include "replay_fixture.h"

#define BIT(a) GS_REPLAY_BIT(GS_REPLAY_##a)
#define SGEMM "volta_sgemm_128x64_nn"
#define BF16_GEMM "ampere_bf16_s16816gemm_bf16_128x64_ldg8_f2f_stages_64x4_nn"
#define NCCL_KERNEL                                                                                \
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)"
#define MULTI_TENSOR_KERNEL                                                                        \
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<TensorListMetadata<2>>()"

/* ---- torch.compile fusion -------------------------------------------------------------------- */

/* Two steps, `apart` ns apart from 0, GPU-bound: 10 us of Python, six operators of 10 us 2 us
 * apart (t0 = 10 + 12 i, a 5 us launch call at t0 + 2), 10 us of Python (the host ends at 90).
 * Kernels of durations dur[], one stream, 1 us apart from 15 us: the fourth a matmul, the others
 * named `pointwise`. */
static gs_trace *chains(const char *pointwise, const gs_ns dur[6], gs_ns apart)
{
    gs_trace *t = tb_new("compile.json", 0);
    uint64_t corr = 1;
    for (int k = 1; k <= 2; k++) {
        gs_ns b = (gs_ns)k * apart, at = 15;
        fx_step(t, k, b, 90);
        for (int i = 0; i < 6; i++) {
            gs_ns t0 = 10 + 12 * i;
            corr = fx_launch(t, b, i == 3 ? "aten::mm" : "aten::add", t0, t0 + 10, t0 + 2, t0 + 7,
                             i == 3 ? SGEMM : pointwise, at, at + dur[i], corr);
            at += dur[i] + 1;
        }
    }
    return t;
}

/* Steps at k ms: three pointwise kernels of 40, 60, 30 us [15, 147], a matmul of 50 [148, 198], two
 * pointwise of 20 and 25 [199, 245]: the step is 245 us. */
static gs_trace *pointwise_chains(const char *pointwise)
{
    static const gs_ns dur[6] = {40, 60, 30, 50, 20, 25};
    return chains(pointwise, dur, 1000 * US);
}

/* The matmul breaks the chain: [40, 60, 30] becomes one kernel of 60 us, [20, 25] one of 25. The
 * fused-away operators (the 2nd, 3rd and 6th) lose their 10 us, the others their dispatch around
 * the launch call (2 + 3 us each): the host ends at 45. GPU: the first chain [13, 73] (its launch
 * now at 10), the matmul [74, 124], the second chain [125, 150]: 150 us. */
static void test_compile(void)
{
    replay_fx f;
    fx_open(&f, pointwise_chains(EW_KERNEL));
    gs_replay_result r = fx_run(&f, BIT(COMPILE), NULL, 245 * US);
    CHECK_INT(r.inputs.launch_latency_ns, 3 * US);
    CHECK_INT(r.inputs.stream_gap_ns, 1 * US);
    CHECK_INT(r.changed_mean_ns, 150 * US);
    const gs_replay_change *c = &r.change[GS_REPLAY_COMPILE];
    CHECK_INT(c->gpu_before, (40 + 60 + 30 + 20 + 25) * US);
    CHECK_INT(c->gpu_after, (60 + 25) * US);
    CHECK_INT(c->host_before, 3 * 10 * US + 3 * 5 * US);
    CHECK_INT(c->host_after, 0);
    gs_replay_result_free(&r);
    fx_close(&f);
    /* Inductor's kernels already: nothing left to fuse; only the 2 us of dispatch before the first
     * launch moves the GPU, which is busy from then on: 243 us. */
    fx_open(&f, pointwise_chains("triton_poi_fused_add_mul_0"));
    CHECK_INT(fx_changed(&f, BIT(COMPILE), NULL, 245 * US), 243 * US);
    fx_close(&f);
}

/* The same steps 10 s apart, the second kernel 2.5 s long: lags over 2^31 ns are kept exactly
 * (replay_lags.h). Measured: 245 - 60 + 2,500,000 us. Fused, the first chain takes the longest
 * kernel's 2.5 s, a lag longer than its head's 40 us: [13, 2,500,013], the matmul then
 * [2,500,014, 2,500,064], the second chain [2,500,065, 2,500,090]. */
static void test_compile_long_kernel(void)
{
    static const gs_ns dur[6] = {40, 2500000, 30, 50, 20, 25};
    replay_fx f;
    fx_open(&f, chains(EW_KERNEL, dur, (gs_ns)10000000 * US));
    gs_replay_result r = fx_run(&f, BIT(COMPILE), NULL, (gs_ns)2500185 * US);
    CHECK_INT(r.changed_mean_ns, (gs_ns)2500090 * US);
    const gs_replay_change *c = &r.change[GS_REPLAY_COMPILE];
    CHECK_INT(c->gpu_before, (gs_ns)(40 + 2500000 + 30 + 20 + 25) * US);
    CHECK_INT(c->gpu_after, (gs_ns)(2500000 + 25) * US);
    gs_replay_result_free(&r);
    fx_close(&f);
}

/* ---- pinned memory --------------------------------------------------------------------------- */

/* Steps at k + 1 ms, 250 us: 10 us of Python, aten::copy_ [10, 225] whose cudaMemcpyAsync
 * [12, 220] copies 2.4 MB from pageable memory [15, 215] (12 GB/s) and returns 5 us after it;
 * 5 us of Python, an operator [230, 240] (kernel [235, 245]), 10 us of Python. `pinned`: a
 * 24 MB copy from pinned memory in 1 ms before the steps (24 GB/s). */
static gs_trace *pageable_copy(bool pinned, int32_t major)
{
    gs_trace *t = tb_new("pinned.json", 0);
    if (major)
        tb_device(t, 0, major >= 9 ? "NVIDIA H100 80GB HBM3" : "NVIDIA A100-SXM4-80GB",
                  80000000000ull, 132, major, 0);
    if (pinned)
        tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PINNED, GS_LOC_DEVICE, 24000000, 100 * US, 1100 * US, 0);
    uint64_t corr = 1;
    for (int k = 1; k <= 2; k++) {
        gs_ns b = (gs_ns)(k + 1) * 1000 * US;
        fx_step(t, k, b, 250);
        tb_range(t, GS_RANGE_OP, "aten::copy_", b + 10 * US, b + 225 * US, NULL);
        tb_api(t, "cudaMemcpyAsync", b + 12 * US, b + 220 * US, corr);
        tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PAGEABLE, GS_LOC_DEVICE, 2400000, b + 15 * US,
                 b + 215 * US, corr++);
        corr = fx_launch(t, b, "aten::add", 230, 240, 232, 237, EW_KERNEL, 235, 245, corr);
    }
    return t;
}

/* At the trace's 24 GB/s (the table would give an H100 48) the copy takes 100 us and the call no
 * longer waits for it (its 5 us stay): host 10 + 2 + 5 + 5 + 5 + 10 + 10 = 47; the copy
 * [15, 115], the kernel after it on the stream [116, 126]: 126 us. Without a pinned copy to
 * measure, an H100's PCIe 5 (48 GB/s): the copy [15, 65], the kernel [66, 76]: 76 us. */
static void test_pinned_memory(void)
{
    replay_fx f;
    fx_open(&f, pageable_copy(true, 9));
    gs_replay_result r = fx_run(&f, BIT(PINNED_MEMORY), NULL, 250 * US);
    CHECK_INT(r.inputs.blocking_waits, 2);
    CHECK_INT(r.changed_mean_ns, 126 * US);
    CHECK_INT(r.change[GS_REPLAY_PINNED_MEMORY].gpu_before, 200 * US);
    CHECK_INT(r.change[GS_REPLAY_PINNED_MEMORY].gpu_after, 100 * US);
    gs_replay_result_free(&r);
    /* A copy to the device is the pinned-memory action's, not a sync to remove. */
    CHECK_INT(fx_changed(&f, BIT(REMOVE_SYNCS), NULL, 250 * US), 250 * US);
    fx_close(&f);
    fx_open(&f, pageable_copy(false, 9));
    CHECK_INT(fx_changed(&f, BIT(PINNED_MEMORY), NULL, 250 * US), 76 * US);
    fx_close(&f);
    /* An A100's PCIe 4 (24 GB/s): as the measured bandwidth. */
    fx_open(&f, pageable_copy(false, 8));
    CHECK_INT(fx_changed(&f, BIT(PINNED_MEMORY), NULL, 250 * US), 126 * US);
    fx_close(&f);
}

/* ---- mixed precision ------------------------------------------------------------------------- */

/* Steps at k ms: 10 us of Python, aten::mm [10, 25] (call [15, 20]) whose `gemm` runs 300 us
 * [18, 318], 5 us of Python, aten::add [30, 40] whose kernel follows on the stream [319, 329],
 * 10 us of Python: the step is 329 us. `major`: the GPU's compute capability, 0 for none. */
static gs_trace *fp32_gemm(const char *gemm, int32_t major)
{
    gs_trace *t = tb_new("mixed.json", 0);
    if (major)
        tb_device(t, 0, major >= 8 ? "NVIDIA A100-SXM4-80GB" : "Tesla P100-PCIE-16GB",
                  16000000000ull, 56, major, 0);
    uint64_t corr = 1;
    for (int k = 1; k <= 2; k++) {
        gs_ns b = (gs_ns)k * 1000 * US;
        fx_step(t, k, b, 50);
        corr = fx_launch(t, b, "aten::mm", 10, 25, 15, 20, gemm, 18, 318, corr);
        corr = fx_launch(t, b, "aten::add", 30, 40, 32, 37, EW_KERNEL, 319, 329, corr);
    }
    return t;
}

/* On an A100 (8.0) the fp32 GEMM runs 3x faster, 100 us: the step is 18 + 100 + 1 + 10 = 129 us.
 * A P100 (6.0) has no Tensor Cores, and a bf16 kernel runs on them already: 329 us. A GPU the
 * trace does not name is given the benefit: 129 us. */
static void test_mixed_precision(void)
{
    static const struct {
        const char *gemm;
        int32_t major;
        gs_ns step_us;
    } cases[] = {
        {SGEMM, 8, 129}, {SGEMM, 6, 329}, {BF16_GEMM, 8, 329}, {SGEMM, 0, 129},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        replay_fx f;
        fx_open(&f, fp32_gemm(cases[i].gemm, cases[i].major));
        gs_replay_result r = fx_run(&f, BIT(MIXED_PRECISION), NULL, 329 * US);
        CHECK_INT(r.changed_mean_ns, cases[i].step_us * US);
        bool faster = cases[i].step_us < 329;
        CHECK_INT(r.change[GS_REPLAY_MIXED_PRECISION].gpu_before, faster ? 300 * US : 0);
        CHECK_INT(r.change[GS_REPLAY_MIXED_PRECISION].gpu_after, faster ? 100 * US : 0);
        gs_replay_result_free(&r);
        fx_close(&f);
    }
}

/* ---- the roofline's largest group at its target ---------------------------------------------- */

/* The GPU work of the named operator's calls at the given share of its time: aten::mm's 300 us
 * at half is 150 us, a 179 us step; aten::add's 10 us at half, a 324 us step; no operator, or a
 * scale that is no speed-up, change nothing. */
static void test_roof_target(void)
{
    static const struct {
        const char *op;
        double scale;
        gs_ns step_us, gpu_before_us, gpu_after_us;
    } cases[] = {
        {"aten::mm", 0.5, 179, 300, 150}, {"aten::add", 0.5, 324, 10, 5},
        {NULL, 0.5, 329, 0, 0},           {"aten::mm", 1.2, 329, 0, 0},
        {"aten::bmm", 0.5, 329, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        replay_fx f;
        fx_open(&f, fp32_gemm(SGEMM, 9));
        gs_replay_params p = {.roof_op = cases[i].op, .roof_scale = cases[i].scale};
        gs_replay_result r = fx_run(&f, BIT(ROOF_TARGET), &p, 329 * US);
        CHECK_INT(r.changed_mean_ns, cases[i].step_us * US);
        CHECK_INT(r.change[GS_REPLAY_ROOF_TARGET].gpu_before, cases[i].gpu_before_us * US);
        CHECK_INT(r.change[GS_REPLAY_ROOF_TARGET].gpu_after, cases[i].gpu_after_us * US);
        gs_replay_result_free(&r);
        fx_close(&f);
    }
}

/* ---- fused optimizer ------------------------------------------------------------------------- */

/* Steps at k ms, 120 us: 10 us of Python, Optimizer.step#SGD.step [10, 110] holding four
 * aten::add_ of 20 us (t0 = 15 + 24 i: the call [t0 + 8, t0 + 16], its 2 us kernel 3 us after
 * it), 10 us of Python. */
static gs_trace *sgd_step(const char *kernel)
{
    gs_trace *t = tb_new("sgd.json", 0);
    uint64_t corr = 1;
    for (int k = 1; k <= 2; k++) {
        gs_ns b = (gs_ns)k * 1000 * US;
        fx_step(t, k, b, 120);
        tb_range(t, GS_RANGE_ANNOTATION, "Optimizer.step#SGD.step", b + 10 * US, b + 110 * US,
                 NULL);
        for (int i = 0; i < 4; i++) {
            gs_ns t0 = 15 + 24 * i;
            corr = fx_launch(t, b, "aten::add_", t0, t0 + 20, t0 + 8, t0 + 16, kernel, t0 + 11,
                             t0 + 13, corr);
        }
    }
    return t;
}

/* 8 launches in the optimizer over the two steps, ceil(8 / 100) = 1 kept: the optimizer's host
 * time shrinks to 1/8, 100 us to 12.5: the step is 10 + 12.5 + 10 = 32.5 us (its last kernel
 * ends at 25.6). Kernels that are multi_tensor_apply already: nothing changes. */
static void test_fused_optimizer(void)
{
    replay_fx f;
    fx_open(&f, sgd_step(EW_KERNEL));
    gs_replay_result r = fx_run(&f, BIT(FUSED_OPTIMIZER), NULL, 120 * US);
    CHECK_INT(r.changed_mean_ns, 32500);
    CHECK_INT(r.change[GS_REPLAY_FUSED_OPTIMIZER].host_before, 100 * US);
    CHECK_INT(r.change[GS_REPLAY_FUSED_OPTIMIZER].host_after, 12500);
    gs_replay_result_free(&r);
    fx_close(&f);
    fx_open(&f, sgd_step(MULTI_TENSOR_KERNEL));
    CHECK_INT(fx_changed(&f, BIT(FUSED_OPTIMIZER), NULL, 120 * US), 120 * US);
    fx_close(&f);
}

/* ---- communication overlap ------------------------------------------------------------------- */

/* Steps at k ms: 10 us of Python, four operators `op` [10 + 12 i, 20 + 12 i] (calls at + 2)
 * whose 50 us kernels run back to back on stream 7 [15, 218]; 2 us of Python, two nccl:all_reduce
 * [58 + 12 j, 68 + 12 j] (calls at + 2) whose 40 us kernels run on stream 20 once the compute is
 * done: [219, 259], [260, 300]; 10 us of Python (the host ends at 90): the step is 300 us. */
static gs_trace *backward_then_allreduce(const char *op)
{
    gs_trace *t = tb_new("overlap.json", 0);
    uint64_t corr = 1;
    for (int k = 1; k <= 2; k++) {
        gs_ns b = (gs_ns)k * 1000 * US;
        fx_step(t, k, b, 90);
        for (int i = 0; i < 4; i++)
            corr = fx_launch(t, b, op, 10 + 12 * i, 20 + 12 * i, 12 + 12 * i, 17 + 12 * i,
                             EW_KERNEL, 15 + 51 * i, 65 + 51 * i, corr);
        for (int j = 0; j < 2; j++) {
            corr = fx_launch(t, b, "nccl:all_reduce", 58 + 12 * j, 68 + 12 * j, 60 + 12 * j,
                             65 + 12 * j, NCCL_KERNEL, 219 + 41 * j, 259 + 41 * j, corr);
            t->kernels.v[t->kernels.n - 1].stream = 20;
        }
    }
    return t;
}

/* Two collectives over four backward kernels: the first may start once the first two have run
 * (116), the second once all four have (218). The first runs [116, 156]; the second waits for
 * the last gradient: [218, 258]: the step is 258 us. Without a backward pass (forward operators,
 * tensor parallel's collectives) nothing moves. */
static void test_overlap_comm(void)
{
    replay_fx f;
    fx_open(&f, backward_then_allreduce("autograd::engine::evaluate_function: MulBackward0"));
    gs_replay_result r = fx_run(&f, BIT(OVERLAP_COMM), NULL, 300 * US);
    CHECK_INT(r.inputs.stream_waits, 2);
    CHECK_INT(r.changed_mean_ns, 258 * US);
    gs_replay_result_free(&r);
    fx_close(&f);
    fx_open(&f, backward_then_allreduce("aten::mul"));
    CHECK_INT(fx_changed(&f, BIT(OVERLAP_COMM), NULL, 300 * US), 300 * US);
    fx_close(&f);
}

int main(void)
{
    test_compile();
    test_compile_long_kernel();
    test_pinned_memory();
    test_mixed_precision();
    test_roof_target();
    test_fused_optimizer();
    test_overlap_comm();
    return check_done("test_replay_gpu");
}
