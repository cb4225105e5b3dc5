/* The capability table (analysis/base/gpu_caps.h): each generation's Tensor Core precisions as
 * NVIDIA's CUDA C++ Programming Guide gives them (doc/diagnosis.md, "What the GPU can run"). */
#include "check.h"

#include <string.h>

#include "analysis/base/gpu_caps.h"

static void test_generations(void)
{
    static const struct {
        int major, minor;
        const char *arch;
        const char *precisions;
    } rows[] = {
        {6, 0, "Pascal", "none"},
        {6, 1, "Pascal", "none"},
        {7, 0, "Volta", "fp16"},
        {7, 2, "Volta", "fp16, int8"},
        {7, 5, "Turing", "fp16, int8"},
        {8, 0, "Ampere", "fp16, bf16, tf32, int8"},
        {8, 6, "Ampere", "fp16, bf16, tf32, int8"},
        {8, 7, "Ampere", "fp16, bf16, tf32, int8"},
        {8, 9, "Ada", "fp16, bf16, tf32, int8, fp8"},
        {9, 0, "Hopper", "fp16, bf16, tf32, int8, fp8"},
        {10, 0, "Blackwell", "fp16, bf16, tf32, int8, fp8, fp4"},
        {12, 0, "Blackwell", "fp16, bf16, tf32, int8, fp8, fp4"},
    };
    char buf[64];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const gs_gpu_caps *g = gs_gpu_caps_find(GS_VENDOR_NVIDIA, rows[i].major, rows[i].minor);
        CHECK(g != NULL);
        if (!g)
            continue;
        CHECK_STR(g->arch, rows[i].arch);
        CHECK_STR(gs_tc_precisions_name(g->tensor_core, buf, sizeof buf), rows[i].precisions);
    }
}

static void test_what_advice_reads(void)
{
    /* bf16 and TF32 from Ampere on, never on Volta or Turing; FP8 from Ada; FP4 from Blackwell */
    CHECK(!gs_gpu_caps_has(gs_gpu_caps_find(GS_VENDOR_NVIDIA, 7, 0), GS_TC_BF16));
    CHECK(!gs_gpu_caps_has(gs_gpu_caps_find(GS_VENDOR_NVIDIA, 7, 5), GS_TC_TF32));
    CHECK(gs_gpu_caps_has(gs_gpu_caps_find(GS_VENDOR_NVIDIA, 7, 5), GS_TC_FP16));
    CHECK(gs_gpu_caps_has(gs_gpu_caps_find(GS_VENDOR_NVIDIA, 8, 0), GS_TC_BF16 | GS_TC_TF32));
    CHECK(!gs_gpu_caps_has(gs_gpu_caps_find(GS_VENDOR_NVIDIA, 8, 6), GS_TC_FP8));
    CHECK(gs_gpu_caps_has(gs_gpu_caps_find(GS_VENDOR_NVIDIA, 8, 9), GS_TC_FP8));
    CHECK(!gs_gpu_caps_has(gs_gpu_caps_find(GS_VENDOR_NVIDIA, 9, 0), GS_TC_FP4));
    CHECK(gs_gpu_caps_has(gs_gpu_caps_find(GS_VENDOR_NVIDIA, 10, 0), GS_TC_FP4 | GS_TC_FP8));
    /* unknown: no capability 0.0 (the trace does not say), none past the table, none between */
    CHECK(gs_gpu_caps_find(GS_VENDOR_NVIDIA, 0, 0) == NULL);
    CHECK(gs_gpu_caps_find(GS_VENDOR_NVIDIA, 4, 0) == NULL);
    CHECK(gs_gpu_caps_find(GS_VENDOR_NVIDIA, 7, 1) == NULL);
    CHECK(gs_gpu_caps_find(GS_VENDOR_NVIDIA, 13, 0) == NULL);
    CHECK(!gs_gpu_caps_has(NULL, GS_TC_FP16));
    char small[8];
    CHECK_STR(gs_tc_precisions_name(0, small, sizeof small), "none");
    /* a buffer too small keeps whole words only */
    CHECK_STR(gs_tc_precisions_name(GS_TC_FP16 | GS_TC_BF16 | GS_TC_FP8, small, sizeof small),
              "fp16");
}

/* ROCm reports the GFX version as the compute capability: an AMD GPU's 9.0 or 9.4 is not
 * Hopper. The vendor comes from the device name. */
static void test_amd(void)
{
    CHECK_INT(gs_gpu_vendor_of("AMD Instinct MI300X VF"), GS_VENDOR_AMD);
    CHECK_INT(gs_gpu_vendor_of("AMD Radeon Graphics"), GS_VENDOR_AMD);
    CHECK_INT(gs_gpu_vendor_of("NVIDIA H100 80GB HBM3"), GS_VENDOR_NVIDIA);
    CHECK_INT(gs_gpu_vendor_of("Tesla V100-SXM2-32GB"), GS_VENDOR_NVIDIA);
    CHECK_INT(gs_gpu_vendor_of("CAMDEN board"), GS_VENDOR_NVIDIA); /* a word, not letters */
    CHECK_INT(gs_gpu_vendor_of(NULL), GS_VENDOR_NVIDIA);
    /* gfx942 (MI300): bf16 and fp8 matrix cores, no TF32 claimed */
    const gs_gpu_caps *mi300 = gs_gpu_caps_find(GS_VENDOR_AMD, 9, 4);
    CHECK(mi300 != NULL);
    CHECK(gs_gpu_caps_has(mi300, GS_TC_BF16 | GS_TC_FP8));
    CHECK(!gs_gpu_caps_has(mi300, GS_TC_TF32));
    /* 9.0 is gfx906, gfx908 and gfx90a alike: unknown, never Hopper's fp8 */
    CHECK(gs_gpu_caps_find(GS_VENDOR_AMD, 9, 0) == NULL);
    CHECK(gs_gpu_caps_find(GS_VENDOR_NVIDIA, 9, 4) == NULL);
}

int main(void)
{
    test_amd();
    test_generations();
    test_what_advice_reads();
    return check_done("test_gpu_caps");
}
