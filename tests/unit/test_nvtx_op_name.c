/* gs_nvtx_op_parse: the NVTX range names torch.autograd.profiler.emit_nvtx gives operator calls
 * (getNvtxStr in PyTorch's torch/csrc/profiler/util.cpp), as recorded by gpuscope run. */
#include <string.h>

#include "check.h"
#include "ingest/nvtx_op_name.h"

static gs_nvtx_op parsed(const char *s, bool want)
{
    gs_nvtx_op op;
    bool ok = gs_nvtx_op_parse(s, strlen(s), &op);
    CHECK_INT(ok, want);
    return op;
}

static void check_name(const char *s, const gs_nvtx_op *op, const char *want)
{
    CHECK_INT(op->name_len, strlen(want));
    CHECK(strncmp(s, want, op->name_len) == 0);
}

int main(void)
{
    const char *a = "aten::_to_copy, seq = 1404, op_id = 29969";
    gs_nvtx_op op = parsed(a, true);
    check_name(a, &op, "aten::_to_copy");
    CHECK(op.has_seq);
    CHECK_INT(op.seq, 1404);
    CHECK_INT(op.op_id, 29969);
    CHECK(op.sizes == NULL);

    const char *b = "aten::conv2d, seq = 3, op_id = 12, sizes = [[32, 3, 224, 224], [64, 3, 7, 7], "
                    "[], [], [], [], []]";
    op = parsed(b, true);
    check_name(b, &op, "aten::conv2d");
    CHECK_INT(op.seq, 3);
    CHECK_INT(op.op_id, 12);
    CHECK(op.sizes != NULL);
    if (op.sizes) {
        char dims[128] = "";
        memcpy(dims, op.sizes, op.sizes_len < sizeof dims - 1 ? op.sizes_len : sizeof dims - 1);
        CHECK_STR(dims, "[[32, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], []]");
    }

    /* No sequence number (not recorded for autograd): the op id alone. */
    const char *c = "autograd::engine::evaluate_function: ConvolutionBackward0, op_id = 3573";
    op = parsed(c, true);
    check_name(c, &op, "autograd::engine::evaluate_function: ConvolutionBackward0");
    CHECK(!op.has_seq);
    CHECK_INT(op.op_id, 3573);

    /* Backward nodes carry their forward's sequence number. */
    const char *d = "ConvolutionBackward0, seq = 0, op_id = 3574";
    op = parsed(d, true);
    check_name(d, &op, "ConvolutionBackward0");
    CHECK(op.has_seq);
    CHECK_INT(op.seq, 0);

    /* The input edges of the op graph come last. */
    const char *e = "aten::add, seq = 7, op_id = 40, sizes = [[2], [2]], input_op_ids = [(38, 0), "
                    "(39, 0)]";
    op = parsed(e, true);
    check_name(e, &op, "aten::add");
    CHECK_INT(op.sizes_len, strlen("[[2], [2]]"));

    /* Not emit_nvtx names: the user's own ranges stay as they are. */
    parsed("forward", false);
    parsed("ProfilerStep#3", false);
    parsed("step, 3", false);
    parsed(", seq = 3", false);                         /* no name */
    parsed("aten::mm, sizes = [[2, 2]]", false);        /* neither seq nor op_id */
    parsed("aten::mm, seq = x, op_id = 2", false);      /* not a number */
    parsed("aten::mm, seq = 1, op_id = 2, extra", false); /* something after the fields */
    parsed("aten::mm, seq = 1, sizes = [[2, 2]", false); /* an open bracket */
    return check_done("test_nvtx_op_name");
}
