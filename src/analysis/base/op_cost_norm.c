/* The normalisations' traffic (doc/roofline.md, "vector operators"): the activations read and
 * written once, the per-channel weights once, and the statistics each saves for its backward
 * (mean and 1/std per normalised row, fp32) written once forward and read once backward. Each
 * row of the table says where its tensors sit among the recorded arguments, which differ from one
 * operator to the next. FLOPs as AMD-AGI/TraceLens's PerfModel/perf_model.py counts them
 * (Normalization.flops_func and flops_func_bwd; RMSNorm, RMSNormBwd). */
#include <string.h>

#include "analysis/base/op_cost_vector.h"
#include "common/util.h"

enum norm_kind { LAYER, BATCH, GROUP, RMS };

enum { ALWAYS = -1, NEVER = -2 }; /* a training flag that is not an argument */

typedef struct norm_op {
    const char *name; /* without its "aten::" */
    enum norm_kind kind;
    bool backward;
    signed char input, grad, weight, bias; /* argument positions; -1: none */
    signed char running;  /* batch norm: running_mean's position (running_var follows) */
    signed char shape;    /* Concrete Inputs: normalized_shape (layer, RMS), groups (group) */
    signed char training; /* Concrete Inputs: the training flag, or ALWAYS / NEVER */
    signed char mask;     /* Concrete Inputs: a backward's output_mask; -1: every gradient */
    signed char stats;    /* statistics saved per row: mean and 1/std 2, RMS's 1/rms 1 */
} norm_op;

static const norm_op norms[] = {
    /* name                          kind  bwd    in gr  w  b  run shp train   mask stats */
    {"native_layer_norm",            LAYER, false, 0, -1, 2, 3, -1, 1, ALWAYS, -1, 2},
    {"native_layer_norm_backward",   LAYER, true,  1, 0,  5, 6, -1, 2, ALWAYS, 7,  2},
    {"native_batch_norm",            BATCH, false, 0, -1, 1, 2, 3, -1, 5,      -1, 2},
    {"cudnn_batch_norm",             BATCH, false, 0, -1, 1, 2, 3, -1, 5,      -1, 2},
    {"miopen_batch_norm",            BATCH, false, 0, -1, 1, 2, 3, -1, 5,      -1, 2},
    {"_batch_norm_impl_index",       BATCH, false, 0, -1, 1, 2, 3, -1, 5,      -1, 2},
    {"_native_batch_norm_legit",     BATCH, false, 0, -1, 1, 2, 3, -1, 5,      -1, 2},
    {"_native_batch_norm_legit_no_training", BATCH, false, 0, -1, 1, 2, 3, -1, NEVER, -1, 2},
    {"native_batch_norm_backward",   BATCH, true,  1, 0,  2, -1, 3, -1, 7,     9,  2},
    {"cudnn_batch_norm_backward",    BATCH, true,  0, 1,  2, -1, 3, -1, ALWAYS, -1, 2},
    {"miopen_batch_norm_backward",   BATCH, true,  0, 1,  2, -1, 3, -1, ALWAYS, -1, 2},
    {"_batch_norm_impl_index_backward", BATCH, true, 1, 2, 3, -1, 4, -1, 8,    10, 2},
    {"native_group_norm",            GROUP, false, 0, -1, 1, 2, -1, 6, ALWAYS, -1, 2},
    {"native_group_norm_backward",   GROUP, true,  1, 0,  4, -1, -1, 8, ALWAYS, 9, 2},
    {"_fused_rms_norm",              RMS,   false, 0, -1, 2, -1, -1, 1, ALWAYS, -1, 1},
    {"rms_norm",                     RMS,   false, 0, -1, 2, -1, -1, 1, ALWAYS, -1, 0},
    {"_fused_rms_norm_backward",     RMS,   true,  1, 0,  4, -1, -1, 2, ALWAYS, 5, 1},
};

static const norm_op *find_norm(const char *name)
{
    if (!name || !gs_starts_with(name, "aten::"))
        return NULL;
    for (size_t i = 0; i < COUNT_OF(norms); i++)
        if (!strcmp(norms[i].name, name + strlen("aten::")))
            return &norms[i];
    return NULL;
}

enum gs_op_class gs_norm_op_class(const char *name)
{
    return find_norm(name) ? GS_OPC_NORM : GS_OPC_NONE;
}

/* Whether output_mask (Concrete Inputs[idx]) asks for gradient `bit`: "[True, False, True]";
 * every one when it was not recorded. */
static bool mask_bit(const char *concrete, int idx, int bit)
{
    return idx < 0 || gs_op_arg_list_word_is(concrete, idx, bit, "False") != 1;
}

/* The shape of what one weight covers: normalized_shape's elements (layer, RMS; the last
 * dimension when not recorded), or the channels (batch, group: dimension 1). */
