/* ops --roofline: the roofline rows (analysis/trace/roofline.h) as a table under a line saying
 * the GPU's roofs and how much of the GPU time the traffic model covers (doc/roofline.md). */
#ifndef GS_RENDER_ROOFLINE_TABLES_H
#define GS_RENDER_ROOFLINE_TABLES_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/trace/roofline.h"
#include "render/render.h"
#include "render/table.h"
#include "render/window_notes.h"

const gs_column *gs_roofline_columns(enum gs_roof_key key, size_t *ncols);

/* -1 when memory is exhausted. */
int gs_roofline_table(const gs_roofline *r, gs_table *out);

/* The coverage line, the table sorted by sort_col (-1: the roofline's order) and cut to limit,
 * in format; the window notes above it (table) or in it (JSON). -1 when memory is exhausted. */
int gs_render_roofline(FILE *out, const gs_roofline *r, const gs_window_notes *window,
                       enum gs_format format, const gs_text_style *style, size_t limit,
                       int sort_col);

#endif
