/* The tables of `gpuscope sync`: the causes of blocking (operator and API call), or one row per
 * step. The cells point into the summary, which must outlive the table. */
#ifndef GS_RENDER_SYNC_TABLES_H
#define GS_RENDER_SYNC_TABLES_H

#include <stdbool.h>

#include "analysis/trace/sync.h"
#include "render/table.h"

/* The columns of the table of causes, or per step. */
const gs_column *gs_sync_columns(bool per_step, size_t *ncols);

/* Returns -1 when memory is exhausted. */
int gs_sync_table(const gs_sync_summary *s, bool per_step, gs_table *out);

#endif
