/* The vector operators' traffic model (op_cost_vector.c, op_cost_norm.c) on calls recorded as
 * torch.profiler records them, against counts made by hand: each input read once, each output
 * written once in its own type, a Scalar moving nothing; FLOPs as TraceLens's perf_model.py. */
#include <math.h>

#include "analysis/base/op_cost.h"
#include "analysis/base/op_cost_vector.h"
#include "check.h"

#define NEAR(a, b) (fabs((double)(a) - (double)(b)) <= 1e-9 * fabs((double)(b)) + 1e-9)

static gs_op_cost cost(const char *name, const char *dims, const char *types,
                       const char *concrete)
{
    gs_op_cost c;
    enum gs_op_class cls = gs_op_cost_compute(name, dims, types, concrete, &c);
    CHECK_INT(cls, c.cls);
    return c;
}

#define EXPECT(c, cls_, flops_, bytes_)                                                           \
    do {                                                                                           \
        gs_op_cost got_ = (c);                                                                     \
        CHECK_INT(got_.cls, cls_);                                                                 \
        CHECK(NEAR(got_.flops, flops_));                                                           \
        CHECK(NEAR(got_.bytes, bytes_));                                                           \
    } while (0)

#define BF16 "\"c10::BFloat16\""
#define FP32 "\"float\""
#define FP64 "\"double\""
#define I64 "\"long int\""
#define BOOL "\"bool\""
#define SCALAR "\"Scalar\""
#define LIST "\"ScalarList\""
#define NONE "\"\""

static void test_unary(void)
{
    double n = 16.0 * 559 * 2816;
    EXPECT(cost("aten::silu", "[[16, 559, 2816]]", "[" BF16 "]", "[\"\"]"),
           GS_OPC_ELEMENTWISE, n, 4 * n);
    CHECK_INT(cost("aten::silu", "[[16, 559, 2816]]", "[" BF16 "]", NULL).dtype, GS_DTYPE_BF16);
    /* in place: self read and written */
    EXPECT(cost("aten::relu_", "[[4, 8]]", "[" FP32 "]", NULL), GS_OPC_ELEMENTWISE, 32, 256);
    /* pow(self, 2): the exponent is a Scalar, 0 bytes */
    n = 16.0 * 559 * 1024;
    EXPECT(cost("aten::pow", "[[16, 559, 1024], []]", "[" FP32 ", " SCALAR "]", "[\"\", \"2\"]"),
           GS_OPC_ELEMENTWISE, n, 8 * n);
    /* pow(2, x): a Scalar base, the exponent's type */
    CHECK_INT(cost("aten::pow", "[[], [4]]", "[" SCALAR ", " BF16 "]", NULL).dtype, GS_DTYPE_BF16);
    EXPECT(cost("aten::pow", "[[], [4]]", "[" SCALAR ", " BF16 "]", NULL), GS_OPC_ELEMENTWISE, 4,
           16);
    /* clamp(self, min, max) with Scalars */
    EXPECT(cost("aten::clamp", "[[10], [], []]", "[" BF16 ", " SCALAR ", " SCALAR "]", NULL),
           GS_OPC_ELEMENTWISE, 10, 40);
    /* types not recorded: no bytes */
    EXPECT(cost("aten::neg", "[[4, 8]]", NULL, NULL), GS_OPC_ELEMENTWISE, 0, 0);
}

