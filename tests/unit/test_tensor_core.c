/* Tensor Core kernels recognised by name, old and new; FP32 SIMT kernels not. */
#include "analysis/base/tensor_core.h"
#include "check.h"

int main(void)
{
    const char *tc[] = {
        "volta_h884gemm_64x64_ldg8_nn",
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1",
        "nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NTN",
        "cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4",
        "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4>>(Flash_fwd_params)",
        "sm90_xmma_fprop_implicit_gemm_f32f32_tf32f32_f32_nhwckrsc_nchw",
    };
    const char *simt[] = {
        "volta_sgemm_128x64_nn",
        "ampere_sgemm_64x32_sliced1x4_tn",
        "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>>",
        "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>",
    };
    for (size_t i = 0; i < sizeof tc / sizeof tc[0]; i++)
        CHECK(gs_kernel_uses_tensor_cores(tc[i]));
    for (size_t i = 0; i < sizeof simt / sizeof simt[0]; i++)
        CHECK(!gs_kernel_uses_tensor_cores(simt[i]));
    return check_done("test_tensor_core");
}
