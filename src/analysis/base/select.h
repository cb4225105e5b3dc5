/* Which traces of a profile an analysis looks at (all of them, or those of one rank: --rank), and
 * which part of each trace's time (the window: analysis/base/window.h). */
#ifndef GS_ANALYSIS_SELECT_H
#define GS_ANALYSIS_SELECT_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/base/steps.h"
#include "model/trace.h"

/* The part of each trace a view looks at, as the options asked (resolved per trace by
 * gs_window_build, over the trace's steps). Zeroed: the whole trace. */
typedef struct gs_window_spec {
    bool on;          /* window the traces at all; false keeps every event */
    bool all_steps;   /* --all-steps: not limited to the kept steps */
    bool has_from, has_to;
    gs_ns from, to;     /* --from / --to: from the trace's first event */
    const char *range;  /* --range NAME: the ranges of that name (annotation, NVTX, operator) */
} gs_window_spec;

typedef struct gs_select {
    bool by_rank;
    int32_t rank;
    gs_window_spec window;
} gs_select;

/* A NULL selection keeps every rank. */
static inline bool gs_selected(const gs_select *sel, const gs_rank_id *id)
{
    return !sel || !sel->by_rank || id->rank == sel->rank;
}

#endif
