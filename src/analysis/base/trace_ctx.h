/* The trace context: what every analysis of one trace starts from, built once per trace
 * (doc/design.md §2, §8). It holds the trace and its indexes, its steps (marked, --step,
 * detected, or the whole trace: found once), the window the command looks at and the kept steps,
 * and what every name of the trace says (name_rules.h). Analyses take the context and nothing
 * else of the trace's, so each is computed once however many analyses read it.
 *
 * The context points into its trace, which must outlive it; what it built (steps, windows, names)
 * it owns. Another window over the same trace is a copy of the context with that window
 * (gs_trace_ctx_over): it shares everything else and is not freed. */
#ifndef GS_ANALYSIS_TRACE_CTX_H
#define GS_ANALYSIS_TRACE_CTX_H

#include "analysis/base/name_rules.h"
#include "analysis/base/select.h"
#include "analysis/base/steps.h"
#include "analysis/base/window.h"
#include "common/error.h"
#include "model/trace.h"

/* How the context finds the trace's steps and which window the command asks for. */
typedef struct gs_ctx_opts {
    gs_step_opts steps;
    gs_window_spec window; /* off: the whole trace */
} gs_ctx_opts;

typedef struct gs_trace_ctx {
    const gs_trace *trace;
    gs_steps steps;
    gs_window window; /* what the command looks at: by default the whole trace */
    gs_window kept;   /* the kept steps (per-step numbers are over these) */
    gs_names names;
    bool has_span;    /* the trace has an event; then its span, found once (gs_trace_span, a pass
                       * over every event): the first start and the last end */
    gs_ns first, last;
    struct gs_coll_once *collectives; /* found on first use (gs_ctx_collectives, collectives.h),
                                       * for the context and its views */
    bool is_copy;     /* made by gs_trace_ctx_over: owns nothing */
} gs_trace_ctx;

/* 0, or -1 with err: a --step regex that is invalid or matches nothing, a --range no range has,
 * out of memory. */
int gs_trace_ctx_build(const gs_trace *t, const gs_ctx_opts *o, gs_trace_ctx *out, gs_error *err);
void gs_trace_ctx_free(gs_trace_ctx *c);

/* The same context looking at another of its windows (e.g. &c->kept). */
static inline gs_trace_ctx gs_trace_ctx_over(const gs_trace_ctx *c, const gs_window *w)
{
    gs_trace_ctx view = *c;
    view.window = *w;
    view.is_copy = true;
    return view;
}

/* What the names say, by string id (name_rules.h). */
static inline unsigned gs_ctx_name(const gs_trace_ctx *c, gs_str id, enum gs_name_group g)
{
    return gs_names_get(&c->names, id, g);
}

#endif
