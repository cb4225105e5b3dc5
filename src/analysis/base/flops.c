/* The formulas follow PyTorch's torch/utils/flop_counter.py (doc/flops.md): a multiply-add is two
 * FLOPs, bias additions are not counted, a backward is counted by the operators that compute it.
 * The recorded inputs are compact JSON written by the trace reader: `Input Dims` a list with one
 * shape per argument ([] for a scalar), `Input type` and `Concrete Inputs` lists of strings. */
#include "analysis/base/flops.h"
#include "common/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DIMS = 8 };

typedef struct shape {
    int n; /* dimensions; -1 when the argument is not a plain tensor shape */
    double d[MAX_DIMS];
} shape;

/* ---- reading the recorded lists --------------------------------------------------------- */

/* The text of the idx-th element of a top-level JSON list: *at and *len; false when absent. */
static bool list_item(const char *s, int idx, const char **at, size_t *len)
{
    if (!s)
        return false;
    while (*s && *s != '[')
        s++;
    if (!*s)
        return false;
    s++;
    for (int i = 0;; i++) {
        while (*s == ' ' || *s == ',')
            s++;
        if (!*s || *s == ']')
            return false;
        const char *start = s;
        int depth = 0;
        bool quoted = false;
        for (; *s; s++) {
            if (quoted) {
                if (*s == '\\' && s[1])
                    s++;
                else if (*s == '"')
                    quoted = false;
            } else if (*s == '"') {
                quoted = true;
            } else if (*s == '[' || *s == '{') {
                depth++;
            } else if (*s == ']' || *s == '}') {
                if (depth == 0)
                    break;
                depth--;
            } else if (*s == ',' && depth == 0) {
                break;
            }
        }
        if (i == idx) {
            *at = start;
            *len = (size_t)(s - start);
            while (*len && start[*len - 1] == ' ')
                (*len)--;
            return true;
        }
    }
}

/* A list of numbers ("[4096, 768]", or the string "[1, 1]" of a Concrete Inputs entry) into
 * v; the count, or -1 when it is not one. */
static int read_numbers(const char *at, size_t len, double *v, int cap)
{
    const char *end = at + len;
    if (at < end && *at == '"')
        at++;
    if (at >= end || *at != '[')
        return -1;
    at++;
    int n = 0;
    for (;;) {
        while (at < end && (*at == ' ' || *at == ','))
            at++;
        if (at < end && *at == ']')
            return n;
        if (at >= end || n == cap || !(isdigit((unsigned char)*at) || *at == '-'))
            return -1;
        char *stop;
        v[n++] = strtod(at, &stop);
        if (stop == at || stop > end)
            return -1;
        at = stop;
    }
}

static shape arg_shape(const char *dims, int idx)
{
    shape sh = {.n = -1};
    const char *at;
    size_t len;
    if (list_item(dims, idx, &at, &len))
        sh.n = read_numbers(at, len, sh.d, MAX_DIMS);
    return sh;
}

/* A Concrete Inputs entry as a list of ints ("[2, 2]"); a single number fills every slot. */
static int arg_ints(const char *concrete, int idx, double *v, int cap)
{
    const char *at;
    size_t len;
    if (!list_item(concrete, idx, &at, &len))
        return -1;
    int n = read_numbers(at, len, v, cap);
    if (n >= 0)
        return n;
    if (len >= 2 && at[0] == '"' && (isdigit((unsigned char)at[1]))) {
        v[0] = strtod(at + 1, NULL);
        return 1;
    }
    return -1;
}

/* Whether a Concrete Inputs entry is "True". */
static bool arg_true(const char *concrete, int idx)
{
    const char *at;
    size_t len;
    return list_item(concrete, idx, &at, &len) && len == 6 && !memcmp(at, "\"True\"", 6);
}

static bool arg_is(const char *concrete, int idx, const char *word)
{
    const char *at;
    size_t len, n = strlen(word);
    return list_item(concrete, idx, &at, &len) && len == n + 2 && !memcmp(at + 1, word, n);
}