static double channels(const norm_op *op, gs_op_shape in, const char *concrete)
{
    if (op->kind == BATCH || op->kind == GROUP)
        return in.n > 1 ? in.d[1] : 0;
    double d[GS_OP_MAX_DIMS];
    int n = gs_op_arg_ints(concrete, op->shape, d, GS_OP_MAX_DIMS);
    if (n <= 0)
        return in.n > 0 ? in.d[in.n - 1] : 0;
    double c = 1;
    for (int i = 0; i < n; i++)
        c *= d[i];
    return c;
}

/* Rows of statistics: one per normalised row (layer, RMS), per channel (batch), per sample and
 * group (group norm: N x groups). */
static double stat_rows(const norm_op *op, gs_op_shape in, double n, double c,
                        const char *concrete)
{
    double groups = 1;
    switch (op->kind) {
    case BATCH:
        return c;
    case GROUP:
        if (gs_op_arg_ints(concrete, op->shape, &groups, 1) != 1)
            groups = 1;
        return (in.n > 0 ? in.d[0] : 0) * groups;
    default:
        return c > 0 ? n / c : 0;
    }
}

/* perf_model.py: Normalization.flops_func (3 per channel for the scale and shift, 3 per
 * element for the statistics when training, 3 per channel for 1/std, 2 per element to apply),
 * flops_func_bwd; RMSNorm.flops and RMSNormBwd.flops_bwd. */
static double norm_flops(const norm_op *op, double n, double c, bool training, bool affine,
                         const char *concrete)
{
    bool dx = mask_bit(concrete, op->mask, 0), dw = mask_bit(concrete, op->mask, 1);
    if (op->kind == RMS && !op->backward)
        return (c > 0 ? n / c : 0) * (2 * c + 2) + n * (affine ? 2 : 1);
    if (op->kind == RMS)
        return (affine ? n : 0) + n + (dx ? 6 * n : 0) +
               (dw && affine ? n + (n > c ? n : 0) : 0);
    if (!op->backward)
        return 6 * c + (training ? 3 * n : 0) + 2 * n;
    return (training ? 0 : 3 * c) + 4 * n + (dx ? (training ? 5 * n : 0) : 2 * n);
}

typedef struct tensor {
    double numel, size; /* elements, bytes per element (0: absent) */
} tensor;

static tensor tensor_at(const char *dims, const char *types, int idx)
{
    gs_op_tensor t = gs_op_arg_tensor(dims, types, idx);
    return (tensor){t.numel, t.known ? gs_dtype_bytes(t.dtype) : 0};
}

enum gs_op_class gs_norm_op_cost(const char *name, const char *input_dims,
                                 const char *input_types, const char *concrete, gs_op_cost *out)
{
    memset(out, 0, sizeof *out);
    const norm_op *op = find_norm(name);
    if (!op)
        return GS_OPC_NONE;
    out->cls = GS_OPC_NORM;
    gs_op_shape shape = gs_op_arg_shape(input_dims, op->input);
    tensor in = tensor_at(input_dims, input_types, op->input);
    tensor grad = tensor_at(input_dims, input_types, op->grad);
    tensor w = tensor_at(input_dims, input_types, op->weight);
    tensor b = tensor_at(input_dims, input_types, op->bias);
    if (shape.n < 1 || in.size == 0)
        return GS_OPC_NORM;
    out->dtype = gs_op_arg_dtype(input_types, op->input);
    double n = in.numel, c = channels(op, shape, concrete);
    if (!(c > 0 && n >= 0))
        return GS_OPC_NORM;
    double rows = stat_rows(op, shape, n, c, concrete);
    bool training = op->training == ALWAYS ||
                    (op->training >= 0 && gs_op_arg_is(concrete, op->training, "True"));
    bool affine = w.size > 0;
    double stat_size = out->dtype == GS_DTYPE_FP64 ? 8 : 4;
    out->flops = norm_flops(op, n, c, training, affine, concrete);

    double bytes = n * in.size + c * w.size;
    tensor running = tensor_at(input_dims, input_types, op->running);
    if (!op->backward) {
        /* out, bias; batch norm reads its running statistics and, training, updates them and
         * saves the batch's; the others always save theirs */
        bytes += n * in.size + c * b.size + 2 * c * running.size;
        if (op->kind != BATCH || training)
            bytes += op->stats * rows * stat_size + (training ? 2 * c * running.size : 0);
    } else {
        /* grad_output, the saved statistics (batch norm out of training: the running ones),
         * then grad_input, grad_weight, grad_bias as output_mask asks */
        bytes += n * grad.size;
        bytes += op->kind == BATCH && !training ? 2 * c * running.size
                                                : op->stats * rows * stat_size;
        bytes += mask_bit(concrete, op->mask, 0) ? n * in.size : 0;
        bytes += mask_bit(concrete, op->mask, 1) ? c * w.size : 0;
        bytes += op->kind != RMS && mask_bit(concrete, op->mask, 2) ? c * w.size : 0;
    }
    out->bytes = bytes;
    return GS_OPC_NORM;
}
