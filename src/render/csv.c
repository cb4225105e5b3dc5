/* The "csv" output format (RFC 4180 quoting, "\n" line ends): full names, integer ns and bytes,
 * so that a spreadsheet or a script gets exact numbers. */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "render/render.h"

/* A field is quoted when it holds a separator, a quote or a line break; quotes are doubled. */
static void put_field(FILE *out, const char *s)
{
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(s, out);
        return;
    }
    putc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            putc('"', out);
        putc(*s, out);
    }
    putc('"', out);
}

static void put_cell(FILE *out, enum gs_col_type type, const gs_cell *c)
{
    switch (type) {
    case GS_COL_TEXT:
        put_field(out, c->text ? c->text : ""); /* unknown: an empty field */
        break;
    case GS_COL_COUNT:
    case GS_COL_NS:
    case GS_COL_BYTES:
        if (c->i != GS_CELL_UNKNOWN) /* unknown: an empty field */
            fprintf(out, "%" PRId64, c->i);
        break;
    case GS_COL_PCT:
    case GS_COL_GBPS:
    case GS_COL_FLOAT:
        if (isfinite(c->f)) /* unknown (NaN): an empty field */
            fprintf(out, type == GS_COL_PCT ? "%.2f" : type == GS_COL_GBPS ? "%.3f" : "%.6g", c->f);
        break;
    case GS_COL_XYZ:
        fprintf(out, "%" PRId32 "x%" PRId32 "x%" PRId32, c->xyz[0], c->xyz[1], c->xyz[2]);
        break;
    }
}

void gs_render_csv(FILE *out, const gs_table *t)
{
    const char *sep = "";
    for (size_t c = 0; c < t->ncols; c++) {
        if (t->cols[c].flags & GS_COL_JSON_ONLY)
            continue;
        fputs(sep, out);
        put_field(out, t->cols[c].csv);
        sep = ",";
    }
    putc('\n', out);
    gs_render_csv_rows(out, t);
}

void gs_render_csv_rows(FILE *out, const gs_table *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        const char *sep = "";
        for (size_t c = 0; c < t->ncols; c++) {
            if (t->cols[c].flags & GS_COL_JSON_ONLY)
                continue;
            fputs(sep, out);
            put_cell(out, t->cols[c].type, gs_table_cell(t, r, c));
            sep = ",";
        }
        putc('\n', out);
    }
}
