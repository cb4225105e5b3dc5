/* Dense peak throughput per GPU model and element type, and memory bandwidth, from NVIDIA's
 * datasheets (doc/flops.md, "Peaks"): what MFU divides by, and the roofs of the roofline
 * (doc/roofline.md). */
#ifndef GS_ANALYSIS_GPU_PEAKS_H
#define GS_ANALYSIS_GPU_PEAKS_H

#include <stddef.h>

#include "analysis/base/flops.h"

typedef struct gs_gpu_peaks {
    const char *model;                /* "H100 SXM" */
    const char *tokens[3];            /* every one a word of the device name, NULL-ended */
    double tflops[GS_DTYPE__COUNT];   /* dense TFLOP/s (TOPS for int8); 0: not supported */
    double hbm_tbps;                  /* the device memory's bandwidth, TB/s (10^12 bytes/s) */
} gs_gpu_peaks;

/* The row for a device name as CUDA reports it ("NVIDIA H100 80GB HBM3", "Tesla V100-SXM2-32GB"),
 * matched by words, case-insensitively; NULL for a GPU the table does not know. */
const gs_gpu_peaks *gs_gpu_peaks_find(const char *device_name);

/* The dense peak for dtype d in TFLOP/s; 0 when the GPU is unknown or has no such figure. */
double gs_gpu_peak_tflops(const gs_gpu_peaks *g, enum gs_dtype d);

/* The device memory's bandwidth in TB/s; 0 when the GPU is unknown. */
double gs_gpu_peak_tbps(const gs_gpu_peaks *g);

#endif
