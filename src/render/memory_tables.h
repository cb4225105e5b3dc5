/* The tables of `gpuscope memory`: one row per device (the default), the operators that
 * allocate, the downsampled timeline, or allocated / reserved at each step's end. The cells point
 * into the summary, which must outlive the table. */
#ifndef GS_RENDER_MEMORY_TABLES_H
#define GS_RENDER_MEMORY_TABLES_H

#include "analysis/trace/memory.h"
#include "render/table.h"

enum gs_memory_view { GS_MEMORY_DEVICES, GS_MEMORY_OPS, GS_MEMORY_TIMELINE, GS_MEMORY_STEPS };

/* The columns of each table. */
const gs_column *gs_memory_columns(enum gs_memory_view view, size_t *ncols);

/* Returns -1 when memory is exhausted. */
int gs_memory_table(const gs_memory_summary *s, enum gs_memory_view view, gs_table *out);

#endif