static void test_binary(void)
{
    /* broadcast: [1, 1, 559, 64] read once, the output is the broadcast shape */
    double n = 16.0 * 16 * 559 * 64, small = 559.0 * 64;
    EXPECT(cost("aten::mul", "[[16, 16, 559, 64], [1, 1, 559, 64]]", "[" BF16 ", " BF16 "]", NULL),
           GS_OPC_ELEMENTWISE, n, 2 * (2 * n + small));
    EXPECT(cost("aten::mul", "[[1024], [16, 559, 1024]]", "[" BF16 ", " BF16 "]", NULL),
           GS_OPC_ELEMENTWISE, 16.0 * 559 * 1024, 2 * (1024 + 2 * 16.0 * 559 * 1024));
    /* alpha is a Scalar; a 0-dim double tensor is read (8 bytes) but does not widen the output */
    EXPECT(cost("aten::add", "[[16, 559, 1], [], []]", "[" FP32 ", " FP64 ", " SCALAR "]",
                "[\"\", \"\", \"1\"]"),
           GS_OPC_ELEMENTWISE, 8944, 8944 * 4 * 2 + 8);
    /* type promotion: bf16 + fp32 writes fp32 */
    EXPECT(cost("aten::add", "[[8, 4], [8, 4], []]", "[" BF16 ", " FP32 ", " SCALAR "]", NULL),
           GS_OPC_ELEMENTWISE, 32, 32 * 2 + 32 * 4 + 32 * 4);
    /* in place keeps self's type: bf16 += fp32 writes bf16 */
    EXPECT(cost("aten::add_", "[[8, 4], [8, 4], []]", "[" BF16 ", " FP32 ", " SCALAR "]", NULL),
           GS_OPC_ELEMENTWISE, 32, 32 * 2 + 32 * 4 + 32 * 2);
    /* comparisons write bool */
    EXPECT(cost("aten::eq", "[[8, 4], [8, 4]]", "[" I64 ", " I64 "]", NULL), GS_OPC_ELEMENTWISE,
           32, 32 * 8 * 2 + 32);
    CHECK_INT(cost("aten::eq", "[[8, 4], [8, 4]]", "[" I64 ", " I64 "]", NULL).dtype,
              GS_DTYPE_INT64);
    /* where(cond, a, b): the condition read as bool, b a 0-dim fp32 that does not widen bf16 */
    EXPECT(cost("aten::where", "[[8, 4], [8, 4], []]", "[" BOOL ", " BF16 ", " FP32 "]", NULL),
           GS_OPC_ELEMENTWISE, 32, 32 + 64 + 4 + 64);
    /* max(a, b) is elementwise, max(a) a reduction */
    EXPECT(cost("aten::max", "[[4, 8], [4, 8]]", "[" BF16 ", " BF16 "]", NULL),
           GS_OPC_REDUCTION, 32, 3 * 64);
}

static void test_gradients_and_dropout(void)
{
    EXPECT(cost("aten::gelu_backward", "[[4, 8], [4, 8], []]", "[" BF16 ", " BF16 ", " SCALAR "]",
                NULL),
           GS_OPC_ELEMENTWISE, 32, 3 * 32 * 2);
    EXPECT(cost("aten::threshold_backward", "[[16, 16], [16, 16], []]",
                "[" FP32 ", " FP32 ", " SCALAR "]", NULL),
           GS_OPC_ELEMENTWISE, 256, 3 * 256 * 4);
    /* dropout writes its output and the bool mask */
    double n = 8.0 * 512 * 768;
    EXPECT(cost("aten::native_dropout", "[[8, 512, 768], [], []]",
                "[" FP32 ", " SCALAR ", " SCALAR "]", "[\"\", \"0.1\", \"True\"]"),
           GS_OPC_ELEMENTWISE, n, 9 * n);
    /* its gradient: grad (bf16) and mask (bool) read, grad_input (bf16) written */
    EXPECT(cost("aten::native_dropout_backward", "[[8, 512, 768], [8, 512, 768], []]",
                "[" BF16 ", " BOOL ", " SCALAR "]", NULL),
           GS_OPC_ELEMENTWISE, n, 5 * n);
    /* fill_ and zero_ write only */
    double big = 4096.0 * 50257;
    EXPECT(cost("aten::fill_", "[[4096, 50257], []]", "[" FP32 ", " SCALAR "]", "[\"\", \"0\"]"),
           GS_OPC_COPY, 0, 4 * big);
    EXPECT(cost("aten::zero_", "[[4096, 50257]]", "[" FP32 "]", NULL), GS_OPC_COPY, 0, 4 * big);
}

