/* The formulas follow PyTorch's torch/utils/flop_counter.py (doc/flops.md): a multiply-add is two
 * FLOPs, bias additions are not counted, a backward is counted by the operators that compute it.
 * The recorded inputs are compact JSON written by the trace reader: `Input Dims` a list with one
 * shape per argument ([] for a scalar), `Input type` and `Concrete Inputs` lists of strings. */
#include "analysis/base/flops.h"
#include "common/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- the formulas ----------------------------------------------------------------------- */

static double prod(const double *v, int n)
{
    double p = 1;
    for (int i = 0; i < n; i++)
        p *= v[i];
    return p;
}

/* a [..., M, K] @ b [..., K, N] with broadcast batch dimensions (torch.matmul's rules, which
 * also cover mm and bmm): 2 * batch * M * N * K. A 1-D operand is a vector. */
static double matmul_flops(gs_op_shape a, gs_op_shape b)
{
    if (a.n < 1 || b.n < 1)
        return 0;
    double k = a.d[a.n - 1];
    double m = a.n >= 2 ? a.d[a.n - 2] : 1;
    double n = b.n >= 2 ? b.d[b.n - 1] : 1;
    double kb = b.n >= 2 ? b.d[b.n - 2] : b.d[0];
    if (k != kb)
        return 0;
    double batch = 1;
    int na = a.n > 2 ? a.n - 2 : 0, nb = b.n > 2 ? b.n - 2 : 0;
    for (int i = 0; i < (na > nb ? na : nb); i++) {
        double x = i < na ? a.d[na - 1 - i] : 1, y = i < nb ? b.d[nb - 1 - i] : 1;
        batch *= x > y ? x : y;
    }
    return 2 * batch * m * n * k;
}

/* linear(input [..., K], weight [N, K]): 2 * rows * N * K. */
static double linear_flops(gs_op_shape x, gs_op_shape w)
{
    if (x.n < 1 || w.n != 2 || x.d[x.n - 1] != w.d[1])
        return 0;
    return 2 * prod(x.d, x.n - 1) * w.d[0] * w.d[1];
}

/* flop_counter.py's conv_flop_count: 2 * N * Cout * (Cin / groups) * prod(kernel) * prod(out
 * spatial), the spatial size being the input's for a transposed convolution. The weight is
 * [Cout, Cin/groups, k...] ([Cin, Cout/groups, k...] when transposed): the product is the same. */
static double conv_flops(gs_op_shape x, gs_op_shape w, const double *spatial, int nspatial)
{
    if (x.n < 3 || w.n != x.n || nspatial != x.n - 2)
        return 0;
    return 2 * x.d[0] * w.d[0] * w.d[1] * prod(w.d + 2, w.n - 2) * prod(spatial, nspatial);
}

/* The output's spatial size of a forward convolution from its stride, padding
 * and dilation (Concrete Inputs at the given indices): out = (in + 2 pad - dil
 * (k - 1) - 1) / stride + 1, as torch.nn.Conv2d's documentation gives it. false
 * when they were not recorded. */
static bool conv_out_spatial(gs_op_shape x, gs_op_shape w, const char *concrete, int i_stride,
                             int i_pad, int i_dil, double *out)
{
    int ns = x.n - 2;
    double stride[GS_OP_MAX_DIMS], pad[GS_OP_MAX_DIMS], dil[GS_OP_MAX_DIMS];
    int n_s = gs_op_arg_ints(concrete, i_stride, stride, GS_OP_MAX_DIMS);
    int n_d = gs_op_arg_ints(concrete, i_dil, dil, GS_OP_MAX_DIMS);
    bool same = gs_op_arg_is(concrete, i_pad, "same"),
         valid = gs_op_arg_is(concrete, i_pad, "valid");
    int n_p = same || valid ? ns : gs_op_arg_ints(concrete, i_pad, pad, GS_OP_MAX_DIMS);
    if (ns < 1 || n_s < 1 || n_p < 1 || n_d < 1)
        return false;
    for (int i = 0; i < ns; i++) {
        double s = stride[n_s == 1 ? 0 : i < n_s ? i : n_s - 1];
        double p = valid ? 0 : same ? 0 : pad[n_p == 1 ? 0 : i < n_p ? i : n_p - 1];
        double d = dil[n_d == 1 ? 0 : i < n_d ? i : n_d - 1];
        if (s <= 0)
            return false;
        double in = x.d[2 + i], k = w.d[2 + i];
        double span = in + 2 * p - d * (k - 1) - 1; /* < 0: the kernel does not fit */
        if (!same && !(span >= 0 && isfinite(span)))
            return false;
        out[i] = same ? (in + s - 1) / s : floor(span / s) + 1;
        if (!(out[i] > 0 && isfinite(out[i])))
            return false;
    }
    return true;
}

