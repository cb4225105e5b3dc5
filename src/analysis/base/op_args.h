/* An operator call's recorded arguments, as torch.profiler writes them with record_shapes=True:
 * `Input Dims` a list with one shape per argument ([] for a scalar), `Input type` and
 * `Concrete Inputs` lists of strings, each stored by the trace reader as compact JSON. The FLOPs
 * (flops.h) and the bytes (op_cost.h) of a call are read through these. */
#ifndef GS_ANALYSIS_OP_ARGS_H
#define GS_ANALYSIS_OP_ARGS_H

#include <stdbool.h>
#include <stddef.h>

enum { GS_OP_MAX_DIMS = 8 };

/* The element types a GPU's peak or a tensor's size depends on. */
enum gs_dtype {
    GS_DTYPE_UNKNOWN,
    GS_DTYPE_FP64,
    GS_DTYPE_FP32,
    GS_DTYPE_TF32, /* never read from a trace: fp32 GEMMs on Tensor Cores (doc/flops.md) */
    GS_DTYPE_FP16,
    GS_DTYPE_BF16,
    GS_DTYPE_FP8,
    GS_DTYPE_INT8,
    GS_DTYPE_INT64, /* indices ("long int"); no peak */
    GS_DTYPE_INT32,
    GS_DTYPE_BOOL,  /* and uint8 */
    GS_DTYPE__COUNT
};

typedef struct gs_op_shape {
    int n; /* dimensions; -1 when the argument is not a plain tensor shape */
    double d[GS_OP_MAX_DIMS];
} gs_op_shape;

/* The idx-th argument's shape; .n = -1 when absent or not a list of numbers. */
gs_op_shape gs_op_arg_shape(const char *dims, int idx);

/* Elements of a shape (1 for a scalar []), 0 when it is not one. */
double gs_op_shape_numel(gs_op_shape s);

/* The idx-th argument as a tensor: its shape and element type as recorded; known when both are
 * (a Scalar, an int list, or any argument of a trace that recorded no types is not). */
typedef struct gs_op_tensor {
    gs_op_shape shape;
    enum gs_dtype dtype;
    bool known;
    double numel, bytes; /* 0 when not known */
} gs_op_tensor;

gs_op_tensor gs_op_arg_tensor(const char *dims, const char *types, int idx);

/* The idx-th argument's element type, GS_DTYPE_UNKNOWN when absent or not a tensor's. */
enum gs_dtype gs_op_arg_dtype(const char *types, int idx);

/* A Concrete Inputs entry as numbers ("[2, 2]", or "2"): their count, -1 when it is not one. */
int gs_op_arg_ints(const char *concrete, int idx, double *v, int cap);

/* Whether a Concrete Inputs entry is the string word ("True", "same"). */
bool gs_op_arg_is(const char *concrete, int idx, const char *word);

/* The k-th word of a Concrete Inputs entry that is a list ("[True, False, True]"): 1 when it is
 * `word`, 0 when it is another, -1 when the entry or its k-th word was not recorded. */
int gs_op_arg_list_word_is(const char *concrete, int idx, int k, const char *word);

/* "Input type" entry -> dtype: "float" fp32, "c10::BFloat16" bf16, "c10::Half" fp16, ... */
enum gs_dtype gs_dtype_of_type_name(const char *type, size_t len);
const char *gs_dtype_name(enum gs_dtype d);

/* Bytes per element (tf32 is stored as fp32: 4); 0 for GS_DTYPE_UNKNOWN. */
double gs_dtype_bytes(enum gs_dtype d);

#endif
