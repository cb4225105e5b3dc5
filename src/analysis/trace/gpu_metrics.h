/* GPU metrics per device over a window, as the TensorBoard profiler plugin computes them
 * (torch_tb_profiler/profiler/gpu_metrics_parser.py; doc/design.md §12). Kernels only, copies
 * and sets never count. */
#ifndef GS_ANALYSIS_GPU_METRICS_H
#define GS_ANALYSIS_GPU_METRICS_H

#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "model/trace.h"

typedef struct gs_gpu_device_metrics {
    int32_t device;
    gs_ns busy_ns;        /* |union of kernel intervals ∩ window| */
    double utilization;   /* busy_ns / window, 0..1 */
    /* Σ over elementary intervals of min(Σ blocks per SM of the kernels running, 1) × length,
     * / window. Kernels with unknown or non-positive blocks per SM are left out. */
    double sm_efficiency; /* 0..1, valid when has_sm_efficiency */
    bool has_sm_efficiency;
    /* Σ occupancy × |kernel ∩ window| / Σ |kernel ∩ window| over kernels with known occupancy. */
    double occupancy_pct; /* 0..100, valid when has_occupancy */
    bool has_occupancy;
} gs_gpu_device_metrics;

typedef struct gs_gpu_metrics {
    gs_ns window_start, window_end;
    gs_gpu_device_metrics *v; /* by device id ascending, devices that ran a kernel */
    size_t n;
} gs_gpu_metrics;

int gs_gpu_metrics_compute(const gs_trace *t, gs_ns window_start, gs_ns window_end,
                           gs_gpu_metrics *out, gs_error *err);
void gs_gpu_metrics_free(gs_gpu_metrics *m);

#endif
