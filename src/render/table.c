#include "render/table.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

void gs_table_init(gs_table *t, const gs_column *cols, size_t ncols, const char *empty_note)
{
    memset(t, 0, sizeof *t);
    t->cols = cols;
    t->ncols = ncols;
    t->empty_note = empty_note;
}

void gs_table_free(gs_table *t)
{
    free(t->cells);
    t->cells = NULL;
    t->nrows = t->cap = 0;
}

gs_cell *gs_table_add_row(gs_table *t)
{
    size_t need = (t->nrows + 1) * t->ncols;
    if (gs_grow((void **)&t->cells, &t->cap, need, sizeof *t->cells) != 0)
        return NULL;
    gs_cell *row = &t->cells[t->nrows * t->ncols];
    memset(row, 0, t->ncols * sizeof *row);
    t->nrows++;
    return row;
}

int gs_columns_find_sort(const gs_column *cols, size_t ncols, const char *name)
{
    for (size_t c = 0; c < ncols; c++)
        if (!strcmp(cols[c].sort, name) || !strcmp(cols[c].key, name))
            return (int)c;
    return -1;
}

/* ---- stable sort on one column: (key, original row) pairs ----------------------------------- */

typedef struct sort_entry {
    gs_cell key;
    size_t row;
} sort_entry;

static int by_row(const sort_entry *a, const sort_entry *b)
{
    return a->row < b->row ? -1 : a->row > b->row;
}

static int int_desc(const void *pa, const void *pb)
{
    const sort_entry *a = pa, *b = pb;
    if (a->key.i != b->key.i)
        return a->key.i > b->key.i ? -1 : 1;
    return by_row(a, b);
}

static int float_desc(const void *pa, const void *pb)
{
    const sort_entry *a = pa, *b = pb;
    if (a->key.f != b->key.f)
        return a->key.f > b->key.f ? -1 : 1;
    return by_row(a, b);
}

static int xyz_desc(const void *pa, const void *pb)
{
    const sort_entry *a = pa, *b = pb;
    for (int k = 0; k < 3; k++)
        if (a->key.xyz[k] != b->key.xyz[k])
            return a->key.xyz[k] > b->key.xyz[k] ? -1 : 1;
    return by_row(a, b);
}

static int text_asc(const void *pa, const void *pb)
{
    const sort_entry *a = pa, *b = pb;
    const char *x = a->key.text, *y = b->key.text;
    if (x && y) {
        int c = strcmp(x, y);
        if (c)
            return c;
    } else if (x != y) {
        return x ? -1 : 1; /* unknown last */
    }
    return by_row(a, b);
}

static int (*const comparators[])(const void *, const void *) = {
    [GS_COL_TEXT] = text_asc,    [GS_COL_COUNT] = int_desc, [GS_COL_NS] = int_desc,
    [GS_COL_PCT] = float_desc,   [GS_COL_BYTES] = int_desc, [GS_COL_GBPS] = float_desc,
    [GS_COL_FLOAT] = float_desc, [GS_COL_XYZ] = xyz_desc,
};

int gs_table_sort(gs_table *t, size_t col)
{
    if (t->nrows < 2)
        return 0;
    sort_entry *order = malloc(t->nrows * sizeof *order);
    gs_cell *sorted = malloc(t->nrows * t->ncols * sizeof *sorted);
    if (!order || !sorted) {
        free(order);
        free(sorted);
        return -1;
    }
    for (size_t r = 0; r < t->nrows; r++)
        order[r] = (sort_entry){*gs_table_cell(t, r, col), r};
    qsort(order, t->nrows, sizeof *order, comparators[t->cols[col].type]);
    for (size_t r = 0; r < t->nrows; r++)
        memcpy(&sorted[r * t->ncols], gs_table_cell(t, order[r].row, 0),
               t->ncols * sizeof *sorted);
    free(t->cells);
    free(order);
    t->cells = sorted;
    t->cap = t->nrows * t->ncols;
    return 0;
}

void gs_table_limit(gs_table *t, size_t limit)
{
    if (limit && limit < t->nrows)
        t->nrows = limit;
}
