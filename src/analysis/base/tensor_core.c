/* The TensorBoard plugin's rules (torch_tb_profiler/profiler/tensor_core.py, after NVIDIA
 * PyProf's tc.py): a kernel uses Tensor Cores when its name contains one of TC_Allowlist's
 * patterns; an operator is Tensor-Core eligible when its name is one of TC_OP_Allowlist's.
 * Both lists are extended here with the names that came after them (doc/flops.md). */
#include "analysis/base/tensor_core.h"
#include "common/util.h"

#include <string.h>

/* TC_Allowlist, as the plugin publishes it. */
static const char *const plugin_kernel_patterns[] = {
    "h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816", "dgrad_1x1_stride_2x2",
    "first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1", "direct_group", "xmma_implicit_gemm",
    "xmma_sparse_conv", "xmma_warp_specialized_implicit_gemm", "xmma_gemm", "xmma_sparse_gemm",
    "c1688",
};

/* Since: CUTLASS `tensorop` kernels; Hopper warpgroup MMA (`wgmma`, `gmma`: cuDNN's
 * `..._sm90_flash_fprop_wgmma_...`, `sm90_xmma_..._gmma`); cuBLASLt's `nvjet_*` (Hopper and
 * Blackwell GEMMs); Blackwell's `tcgen05` MMA; xmma kernels whose operand types are half, bf16,
 * tf32, fp8 or int8 (`sm90_xmma_fprop_implicit_gemm_bf16bf16_...`, `..._tf32f32_...`, `e4m3`),
 * where `f32f32_f32f32` xmma kernels are FFMA ones; FlashAttention and the memory-efficient
 * attention (`flash_fwd`, `flash_bwd`, `fmha`); half-precision cuBLAS GEMMs (`hgemm`). */
static const char *const later_kernel_patterns[] = {
    "tensorop", "wgmma", "gmma", "nvjet", "tcgen05", "tf32", "bf16", "f16f16", "e4m3", "e5m2",
    "i8i8", "flash_fwd", "flash_bwd", "fmha", "hgemm",
};

/* Names the later patterns would take for Tensor Core kernels that are not: the memory-efficient
 * attention in fp32 (`fmha_cutlassF_f32_...`) runs on the SIMT cores. */
static const char *const later_not_tc[] = {"fmha_cutlassF_f32", "fmha_cutlassB_f32"};

/* TC_OP_Allowlist, as the plugin publishes it. */
static const char *const plugin_ops[] = {
    "aten::_convolution", "aten::_convolution_nogroup", "aten::conv1d", "aten::conv2d",
    "aten::conv3d", "aten::conv_tbc", "aten::conv_transpose1d", "aten::conv_transpose2d",
    "aten::conv_transpose3d", "aten::convolution", "aten::cudnn_convolution",
    "aten::cudnn_convolution_transpose", "aten::prelu", "aten::addmm", "aten::addmv",
    "aten::addr", "aten::matmul", "aten::mm", "aten::mv", "aten::linear", "aten::addbmm",
    "aten::baddbmm", "aten::bmm", "aten::chain_matmul", "aten::linalg_multi_dot",
    "aten::_thnn_fused_lstm_cell", "aten::_thnn_fused_gru_cell", "aten::lstm_cell",
    "aten::gru_cell", "aten::rnn_tanh_cell", "aten::rnn_relu_cell", "CudnnConvolutionBackward",
    "BmmBackward0", "aten::cudnn_convolution_transpose_backward",
    "CudnnConvolutionTransposeBackward", "MmBackward", "aten::cudnn_convolution_backward_weight",
    "aten::addmm_", "AddmvBackward", "MvBackward",
    "aten::cudnn_convolution_transpose_backward_weight",
    "aten::cudnn_convolution_transpose_backward_input", "AddmmBackward",
    "aten::cudnn_convolution_backward_input", "AddbmmBackward", "aten::cudnn_convolution_backward",
};

/* Since: the backward nodes' current names, convolution_backward, fp8 GEMMs and attention. */
static const char *const later_ops[] = {
    "MmBackward0", "AddmmBackward0", "AddbmmBackward0", "BaddbmmBackward0", "AddmvBackward0",
    "MvBackward0", "ConvolutionBackward0", "CudnnConvolutionBackward0",
    "aten::convolution_backward", "aten::_addmm_activation", "aten::_scaled_mm",
    "aten::scaled_dot_product_attention", "aten::_scaled_dot_product_flash_attention",
    "aten::_scaled_dot_product_efficient_attention", "aten::_scaled_dot_product_cudnn_attention",
    "aten::_scaled_dot_product_flash_attention_backward",
    "aten::_scaled_dot_product_efficient_attention_backward",
    "aten::_scaled_dot_product_cudnn_attention_backward", "aten::_flash_attention_forward",
    "aten::_flash_attention_backward", "aten::_efficient_attention_forward",
    "aten::_efficient_attention_backward", "aten::_cudnn_attention_forward",
    "aten::_cudnn_attention_backward",
};

static bool contains_any(const char *name, const char *const *patterns, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strstr(name, patterns[i]))
            return true;
    return false;
}

static bool equals_any(const char *name, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(name, names[i]))
            return true;
    return false;
}

bool gs_kernel_uses_tensor_cores_plugin(const char *name)
{
    return contains_any(name, plugin_kernel_patterns, COUNT_OF(plugin_kernel_patterns));
}

bool gs_kernel_uses_tensor_cores(const char *name)
{
    return gs_kernel_uses_tensor_cores_plugin(name) ||
           (contains_any(name, later_kernel_patterns, COUNT_OF(later_kernel_patterns)) &&
            !contains_any(name, later_not_tc, COUNT_OF(later_not_tc)));
}

bool gs_op_tensor_core_eligible_plugin(const char *name)
{
    return equals_any(name, plugin_ops, COUNT_OF(plugin_ops));
}

bool gs_op_tensor_core_eligible(const char *name)
{
    return gs_op_tensor_core_eligible_plugin(name) ||
           equals_any(name, later_ops, COUNT_OF(later_ops));
}