/* flop_counter.py's sdpa_flop_count: Q K^T then the scores times V, per batch
 * and head: 2 B H Sq Skv (Dqk + Dv). Its backward (sdpa_backward_flop_count)
 * recomputes the scores and runs four more products: 2 B H Sq Skv (3 Dqk + 2
 * Dv), 2.5 times the forward when Dqk = Dv. bshd: the shapes are [B, S, H, D]
 * (the _flash/_efficient_attention_* kernels), else [B, H, S, D]. */
static double attention_flops(gs_op_shape q, gs_op_shape k, gs_op_shape v, bool backward, bool bshd)
{
    if (q.n != 4 || k.n != 4 || v.n != 4)
        return 0;
    int s = bshd ? 1 : 2, h = bshd ? 2 : 1;
    double bh = q.d[0] * q.d[h], sq = q.d[s], skv = k.d[s], dqk = q.d[3], dv = v.d[3];
    return 2 * bh * sq * skv * (backward ? 3 * dqk + 2 * dv : dqk + dv);
}

/* Where each operator's operands are: the first matrix (and its dtype), the second, and for
 * convolutions and attention the layout of the rest. */
enum form {
    F_MATMUL, F_LINEAR, F_CONV, F_CONV_T, F_CONV_BWD, F_CUDNN_CONV_BWD, F_CUDNN_CONV_BWD_INPUT,
    F_CUDNN_CONV_BWD_WEIGHT, F_SDPA, F_SDPA_BWD, F_KERNEL_ATTN, F_KERNEL_ATTN_BWD,
};

