/* The steps view (gpuscope steps): per trace, where the steps came from, the statistics over the
 * kept steps and one row per step. Field names are documented in doc/steps.md. */
#ifndef GS_RENDER_STEP_TABLES_H
#define GS_RENDER_STEP_TABLES_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/base/steps.h"
#include "render/render.h"
#include "render/table.h"

/* One trace's steps (owned). */
typedef struct gs_steps_view {
    gs_rank_id id;
    gs_ns origin; /* the trace's first event: what step starts are counted from */
    gs_steps steps;
} gs_steps_view;

/* "ProfilerStep#N", "--step regex", "whole trace" (text) and "profiler_step", "regex",
 * "window" (JSON). */
const char *gs_step_source_title(enum gs_step_source s);
const char *gs_step_source_key(enum gs_step_source s);
/* The title, and for detected steps how they were found (period, confidence), in buf. */
const char *gs_step_source_text(const gs_steps *s, char *buf, size_t size);

/* One row per step: rank, step, start (from the trace's first event), duration, host duration,
 * GPU ops, warm-up. Rows are appended, so several traces make one table. -1 out of memory. */
int gs_step_table(const gs_steps_view *v, size_t limit, gs_table *out);
const gs_column *gs_step_columns(size_t *ncols);

/* The step-time statistics (mean, std, min, med, p95, p99, max), as columns for --help. */
const gs_column *gs_step_stat_columns(size_t *ncols);
void gs_step_table_init(gs_table *out);

/* The whole view in one format (csv: the per-step rows of every trace). `limit` caps the step
 * rows of each trace (0 = all). -1 when memory is exhausted. */
int gs_render_steps(FILE *out, const gs_steps_view *v, size_t n, enum gs_format format,
                    const gs_text_style *style, size_t limit);

#endif
