/* The "json" output format: stable field names (doc/output-json.md), integers in ns and bytes,
 * percentages with two decimals. */
#include "render/json.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "common/json_write.h"
#include "render/render.h"

static void put_value(FILE *out, enum gs_col_type type, const gs_cell *c)
{
    switch (type) {
    case GS_COL_TEXT:
        gs_json_string(out, c->text);
        break;
    case GS_COL_COUNT:
    case GS_COL_NS:
    case GS_COL_BYTES:
        if (c->i != GS_CELL_UNKNOWN)
            fprintf(out, "%" PRId64, c->i);
        else
            fputs("null", out);
        break;
    case GS_COL_PCT:
        gs_json_number(out, c->f, 2);
        break;
    case GS_COL_GBPS:
        gs_json_number(out, c->f, 3);
        break;
    case GS_COL_FLOAT:
        if (isfinite(c->f))
            fprintf(out, "%.6g", c->f);
        else
            fputs("null", out);
        break;
    case GS_COL_XYZ:
        fprintf(out, "[%" PRId32 ",%" PRId32 ",%" PRId32 "]", c->xyz[0], c->xyz[1], c->xyz[2]);
        break;
    }
}

void gs_json_rows(FILE *out, const gs_table *t, const char *indent)
{
    if (t->nrows == 0) {
        fputs("[]", out);
        return;
    }
    fputs("[\n", out);
    for (size_t r = 0; r < t->nrows; r++) {
        fprintf(out, "%s  {", indent);
        for (size_t c = 0; c < t->ncols; c++) {
            fprintf(out, "%s\"%s\": ", c ? ", " : "", t->cols[c].key);
            put_value(out, t->cols[c].type, gs_table_cell(t, r, c));
        }
        fputs(r + 1 < t->nrows ? "},\n" : "}\n", out);
    }
    fprintf(out, "%s]", indent);
}

void gs_render_json(FILE *out, const gs_table *t, const char *command)
{
    fputs("{\n  \"command\": ", out);
    gs_json_string(out, command);
    fputs(",\n  \"rows\": ", out);
    gs_json_rows(out, t, "  ");
    fputs("\n}\n", out);
}
