/* Conditions on the monitor's samples that start a capture (`monitor --trigger`): `METRIC OP
 * VALUE [for DURATION]`, e.g. `step_time>1.2*baseline for 20s`, `gpu_util<30 for 1m`,
 * `mem_used>=95`, `mem_used>70GiB`. Pure: fed one snapshot at a time, on the samples' own
 * clock (live or a replayed log), it says when the condition has held long enough.
 * doc/monitor.md defines each metric and the baseline. */
#ifndef GS_MONITOR_TRIGGER_H
#define GS_MONITOR_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "monitor/snapshot.h"

/* The baseline of VALUE*baseline: the median of the metric over the samples of the last
 * GS_TRIGGER_BASELINE_MS before the condition's DURATION, once at least GS_TRIGGER_MIN_BASELINE
 * samples are there (no baseline, no trigger). */
#define GS_TRIGGER_BASELINE_MS (10 * 60 * 1000)
#define GS_TRIGGER_MIN_BASELINE 5
#define GS_TRIGGER_HISTORY 8192 /* samples kept for the baseline */

typedef struct gs_trigger_sample {
    int64_t ts_ms;
    double value;
} gs_trigger_sample;

typedef struct gs_trigger {
    char text[160];       /* as given */
    int metric;           /* an index in the metric table */
    int op;               /* an index in the operator table */
    double value;         /* in the metric's unit; with `relative`, the factor */
    bool relative;        /* VALUE*baseline */
    int64_t for_ms;
    int64_t holding_since_ms; /* -1: the condition does not hold */
    gs_trigger_sample *history; /* a ring of GS_TRIGGER_HISTORY */
    size_t nhistory, next;
} gs_trigger;

/* What one sample said. */
typedef struct gs_trigger_eval {
    bool known;      /* the metric has a value in this sample */
    bool holds;
    bool fired;      /* it has held for DURATION */
    double value;    /* in the metric's unit */
    double threshold;
    int64_t since_ms; /* when it began to hold */
} gs_trigger_eval;

/* Parses `text`. 0, or -1 with a message naming what is wrong and what is accepted. */
int gs_trigger_parse(const char *text, gs_trigger *t, char *err, size_t errlen);

/* Feeds one sample. -1 when memory for the history is exhausted. */
int gs_trigger_feed(gs_trigger *t, const gs_snapshot *s, gs_trigger_eval *out);

/* After a capture: the condition must hold for DURATION again before it fires again. */
void gs_trigger_rearm(gs_trigger *t);

/* Whether the condition is on step_time, which only the agents' statuses give. */
bool gs_trigger_needs_steps(const gs_trigger *t);

/* The metric's unit as the messages write it ("ms", "%", "GiB"). */
const char *gs_trigger_unit(const gs_trigger *t);

void gs_trigger_free(gs_trigger *t);

#endif
