/* What the two sides of a diff ran on and how they were recorded (doc/diff.md, "Setup"): the GPU
 * model and count, the world size, the collector (gpuscope run or torch.profiler) and the options
 * the trace shows (record_shapes, profile_memory, with_stack, emit_nvtx), and the low-precision
 * dtypes the kernel names show. A step-time change between different setups is not a regression,
 * and a category one side did not record (CPU operators in a .gst capture, memory without
 * profile_memory) cannot be compared: the diff says so and leaves it out of its tables. */
#ifndef GS_COMPARE_SETUP_H
#define GS_COMPARE_SETUP_H

#include <stdbool.h>
#include <stddef.h>

#include "compare/match.h"
#include "model/trace.h"

enum gs_setup_item {
    GS_SETUP_GPU_MODEL,
    GS_SETUP_GPU_COUNT,
    GS_SETUP_WORLD_SIZE,
    GS_SETUP_COLLECTOR,
    GS_SETUP_RECORD_SHAPES,
    GS_SETUP_PROFILE_MEMORY,
    GS_SETUP_WITH_STACK,
    GS_SETUP_EMIT_NVTX,
    GS_SETUP_DTYPE,
    GS_SETUP__COUNT
};

typedef struct gs_setup_row {
    const char *name;            /* "GPU model", "collector", ... */
    const char *key;             /* JSON: "gpu_model", ... */
    char value[GS_SIDES][64];    /* as shown; "not recorded" when a side cannot say */
    bool known[GS_SIDES];
    bool differs;                /* both known and not equal */
} gs_setup_row;

/* Categories a side may not have recorded at all. */
enum gs_setup_category {
    GS_REC_CPU_OPS,  /* CPU operators: a .gst capture without emit_nvtx has none */
    GS_REC_RUNTIME,  /* CUDA runtime calls */
    GS_REC_MEMORY,   /* allocator records, and whose (PyTorch's caching allocator or CUDA's) */
    GS_REC__COUNT
};

typedef struct gs_diff_setup {
    gs_setup_row rows[GS_SETUP__COUNT];
    bool differs;                            /* some row differs */
    bool collection_differs;                 /* the collector or its options differ */
    bool recorded[GS_SIDES][GS_REC__COUNT];
    bool comparable[GS_REC__COUNT];          /* recorded alike on both sides */
    char why_not[GS_REC__COUNT][320];        /* for a category not comparable: why */
    char summary[400];                       /* "GPU model, world size differ" or "" */
} gs_diff_setup;

/* Reads the traces of each side (n[s] of them). Never fails. */
void gs_diff_setup_build(const gs_trace *const *traces[GS_SIDES], const size_t n[GS_SIDES],
                         gs_diff_setup *out);

const char *gs_setup_category_key(enum gs_setup_category c);

#endif
