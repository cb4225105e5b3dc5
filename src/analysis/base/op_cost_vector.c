/* The traffic model of the operators that are not matrix work (doc/roofline.md, "vector
 * operators"): one row per aten:: operator naming its model and which recorded arguments are its
 * tensors. Each tensor input is read once and each output written once, in its own element type;
 * a Scalar argument moves nothing (it travels in the kernel's arguments). FLOPs are counted as
 * AMD-AGI/TraceLens's PerfModel/perf_model.py counts them, so that the two can be compared: one
 * per output element for elementwise work, one per input element for a reduction, three per
 * element for a softmax, none for a copy. Normalisations are in op_cost_norm.c. */
#include "analysis/base/op_cost_vector.h"

#include <math.h>
#include <string.h>

#include "common/util.h"

enum model {
    M_ELEMENTWISE,   /* tensors broadcast into one output */
    M_FILL,          /* writes its first argument, reads nothing */
    M_DROPOUT,       /* elementwise with a second output: the bool mask */
    M_REDUCE,        /* the dims of Concrete Inputs[dim] reduced */
    M_SOFTMAX,       /* _softmax(self, dim, half_to_float) */
    M_SOFTMAX_BWD,   /* _softmax_backward_data(grad_output, output, dim, input_dtype) */
    M_EMBEDDING,     /* embedding(weight, indices, ...): rows gathered */
    M_INDEX_SELECT,  /* index_select(self, dim, index): rows gathered */
    M_EMBEDDING_BWD, /* embedding_dense_backward(grad_output, indices, num_weights, ...) */
    M_COPY,          /* copy_(self, src): src read, self written, each in its type */
};

/* The output's element type. */
enum out_type {
    OUT_PROMOTE, /* the widest tensor operand's, from arg `first` on (PyTorch's type promotion) */
    OUT_FIRST,   /* the type of arg `first` (an activation's gradient: the gradient's) */
    OUT_BOOL,    /* comparisons, predicates, all and any */
    OUT_INT64,   /* argmax, argmin: indices */
    OUT_INDEXED, /* max, min: values, and int64 indices when a dim is given */
};

typedef struct vector_op {
    const char *name; /* without its "aten::" */
    enum gs_op_class cls;
    enum model model;
    signed char tensors; /* elementwise: arguments 0..tensors-1 may be tensors */
    signed char first;   /* the first value argument (where: 1, after its condition) */
    enum out_type out;
    signed char dim_arg; /* reductions: the Concrete Inputs entry of the reduced dims */
} vector_op;

#define UNARY(n) {n, GS_OPC_ELEMENTWISE, M_ELEMENTWISE, 1, 0, OUT_PROMOTE, -1}
#define BINARY(n) {n, GS_OPC_ELEMENTWISE, M_ELEMENTWISE, 2, 0, OUT_PROMOTE, -1}
#define TERNARY(n) {n, GS_OPC_ELEMENTWISE, M_ELEMENTWISE, 3, 0, OUT_PROMOTE, -1}
#define GRADIENT(n) {n, GS_OPC_ELEMENTWISE, M_ELEMENTWISE, 2, 0, OUT_FIRST, -1}
#define COMPARE(n) {n, GS_OPC_ELEMENTWISE, M_ELEMENTWISE, 2, 0, OUT_BOOL, -1}
#define PREDICATE(n) {n, GS_OPC_ELEMENTWISE, M_ELEMENTWISE, 1, 0, OUT_BOOL, -1}
#define REDUCE(n, dim, out) {n, GS_OPC_REDUCTION, M_REDUCE, 1, 0, out, dim}
#define OTHER(n, cls, model) {n, cls, model, 0, 0, OUT_FIRST, -1}

/* The in-place form of each ("relu_", "add_") is found by its name without the "_" and writes
 * its first argument, in that argument's type. */
