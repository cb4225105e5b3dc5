/* PyTorch's NVTX operator ranges (torch.autograd.profiler.emit_nvtx): each operator call is an NVTX
 * range named by getNvtxStr (torch/csrc/profiler/util.cpp)
 *
 *     NAME[, seq = N][, op_id = M][, sizes = [[...], ...]][, input_op_ids = [...]]
 *
 * e.g. "aten::_to_copy, seq = 1404, op_id = 29969" or
 * "aten::conv2d, seq = 3, op_id = 12, sizes = [[32, 3, 224, 224], [64, 3, 7, 7], [], ...]".
 * The sequence number links a forward operator to the backward ops autograd runs for it; op_id
 * numbers calls. Split, a trace groups these calls by NAME (and shapes) as key_averages does. */
#ifndef GS_INGEST_NVTX_OP_NAME_H
#define GS_INGEST_NVTX_OP_NAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gs_nvtx_op {
    size_t name_len;   /* the operator's name is text[0..name_len) */
    bool has_seq;
    int64_t seq;
    int64_t op_id;     /* 0 when absent */
    const char *sizes; /* "[[32, 3, 224, 224], []]" inside text, NULL when absent */
    size_t sizes_len;
} gs_nvtx_op;

/* Whether text[0..len) is such a name: a non-empty NAME followed by a sequence number or an op id
 * (which every call emit_nvtx names carries), then only the fields above, in that order, to the
 * end. A plain user range ("forward", "step, 3") is not one. */
bool gs_nvtx_op_parse(const char *text, size_t len, gs_nvtx_op *out);

#endif
