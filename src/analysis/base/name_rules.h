/* What a name says: every classification gpuscope makes from the name of a kernel, an operator or
 * range, a CUDA API call or a collective's argument, in one table of rules (name_rule_table.c) that a
 * reviewer can read top to bottom, each block with its public source.
 *
 * A group is one question asked of a name ("is it a communication kernel?", "which blocking call
 * is it?"). Its value is that of the first rule of the group that matches, else the group's
 * default; a flag group is 1 or 0. A trace context judges every distinct name of a trace once, by
 * the role it has there (gs_names_classify), and analyses read the answers from it. */
#ifndef GS_ANALYSIS_NAME_RULES_H
#define GS_ANALYSIS_NAME_RULES_H

#include <stdint.h>

#include "common/error.h"
#include "model/trace.h"

/* What a CUDA call does, as the start-up phase sums its calls (analysis/trace/startup.h). */
enum gs_startup_class {
    GS_STARTUP_CONTEXT,  /* cuInit, context creation, cudaSetDevice */
    GS_STARTUP_MODULES,  /* module and library loading, function lookup */
    GS_STARTUP_MEMORY,   /* allocation and freeing, host and device */
    GS_STARTUP_COPIES,   /* copies and sets (the host side: the model moving in) */
    GS_STARTUP_LAUNCHES, /* kernel and graph launches */
    GS_STARTUP_SYNC,     /* waiting for the GPU */
    GS_STARTUP_OTHER,    /* every other CUDA call */
    GS_STARTUP__COUNT
};

/* The data-parallel wrapper whose forward or hooks a range records (PARALLEL_WRAPPER). */
enum gs_parallel_wrapper { GS_WRAPPER_NONE, GS_WRAPPER_DDP, GS_WRAPPER_FSDP };

/* What a name names: the groups asked of it depend on it. */
enum gs_name_role {
    GS_ROLE_GPU,      /* a kernel, copy, set or GPU-side sync record */
    GS_ROLE_RANGE,    /* an operator, annotation, NVTX range or Python function */
    GS_ROLE_API,      /* a CUDA/HIP runtime or driver call */
    GS_ROLE_COLL_ARG, /* a collective's "Collective name" argument */
    GS_ROLE__COUNT
};