static void test_reductions(void)
{
    /* sum over dim 0 of [4096, 768]: 768 outputs, kept dims or not */
    double n = 4096.0 * 768;
    const char *sum_types = "[" BF16 ", " LIST ", " SCALAR ", " NONE "]";
    EXPECT(cost("aten::sum", "[[4096, 768], [], [], []]", sum_types,
                "[\"\", \"[0]\", \"True\", \"\"]"),
           GS_OPC_REDUCTION, n, 2 * n + 768 * 2);
    EXPECT(cost("aten::sum", "[[4096, 768], [], [], []]", sum_types,
                "[\"\", \"[0]\", \"False\", \"\"]"),
           GS_OPC_REDUCTION, n, 2 * n + 768 * 2);
    /* the mean of each row of [16, 559, 1024] */
    n = 16.0 * 559 * 1024;
    EXPECT(cost("aten::mean", "[[16, 559, 1024], [], [], []]",
                "[" FP32 ", " LIST ", " SCALAR ", " NONE "]", "[\"\", \"[-1]\", \"True\", \"\"]"),
           GS_OPC_REDUCTION, n, 4 * n + 8944 * 4);
    /* no dims: one output */
    EXPECT(cost("aten::sum", "[[4, 8], []]", "[" FP32 ", " NONE "]", "[\"\", \"\"]"),
           GS_OPC_REDUCTION, 32, 32 * 4 + 4);
    /* max over dim 1: values and int64 indices; over everything: one value */
    EXPECT(cost("aten::max", "[[4, 8], [], []]", "[" BF16 ", " SCALAR ", " SCALAR "]",
                "[\"\", \"1\", \"False\"]"),
           GS_OPC_REDUCTION, 32, 64 + 4 * 2 + 4 * 8);
    EXPECT(cost("aten::max", "[[4, 8]]", "[" BF16 "]", NULL), GS_OPC_REDUCTION, 32, 66);
    EXPECT(cost("aten::argmax", "[[4, 8], [], []]", "[" FP32 ", " SCALAR ", " SCALAR "]",
                "[\"\", \"1\", \"False\"]"),
           GS_OPC_REDUCTION, 32, 128 + 4 * 8);
    /* the norm's dims come after its order */
    EXPECT(cost("aten::linalg_vector_norm", "[[4, 8], [], [], [], []]",
                "[" FP32 ", " SCALAR ", " LIST ", " SCALAR ", " NONE "]",
                "[\"\", \"2\", \"[1]\", \"False\", \"\"]"),
           GS_OPC_REDUCTION, 32, 128 + 16);
    EXPECT(cost("aten::var", "[[4, 8], [], [], []]",
                "[" FP32 ", " LIST ", " SCALAR ", " SCALAR "]",
                "[\"\", \"[1]\", \"1\", \"True\"]"),
           GS_OPC_REDUCTION, 32, 128 + 16);
    EXPECT(cost("aten::all", "[[16, 559]]", "[" BOOL "]", NULL), GS_OPC_REDUCTION, 8944,
           8944 + 1);
}

static void test_softmax(void)
{
    double n = 4096.0 * 50257;
    EXPECT(cost("aten::_softmax", "[[4096, 50257], [], []]", "[" BF16 ", " SCALAR ", " SCALAR "]",
                "[\"\", \"1\", \"True\"]"),
           GS_OPC_SOFTMAX, 3 * n, 2 * n + 4 * n);
    EXPECT(cost("aten::_log_softmax", "[[4096, 50257], [], []]",
                "[" FP32 ", " SCALAR ", " SCALAR "]", "[\"\", \"1\", \"False\"]"),
           GS_OPC_SOFTMAX, 3 * n, 8 * n);
    /* backward: grad_output and output read, grad_input written in input_dtype (6: float) */
    EXPECT(cost("aten::_log_softmax_backward_data", "[[4096, 50257], [4096, 50257], [], []]",
                "[" FP32 ", " FP32 ", " SCALAR ", " SCALAR "]", "[\"\", \"\", \"1\", \"6\"]"),
           GS_OPC_SOFTMAX, 6 * n, 12 * n);
    /* bf16 gradients of a half_to_float softmax: grad_input in input_dtype 15 (bf16) */
    EXPECT(cost("aten::_softmax_backward_data", "[[64, 128], [64, 128], [], []]",
                "[" FP32 ", " FP32 ", " SCALAR ", " SCALAR "]", "[\"\", \"\", \"1\", \"15\"]"),
           GS_OPC_SOFTMAX, 6 * 8192, 8192 * (4 + 4 + 2));
}