static const vector_op ops[] = {
    UNARY("relu"), UNARY("gelu"), UNARY("silu"), UNARY("sigmoid"), UNARY("tanh"), UNARY("exp"),
    UNARY("exp2"), UNARY("expm1"), UNARY("log"), UNARY("log1p"), UNARY("log2"), UNARY("neg"),
    UNARY("sqrt"), UNARY("rsqrt"), UNARY("abs"), UNARY("reciprocal"), UNARY("erf"),
    UNARY("sin"), UNARY("cos"), UNARY("sign"), UNARY("floor"), UNARY("ceil"), UNARY("round"),
    UNARY("trunc"), UNARY("hardtanh"), UNARY("leaky_relu"), UNARY("elu"), UNARY("softplus"),
    UNARY("mish"), UNARY("hardswish"), UNARY("hardsigmoid"), UNARY("nan_to_num"),
    UNARY("bitwise_not"),
    /* clamp(self, min, max): min and max are Scalars, or tensors (clamp.Tensor) read once */
    TERNARY("clamp"), BINARY("clamp_min"), BINARY("clamp_max"),
    BINARY("add"), BINARY("sub"), BINARY("rsub"), BINARY("mul"), BINARY("div"),
    BINARY("maximum"), BINARY("minimum"), BINARY("pow"), BINARY("remainder"), BINARY("fmod"),
    BINARY("atan2"), BINARY("floor_divide"), BINARY("bitwise_and"), BINARY("bitwise_or"),
    BINARY("bitwise_xor"), TERNARY("addcmul"), TERNARY("addcdiv"), TERNARY("lerp"),
    /* where(condition, self, other): the condition is read, the values promote */
    {"where", GS_OPC_ELEMENTWISE, M_ELEMENTWISE, 3, 1, OUT_PROMOTE, -1},
    GRADIENT("masked_fill"),
    COMPARE("eq"), COMPARE("ne"), COMPARE("lt"), COMPARE("le"), COMPARE("gt"), COMPARE("ge"),
    COMPARE("logical_and"), COMPARE("logical_or"), COMPARE("logical_xor"),
    PREDICATE("logical_not"), PREDICATE("isnan"), PREDICATE("isinf"), PREDICATE("isfinite"),
    GRADIENT("gelu_backward"), GRADIENT("silu_backward"), GRADIENT("threshold_backward"),
    GRADIENT("sigmoid_backward"), GRADIENT("tanh_backward"), GRADIENT("native_dropout_backward"),
    GRADIENT("hardtanh_backward"), GRADIENT("leaky_relu_backward"),
    {"native_dropout", GS_OPC_ELEMENTWISE, M_DROPOUT, 1, 0, OUT_FIRST, -1},
    OTHER("fill", GS_OPC_COPY, M_FILL), OTHER("zero", GS_OPC_COPY, M_FILL),
    OTHER("copy", GS_OPC_COPY, M_COPY),
    /* the reduced dims: argument 1 (sum.dim_IntList, mean.dim, amax, max.dim, var.correction,
     * argmax), or 2 after the order of a norm (linalg_vector_norm, norm.ScalarOpt_dim) */
    REDUCE("sum", 1, OUT_FIRST), REDUCE("mean", 1, OUT_FIRST), REDUCE("prod", 1, OUT_FIRST),
    REDUCE("amax", 1, OUT_FIRST), REDUCE("amin", 1, OUT_FIRST), REDUCE("logsumexp", 1, OUT_FIRST),
    REDUCE("var", 1, OUT_FIRST), REDUCE("std", 1, OUT_FIRST), REDUCE("max", 1, OUT_INDEXED),
    REDUCE("min", 1, OUT_INDEXED), REDUCE("argmax", 1, OUT_INT64), REDUCE("argmin", 1, OUT_INT64),
    REDUCE("all", 1, OUT_BOOL), REDUCE("any", 1, OUT_BOOL),
    REDUCE("linalg_vector_norm", 2, OUT_FIRST), REDUCE("norm", 2, OUT_FIRST),
    OTHER("_softmax", GS_OPC_SOFTMAX, M_SOFTMAX), OTHER("_log_softmax", GS_OPC_SOFTMAX, M_SOFTMAX),
    OTHER("_softmax_backward_data", GS_OPC_SOFTMAX, M_SOFTMAX_BWD),
    OTHER("_log_softmax_backward_data", GS_OPC_SOFTMAX, M_SOFTMAX_BWD),
    OTHER("embedding", GS_OPC_EMBEDDING, M_EMBEDDING),
    OTHER("index_select", GS_OPC_EMBEDDING, M_INDEX_SELECT),
    OTHER("embedding_dense_backward", GS_OPC_EMBEDDING, M_EMBEDDING_BWD),
};