/* X(GROUP, role, first bit, bits, default): the groups, packed into one 64-bit word per name. */
#define GS_NAME_GROUPS(X)                                                                          \
    X(COMM_KERNEL, GPU, 0, 1, 0)          /* a collective communication kernel */                 \
    X(HTA_CLASS, GPU, 1, 2, 0)            /* enum gs_kclass as HTA 0.5.0 classifies it */         \
    X(TENSOR_CORE, GPU, 3, 1, 0)          /* runs on Tensor Cores (gpuscope's patterns) */        \
    X(TENSOR_CORE_PLUGIN, GPU, 4, 1, 0)   /* ... by the TensorBoard plugin's patterns alone */    \
    X(LOW_PRECISION, GPU, 5, 1, 0)        /* bf16, fp16 or fp8 operands */                         \
    X(CONV_KERNEL, GPU, 6, 1, 0)          /* a convolution */                                      \
    X(BACKWARD_KERNEL, GPU, 7, 1, 0)      /* only a backward pass launches it */                   \
    X(OPTIMIZER_KERNEL, GPU, 8, 1, 0)     /* an optimizer's update */                              \
    X(KERNEL_COLLECTIVE, GPU, 9, 3, 7)    /* gs_coll_kind a collective kernel's name says */       \
    X(DATALOADER, RANGE, 12, 1, 0)        /* a DataLoader fetch */                                 \
    X(BACKWARD_OP, RANGE, 13, 1, 0)       /* autograd's backward work */                           \
    X(OPTIMIZER_OP, RANGE, 14, 1, 0)      /* the optimizer's step */                               \
    X(TC_ELIGIBLE, RANGE, 15, 1, 0)       /* could run on Tensor Cores (gpuscope's list) */        \
    X(TC_ELIGIBLE_PLUGIN, RANGE, 16, 1, 0) /* ... by the TensorBoard plugin's list alone */        \
    X(COMM_OP, RANGE, 17, 1, 0)           /* a collective call (nccl:*, gloo:*) */                 \
    X(COMM_OP_PLUGIN, RANGE, 18, 1, 0)    /* ... one of the TensorBoard plugin's five */           \
    X(OP_COLLECTIVE, RANGE, 19, 3, 7)     /* gs_coll_kind an operator's name says */               \
    X(FLOP_KIND, RANGE, 22, 2, 0)         /* gs_flop_kind: which FLOP formula (flops.h) */         \
    X(SYNC_CALL, API, 24, 3, 0)           /* gs_sync_kind + 1 of a blocking call (sync_calls.h) */ \
    X(ARG_COLLECTIVE, COLL_ARG, 27, 4, 7) /* gs_coll_kind, or GS_COLL_ARG_IGNORED */          \
    X(PROFILER_STEP, RANGE, 31, 1, 0)     /* PyTorch's ProfilerStep#N */                           \
    X(SYNC_OP, RANGE, 32, 1, 0)           /* an operator that waits for the GPU (.item()) */       \
    X(CALL_CLASS, API, 33, 3, 6)          /* enum gs_startup_class: what a CUDA call does */ \
    X(DECODE_KERNEL, GPU, 36, 1, 0)       /* attention over a KV cache, one token per query */   \
    X(DECODE_RANGE, RANGE, 37, 1, 0)      /* a serving engine's decode step */                   \
    X(CODE_LOAD, API, 38, 1, 0)           /* loads GPU code: a module, library or JIT link */ \
    X(PARALLEL_WRAPPER, RANGE, 39, 2, 0)  /* enum gs_parallel_wrapper: DDP's or FSDP's range */  \
    X(EMBEDDING_KERNEL, GPU, 41, 1, 0)    /* an embedding-table lookup (fbgemm's TBE) */ \
    X(FP8_NAME, GPU, 42, 1, 0)            /* fp8 or fp4 operands, by name */                    \
    X(COMPILED_KERNEL, GPU, 43, 1, 0)     /* generated by torch.compile (Inductor's Triton) */  \
    X(COMPILED_RANGE, RANGE, 44, 1, 0)    /* a region torch.compile compiled */ \
    X(POINTWISE_KERNEL, GPU, 45, 1, 0)    /* elementwise: what torch.compile fuses */ \
    X(MULTI_TENSOR_KERNEL, GPU, 46, 1, 0) /* one launch over many tensors (foreach, fused) */

enum gs_name_group {
#define GS_NAME_GROUP_ENUM(g, role, shift, bits, dflt) GS_NAME_##g,
    GS_NAME_GROUPS(GS_NAME_GROUP_ENUM)
#undef GS_NAME_GROUP_ENUM
    GS_NAME__COUNT
};

/* ARG_COLLECTIVE's value for an argument that says nothing about a kernel ("wait"). */
#define GS_COLL_ARG_IGNORED 8

/* The value of group g for `name`, by the rules alone: for a name outside a trace context (a
 * single lookup, a test). */
unsigned gs_name_judge(enum gs_name_group g, const char *name);

/* Every group of a role, packed as gs_names holds them. */
uint64_t gs_name_judge_role(enum gs_name_role role, const char *name);

/* The answers for every name of one trace, indexed by string id. */
typedef struct gs_names {
    uint64_t *v;
    size_t n;
} gs_names;

/* Judges each distinct name of t once per role it has in t; a group of a role a name does not
 * have reads as its default. 0, or -1 with err (out of memory). */
int gs_names_classify(const gs_trace *t, gs_names *out, gs_error *err);
void gs_names_free(gs_names *n);

static inline unsigned gs_names_get(const gs_names *n, gs_str id, enum gs_name_group g)
{
    static const uint8_t shift[GS_NAME__COUNT] = {
#define GS_NAME_GROUP_SHIFT(grp, role, sh, bits, dflt) sh,
        GS_NAME_GROUPS(GS_NAME_GROUP_SHIFT)
#undef GS_NAME_GROUP_SHIFT
    };
    static const uint8_t width[GS_NAME__COUNT] = {
#define GS_NAME_GROUP_WIDTH(grp, role, sh, bits, dflt) bits,
        GS_NAME_GROUPS(GS_NAME_GROUP_WIDTH)
#undef GS_NAME_GROUP_WIDTH
    };
    return (unsigned)(n->v[id] >> shift[g]) & ((1u << width[g]) - 1);
}

#endif