enum gs_dtype gs_dtype_of_type_name(const char *type, size_t len)
{
    static const struct {
        const char *name;
        enum gs_dtype dtype;
    } names[] = {
        {"float", GS_DTYPE_FP32},           {"double", GS_DTYPE_FP64},
        {"c10::Half", GS_DTYPE_FP16},       {"c10::BFloat16", GS_DTYPE_BF16},
        {"c10::Float8_e4m3fn", GS_DTYPE_FP8}, {"c10::Float8_e5m2", GS_DTYPE_FP8},
        {"c10::Float8_e4m3fnuz", GS_DTYPE_FP8}, {"c10::Float8_e5m2fnuz", GS_DTYPE_FP8},
        {"signed char", GS_DTYPE_INT8},     {"Half", GS_DTYPE_FP16},
        {"BFloat16", GS_DTYPE_BF16},        {"Float", GS_DTYPE_FP32},
    };
    for (size_t i = 0; i < COUNT_OF(names); i++)
        if (strlen(names[i].name) == len && !memcmp(names[i].name, type, len))
            return names[i].dtype;
    return GS_DTYPE_UNKNOWN;
}

static enum gs_dtype arg_dtype(const char *types, int idx)
{
    const char *at;
    size_t len;
    if (!list_item(types, idx, &at, &len) || len < 2 || at[0] != '"')
        return GS_DTYPE_UNKNOWN;
    return gs_dtype_of_type_name(at + 1, len - 2);
}

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
static double matmul_flops(shape a, shape b)
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
static double linear_flops(shape x, shape w)
{
    if (x.n < 1 || w.n != 2 || x.d[x.n - 1] != w.d[1])
        return 0;
    return 2 * prod(x.d, x.n - 1) * w.d[0] * w.d[1];
}

/* flop_counter.py's conv_flop_count: 2 * N * Cout * (Cin / groups) * prod(kernel) * prod(out
 * spatial), the spatial size being the input's for a transposed convolution. The weight is
 * [Cout, Cin/groups, k...] ([Cin, Cout/groups, k...] when transposed): the product is the same. */
static double conv_flops(shape x, shape w, const double *spatial, int nspatial)
{
    if (x.n < 3 || w.n != x.n || nspatial != x.n - 2)
        return 0;
    return 2 * x.d[0] * w.d[0] * w.d[1] * prod(w.d + 2, w.n - 2) * prod(spatial, nspatial);
}

/* The output's spatial size of a forward convolution from its stride, padding and dilation
 * (Concrete Inputs at the given indices): out = (in + 2 pad - dil (k - 1) - 1) / stride + 1,
 * as torch.nn.Conv2d's documentation gives it. false when they were not recorded. */
static bool conv_out_spatial(shape x, shape w, const char *concrete, int i_stride, int i_pad,
                             int i_dil, double *out)
{
    int ns = x.n - 2;
    double stride[MAX_DIMS], pad[MAX_DIMS], dil[MAX_DIMS];
    int n_s = arg_ints(concrete, i_stride, stride, MAX_DIMS);
    int n_d = arg_ints(concrete, i_dil, dil, MAX_DIMS);
    bool same = arg_is(concrete, i_pad, "same"), valid = arg_is(concrete, i_pad, "valid");
    int n_p = same || valid ? ns : arg_ints(concrete, i_pad, pad, MAX_DIMS);
    if (ns < 1 || n_s < 1 || n_p < 1 || n_d < 1)
        return false;
    for (int i = 0; i < ns; i++) {
        double s = stride[n_s == 1 ? 0 : i < n_s ? i : n_s - 1];
        double p = valid ? 0 : same ? 0 : pad[n_p == 1 ? 0 : i < n_p ? i : n_p - 1];
        double d = dil[n_d == 1 ? 0 : i < n_d ? i : n_d - 1];
        if (s <= 0)
            return false;
        double in = x.d[2 + i], k = w.d[2 + i];
        out[i] = same ? (in + s - 1) / s : (double)(long long)((in + 2 * p - d * (k - 1) - 1) / s) + 1;
        if (out[i] <= 0)
            return false;
    }
    return true;
}

