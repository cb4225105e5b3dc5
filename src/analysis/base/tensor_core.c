/* The TensorBoard plugin's list (torch_tb_profiler/profiler/tensor_core.py, from NVIDIA PyProf)
 * plus the names of the Tensor Core kernels that came after it: cuBLASLt nvjet, CUTLASS tensorop,
 * Hopper wgmma/gmma, TF32 and half-precision xmma, FlashAttention. */
#include "analysis/base/tensor_core.h"

#include <string.h>

static const char *const tensor_core_markers[] = {
    /* TB plugin */
    "h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816", "dgrad_1x1_stride_2x2",
    "first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1", "direct_group", "xmma_implicit_gemm",
    "xmma_sparse_conv", "xmma_warp_specialized_implicit_gemm", "xmma_gemm", "xmma_sparse_gemm",
    "c1688",
    /* since */
    "tensorop", "wgmma", "gmma", "nvjet", "tf32", "bf16", "f16f16", "flash_fwd", "flash_bwd",
    "fmha", "hgemm",
};

bool gs_kernel_uses_tensor_cores(const char *name)
{
    for (size_t i = 0; i < sizeof tensor_core_markers / sizeof tensor_core_markers[0]; i++)
        if (strstr(name, tensor_core_markers[i]))
            return true;
    return false;
}
