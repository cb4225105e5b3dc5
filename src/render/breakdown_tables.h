/* The breakdown view (gpuscope breakdown): per trace, the average step broken into the eight
 * categories, one row per step, and the GPU metrics per device. Field names: doc/breakdown.md. */
#ifndef GS_RENDER_BREAKDOWN_TABLES_H
#define GS_RENDER_BREAKDOWN_TABLES_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/trace/breakdown.h"
#include "render/render.h"
#include "render/table.h"

/* The eight category columns of the per-step table, in the order of enum gs_bd_cat, and the
 * columns of the GPU metrics table: for --help. */
const gs_column *gs_bd_category_columns(size_t *ncols);
const gs_column *gs_bd_gpu_columns(size_t *ncols);

/* One row per step (rank, step, duration, the eight categories in ns, warm-up), appended. */
void gs_bd_step_table_init(gs_table *out);
int gs_bd_step_table(const gs_bd_trace *b, size_t limit, gs_table *out);

/* One row per category: average time per kept step and share of the average step. */
int gs_bd_avg_table(const gs_bd_trace *b, gs_table *out);

/* One row per device: utilization, est. SM efficiency, est. achieved occupancy, busy time. */
int gs_bd_gpu_table(const gs_bd_trace *b, gs_table *out);

/* The whole view in one format (csv: the per-step rows of every trace). `limit` caps the step
 * rows of each trace (0 = all). -1 when memory is exhausted. */
int gs_render_breakdown(FILE *out, const gs_breakdown *b, enum gs_format format,
                        const gs_text_style *style, size_t limit);

#endif
