/* FLOPs of one operator call from its name and recorded inputs (doc/flops.md): the formulas of
 * PyTorch's torch/utils/flop_counter.py for matrix multiplies, convolutions and attention, read
 * from torch.profiler's `Input Dims`, `Input type` and `Concrete Inputs`. */
#ifndef GS_ANALYSIS_FLOPS_H
#define GS_ANALYSIS_FLOPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/base/op_args.h"

/* What an operator computes, for the FLOPs it is counted with. */
enum gs_flop_kind {
    GS_FLOP_NONE,      /* no formula: not counted */
    GS_FLOP_GEMM,      /* mm, addmm, bmm, baddbmm, matmul, linear, _scaled_mm */
    GS_FLOP_CONV,      /* convolution forward and backward */
    GS_FLOP_ATTENTION, /* scaled dot-product attention and its flash/efficient/cuDNN kernels */
    GS_FLOP__COUNT
};

typedef struct gs_op_flops {
    enum gs_flop_kind kind;
    double flops;       /* 0 when the shapes do not fit the formula */
    enum gs_dtype dtype; /* of the operands, GS_DTYPE_UNKNOWN when not recorded */
    double bytes;       /* the minimum traffic (doc/roofline.md); 0 when shapes or types are
                           missing */
} gs_op_flops;

/* The kind of an operator by name ("aten::addmm"); GS_FLOP_NONE for every other. */
enum gs_flop_kind gs_flop_kind_of(const char *name);

/* FLOPs of one call. input_dims, input_types and concrete may be NULL or "" (not recorded).
 * Returns the kind (GS_FLOP_NONE when the name has no formula). */
enum gs_flop_kind gs_op_flops_compute(const char *name, const char *input_dims,
                                      const char *input_types, const char *concrete,
                                      gs_op_flops *out);

#endif