/* The row of an aten:: name, and whether the call is the in-place form of it. */
static const vector_op *find_op(const char *name, bool *in_place)
{
    *in_place = false;
    if (!name || !gs_starts_with(name, "aten::"))
        return NULL;
    const char *base = name + strlen("aten::");
    size_t len = strlen(base);
    for (size_t i = 0; i < COUNT_OF(ops); i++)
        if (!strcmp(ops[i].name, base))
            return &ops[i];
    if (len < 2 || base[len - 1] != '_')
        return NULL;
    for (size_t i = 0; i < COUNT_OF(ops); i++)
        if (strlen(ops[i].name) == len - 1 && !memcmp(ops[i].name, base, len - 1)) {
            *in_place = true;
            return &ops[i];
        }
    return NULL;
}

enum gs_op_class gs_vector_op_class(const char *name)
{
    bool in_place;
    const vector_op *op = find_op(name, &in_place);
    if (op)
        return op->cls;
    return gs_norm_op_class(name);
}

static double bytes_of(double n, enum gs_dtype t)
{
    return n * gs_dtype_bytes(t);
}

/* PyTorch's promotion order: a floating type beats an integer one, which beats bool; within a
 * kind the wider wins. */
static int promotion_rank(enum gs_dtype t)
{
    static const int rank[GS_DTYPE__COUNT] = {
        [GS_DTYPE_BOOL] = 1,   [GS_DTYPE_INT8] = 2,   [GS_DTYPE_INT32] = 3,
        [GS_DTYPE_INT64] = 4,  [GS_DTYPE_FP8] = 5,    [GS_DTYPE_FP16] = 6,
        [GS_DTYPE_BF16] = 6,   [GS_DTYPE_FP32] = 7,   [GS_DTYPE_TF32] = 7,
        [GS_DTYPE_FP64] = 8,
    };
    return (unsigned)t < GS_DTYPE__COUNT ? rank[t] : 0;
}

/* Broadcasts b into *o (shapes aligned on their last dimension). */
static void broadcast(gs_op_shape *o, gs_op_shape b)
{
    int n = o->n > b.n ? o->n : b.n;
    gs_op_shape r = {.n = n};
    for (int i = 0; i < n; i++) {
        int io = o->n - n + i, ib = b.n - n + i;
        double x = io >= 0 ? o->d[io] : 1, y = ib >= 0 ? b.d[ib] : 1;
        r.d[i] = x == 1 ? y : x;
    }
    *o = r;
}

/* The output's type: dimensioned tensors promote first; 0-dim tensors (a Python number wrapped)
 * only when no dimensioned one is there, as PyTorch's result_type rules. */
static enum gs_dtype promoted(const gs_op_tensor *a, int from, int n)
{
    enum gs_dtype dimensioned = GS_DTYPE_UNKNOWN, zero_dim = GS_DTYPE_UNKNOWN;
    for (int i = from; i < n; i++) {
        if (!a[i].known)
            continue;
        enum gs_dtype *t = a[i].shape.n > 0 ? &dimensioned : &zero_dim;
        if (promotion_rank(a[i].dtype) > promotion_rank(*t))
            *t = a[i].dtype;
    }
    return dimensioned != GS_DTYPE_UNKNOWN ? dimensioned : zero_dim;
}

static void elementwise(const vector_op *op, bool in_place, const char *dims, const char *types,
                        gs_op_cost *out)
{
    gs_op_tensor a[3];
    gs_op_shape o = {.n = 0};
    double read = 0;
    bool any = false;
    for (int i = 0; i < op->tensors; i++) {
        a[i] = gs_op_arg_tensor(dims, types, i);
        /* a shape with dimensions but no tensor type: the types were not recorded */
        if (a[i].shape.n > 0 && !a[i].known)
            read = -1;
        if (!a[i].known)
            continue;
        any = true;
        broadcast(&o, a[i].shape);
        if (read >= 0)
            read += a[i].bytes;
    }
    if (!any)
        return;
    enum gs_dtype t = in_place                 ? a[0].dtype
                      : op->out == OUT_PROMOTE ? promoted(a, op->first, op->tensors)
                      : op->out == OUT_BOOL    ? GS_DTYPE_BOOL
                                               : a[op->first].dtype;
    double n = gs_op_shape_numel(o);
    out->flops = n;
    out->dtype = a[op->first].known ? a[op->first].dtype : t; /* pow(2, x): the exponent's */
    double written = bytes_of(n, t);
    if (op->model == M_DROPOUT)
        written += bytes_of(n, GS_DTYPE_BOOL);
    out->bytes = read < 0 || t == GS_DTYPE_UNKNOWN ? 0 : read + written;
}