static void test_embedding_and_copy(void)
{
    EXPECT(cost("aten::embedding", "[[50257, 768], [8, 512], [], [], []]",
                "[" FP32 ", " I64 ", " SCALAR ", " SCALAR ", " SCALAR "]", NULL),
           GS_OPC_EMBEDDING, 0, 4096 * 8 + 2 * 4096.0 * 768 * 4);
    EXPECT(cost("aten::index_select", "[[151936, 1024], [], [8944]]",
                "[" BF16 ", " SCALAR ", " I64 "]", "[\"\", \"0\", \"\"]"),
           GS_OPC_EMBEDDING, 0, 8944 * 8 + 2 * 8944.0 * 1024 * 2);
    /* gradient: grad_output and indices read, the whole [512, 768] table written */
    EXPECT(cost("aten::embedding_dense_backward", "[[1, 512, 768], [1, 512], [], [], []]",
                "[" FP32 ", " I64 ", " SCALAR ", " SCALAR ", " SCALAR "]",
                "[\"\", \"\", \"512\", \"-1\", \"False\"]"),
           GS_OPC_EMBEDDING, 512 * 768, 512 * 768 * 4 + 512 * 8 + 512 * 768 * 4);
    /* casts: each side in its own type */
    double n = 16.0 * 559 * 1024;
    EXPECT(cost("aten::copy_", "[[16, 559, 1024], [16, 559, 1024], []]",
                "[" FP32 ", " BF16 ", " SCALAR "]", NULL),
           GS_OPC_COPY, 0, 6 * n);
    EXPECT(cost("aten::copy_", "[[1, 1, 559], [1, 1, 559], []]", "[" FP32 ", " I64 ", " SCALAR "]",
                NULL),
           GS_OPC_COPY, 0, 559 * 12);
}

