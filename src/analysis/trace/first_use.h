/* First use per shape (doc/diagnosis.md, first_use_per_shape): the steps that met an input shape
 * or loaded GPU code for the first time, against the steps whose shapes had all been seen. A
 * program whose every new shape pays a first-use cost (lazy kernel loading, cuBLAS and cuDNN
 * heuristics, autotuning, torch.compile recompiling) is slow once per shape, not once: a decode
 * loop whose sequence length grows every token pays it every token of its first pass. */
#ifndef GS_ANALYSIS_FIRST_USE_H
#define GS_ANALYSIS_FIRST_USE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/base/trace_ctx.h"

typedef struct gs_first_use {
    size_t steps;       /* steps compared: every step after the first (everything is new in it) */
    size_t new_steps;   /* of them, steps with a first use: a new shape or a code load */
    size_t shape_steps; /* ... that met an (operator, input shapes) pair first */
    size_t load_steps;  /* ... that loaded GPU code (cuModuleLoad*, cuLibraryLoad*, cuLink*) */
    gs_ns new_mean_ns;  /* mean duration of the steps with a first use */
    gs_ns seen_med_ns;  /* median duration of the others; 0 when there are none */
    gs_ns mean_ns;      /* mean duration of the steps compared */
    gs_ns extra_ns;     /* what the first uses cost: each such step less the seen median */
} gs_first_use;

/* The first uses over every step of c (warm-up included: the slow first steps are the point).
 * 0, or -1 with err (out of memory). */
int gs_first_use_build(const gs_trace_ctx *c, gs_first_use *out, gs_error *err);

#endif
