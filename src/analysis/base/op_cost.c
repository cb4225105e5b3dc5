/* One table of classes: the matrix operators' FLOPs and bytes come from flops.c's formulas, the
 * others' from op_cost_vector.c. */
#include "analysis/base/op_cost.h"

#include "analysis/base/flops.h"
#include "analysis/base/op_cost_vector.h"

static enum gs_op_class matrix_class(enum gs_flop_kind k)
{
    static const enum gs_op_class of[GS_FLOP__COUNT] = {
        [GS_FLOP_NONE] = GS_OPC_NONE,
        [GS_FLOP_GEMM] = GS_OPC_GEMM,
        [GS_FLOP_CONV] = GS_OPC_CONV,
        [GS_FLOP_ATTENTION] = GS_OPC_ATTENTION,
    };
    return (unsigned)k < GS_FLOP__COUNT ? of[k] : GS_OPC_NONE;
}

enum gs_op_class gs_op_cost_compute(const char *name, const char *input_dims,
                                    const char *input_types, const char *concrete,
                                    gs_op_cost *out)
{
    gs_op_flops f;
    enum gs_op_class c =
        matrix_class(gs_op_flops_compute(name, input_dims, input_types, concrete, &f));
    if (c == GS_OPC_NONE)
        return gs_vector_op_cost(name, input_dims, input_types, concrete, out);
    *out = (gs_op_cost){.cls = c, .flops = f.flops, .bytes = f.bytes, .dtype = f.dtype};
    return c;
}

bool gs_op_class_is_matrix(enum gs_op_class c)
{
    return c == GS_OPC_GEMM || c == GS_OPC_CONV || c == GS_OPC_ATTENTION;
}

const char *gs_op_class_name(enum gs_op_class c)
{
    static const char *const names[GS_OPC__COUNT] = {
        [GS_OPC_NONE] = "none",           [GS_OPC_GEMM] = "gemm",
        [GS_OPC_CONV] = "conv",           [GS_OPC_ATTENTION] = "attention",
        [GS_OPC_ELEMENTWISE] = "elementwise", [GS_OPC_REDUCTION] = "reduction",
        [GS_OPC_NORM] = "norm",           [GS_OPC_SOFTMAX] = "softmax",
        [GS_OPC_EMBEDDING] = "embedding", [GS_OPC_COPY] = "copy",
    };
    return (unsigned)c < GS_OPC__COUNT ? names[c] : "none";
}