static const struct op_form {
    const char *name;
    enum gs_flop_kind kind;
    enum form form;
    int a, b;                     /* the operands (input and weight for convolutions) */
    int stride, pad, dil, transp; /* Concrete Inputs of a convolution, -1 when none */
} forms[] = {
    {"aten::mm", GS_FLOP_GEMM, F_MATMUL, 0, 1, -1, -1, -1, -1},
    {"aten::bmm", GS_FLOP_GEMM, F_MATMUL, 0, 1, -1, -1, -1, -1},
    {"aten::matmul", GS_FLOP_GEMM, F_MATMUL, 0, 1, -1, -1, -1, -1},
    {"aten::addmm", GS_FLOP_GEMM, F_MATMUL, 1, 2, -1, -1, -1, -1},
    {"aten::_addmm_activation", GS_FLOP_GEMM, F_MATMUL, 1, 2, -1, -1, -1, -1},
    {"aten::baddbmm", GS_FLOP_GEMM, F_MATMUL, 1, 2, -1, -1, -1, -1},
    {"aten::_scaled_mm", GS_FLOP_GEMM, F_MATMUL, 0, 1, -1, -1, -1, -1},
    {"aten::linear", GS_FLOP_GEMM, F_LINEAR, 0, 1, -1, -1, -1, -1},
    /* convolution(input, weight, bias, stride, padding, dilation, transposed, ...) */
    {"aten::convolution", GS_FLOP_CONV, F_CONV, 0, 1, 3, 4, 5, 6},
    {"aten::_convolution", GS_FLOP_CONV, F_CONV, 0, 1, 3, 4, 5, 6},
    /* conv1d/2d/3d(input, weight, bias, stride, padding, dilation, groups) */
    {"aten::conv1d", GS_FLOP_CONV, F_CONV, 0, 1, 3, 4, 5, -1},
    {"aten::conv2d", GS_FLOP_CONV, F_CONV, 0, 1, 3, 4, 5, -1},
    {"aten::conv3d", GS_FLOP_CONV, F_CONV, 0, 1, 3, 4, 5, -1},
    /* cudnn_convolution(self, weight, padding, stride, dilation, groups, ...) */
    {"aten::cudnn_convolution", GS_FLOP_CONV, F_CONV, 0, 1, 3, 2, 4, -1},
    {"aten::conv_transpose1d", GS_FLOP_CONV, F_CONV_T, 0, 1, -1, -1, -1, -1},
    {"aten::conv_transpose2d", GS_FLOP_CONV, F_CONV_T, 0, 1, -1, -1, -1, -1},
    {"aten::conv_transpose3d", GS_FLOP_CONV, F_CONV_T, 0, 1, -1, -1, -1, -1},
    {"aten::cudnn_convolution_transpose", GS_FLOP_CONV, F_CONV_T, 0, 1, -1, -1, -1, -1},
    /* convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
     * transposed, ...): the grad_output is the forward's output */
    {"aten::convolution_backward", GS_FLOP_CONV, F_CONV_BWD, 1, 2, -1, -1, -1, 7},
    /* cudnn_convolution_backward(self, grad_output, weight, ...) (PyTorch < 1.11) */
    {"aten::cudnn_convolution_backward", GS_FLOP_CONV, F_CUDNN_CONV_BWD, 0, 2, -1, -1, -1, -1},
    /* each gradient on its own (PyTorch < 1.11): cudnn_convolution_backward_input(self_size,
     * grad_output, weight, ...) and cudnn_convolution_backward_weight(weight_size, grad_output,
     * self, ...); a and b are grad_output and weight, or grad_output and self */
    {"aten::cudnn_convolution_backward_input", GS_FLOP_CONV, F_CUDNN_CONV_BWD_INPUT, 1, 2, -1, -1,
     -1, -1},
    {"aten::cudnn_convolution_backward_weight", GS_FLOP_CONV, F_CUDNN_CONV_BWD_WEIGHT, 1, 2, -1,
     -1, -1, -1},
    /* (query, key, value, ...) as [B, H, S, D] */
    {"aten::scaled_dot_product_attention", GS_FLOP_ATTENTION, F_SDPA, 0, 1, -1, -1, -1, -1},
    {"aten::_scaled_dot_product_flash_attention", GS_FLOP_ATTENTION, F_SDPA, 0, 1, -1, -1, -1, -1},
    {"aten::_scaled_dot_product_efficient_attention", GS_FLOP_ATTENTION, F_SDPA, 0, 1, -1, -1, -1,
     -1},
    {"aten::_scaled_dot_product_cudnn_attention", GS_FLOP_ATTENTION, F_SDPA, 0, 1, -1, -1, -1, -1},
    {"aten::_scaled_dot_product_flash_attention_for_cpu", GS_FLOP_ATTENTION, F_SDPA, 0, 1, -1, -1,
     -1, -1},
    {"aten::_cudnn_attention_forward", GS_FLOP_ATTENTION, F_SDPA, 0, 1, -1, -1, -1, -1},
    /* (grad_out, query, key, value, ...) as [B, H, S, D] */
    {"aten::_scaled_dot_product_flash_attention_backward", GS_FLOP_ATTENTION, F_SDPA_BWD, 1, 2, -1,
     -1, -1, -1},
    {"aten::_scaled_dot_product_efficient_attention_backward", GS_FLOP_ATTENTION, F_SDPA_BWD, 1, 2,
     -1, -1, -1, -1},
    {"aten::_scaled_dot_product_cudnn_attention_backward", GS_FLOP_ATTENTION, F_SDPA_BWD, 1, 2, -1,
     -1, -1, -1},
    {"aten::_cudnn_attention_backward", GS_FLOP_ATTENTION, F_SDPA_BWD, 1, 2, -1, -1, -1, -1},
    /* the kernels' own operators take [B, S, H, D] */
    {"aten::_flash_attention_forward", GS_FLOP_ATTENTION, F_KERNEL_ATTN, 0, 1, -1, -1, -1, -1},
    {"aten::_efficient_attention_forward", GS_FLOP_ATTENTION, F_KERNEL_ATTN, 0, 1, -1, -1, -1, -1},
    {"aten::_flash_attention_backward", GS_FLOP_ATTENTION, F_KERNEL_ATTN_BWD, 1, 2, -1, -1, -1, -1},
    {"aten::_efficient_attention_backward", GS_FLOP_ATTENTION, F_KERNEL_ATTN_BWD, 1, 2, -1, -1, -1,
     -1},
};