/* A recorded dim (-1: the last) as an index into n dimensions; -1 when out of range. */
static int dim_index(double dim, int n)
{
    if (!(dim >= -n && dim < n) || dim != floor(dim)) /* -0.1 is no dim */
        return -1;
    return dim < 0 ? (int)dim + n : (int)dim;
}

/* Elements left after reducing the dims named by Concrete Inputs[dim_arg] ("[-1]", "1"); keepdim
 * leaves ones in their place, the same count. No dims (None, "[]", not recorded): all of them. */
static double reduced_numel(gs_op_shape in, const char *concrete, int dim_arg, bool *has_dim)
{
    double dim[GS_OP_MAX_DIMS];
    int nd = gs_op_arg_ints(concrete, dim_arg, dim, GS_OP_MAX_DIMS);
    *has_dim = nd > 0;
    bool reduced[GS_OP_MAX_DIMS] = {0};
    for (int i = 0; i < nd; i++) {
        int d = dim_index(dim[i], in.n);
        if (d >= 0)
            reduced[d] = true;
    }
    double n = 1;
    for (int i = 0; i < in.n && nd > 0; i++)
        n *= reduced[i] ? 1 : in.d[i];
    return n;
}

static void reduction(const vector_op *op, const char *dims, const char *types,
                      const char *concrete, gs_op_cost *out)
{
    gs_op_tensor in = gs_op_arg_tensor(dims, types, 0);
    if (in.shape.n < 0)
        return;
    bool has_dim;
    double n_out = reduced_numel(in.shape, concrete, op->dim_arg, &has_dim);
    out->flops = gs_op_shape_numel(in.shape);
    out->dtype = in.dtype;
    enum gs_dtype t = op->out == OUT_INT64 ? GS_DTYPE_INT64
                      : op->out == OUT_BOOL ? GS_DTYPE_BOOL
                                            : in.dtype;
    double written = bytes_of(n_out, t);
    if (op->out == OUT_INDEXED && has_dim)
        written += bytes_of(n_out, GS_DTYPE_INT64);
    out->bytes = in.known ? in.bytes + written : 0;
}

/* A ScalarType recorded as its number (c10/core/ScalarType.h's order). */
static enum gs_dtype scalar_type(const char *concrete, int idx, enum gs_dtype otherwise)
{
    static const enum gs_dtype code[] = {
        [0] = GS_DTYPE_BOOL,  [1] = GS_DTYPE_INT8,  [3] = GS_DTYPE_INT32, [4] = GS_DTYPE_INT64,
        [5] = GS_DTYPE_FP16,  [6] = GS_DTYPE_FP32,  [7] = GS_DTYPE_FP64,  [11] = GS_DTYPE_BOOL,
        [15] = GS_DTYPE_BF16,
    };
    double v;
    if (gs_op_arg_ints(concrete, idx, &v, 1) != 1 || v < 0 || v >= (double)COUNT_OF(code) ||
        code[(int)v] == GS_DTYPE_UNKNOWN)
        return otherwise;
    return code[(int)v];
}

/* Softmax: perf_model.py's Softmax counts 3 FLOPs per element forward (max, exp-sum, divide) and
 * twice that backward. */
static void softmax(const vector_op *op, const char *dims, const char *types,
                    const char *concrete, gs_op_cost *out)
{
    gs_op_tensor x = gs_op_arg_tensor(dims, types, 0);
    if (!x.known)
        return;
    out->dtype = x.dtype;
    if (op->model == M_SOFTMAX) {
        enum gs_dtype t = gs_op_arg_is(concrete, 2, "True") ? GS_DTYPE_FP32 : x.dtype;
        out->flops = 3 * x.numel;
        out->bytes = x.bytes + bytes_of(x.numel, t);
        return;
    }
    gs_op_tensor y = gs_op_arg_tensor(dims, types, 1);
    enum gs_dtype t = scalar_type(concrete, 3, x.dtype);
    out->flops = 6 * x.numel;
    out->bytes = y.known ? x.bytes + y.bytes +
                                bytes_of(x.numel, t)
                          : 0;
}

