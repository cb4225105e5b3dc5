/* The views' and the report's JSON: tables as arrays of objects (the writer is
 * common/json_write.h). */
#ifndef GS_RENDER_JSON_H
#define GS_RENDER_JSON_H

#include <stdio.h>

#include "common/json_write.h"
#include "render/table.h"

/* The table's rows as the member `key` (NULL in an array): an array of objects, one per line. */
void gs_json_rows(gs_json_writer *w, const char *key, const gs_table *t);

/* The cells of the table's row `row` from column `from` on, as members of the object open in w,
 * each under its column's key, as gs_json_rows writes them. */
void gs_json_cells(gs_json_writer *w, const gs_table *t, size_t row, size_t from);

#endif
