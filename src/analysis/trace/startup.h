/* The start-up phase (doc/design.md §10, "Start-up"): from the trace's first event to the first
 * step kept in the statistics, that is, what ran before the first step plus the warm-up steps.
 * CUDA creates its context, loads the modules of the kernels it is about to run (lazily, since
 * CUDA 11.7: CUDA_MODULE_LOADING=LAZY), allocates memory and copies the model in; cuDNN and
 * cuBLAS pick their algorithms on first use. The phase says what of that its CUDA calls spent
 * time on, each call counted for its own time (a module load inside a kernel launch is module
 * loading, not launching). */
#ifndef GS_ANALYSIS_STARTUP_H
#define GS_ANALYSIS_STARTUP_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/base/name_rules.h"
#include "analysis/base/steps.h"
#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "model/trace.h"

/* What a CUDA call does, for the start-up phase; the table in startup.c names them. */
const char *gs_startup_class_name(enum gs_startup_class c);

typedef struct gs_startup {
    bool found;         /* the trace has steps and time before the first kept one */
    gs_ns start, end;   /* first event .. start of the first kept step */
    gs_ns before_steps; /* of which before the first step */
    size_t warmup_steps;
    gs_ns calls[GS_STARTUP__COUNT]; /* host time in CUDA calls, by class (own time: nested calls
                                   * excluded), over every thread */
    gs_ns gpu_busy;     /* GPU time of kernels, copies and sets in the phase */
} gs_startup;

/* The phase of c's trace before its first kept step (found false when there are no steps to
 * start, or nothing runs before the first kept one). */
int gs_startup_build(const gs_trace_ctx *c, gs_startup *out, gs_error *err);

/* Whether the phase is long enough to be worth a line: GS_TH_STARTUP_SHARE of the span. */
bool gs_startup_noticeable(const gs_startup *s, gs_ns span);

/* The class whose calls took the most time in the phase. */
enum gs_startup_class gs_startup_top_class(const gs_startup *s);

#endif
