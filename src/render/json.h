/* The views' and the report's JSON: tables as arrays of objects (the plain writer is
 * common/json_write.h). */
#ifndef GS_RENDER_JSON_H
#define GS_RENDER_JSON_H

#include <stdio.h>

#include "common/json_write.h"
#include "render/table.h"

/* The table's rows as a JSON array of objects, one per line, each line starting with `indent`. */
void gs_json_rows(FILE *out, const gs_table *t, const char *indent);

#endif