static void test_norms(void)
{
    /* layer norm of [8, 512, 768] over 768: 4096 rows, mean and rstd fp32 */
    double n = 8.0 * 512 * 768;
    EXPECT(cost("aten::native_layer_norm", "[[8, 512, 768], [], [768], [768], []]",
                "[" FP32 ", " LIST ", " FP32 ", " FP32 ", " SCALAR "]",
                "[\"\", \"[768]\", \"\", \"\", \"1e-05\"]"),
           GS_OPC_NORM, 6 * 768 + 5 * n, 8 * n + 2 * 768 * 4 + 2 * 4096 * 4);
    const char *ln_dims = "[[8, 512, 768], [8, 512, 768], [], [8, 512, 1], [8, 512, 1], [768], "
                          "[768], []]";
    const char *ln_types = "[" FP32 ", " FP32 ", " LIST ", " FP32 ", " FP32 ", " FP32 ", " FP32
                           ", " LIST "]";
    EXPECT(cost("aten::native_layer_norm_backward", ln_dims, ln_types,
                "[\"\", \"\", \"[768]\", \"\", \"\", \"\", \"\", \"[True, True, True]\"]"),
           GS_OPC_NORM, 9 * n, 12 * n + 3 * 768 * 4 + 2 * 4096 * 4);
    EXPECT(cost("aten::native_layer_norm_backward", ln_dims, ln_types,
                "[\"\", \"\", \"[768]\", \"\", \"\", \"\", \"\", \"[True, False, False]\"]"),
           GS_OPC_NORM, 9 * n, 12 * n + 768 * 4 + 2 * 4096 * 4);
    /* batch norm of bf16 [32, 64, 56, 56] with fp32 weights and running statistics */
    n = 32.0 * 64 * 56 * 56;
    const char *bn_dims = "[[32, 64, 56, 56], [64], [64], [64], [64], [], [], []]";
    const char *bn_types = "[" BF16 ", " FP32 ", " FP32 ", " FP32 ", " FP32 ", " SCALAR ", " SCALAR
                           ", " SCALAR "]";
    EXPECT(cost("aten::native_batch_norm", bn_dims, bn_types,
                "[\"\", \"\", \"\", \"\", \"\", \"True\", \"0.1\", \"1e-05\"]"),
           GS_OPC_NORM, 6 * 64 + 5 * n, 4 * n + 64 * 4 * (2 + 2 + 2 + 2));
    EXPECT(cost("aten::native_batch_norm", bn_dims, bn_types,
                "[\"\", \"\", \"\", \"\", \"\", \"False\", \"0.1\", \"1e-05\"]"),
           GS_OPC_NORM, 6 * 64 + 2 * n, 4 * n + 64 * 4 * (2 + 2));
    /* group norm of [2, 32, 16, 16] in 8 groups: 16 rows of statistics */
    EXPECT(cost("aten::native_group_norm", "[[2, 32, 16, 16], [32], [32], [], [], [], [], []]",
                "[" FP32 ", " FP32 ", " FP32 ", " SCALAR ", " SCALAR ", " SCALAR ", " SCALAR
                ", " SCALAR "]",
                "[\"\", \"\", \"\", \"2\", \"32\", \"256\", \"8\", \"1e-05\"]"),
           GS_OPC_NORM, 6 * 32 + 5 * 16384.0, 8 * 16384.0 + 2 * 32 * 4 + 2 * 16 * 4);
    /* RMS norm over 1024 of bf16 [16, 559, 1024]: 8944 rows, one fp32 statistic each */
    n = 16.0 * 559 * 1024;
    EXPECT(cost("aten::_fused_rms_norm", "[[16, 559, 1024], [], [1024], []]",
                "[" BF16 ", " LIST ", " BF16 ", " SCALAR "]", "[\"\", \"[1024]\", \"\", \"\"]"),
           GS_OPC_NORM, 8944.0 * (2 * 1024 + 2) + 2 * n, 4 * n + 1024 * 2 + 8944 * 4);
    EXPECT(cost("aten::_fused_rms_norm_backward",
                "[[16, 559, 1024], [16, 559, 1024], [], [16, 559, 1], [1024], []]",
                "[" BF16 ", " BF16 ", " LIST ", " FP32 ", " BF16 ", " LIST "]",
                "[\"\", \"\", \"[1024]\", \"\", \"\", \"[True, True]\"]"),
           GS_OPC_NORM, 10 * n, 6 * n + 2 * 1024 * 2 + 8944 * 4);
}

static void test_names(void)
{
    CHECK_INT(gs_vector_op_class("aten::relu_"), GS_OPC_ELEMENTWISE);
    CHECK_INT(gs_vector_op_class("aten::native_layer_norm"), GS_OPC_NORM);
    CHECK_INT(gs_vector_op_class("aten::miopen_batch_norm_backward"), GS_OPC_NORM);
    CHECK_INT(gs_vector_op_class("aten::_log_softmax"), GS_OPC_SOFTMAX);
    CHECK_INT(gs_vector_op_class("aten::frobnicate_"), GS_OPC_NONE);
    CHECK_INT(gs_vector_op_class("relu"), GS_OPC_NONE);
    CHECK_INT(gs_vector_op_class(NULL), GS_OPC_NONE);
    gs_op_cost c;
    CHECK_INT(gs_vector_op_cost("aten::frobnicate", "[[4]]", "[" FP32 "]", NULL, &c), GS_OPC_NONE);
    CHECK(c.flops == 0 && c.bytes == 0);
}

int main(void)
{
    test_unary();
    test_binary();
    test_gradients_and_dropout();
    test_reductions();
    test_softmax();
    test_embedding_and_copy();
    test_norms();
    test_names();
    return check_done("test_op_cost_vector");
}