static const struct op_form *form_of(const char *name)
{
    if (!name || strncmp(name, "aten::", 6) != 0)
        return NULL;
    for (size_t i = 0; i < COUNT_OF(forms); i++)
        if (!strcmp(forms[i].name, name))
            return &forms[i];
    return NULL;
}

enum gs_flop_kind gs_flop_kind_of(const char *name)
{
    const struct op_form *f = form_of(name);
    return f ? f->kind : GS_FLOP_NONE;
}

static double conv_form_flops(const struct op_form *f, const char *dims, const char *concrete)
{
    gs_op_shape x = gs_op_arg_shape(dims, f->a), w = gs_op_arg_shape(dims, f->b);
    if (x.n < 3 || w.n != x.n)
        return 0;
    double spatial[GS_OP_MAX_DIMS];
    int ns = x.n - 2;
    bool transposed =
        f->form == F_CONV_T || (f->transp >= 0 && gs_op_arg_is(concrete, f->transp, "True"));
    if (f->form == F_CONV_BWD || f->form == F_CUDNN_CONV_BWD) {
        /* grad input and grad weight, each as many FLOPs as the forward
         * (flop_counter.py's conv_backward_flop with both outputs asked for, as
         * training does) */
        gs_op_shape out = gs_op_arg_shape(dims, f->form == F_CONV_BWD ? 0 : 1);
        if (out.n != x.n)
            return 0;
        memcpy(spatial, (transposed ? x : out).d + 2, (size_t)ns * sizeof *spatial);
        return 2 * conv_flops(x, w, spatial, ns);
    }
    if (f->form == F_CUDNN_CONV_BWD_INPUT || f->form == F_CUDNN_CONV_BWD_WEIGHT) {
        /* one gradient, as many FLOPs as the forward, whose output is grad_output
         * (x here). The weight's gradient needs the weight's size, an int list only
         * Concrete Inputs records (argument 0); without it the operator is not
         * counted. */
        gs_op_shape g = x;
        if (f->form == F_CUDNN_CONV_BWD_WEIGHT) {
            w.n = gs_op_arg_ints(concrete, 0, w.d, GS_OP_MAX_DIMS);
            if (w.n != g.n)
                return 0;
        }
        memcpy(spatial, g.d + 2, (size_t)ns * sizeof *spatial);
        return conv_flops(g, w, spatial, ns);
    }
    if (transposed)
        memcpy(spatial, x.d + 2, (size_t)ns * sizeof *spatial);
    else if (!conv_out_spatial(x, w, concrete, f->stride, f->pad, f->dil, spatial))
        return 0;
    return conv_flops(x, w, spatial, ns);
}

/* ---- the bytes (doc/roofline.md): each operand read once, each result written once ----- */

