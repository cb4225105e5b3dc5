/* Tensor Core kernels recognised by name, old and new, FP32 SIMT kernels not; eligible operators;
 * and, on the V100/A100 traces of ../shared/traces when present, the TensorBoard plugin's
 * published patterns (TC_Allowlist) give the same answer for every kernel it knows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/name_rules.h"
#include "check.h"
#include "ingest/load.h"

/* The name rules' Tensor-Core groups (analysis/base/name_rule_table.c), one name at a time. */
static bool uses_tensor_cores(const char *kernel)
{
    return gs_name_judge(GS_NAME_TENSOR_CORE, kernel) != 0;
}

static bool uses_tensor_cores_plugin(const char *kernel)
{
    return gs_name_judge(GS_NAME_TENSOR_CORE_PLUGIN, kernel) != 0;
}

static bool tc_eligible(const char *op)
{
    return gs_name_judge(GS_NAME_TC_ELIGIBLE, op) != 0;
}

static bool tc_eligible_plugin(const char *op)
{
    return gs_name_judge(GS_NAME_TC_ELIGIBLE_PLUGIN, op) != 0;
}

static void test_names(void)
{
    const char *tc[] = {
        "volta_h884gemm_64x64_ldg8_nn",
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1",
        "nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NTN",
        "cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4",
        "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4>>(Flash_fwd_params)",
        "sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nchw",
        /* the H100 captures (gpt2_train*, resnet50_*) */
        "nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_TNT",
        "nvjet_sm90_tss_64x64_64x13_1x2_h_bz_TNT",
        "cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x64_1x4x1_"
        "cga1x1x1_kernel0_0",
        "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_"
        "cga1x1x1_kernel0_0",
        "void cutlass::Kernel2<cutlass_75_tensorop_bf16_s1688gemm_bf16_128x128_tn_align1>("
        "cutlass_75_tensorop_bf16_s1688gemm_bf16_128x128_tn_align1::Params)",
        "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_bf16_256x128_64x3_nn_align8>",
        "sm90_xmma_wgrad_indexed_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize64x64x64",
        "sm90_xmma_fprop_implicit_gemm_bf16bf16_bf16f32_f32_nhwckrsc_nhwc_tilesize128x128x64",
        "void cutlass__5x_cudnn::Kernel<cutlass_tensorop_bf16_s16816fprop_optimized_bf16_64x64>",
    };
    const char *simt[] = {
        "volta_sgemm_128x64_nn",
        "ampere_sgemm_64x32_sliced1x4_tn",
        "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>",
        "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>",
        "void at::native::batch_norm_backward_kernel<c10::BFloat16, float, float, int>",
        "void cudnn::engines_precompiled::nchwToNhwcKernel<__nv_bfloat16, __nv_bfloat16, float>",
        "void at::native::vectorized_elementwise_kernel<8, at::native::bfloat16_copy_kernel_cuda>",
        "fmha_cutlassF_f32_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<float>)",
    };
    for (size_t i = 0; i < sizeof tc / sizeof tc[0]; i++)
        CHECK(uses_tensor_cores(tc[i]));
    for (size_t i = 0; i < sizeof simt / sizeof simt[0]; i++)
        CHECK(!uses_tensor_cores(simt[i]));
    CHECK(uses_tensor_cores_plugin("volta_h884gemm_64x64_ldg8_nn"));
    CHECK(!uses_tensor_cores_plugin("nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_TNT"));
}

static void test_ops(void)
{
    CHECK(tc_eligible_plugin("aten::addmm"));
    CHECK(tc_eligible_plugin("aten::cudnn_convolution"));
    CHECK(!tc_eligible_plugin("AddmmBackward0")); /* spelt AddmmBackward there */
    CHECK(tc_eligible("AddmmBackward0"));
    CHECK(tc_eligible("aten::_scaled_dot_product_cudnn_attention_backward"));
    CHECK(tc_eligible("aten::convolution_backward"));
    CHECK(!tc_eligible("aten::add"));
    CHECK(!tc_eligible("aten::mm_")); /* whole names, not prefixes */
}

/* Distinct kernel names of a trace: how many the plugin's patterns call Tensor Core ones, and
 * how many ours do. Every plugin one must be ours. -1 when the trace is absent. */
static int count_trace(const char *dir, const char *rel, size_t *plugin, size_t *ours)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    gs_trace *t = NULL;
    gs_error err;
    gs_load_opts opts = {0};
    if (gs_load_trace(path, &opts, &t, &err) != 0)
        return -1;
    uint8_t *seen = calloc(t->strings.n + 1, 1);
    *plugin = *ours = 0;
    for (size_t i = 0; seen && i < t->kernels.n; i++) {
        gs_str id = t->kernels.v[i].name;
        if (seen[id]++)
            continue;
        const char *name = gs_trace_str(t, id);
        bool p = uses_tensor_cores_plugin(name), o = uses_tensor_cores(name);
        *plugin += p;
        *ours += o;
        if (p && !o)
            fprintf(stderr, "plugin says Tensor Cores, gpuscope not: %s\n", name);
        CHECK(!p || o);
    }
    free(seen);
    gs_trace_delete(t);
    return 0;
}

/* Counts of distinct kernel names as gpuscope reads them, checked against the plugin's published
 * TC_Allowlist applied to the JSON by a Python one-liner (which counts two names fewer in
 * control.json, spelt differently there); the extra ones of ours are TF32 xmma (cuDNN on A100)
 * and CUTLASS wmma tensorop kernels. */
static void test_shared_traces(void)
{
    const char *data = getenv("GS_TEST_DATA");
    char dir[900];
    snprintf(dir, sizeof dir, "%s/../../../shared/traces", data ? data : "tests/data");
    static const struct {
        const char *file;
        size_t plugin, ours;
    } want[] = {
        {"hta/df_index_resolver/df_index_resolver.json.gz", 0, 0},               /* V100 */
        {"hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", 0, 0}, /* V100 */
        {"hta/trace_diff/test/test.json.gz", 0, 0},                              /* V100 */
        {"hta/negative_queue_length_values_check/rank0.json.gz", 8, 8},          /* A100 */
        {"hta/trace_diff/control/control.json.gz", 48, 48},                      /* A100 */
        {"hta/nccl_parser_config/nccl_data.json.gz", 15, 25},                    /* A100 */
        {"particle_transformer/gpu_working_chrome_trace.json.gz", 5, 9},         /* A100 */
    };
    size_t found = 0;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        size_t plugin, ours;
        if (count_trace(dir, want[i].file, &plugin, &ours) != 0)
            continue;
        found++;
        if (plugin != want[i].plugin || ours != want[i].ours)
            fprintf(stderr, "%s: plugin %zu (want %zu), ours %zu (want %zu)\n", want[i].file,
                    plugin, want[i].plugin, ours, want[i].ours);
        CHECK(plugin == want[i].plugin && ours == want[i].ours);
    }
    if (!found)
        fprintf(stderr, "test_tensor_core: %s absent, the check on real traces is skipped\n", dir);
}

int main(void)
{
    test_names();
    test_ops();
    test_shared_traces();
    return check_done("test_tensor_core");
}
