/* Kernel classes (doc/design.md §13) and the GPU activities the temporal breakdown and
 * the idle analysis walk over.
 *
 * Classes (by the name rules, name_rules.h): communication (collective kernels of NCCL, RCCL,
 * HCCL, NVSHMEM, DeepEP, the custom all-reduces: doc/name_rules.md),
 * memory (copies and sets: every gs_memop), compute (every other kernel).
 *
 * HTA's later sources (get_kernel_type, hta/utils/utils.py) also count every name starting with
 * `hip` as communication. ROCm has compute kernels named `hip*` (hipCUB, hipBLASLt, ...) and its
 * collectives come from RCCL, whose kernels are named `ncclDevKernel_*` like NCCL's, so gpuscope
 * does not follow it. HTA 0.5.0, which the anchor was produced with, has no such rule either. */
#ifndef GS_ANALYSIS_KERNEL_CLASS_H
#define GS_ANALYSIS_KERNEL_CLASS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/base/trace_ctx.h"
#include "common/vec.h"
#include "model/trace.h"

enum gs_kclass {
    GS_KCLASS_COMPUTE,
    GS_KCLASS_COMMUNICATION,
    GS_KCLASS_MEMORY,
    GS_KCLASS_OTHER, /* GPU sync records; in the HTA-compatible mode, names HTA leaves out */
    GS_KCLASS__COUNT
};

/* One interval of GPU activity of a trace: a kernel, a copy or set, or a GPU-side sync record. */
typedef struct gs_activity {
    gs_ns start, end;
    uint8_t gpu_class; /* enum gs_gpu_class: GS_GPU_KERNEL, GS_GPU_MEMOP or GS_GPU_SYNC */
    uint8_t kclass;    /* enum gs_kclass */
    int32_t device, stream;
    uint32_t index; /* into t->kernels, t->memops or t->syncs */
    uint32_t api;   /* the launching call (index into t->apis), GS_NONE when unknown */
    gs_ns launch;   /* that call's start (rounded like the activity in hta_compat); 0 without */
} gs_activity;

typedef GS_VEC(gs_activity) gs_activities;

typedef struct gs_activity_opts {
    /* Reproduce HTA's defaults (doc/design.md §24: its _filter_irrelevant_gpu_kernels and
     * round_down_time_stamps): when the trace has at least two ProfilerStep ranges, drop the last
     * step and every GPU activity whose launch call is missing or began at or after the last
     * step's start; times rounded to whole µs as HTA rounds ns-resolution traces; kernel classes
     * by HTA's expressions. Off: the whole trace, gpuscope's classes. */
    bool hta_compat;
    /* Include GPU-side sync records that carry a stream ("Stream Wait Event", ...). HTA's
     * temporal breakdown counts them as busy non-compute time; its idle breakdown leaves them
     * out. */
    bool with_syncs;
    /* Only the activities inside this window (analysis/base/window.h; NULL: all). */
    const struct gs_window *window;
} gs_activity_opts;

/* The trace's GPU activities selected by opts, sorted by (start, end). 0, or -1 out of memory. */
int gs_activities_collect(const gs_trace_ctx *c, const gs_activity_opts *opts, gs_activities *out);

/* The name of an activity (kernel, copy/set or sync record). */
const char *gs_activity_name(const gs_trace *t, const gs_activity *a);

#endif
