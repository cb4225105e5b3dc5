/* The `idle` view: the temporal breakdown per rank, idle gaps per stream and GPU-wide, the
 * largest gaps with what the host was doing, and idle time per step, as tables and as one
 * document in each output format (doc/idle.md). */
#ifndef GS_RENDER_IDLE_TABLES_H
#define GS_RENDER_IDLE_TABLES_H

#include <stdio.h>

#include "analysis/trace/idle.h"
#include "analysis/trace/temporal.h"
#include "render/render.h"
#include "render/window_notes.h"
#include "render/table.h"

typedef struct gs_idle_tables {
    gs_table temporal, streams, gpus, gaps, steps;
} gs_idle_tables;

/* The columns of the temporal breakdown, for --help. */
const gs_column *gs_idle_temporal_columns(size_t *ncols);

/* The cells point into tp and idle, which must outlive the tables. -1 out of memory. */
int gs_idle_tables_make(const gs_temporal *tp, const gs_idle *idle, gs_idle_tables *out);
void gs_idle_tables_free(gs_idle_tables *t);

/* Writes the sections in `format`; `limit` caps the rows of each section (0 = all).
 * CSV: one block per section, each after a line `# <section>`, blocks separated by an empty
 * line. Returns -1 when memory is exhausted. */
int gs_render_idle(FILE *out, gs_idle_tables *t, const gs_idle *idle, bool hta_compat,
                   const gs_window_notes *window, enum gs_format format,
                   const gs_text_style *style, size_t limit);

#endif
