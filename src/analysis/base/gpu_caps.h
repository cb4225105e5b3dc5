/* What a GPU's Tensor Cores can do, by compute capability (doc/diagnosis.md, "What the GPU can
 * run"): the precisions its Tensor Cores take, from NVIDIA's CUDA C++ Programming Guide (the
 * compute capabilities' features) and the architecture whitepapers. The advice reads it, so
 * that no action asks for bf16 or TF32 on Volta, or FP8 before Ada. */
#ifndef GS_ANALYSIS_GPU_CAPS_H
#define GS_ANALYSIS_GPU_CAPS_H

#include <stdbool.h>
#include <stdint.h>

/* Tensor Core precisions, one bit each. */
enum gs_tc_precision {
    GS_TC_FP16 = 1u << 0,
    GS_TC_INT8 = 1u << 1,
    GS_TC_BF16 = 1u << 2,
    GS_TC_TF32 = 1u << 3,
    GS_TC_FP8 = 1u << 4,
    GS_TC_FP4 = 1u << 5, /* and the microscaling formats (MXFP4/6/8, NVFP4) */
};

/* Whose numbering the compute capability is in: ROCm reports the GFX version as major.minor
 * (gfx942 as 9.4), which would read as an NVIDIA GPU's. */
enum gs_gpu_vendor { GS_VENDOR_NVIDIA, GS_VENDOR_AMD };

/* torch.compile's Triton kernels need an NVIDIA GPU of compute capability 7.0 or later (PyTorch's
 * Inductor refuses older ones: "Triton only supports devices of CUDA Capability >= 7.0"). */
#define GS_TRITON_MIN_MAJOR 7

typedef struct gs_gpu_caps {
    int32_t vendor;                    /* enum gs_gpu_vendor */
    int32_t major, minor_lo, minor_hi; /* the compute capabilities of the row */
    const char *arch;                  /* "Volta" */
    uint32_t tensor_core;              /* enum gs_tc_precision bits; 0: no Tensor Cores */
} gs_gpu_caps;

/* The row for compute capability major.minor of a vendor's GPU; NULL when it is unknown (major
 * 0: the trace does not say), newer than the table, or ambiguous (AMD's 9.0 is gfx906, gfx908
 * and gfx90a: no matrix cores, or fp16 and bf16 ones). */
const gs_gpu_caps *gs_gpu_caps_find(int32_t vendor, int32_t major, int32_t minor);

/* The vendor a device name says ("AMD Instinct MI300X", "AMD Radeon Graphics"): AMD when a word
 * of it is AMD, Instinct or Radeon; NVIDIA otherwise. */
int32_t gs_gpu_vendor_of(const char *device_name);

/* Whether the GPU's Tensor Cores take every precision in `bits`; false for an unknown GPU. */
bool gs_gpu_caps_has(const gs_gpu_caps *g, uint32_t bits);

/* The precisions in `bits` as words, "fp16, int8", into buf; "none" when there are none. */
const char *gs_tc_precisions_name(uint32_t bits, char *buf, unsigned size);

#endif