/* Table lookups move the indices and the rows they gather, read once and written once; they
 * compute nothing. The gradient adds each row of grad_output into its row of the table (one FLOP
 * per element), written whole. */
static void embedding(const vector_op *op, const char *dims, const char *types,
                      const char *concrete, gs_op_cost *out)
{
    bool select = op->model == M_INDEX_SELECT;
    gs_op_tensor table = gs_op_arg_tensor(dims, types, 0);
    gs_op_tensor idx = gs_op_arg_tensor(dims, types, select ? 2 : 1);
    if (!table.known || !idx.known || table.shape.n < 1)
        return;
    out->dtype = table.dtype;
    double index_bytes = idx.bytes;
    if (op->model == M_EMBEDDING_BWD) {
        double rows;
        if (gs_op_arg_ints(concrete, 2, &rows, 1) != 1)
            return;
        /* argument 0 is grad_output here: one row of the table's width per index */
        double width = table.shape.d[table.shape.n - 1];
        out->flops = table.numel;
        out->bytes = table.bytes + index_bytes +
                     bytes_of(rows * width, table.dtype);
        return;
    }
    double dim = 0;
    if (select && gs_op_arg_ints(concrete, 1, &dim, 1) != 1)
        return;
    int d = dim_index(dim, table.shape.n);
    if (d < 0 || table.shape.d[d] <= 0)
        return;
    double gathered = table.numel / table.shape.d[d] * idx.numel;
    out->bytes = index_bytes + 2 * bytes_of(gathered, table.dtype);
}

static void cost_of(const vector_op *op, bool in_place, const char *input_dims,
                    const char *input_types, const char *concrete, gs_op_cost *out)
{
    gs_op_tensor self = gs_op_arg_tensor(input_dims, input_types, 0);
    switch (op->model) {
    case M_ELEMENTWISE:
    case M_DROPOUT:
        elementwise(op, in_place, input_dims, input_types, out);
        break;
    case M_FILL:
        out->dtype = self.dtype;
        out->bytes = self.known ? self.bytes : 0;
        break;
    case M_COPY: {
        gs_op_tensor src = gs_op_arg_tensor(input_dims, input_types, 1);
        out->dtype = self.dtype;
        out->bytes = self.known && src.known
                         ? self.bytes + src.bytes
                         : 0;
        break;
    }
    case M_REDUCE:
        /* max(self, other), min(self, other): elementwise between two tensors */
        if (op->out == OUT_INDEXED && gs_op_arg_tensor(input_dims, input_types, 1).known)
            elementwise(&(vector_op){op->name, op->cls, M_ELEMENTWISE, 2, 0, OUT_PROMOTE, -1},
                        in_place, input_dims, input_types, out);
        else
            reduction(op, input_dims, input_types, concrete, out);
        break;
    case M_SOFTMAX:
    case M_SOFTMAX_BWD:
        softmax(op, input_dims, input_types, concrete, out);
        break;
    case M_EMBEDDING:
    case M_INDEX_SELECT:
    case M_EMBEDDING_BWD:
        embedding(op, input_dims, input_types, concrete, out);
        break;
    }
}

enum gs_op_class gs_vector_op_cost(const char *name, const char *input_dims,
                                   const char *input_types, const char *concrete,
                                   gs_op_cost *out)
{
    memset(out, 0, sizeof *out);
    bool in_place;
    const vector_op *op = find_op(name, &in_place);
    if (!op)
        gs_norm_op_cost(name, input_dims, input_types, concrete, out);
    else {
        out->cls = op->cls;
        cost_of(op, in_place, input_dims, input_types, concrete, out);
    }
    /* shapes no tensor has (1e300 x 1e300 elements, negative sizes): unknown, not inf */
    if (!(isfinite(out->flops) && isfinite(out->bytes) && out->flops >= 0 && out->bytes >= 0))
        out->flops = out->bytes = 0;
    return out->cls;
}