/* The idx-th argument's size in bytes; -1 when its shape or type was not recorded. */
static double tensor_bytes(const char *dims, const char *types, int idx)
{
    gs_op_tensor t = gs_op_arg_tensor(dims, types, idx);
    return t.known ? t.bytes : -1;
}

/* A bias, when the operator was given one: 0 when the argument is None (recorded as []). */
static double bias_bytes(const char *dims, const char *types, int idx)
{
    gs_op_shape sh = gs_op_arg_shape(dims, idx);
    return sh.n <= 0 ? 0 : tensor_bytes(dims, types, idx);
}

/* Adds terms; -1 when one is unknown. */
static double sum_known(const double *v, int n)
{
    double sum = 0;
    for (int i = 0; i < n; i++) {
        if (v[i] < 0)
            return -1;
        sum += v[i];
    }
    return sum;
}

/* The product's elements are written in the operands' type; an fp8 GEMM writes bf16 (what
 * torch._scaled_mm is asked for in practice: its out_dtype is not in the recorded inputs). */
static double result_elem_bytes(enum gs_dtype operand)
{
    return operand == GS_DTYPE_FP8 ? 2 : gs_dtype_bytes(operand);
}

static double gemm_bytes(const struct op_form *f, const char *dims, const char *types,
                         double flops)
{
    gs_op_shape a = gs_op_arg_shape(dims, f->a), b = gs_op_arg_shape(dims, f->b);
    if (flops <= 0 || a.n < 1 || b.n < 1)
        return -1;
    double k = a.d[a.n - 1];
    double out_elems = flops / (2 * k); /* batch x M x N, whatever the broadcast */
    double terms[] = {
        tensor_bytes(dims, types, f->a), tensor_bytes(dims, types, f->b),
        out_elems * result_elem_bytes(gs_op_arg_dtype(types, f->a)),
        /* addmm(bias, a, b), baddbmm(input, ...): the added matrix before them; linear's after */
        f->form == F_LINEAR ? bias_bytes(dims, types, 2)
        : f->a > 0          ? bias_bytes(dims, types, 0)
                            : 0,
    };
    return sum_known(terms, 4);
}

/* A convolution's output: N x Cout x the output's spatial size. */
static double conv_out_elems(const struct op_form *f, gs_op_shape x, gs_op_shape w,
                             const char *concrete)
{
    double spatial[GS_OP_MAX_DIMS];
    if (x.n < 3 || w.n != x.n ||
        !conv_out_spatial(x, w, concrete, f->stride, f->pad, f->dil, spatial))
        return -1;
    return x.d[0] * w.d[0] * prod(spatial, x.n - 2);
}

/* Forward: input, weight and bias read, output written. Backward as two kernels, each its own
 * product (as TraceLens's CONV.bytes_bwd_func): grad input reads grad_output and the weight and
 * writes the input's size; grad weight reads grad_output and the input and writes the weight's
 * size. A transposed convolution's output size needs its output padding, which is not recorded:
 * its bytes are unknown. */
static double conv_bytes(const struct op_form *f, const char *dims, const char *types,
                         const char *concrete)
{
    double x = tensor_bytes(dims, types, f->a), w = tensor_bytes(dims, types, f->b);
    double elem = gs_dtype_bytes(gs_op_arg_dtype(types, f->a));
    bool transposed =
        f->form == F_CONV_T || (f->transp >= 0 && gs_op_arg_is(concrete, f->transp, "True"));
    switch (f->form) {
    case F_CONV: {
        if (transposed)
            return -1;
        double out = conv_out_elems(f, gs_op_arg_shape(dims, f->a), gs_op_arg_shape(dims, f->b),
                                    concrete);
        double terms[] = {x, w, out < 0 ? -1 : out * elem, bias_bytes(dims, types, 2)};
        return sum_known(terms, 4);
    }
    case F_CONV_BWD:
    case F_CUDNN_CONV_BWD: {
        double go = tensor_bytes(dims, types, f->form == F_CONV_BWD ? 0 : 1);
        double terms[] = {go, x, w};
        double sum = sum_known(terms, 3);
        return sum < 0 ? -1 : 2 * sum;
    }
    case F_CUDNN_CONV_BWD_INPUT:
    case F_CUDNN_CONV_BWD_WEIGHT: {
        /* grad_output (a) and the other operand (b) read, the size in Concrete Inputs written */
        double size[GS_OP_MAX_DIMS];
        int n = gs_op_arg_ints(concrete, 0, size, GS_OP_MAX_DIMS);
        gs_op_shape written = {.n = n};
        if (n > 0)
            memcpy(written.d, size, (size_t)n * sizeof *size);
        double terms[] = {x, w, n > 0 && elem > 0 ? gs_op_shape_numel(written) * elem : -1};
        return sum_known(terms, 3);
    }
    default:
        return -1;
    }
}

