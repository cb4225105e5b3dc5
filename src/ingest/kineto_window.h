/* A trace too big for the memory budget is read again keeping one window of its steps: first a
 * survey that keeps only the ProfilerStep ranges (and notes the time every event spans), then a
 * read that keeps the events of the steps chosen, as many as fit, from the middle of the run.
 * What was left out is counted (GS_LOSS_OUTSIDE_WINDOW) and shows wherever skipped events are
 * shown. Internal to src/ingest; load.c decides when. */
#ifndef GS_INGEST_KINETO_WINDOW_H
#define GS_INGEST_KINETO_WINDOW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ingest/kineto_event.h"
#include "model/trace.h"

typedef struct kwindow {
    bool survey; /* keep the steps only, and note the span of every event's start */
    _Atomic gs_ns first, last; /* the survey's span (several reader threads update it) */
    uint64_t model_bytes; /* the survey's: the model's arrays the whole trace would fill */
    /* The window: host events that start in [from, host_to), GPU work that starts in
     * [from, gpu_to): the GPU runs behind the host, so the last kept step's work is kept whole. */
    gs_ns from, host_to, gpu_to;
} kwindow;

/* What was chosen, for the log and the caller. */
typedef struct kwindow_plan {
    size_t steps, kept_steps; /* kept_steps 0: a window of time (the trace has no steps) */
    gs_str first, last;       /* the names of the first and last steps kept, in the survey */
    double kept_share;        /* of the trace's steps (or time) */
} kwindow_plan;

void kwindow_survey_init(kwindow *w);

/* Whether the event joins the model; an event left out of a window (not a survey's) is counted
 * in t->lost. Safe from several threads. */
bool kwindow_keep(kwindow *w, const gs_trace *t, const kevent *ev);

/* From the survey's trace and the share of the trace that fits in the budget, the window whose
 * model should fill about 80 % of the budget; `shrink` halves it that many times (a retry).
 * False when there is none: no steps, and every event at one time. */
bool kwindow_choose(const gs_trace *survey, const kwindow *surveyed, double fits,
                    unsigned shrink, kwindow *w, kwindow_plan *plan);

/* After reading a window: GPU work that ran in it because the GPU was behind, but whose launch
 * was before it (a step left out), is left out too and counted; work without a correlation id
 * stays. 0, or -1 out of memory. */
int kwindow_drop_unlaunched(gs_trace *t);

#endif
