/* Compute capability -> Tensor Core precisions. Sources (doc/diagnosis.md lists them): NVIDIA's
 * CUDA C++ Programming Guide, "Compute Capabilities" (the features per capability: wmma/mma
 * fp16 from 7.0, int8 from 7.2/7.5, bf16 and tf32 from 8.0, fp8 from 8.9, fp4 from 10.0); the
 * Volta, Turing, Ampere, Ada, Hopper and Blackwell architecture whitepapers; PyTorch's CUDA
 * semantics page (TF32 on Ampere and later) and torch.amp (bfloat16 needs compute capability
 * 8.0: torch.cuda.is_bf16_supported). AMD's rows: the ROCm documentation's GPU hardware
 * specifications (matrix core data types per Instinct and Radeon generation). */
#include "analysis/base/gpu_caps.h"

#include <stdio.h>
#include <string.h>

#include "common/util.h"

#define AMPERE (GS_TC_FP16 | GS_TC_INT8 | GS_TC_BF16 | GS_TC_TF32)
#define NV GS_VENDOR_NVIDIA
#define AMD GS_VENDOR_AMD

static const gs_gpu_caps table[] = {
    /* Pascal and older: no Tensor Cores (Pascal's fp16 is plain arithmetic) */
    {NV, 1, 0, 9, "Tesla", 0},
    {NV, 2, 0, 9, "Fermi", 0},
    {NV, 3, 0, 9, "Kepler", 0},
    {NV, 5, 0, 9, "Maxwell", 0},
    {NV, 6, 0, 9, "Pascal", 0},
    {NV, 7, 0, 0, "Volta", GS_TC_FP16},
    {NV, 7, 2, 2, "Volta", GS_TC_FP16 | GS_TC_INT8}, /* Xavier */
    {NV, 7, 5, 5, "Turing", GS_TC_FP16 | GS_TC_INT8},
    {NV, 8, 0, 7, "Ampere", AMPERE},
    {NV, 8, 9, 9, "Ada", AMPERE | GS_TC_FP8},
    {NV, 9, 0, 0, "Hopper", AMPERE | GS_TC_FP8},
    {NV, 10, 0, 9, "Blackwell", AMPERE | GS_TC_FP8 | GS_TC_FP4},
    {NV, 11, 0, 9, "Blackwell", AMPERE | GS_TC_FP8 | GS_TC_FP4}, /* Thor */
    {NV, 12, 0, 9, "Blackwell", AMPERE | GS_TC_FP8 | GS_TC_FP4}, /* GeForce RTX 50, RTX PRO */
    /* AMD; no TF32 claimed: PyTorch does not document allow_tf32 reaching ROCm's XF32 */
    {AMD, 9, 4, 4, "AMD CDNA 3, MI300", GS_TC_FP16 | GS_TC_BF16 | GS_TC_INT8 | GS_TC_FP8},
    {AMD, 9, 5, 5, "AMD CDNA 4, MI350",
     GS_TC_FP16 | GS_TC_BF16 | GS_TC_INT8 | GS_TC_FP8 | GS_TC_FP4},
    {AMD, 10, 0, 9, "AMD RDNA 1/2", 0},
    {AMD, 11, 0, 9, "AMD RDNA 3", GS_TC_FP16 | GS_TC_BF16 | GS_TC_INT8},
    {AMD, 12, 0, 9, "AMD RDNA 4", GS_TC_FP16 | GS_TC_BF16 | GS_TC_INT8 | GS_TC_FP8},
};
#undef NV
#undef AMD

const gs_gpu_caps *gs_gpu_caps_find(int32_t vendor, int32_t major, int32_t minor)
{
    for (size_t i = 0; i < COUNT_OF(table); i++)
        if (table[i].vendor == vendor && table[i].major == major && minor >= table[i].minor_lo &&
            minor <= table[i].minor_hi)
            return &table[i];
    return NULL;
}

int32_t gs_gpu_vendor_of(const char *device_name)
{
    static const char *const amd[] = {"AMD", "Instinct", "Radeon"};
    for (size_t i = 0; device_name && i < COUNT_OF(amd); i++)
        if (gs_has_word(device_name, amd[i]))
            return GS_VENDOR_AMD;
    return GS_VENDOR_NVIDIA;
}

bool gs_gpu_caps_has(const gs_gpu_caps *g, uint32_t bits)
{
    return g && (g->tensor_core & bits) == bits;
}

const char *gs_tc_precisions_name(uint32_t bits, char *buf, unsigned size)
{
    static const struct {
        uint32_t bit;
        const char *name;
    } names[] = {{GS_TC_FP16, "fp16"}, {GS_TC_BF16, "bf16"}, {GS_TC_TF32, "tf32"},
                 {GS_TC_INT8, "int8"}, {GS_TC_FP8, "fp8"},   {GS_TC_FP4, "fp4"}};
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < COUNT_OF(names); i++) {
        if (!(bits & names[i].bit))
            continue;
        int n = snprintf(buf + at, size - at, "%s%s", at ? ", " : "", names[i].name);
        if (n < 0 || (size_t)n >= size - at) {
            buf[at] = '\0'; /* whole words only */
            break;
        }
        at += (size_t)n;
    }
    if (!at)
        snprintf(buf, size, "none");
    return buf;
}
