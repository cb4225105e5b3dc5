/* The roofline per operator (doc/roofline.md): for each group of operator calls (by name, or by
 * name and input shapes), the FLOPs and bytes of the calls (op_cost.h), the GPU time they
 * launched, and where that puts them under the GPU's roofs: arithmetic intensity, achieved
 * TFLOP/s and TB/s, the roof at that intensity, the share of it reached, and what bounds them
 * (memory, compute, or latency when the work is too small for either roof to matter).
 *
 * A call is the operator that launched the GPU work (the innermost operator around the launch,
 * as Self CUDA counts it), so each kernel counts once and its FLOPs and bytes are those of the
 * shapes it ran on; an operator directly inside one of its own name (autocast's inner
 * aten::addmm) is part of that call and lends it its shapes and types. Its GPU time is that of
 * the kernels, memsets and device-to-device copies it launched; copies to or from the host
 * (limited by the link, not by the GPU's memory) are left to the memcpy view, and collective
 * communication kernels (limited by the interconnect) to the comm view. Calls count where
 * they start in the context's window. */
#ifndef GS_ANALYSIS_ROOFLINE_H
#define GS_ANALYSIS_ROOFLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/base/gpu_peaks.h"
#include "analysis/base/op_cost.h"
#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "model/trace.h"

enum gs_roof_bound {
    GS_BOUND_UNKNOWN, /* no cost model, shapes or types not recorded, or a GPU without roofs */
    GS_BOUND_MEMORY,  /* intensity below the ridge: the bandwidth roof applies */
    GS_BOUND_COMPUTE, /* at or above the ridge: the arithmetic roof applies */
    GS_BOUND_LATENCY, /* each call's ideal time under a few µs and less than half the roof
                         reached: fixed per-kernel costs, not a roof, limit it */
    GS_BOUND__COUNT
};

/* What a row groups: calls by the operator's name, by its name, input shapes and types, or by
 * kernel and operator: each call under its main kernel (kernel_costs.h), the call's memsets
 * with it, its other kernels not; a call with no main kernel in no row. */
enum gs_roof_key { GS_ROOF_BY_NAME, GS_ROOF_BY_SHAPE, GS_ROOF_BY_KERNEL };

typedef struct gs_roof_row {
    const char *name;        /* the operator's; by kernel, the kernel's */
    const char *op_name;     /* by kernel: the operator that launched it; else NULL */
    const char *input_dims;  /* grouped by shape: as recorded ("" when not); else NULL */
    const char *input_types; /* grouped by shape: "Input type" as recorded; else NULL */
    enum gs_op_class cls;
    enum gs_dtype dtype;     /* of most of the calls' work; tf32 for fp32 matrix work whose
                                kernels run on Tensor Cores */
    const char *gpu_model;   /* the peaks table's row of the traces' GPU, NULL when unknown */
    uint64_t calls;
    uint64_t kernels;        /* GPU activities launched (kernels, memsets, device copies) */
    gs_ns gpu_ns;            /* their time */
    uint64_t modelled_calls; /* calls whose FLOPs or bytes are known */
    double flops, bytes;     /* Σ over the modelled calls */
    gs_ns modelled_ns;       /* the GPU time of those calls: what tflops and tbps divide by */
    double intensity;        /* flops / bytes; -1 when bytes are 0 */
    double tflops, tbps;     /* achieved over modelled_ns; -1 when not modelled */
    double peak_tflops;      /* the compute roof for dtype and class; 0 when unknown */
    double peak_tbps;        /* the memory roof (HBM bandwidth); 0 when unknown */
    double ridge;            /* peak_tflops / peak_tbps in FLOP/byte; -1 when unknown */
    double roof_tflops;      /* min(peak, intensity x bandwidth); -1 when unknown */
    double ideal_ns;         /* max(flops / peak, bytes / bandwidth): the time at the roof */
    double roof_share;       /* ideal_ns / modelled_ns: the share of the roof reached; -1 */
    enum gs_roof_bound bound;
} gs_roof_row;

typedef struct gs_roofline {
    gs_roof_row *rows;   /* by GPU time descending, then name and shapes */
    size_t nrows;
    enum gs_roof_key key;
    gs_ns gpu_ns;        /* every GPU activity launched by an operator in the window */
    gs_ns modelled_ns;   /* ... by calls with FLOPs or bytes known */
    gs_ns no_shapes_ns;  /* ... by calls with a model but without the shapes or types to use it */
    gs_ns no_model_ns;   /* ... by operators without a model */
    uint64_t no_shapes_calls;
    gs_ns several_kernels_ns; /* by kernel: ... in kernels other than their call's main one */
    gs_strtab names;     /* owns the row names and shapes */
    struct gs_roof_calls *calls; /* the traces' calls, until _finish */
} gs_roofline;

/* Added one trace at a time, as gs_op_summary: init, add each, finish; build is the three for one
 * trace. Each returns 0, or -1 with err (out of memory); a failed roofline is freed. */
int gs_roofline_init(gs_roofline *r, enum gs_roof_key key, gs_error *err);
int gs_roofline_add(gs_roofline *r, const gs_trace_ctx *c, gs_error *err);
int gs_roofline_finish(gs_roofline *r, gs_error *err);
int gs_roofline_build(const gs_trace_ctx *c, enum gs_roof_key key, gs_roofline *out,
                      gs_error *err);
void gs_roofline_free(gs_roofline *r);

const char *gs_roof_bound_name(enum gs_roof_bound b);

#endif
