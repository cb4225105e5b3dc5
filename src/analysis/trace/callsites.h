/* Python call sites: GPU and CPU time per Python frame of a with_stack trace (torch.profiler's
 * python_function events), as a flat table by frame, as a top-down call tree, and per nn.Module
 * path (with_modules' "nn.Module: NAME" frames). doc/callsites.md defines every number.
 *
 * Python frames nest per thread by time (a frame holds the frames and CUDA calls inside it on its
 * thread); they are outside the operator tree that gs_trace_index builds, so this analysis nests
 * them itself. GPU work (kernels, copies, sets) belongs to the frames on the stack of the thread
 * whose CUDA call launched it, at the time of that call. */
#ifndef GS_ANALYSIS_CALLSITES_H
#define GS_ANALYSIS_CALLSITES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "model/strtab.h"
#include "model/trace.h"

/* The prefix with_modules gives a module's frame ("nn.Module: Linear_0"). */
#define GS_MODULE_FRAME_PREFIX "nn.Module: "

typedef struct gs_callsite_row {
    /* A frame as the trace names it ("model.py(42): forward", "nn.Module: Linear_0",
     * "<built-in method addmm ...>"); a module row: the module's name without the prefix. */
    const char *name;
    /* Module rows: the names from the outermost module down, joined by '/'; else NULL. */
    const char *path;
    uint32_t parent; /* tree rows: the parent's row, GS_NONE at a root; flat rows: GS_NONE */
    uint16_t depth;  /* tree rows: 0 at a root */
    uint64_t calls;  /* frames (instances) inside the window */
    uint64_t launches; /* GPU activities counted in gpu_total */
    gs_ns gpu_total; /* GPU time launched while the frame was on the launching thread's stack */
    gs_ns gpu_self;  /* the part launched while it was the innermost frame (innermost module) */
    gs_ns cpu_total; /* Σ the frames' time inside the window (a recursive frame counted once) */
    gs_ns cpu_self;  /* cpu_total minus the time of the frames (modules) directly inside */
} gs_callsite_row;

typedef struct gs_callsites {
    gs_callsite_row *frames; /* by frame name; GPU total desc, CPU total desc, then name */
    size_t nframes;
    gs_callsite_row *tree; /* the call tree by path, depth first, siblings in the order above */
    size_t ntree;
    gs_callsite_row *modules; /* the nn.Module tree by path, the same order */
    size_t nmodules;
    gs_ns gpu_time;         /* all GPU work launched inside the window, by any thread */
    gs_ns gpu_unattributed; /* the part launched with no Python frame on the launching thread
                             * (autograd's backward thread) or by an unrecorded call */
    uint64_t python_frames; /* frames inside the window, every trace */
    gs_strtab names;        /* owns every name and path of the rows */
    struct gs_callsites_building *building; /* the traces' frames, until _finish */
} gs_callsites;

/* Over the traces added one at a time (init, add each, finish; build is the three for one
 * trace), each inside its context's window (analysis/base/window.h): a frame's CPU time is the
 * part of it inside the window, GPU work counts when its launching call does. Each returns 0, or
 * -1 with err (out of memory); a failed result is freed. */
int gs_callsites_init(gs_callsites *s, gs_error *err);
int gs_callsites_add(gs_callsites *s, const gs_trace_ctx *c, gs_error *err);
int gs_callsites_finish(gs_callsites *s, gs_error *err);
int gs_callsites_build(const gs_trace_ctx *c, gs_callsites *out, gs_error *err);
void gs_callsites_free(gs_callsites *s);

#endif
