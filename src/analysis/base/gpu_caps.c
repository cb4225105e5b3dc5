/* Compute capability -> Tensor Core precisions. Sources (doc/diagnosis.md lists them): NVIDIA's
 * CUDA C++ Programming Guide, "Compute Capabilities" (the features per capability: wmma/mma
 * fp16 from 7.0, int8 from 7.2/7.5, bf16 and tf32 from 8.0, fp8 from 8.9, fp4 from 10.0); the
 * Volta, Turing, Ampere, Ada, Hopper and Blackwell architecture whitepapers; PyTorch's CUDA
 * semantics page (TF32 on Ampere and later) and torch.amp (bfloat16 needs compute capability
 * 8.0: torch.cuda.is_bf16_supported). */
#include "analysis/base/gpu_caps.h"

#include <stdio.h>
#include <string.h>

#include "common/util.h"

#define AMPERE (GS_TC_FP16 | GS_TC_INT8 | GS_TC_BF16 | GS_TC_TF32)

static const gs_gpu_caps table[] = {
    /* Pascal and older: no Tensor Cores (Pascal's fp16 is plain arithmetic) */
    {1, 0, 9, "Tesla", 0},
    {2, 0, 9, "Fermi", 0},
    {3, 0, 9, "Kepler", 0},
    {5, 0, 9, "Maxwell", 0},
    {6, 0, 9, "Pascal", 0},
    {7, 0, 0, "Volta", GS_TC_FP16},
    {7, 2, 2, "Volta", GS_TC_FP16 | GS_TC_INT8}, /* Xavier */
    {7, 5, 5, "Turing", GS_TC_FP16 | GS_TC_INT8},
    {8, 0, 7, "Ampere", AMPERE},
    {8, 9, 9, "Ada", AMPERE | GS_TC_FP8},
    {9, 0, 0, "Hopper", AMPERE | GS_TC_FP8},
    {10, 0, 9, "Blackwell", AMPERE | GS_TC_FP8 | GS_TC_FP4},
    {11, 0, 9, "Blackwell", AMPERE | GS_TC_FP8 | GS_TC_FP4}, /* Thor */
    {12, 0, 9, "Blackwell", AMPERE | GS_TC_FP8 | GS_TC_FP4}, /* GeForce RTX 50, RTX PRO */
};

const gs_gpu_caps *gs_gpu_caps_find(int32_t major, int32_t minor)
{
    for (size_t i = 0; i < COUNT_OF(table); i++)
        if (table[i].major == major && minor >= table[i].minor_lo && minor <= table[i].minor_hi)
            return &table[i];
    return NULL;
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