/* flop_counter.py's sdpa_flop_count: Q K^T then the scores times V, per batch and head:
 * 2 B H Sq Skv (Dqk + Dv). Its backward (sdpa_backward_flop_count) recomputes the scores and
 * runs four more products: 2 B H Sq Skv (3 Dqk + 2 Dv), 2.5 times the forward when Dqk = Dv.
 * bshd: the shapes are [B, S, H, D] (the _flash/_efficient_attention_* kernels), else
 * [B, H, S, D]. */
static double attention_flops(shape q, shape k, shape v, bool backward, bool bshd)
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
    shape x = arg_shape(dims, f->a), w = arg_shape(dims, f->b);
    if (x.n < 3 || w.n != x.n)
        return 0;
    double spatial[MAX_DIMS];
    int ns = x.n - 2;
    bool transposed = f->form == F_CONV_T || (f->transp >= 0 && arg_true(concrete, f->transp));
    if (f->form == F_CONV_BWD || f->form == F_CUDNN_CONV_BWD) {
        /* grad input and grad weight, each as many FLOPs as the forward (flop_counter.py's
         * conv_backward_flop with both outputs asked for, as training does) */
        shape out = arg_shape(dims, f->form == F_CONV_BWD ? 0 : 1);
        if (out.n != x.n)
            return 0;
        memcpy(spatial, (transposed ? x : out).d + 2, (size_t)ns * sizeof *spatial);
        return 2 * conv_flops(x, w, spatial, ns);
    }
    if (f->form == F_CUDNN_CONV_BWD_INPUT || f->form == F_CUDNN_CONV_BWD_WEIGHT) {
        /* one gradient, as many FLOPs as the forward, whose output is grad_output (x here). The
         * weight's gradient needs the weight's size, an int list only Concrete Inputs records
         * (argument 0); without it the operator is not counted. */
        shape g = x;
        if (f->form == F_CUDNN_CONV_BWD_WEIGHT) {
            w.n = arg_ints(concrete, 0, w.d, MAX_DIMS);
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

enum gs_flop_kind gs_op_flops_compute(const char *name, const char *dims, const char *types,
                                      const char *concrete, gs_op_flops *out)
{
    memset(out, 0, sizeof *out);
    const struct op_form *f = form_of(name);
    if (!f)
        return GS_FLOP_NONE;
    out->kind = f->kind;
    out->dtype = arg_dtype(types, f->a);
    if (out->dtype == GS_DTYPE_UNKNOWN)
        out->dtype = arg_dtype(types, f->b);
    shape a = arg_shape(dims, f->a), b = arg_shape(dims, f->b);
    switch (f->form) {
    case F_MATMUL: out->flops = matmul_flops(a, b); break;
    case F_LINEAR: out->flops = linear_flops(a, b); break;
    case F_CONV:
    case F_CONV_T:
    case F_CONV_BWD:
    case F_CUDNN_CONV_BWD:
    case F_CUDNN_CONV_BWD_INPUT:
    case F_CUDNN_CONV_BWD_WEIGHT: out->flops = conv_form_flops(f, dims, concrete); break;
    case F_SDPA:
    case F_SDPA_BWD:
    case F_KERNEL_ATTN:
    case F_KERNEL_ATTN_BWD: {
        bool bwd = f->form == F_SDPA_BWD || f->form == F_KERNEL_ATTN_BWD;
        bool bshd = f->form == F_KERNEL_ATTN || f->form == F_KERNEL_ATTN_BWD;
        out->flops = attention_flops(a, b, arg_shape(dims, f->b + 1), bwd, bshd);
        break;
    }
    }
    return f->kind;
}

const char *gs_dtype_name(enum gs_dtype d)
{
    static const char *const names[GS_DTYPE__COUNT] = {
        [GS_DTYPE_UNKNOWN] = "unknown", [GS_DTYPE_FP64] = "fp64", [GS_DTYPE_FP32] = "fp32",
        [GS_DTYPE_TF32] = "tf32",       [GS_DTYPE_FP16] = "fp16", [GS_DTYPE_BF16] = "bf16",
        [GS_DTYPE_FP8] = "fp8",         [GS_DTYPE_INT8] = "int8",
    };
    return (unsigned)d < GS_DTYPE__COUNT ? names[d] : "unknown";
}
