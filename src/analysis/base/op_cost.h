/* What one operator call computes and moves, for its place on the roofline (doc/roofline.md):
 * FLOPs and the minimum traffic to and from the GPU's memory (each input read once, each output
 * written once), from the call's name and recorded inputs (op_args.h). The matrix operators'
 * FLOPs are the ones MFU counts (flops.h); the others' are a few per element, as AMD's TraceLens
 * counts them, so that their arithmetic intensity says how far they sit below the ridge. */
#ifndef GS_ANALYSIS_OP_COST_H
#define GS_ANALYSIS_OP_COST_H

#include <stdbool.h>

#include "analysis/base/op_args.h"

/* What an operator does, for the traffic model it is counted with. */
enum gs_op_class {
    GS_OPC_NONE,        /* no model: the call is not placed on the roofline */
    GS_OPC_GEMM,        /* matrix multiplies (flops.h) */
    GS_OPC_CONV,        /* convolutions, forward and backward */
    GS_OPC_ATTENTION,   /* scaled dot-product attention, forward and backward */
    GS_OPC_ELEMENTWISE, /* unary and binary elementwise, activations and their gradients */
    GS_OPC_REDUCTION,   /* sum, mean, max, norms of vectors */
    GS_OPC_NORM,        /* layer, batch, group and RMS normalisation, forward and backward */
    GS_OPC_SOFTMAX,     /* softmax and log-softmax, forward and backward */
    GS_OPC_EMBEDDING,   /* table lookups and their gradient */
    GS_OPC_COPY,        /* copies and casts on the device */
    GS_OPC__COUNT
};

typedef struct gs_op_cost {
    enum gs_op_class cls;
    double flops;        /* 0 when not known (or none: a copy) */
    double bytes;        /* minimum traffic; 0 when the shapes or types were not recorded */
    enum gs_dtype dtype; /* the element type the work runs in, GS_DTYPE_UNKNOWN when not recorded */
} gs_op_cost;

/* The cost of one call; input_dims, input_types and concrete may be NULL or "" (not recorded).
 * Returns its class (GS_OPC_NONE: no model, *out zeroed). */
enum gs_op_class gs_op_cost_compute(const char *name, const char *input_dims,
                                    const char *input_types, const char *concrete,
                                    gs_op_cost *out);

/* Whether the class is matrix work, whose compute roof is the Tensor Cores' (GEMM, convolution,
 * attention); the others' is the CUDA cores'. */
bool gs_op_class_is_matrix(enum gs_op_class c);

const char *gs_op_class_name(enum gs_op_class c);

#endif
