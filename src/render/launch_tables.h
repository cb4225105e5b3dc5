/* The tables of `gpuscope launch`: one row per rank over its kept steps, or one row per step.
 * The cells point into the summary, which must outlive the table. */
#ifndef GS_RENDER_LAUNCH_TABLES_H
#define GS_RENDER_LAUNCH_TABLES_H

#include <stdbool.h>

#include "analysis/trace/launch.h"
#include "render/table.h"

/* The columns of the table per rank, or per step. */
const gs_column *gs_launch_columns(bool per_step, size_t *ncols);

/* Returns -1 when memory is exhausted. */
int gs_launch_table(const gs_launch_summary *s, bool per_step, gs_table *out);

#endif
