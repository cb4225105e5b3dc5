/* The "json" output format: stable field names (doc/output-json.md), integers in ns and bytes,
 * percentages with two decimals. */
#include "render/json.h"

#include "render/render.h"

static void put_cell(gs_json_writer *w, const char *key, enum gs_col_type type, const gs_cell *c)
{
    switch (type) {
    case GS_COL_TEXT:
        gs_json_put_str(w, key, c->text);
        break;
    case GS_COL_COUNT:
    case GS_COL_NS:
    case GS_COL_BYTES:
        if (c->i != GS_CELL_UNKNOWN)
            gs_json_put_int(w, key, c->i);
        else
            gs_json_put_null(w, key);
        break;
    case GS_COL_PCT:
        gs_json_put_fixed(w, key, c->f, 2);
        break;
    case GS_COL_GBPS:
        gs_json_put_fixed(w, key, c->f, 3);
        break;
    case GS_COL_FLOAT:
        gs_json_put_real(w, key, c->f, 6);
        break;
    case GS_COL_XYZ:
        gs_json_begin_array(w, key, GS_JSON_COMPACT);
        for (int k = 0; k < 3; k++)
            gs_json_put_int(w, NULL, c->xyz[k]);
        gs_json_end(w);
        break;
    }
}

void gs_json_cells(gs_json_writer *w, const gs_table *t, size_t row, size_t from)
{
    for (size_t c = from; c < t->ncols; c++)
        put_cell(w, t->cols[c].key, t->cols[c].type, gs_table_cell(t, row, c));
}

void gs_json_rows(gs_json_writer *w, const char *key, const gs_table *t)
{
    gs_json_begin_array(w, key, GS_JSON_BLOCK);
    for (size_t r = 0; r < t->nrows; r++) {
        gs_json_begin_object(w, NULL, GS_JSON_INLINE);
        gs_json_cells(w, t, r, 0);
        gs_json_end(w);
    }
    gs_json_end(w);
}

void gs_render_json(FILE *out, const gs_table *t, const char *command)
{
    gs_json_writer w;
    gs_json_writer_init(&w, out);
    gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
    gs_json_put_str(&w, "command", command);
    gs_json_rows(&w, "rows", t);
    gs_json_end(&w);
}