/* Forward: q, k and v read, the output (q's rows, v's width) written, as TraceLens's
 * SDPA.bytes_func. Backward: q, k, v, the output and its gradient read, the gradients of q, k
 * and v written (TraceLens leaves out reading the output, which the backward needs for its
 * softmax term). */
static double attention_bytes(const struct op_form *f, const char *dims, const char *types,
                              bool backward)
{
    double q = tensor_bytes(dims, types, f->a), k = tensor_bytes(dims, types, f->b),
           v = tensor_bytes(dims, types, f->b + 1);
    gs_op_shape qs = gs_op_arg_shape(dims, f->a), vs = gs_op_arg_shape(dims, f->b + 1);
    if (q < 0 || k < 0 || v < 0 || qs.n != 4 || vs.n != 4 || qs.d[3] <= 0)
        return -1;
    double out = q / qs.d[3] * vs.d[3];
    return backward ? 2 * (q + k + v + out) : q + k + v + out;
}

enum gs_flop_kind gs_op_flops_compute(const char *name, const char *dims, const char *types,
                                      const char *concrete, gs_op_flops *out)
{
    memset(out, 0, sizeof *out);
    const struct op_form *f = form_of(name);
    if (!f)
        return GS_FLOP_NONE;
    out->kind = f->kind;
    out->dtype = gs_op_arg_dtype(types, f->a);
    if (out->dtype == GS_DTYPE_UNKNOWN)
        out->dtype = gs_op_arg_dtype(types, f->b);
    gs_op_shape a = gs_op_arg_shape(dims, f->a), b = gs_op_arg_shape(dims, f->b);
    double bytes = -1;
    switch (f->form) {
    case F_MATMUL:
    case F_LINEAR:
        out->flops = f->form == F_MATMUL ? matmul_flops(a, b) : linear_flops(a, b);
        bytes = gemm_bytes(f, dims, types, out->flops);
        break;
    case F_CONV:
    case F_CONV_T:
    case F_CONV_BWD:
    case F_CUDNN_CONV_BWD:
    case F_CUDNN_CONV_BWD_INPUT:
    case F_CUDNN_CONV_BWD_WEIGHT:
        out->flops = conv_form_flops(f, dims, concrete);
        bytes = conv_bytes(f, dims, types, concrete);
        break;
    case F_SDPA:
    case F_SDPA_BWD:
    case F_KERNEL_ATTN:
    case F_KERNEL_ATTN_BWD: {
        bool bwd = f->form == F_SDPA_BWD || f->form == F_KERNEL_ATTN_BWD;
        bool bshd = f->form == F_KERNEL_ATTN || f->form == F_KERNEL_ATTN_BWD;
        out->flops = attention_flops(a, b, gs_op_arg_shape(dims, f->b + 1), bwd, bshd);
        bytes = attention_bytes(f, dims, types, bwd);
        break;
    }
    }
    /* shapes far outside any GPU's memory make a count that is no longer a number */
    if (!isfinite(out->flops) || out->flops < 0)
        out->flops = 0;
    out->bytes = isfinite(bytes) && bytes > 0 ? bytes : 0;
    return f->kind;
}
