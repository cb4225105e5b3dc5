/* The window of one trace a view looks at (doc/design.md §10): by default its kept steps, as the
 * step views count them (warm-up and the time outside every step left out), or a time window
 * (--from/--to from the trace's first event, as nsys stats --filter-time), or the ranges of one
 * name (--range, as nsys stats --filter-nvtx), or the whole trace.
 *
 * What falls inside: a host event (operator, runtime call) by its start; GPU work by the start of
 * the call that launched it, and by its own start when the launch is not recorded. So a step's
 * kernels are those its host range launched, even when they run after it ends (the TensorBoard
 * plugin's step rule), and the model's loading before the first step is outside. */
#ifndef GS_ANALYSIS_WINDOW_H
#define GS_ANALYSIS_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/base/intervals.h"
#include "analysis/base/select.h"
#include "analysis/base/steps.h"
#include "common/error.h"
#include "model/trace.h"

enum gs_window_kind {
    GS_WINDOW_WHOLE, /* every event */
    GS_WINDOW_STEPS, /* the kept steps */
    GS_WINDOW_TIME,  /* --from / --to */
    GS_WINDOW_RANGE, /* --range NAME, within --from / --to when given */
};

typedef struct gs_window {
    enum gs_window_kind kind;
    gs_spans spans; /* merged; what falls inside (empty for GS_WINDOW_WHOLE) */
    gs_ns origin;   /* the trace's first event: what --from and --to count from */
    gs_ns from, to; /* the first and last time inside, absolute; the span for WHOLE */
    /* GS_WINDOW_STEPS: the steps kept and left out. */
    enum gs_step_source step_source;
    size_t nsteps, nkept, nwarmup_out;
    int64_t first_step, last_step; /* numbers of the first and last kept step */
    bool steps_contiguous;         /* the kept steps follow one another */
    int64_t first_warmup;          /* number of the first warm-up step left out */
    const char *range;             /* GS_WINDOW_RANGE: the name (the selection's), and */
    size_t nranges;                /* how many ranges have it */
} gs_window;

/* The window `spec` asks for in trace t, whose span is [first, last] (gs_trace_span's: 0 and 0
 * when it has no event; a scan of every event, which the caller makes once) and whose steps are
 * `steps` (a NULL spec, or one that is off, is the whole trace). 0, or -1 with err set. */
int gs_window_build(const gs_trace *t, gs_ns first, gs_ns last, const gs_steps *steps,
                    const gs_window_spec *spec, gs_window *out, gs_error *err);
void gs_window_free(gs_window *w);

/* Whether a host time lies inside. */
bool gs_window_holds(const gs_window *w, gs_ns ts);

/* The index of the part of the window (its merged spans) that holds ts, -1 when none; 0 for
 * every time of the whole trace. */
long gs_window_part_at(const gs_window *w, gs_ns ts);

/* Whether GPU work starting at `start`, launched by api call `api` (GS_NONE when unknown), falls
 * inside. */
static inline bool gs_window_holds_gpu(const gs_window *w, const gs_trace *t, gs_ns start,
                                       uint32_t api)
{
    return gs_window_holds(w, api != GS_NONE ? t->apis.v[api].start : start);
}

/* Whether the window leaves anything out. */
static inline bool gs_window_restricts(const gs_window *w)
{
    return w->kind != GS_WINDOW_WHOLE;
}

/* One line for people on what the window is, e.g. "over steps 1-7 (ProfilerStep#N); warm-up step
 * 0 and the time outside the steps left out (--all-steps for the whole trace)", into buf;
 * "" for the whole trace. Returns buf. */
const char *gs_window_describe(const gs_window *w, char *buf, size_t cap);

/* A time as --from and --to take it: a number of ms, or a number with a unit (ns, us, ms, s).
 * false when it is not one. */
bool gs_window_parse_time(const char *text, gs_ns *out);

#endif
