/* Dense peaks: NVIDIA's datasheets print Tensor Core figures "with sparsity"; the dense figure is
 * half of it. The memory bandwidth is the datasheet's "GPU memory bandwidth". Every number here
 * is in doc/flops.md with its datasheet. Rows are tried in order, the more specific spelling
 * (H100 PCIe, H100 NVL, A100 80GB PCIe) before the plain one (H100 = SXM). */
#include "analysis/base/gpu_peaks.h"

#include "common/util.h"

#define PEAKS(fp64, fp32, tf32, fp16, bf16, fp8, int8)                                            \
    {[GS_DTYPE_FP64] = fp64, [GS_DTYPE_FP32] = fp32, [GS_DTYPE_TF32] = tf32,                       \
     [GS_DTYPE_FP16] = fp16, [GS_DTYPE_BF16] = bf16, [GS_DTYPE_FP8] = fp8, [GS_DTYPE_INT8] = int8}

static const gs_gpu_peaks table[] = {
    /* name, words, dense TFLOP/s: fp64, fp32, tf32, fp16, bf16, fp8, int8; memory TB/s */
    {"V100S PCIe", {"V100S", NULL}, PEAKS(8.2, 16.4, 0, 130, 0, 0, 0), 1.134},
    {"V100 PCIe", {"V100", "PCIE", NULL}, PEAKS(7, 14, 0, 112, 0, 0, 0), 0.9},
    {"V100 SXM2", {"V100", NULL}, PEAKS(7.8, 15.7, 0, 125, 0, 0, 0), 0.9},
    {"A100 80GB PCIe", {"A100", "80GB", "PCIE"}, PEAKS(9.7, 19.5, 156, 312, 312, 0, 624), 1.935},
    {"A100 80GB SXM", {"A100", "80GB", NULL}, PEAKS(9.7, 19.5, 156, 312, 312, 0, 624), 2.039},
    {"A100 40GB", {"A100", NULL}, PEAKS(9.7, 19.5, 156, 312, 312, 0, 624), 1.555},
    {"H100 PCIe", {"H100", "PCIE", NULL}, PEAKS(26, 51, 378, 756, 756, 1513, 1513), 2.0},
    {"H100 NVL", {"H100", "NVL", NULL}, PEAKS(30, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5), 3.9},
    {"H100 SXM", {"H100", NULL}, PEAKS(34, 67, 494.7, 989.4, 989.4, 1978.9, 1978.9), 3.35},
    {"H200 NVL", {"H200", "NVL", NULL}, PEAKS(30, 60, 417.5, 835.5, 835.5, 1670.5, 1670.5), 4.8},
    {"H200 SXM", {"H200", NULL}, PEAKS(34, 67, 494.7, 989.4, 989.4, 1978.9, 1978.9), 4.8},
    {"B200", {"B200", NULL}, PEAKS(37, 75, 1100, 2250, 2250, 4500, 4500), 8.0},
    {"L40S", {"L40S", NULL}, PEAKS(0, 91.6, 183, 362.05, 362.05, 733, 733), 0.864},
    {"L4", {"L4", NULL}, PEAKS(0, 30.3, 60, 121, 121, 242.5, 242.5), 0.3},
};

const gs_gpu_peaks *gs_gpu_peaks_find(const char *device_name)
{
    if (!device_name)
        return NULL;
    for (size_t i = 0; i < COUNT_OF(table); i++) {
        bool all = true;
        for (size_t k = 0; k < 3 && table[i].tokens[k]; k++)
            all = all && gs_has_word(device_name, table[i].tokens[k]);
        if (all)
            return &table[i];
    }
    return NULL;
}

double gs_gpu_peak_tflops(const gs_gpu_peaks *g, enum gs_dtype d)
{
    return g && (unsigned)d < GS_DTYPE__COUNT ? g->tflops[d] : 0;
}

double gs_gpu_peak_tbps(const gs_gpu_peaks *g)
{
    return g ? g->hbm_tbps : 0;
}
