/* How well one trace's steps use the GPU's arithmetic (doc/flops.md): model FLOPs per step from
 * the operators' shapes, achieved TFLOP/s and MFU against the GPU's dense peak, and the share of
 * kernel time on Tensor Cores and in Tensor-Core-eligible operators that ran without them (the
 * TensorBoard plugin's tc_eligible and tc_ratio). */
#ifndef GS_ANALYSIS_COMPUTE_H
#define GS_ANALYSIS_COMPUTE_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/base/flops.h"
#include "analysis/base/steps.h"
#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "model/trace.h"

typedef struct gs_compute {
    size_t steps;           /* kept steps measured */
    gs_ns step_ns;          /* mean kept step */
    double flops_per_step;  /* model FLOPs, mean over the kept steps */
    double kind_flops[GS_FLOP__COUNT]; /* the same by kind (GEMM, convolution, attention) */
    uint8_t dtype;          /* enum gs_dtype of most of the FLOPs */
    double tflops;          /* achieved: flops_per_step / step_ns, in TFLOP/s */
    double peak_tflops;     /* the GPU's dense peak for dtype; 0 when unknown */
    double mfu;             /* tflops / peak_tflops; -1 when either is unknown */
    char gpu[64];           /* the device name the peak was looked up by, "" when none */
    char peak_model[24];    /* the peaks table's row, "" when the GPU is not in it */
    uint64_t counted_ops;   /* operator calls counted in the kept steps */
    uint64_t trace_flops_ops; /* of them, with the trace's own `flops` value */
    uint64_t trace_flops_mismatch; /* ... disagreeing with the shapes' formula by more than 1 % */
    /* Shares of the kept steps' kernel time; -1 when they have no kernels. */
    gs_ns kernel_ns;        /* kernel time per kept step */
    double flop_op_share;   /* launched by counted operators (GEMM, convolution, attention) */
    double tc_share;        /* in Tensor Core kernels (by name) */
    double eligible_share;  /* launched by Tensor-Core-eligible operators */
    double eligible_unused_share; /* of the eligible time, in kernels that use no Tensor Cores */
} gs_compute;

/* The FLOPs of one operator call: the trace's own `flops` value for an operator with a formula,
 * else the formula on its shapes (gs_op_flops_compute). GS_FLOP_NONE for other operators. */
enum gs_flop_kind gs_range_flops(const gs_trace *t, const gs_range *r, gs_op_flops *out);

/* Over the kept steps of c. Each GEMM is counted once: an operator with a formula inside another
 * one (aten::addmm inside aten::addmm under autocast, aten::mm inside aten::matmul inside
 * aten::linear) is not counted again; its dtype, the one the work ran in, replaces the outer
 * one's. */
int gs_compute_build(const gs_trace_ctx *c, gs_compute *out, gs_error *err);

/* The GPU the steps ran on: the device of the first kernel, else the first the trace lists;
 * NULL when it lists none. */
const gs_device *gs_trace_main_device(const gs_trace *t);

/* An empty result: every share -1, MFU -1. */
void gs_compute_init(gs_compute *c);

#endif
