/* The result table every view renders: typed columns, rows of cells, sorting and a row limit.
 * Analyses produce result structs; src/render/view_tables.c turns them into tables; the
 * renderers (text.c, csv.c, json.c) write a table to a FILE* the caller gives.
 *
 * Each column table has an enum next to it naming its columns: the table is initialised by those
 * names ([X_COL_NAME] = {...}), a static assert ties the enum's count to the table's length, and
 * cells are written by name (c[X_COL_NAME]), so moving a column cannot fill the wrong cell.
 *
 * A table refers to strings it does not own (names held by a trace or a summary): they must
 * outlive it. */
#ifndef GS_RENDER_TABLE_H
#define GS_RENDER_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum gs_col_type {
    GS_COL_TEXT,  /* a string; NULL when unknown */
    GS_COL_COUNT, /* an integer count */
    GS_COL_NS,    /* a duration, integer ns */
    GS_COL_PCT,   /* a percentage, 0..100 */
    GS_COL_BYTES, /* an integer number of bytes */
    GS_COL_GBPS,  /* a bandwidth in GB/s (1 GB = 1e9 B) */
    GS_COL_FLOAT, /* any other number */
    GS_COL_XYZ,   /* three integers: CUDA grid or block dimensions */
};

/* Columns whose content another column already shows to people (e.g. a memcpy's kind and
 * locations, which its Operation label spells out): written only in JSON. */
#define GS_COL_JSON_ONLY 1u
/* A text column of figures the caller formatted ("87 %", "48.3 GB", "n/a": the monitor's): the
 * table format aligns it right and never cuts it, as a number column. */
#define GS_COL_FIGURES 2u
/* A column the others make up for (an average beside its total and count, a part beside its
 * whole): the table format leaves it out, right to left, while a line would not fit the width
 * otherwise (doc/report.md, "Width"); CSV and JSON keep it. */
#define GS_COL_NARROW_DROP 4u
/* A text column of file paths: cut from the left when too wide, as the end names the file. */
#define GS_COL_CUT_START 8u

typedef struct gs_column {
    const char *key;   /* JSON field name, e.g. "total_ns" */
    const char *sort;  /* name accepted by --sort, e.g. "total"; the key is accepted too */
    const char *title; /* table header, e.g. "Total" */
    const char *csv;   /* CSV header, with the unit of the written integers: "Total Time (ns)" */
    enum gs_col_type type;
    unsigned flags;
    /* What --help says of it (cmd/help.c): its lines, wrapped by hand to end by column 80 where
     * they start at the help's indent, '\n' between them; "" shares the line of the column
     * before ("Min, Max"). NULL for columns no --help lists, and for JSON-only ones. */
    const char *help;
} gs_column;

typedef union gs_cell {
    const char *text; /* GS_COL_TEXT */
    int64_t i;        /* GS_COL_COUNT, GS_COL_NS, GS_COL_BYTES */
    double f;         /* GS_COL_PCT, GS_COL_GBPS, GS_COL_FLOAT */
    int32_t xyz[3];   /* GS_COL_XYZ */
} gs_cell;

/* Not recorded: what an integer cell holds when the trace does not give the value (a step for a
 * peak outside every step, the device of host memory, a size the collector cannot see). Shown as
 * "-" in a table, an empty CSV field and null in JSON, as a NaN of the other number types and a
 * NULL text are: never a -1 or 0 that reads as a value. */
#define GS_CELL_UNKNOWN INT64_MIN

/* An integer cell: v when known, else GS_CELL_UNKNOWN. */
static inline int64_t gs_cell_known(int64_t v, bool known)
{
    return known ? v : GS_CELL_UNKNOWN;
}

typedef struct gs_table {
    const gs_column *cols;
    size_t ncols;
    gs_cell *cells; /* row r, column c at cells[r * ncols + c] */
    size_t nrows, cap;
    const char *empty_note; /* what the text renderer says when there are no rows */
} gs_table;

void gs_table_init(gs_table *t, const gs_column *cols, size_t ncols, const char *empty_note);
void gs_table_free(gs_table *t);

/* Appends a row of ncols zeroed cells and returns it, or NULL when memory is exhausted. */
gs_cell *gs_table_add_row(gs_table *t);

static inline const gs_cell *gs_table_cell(const gs_table *t, size_t row, size_t col)
{
    return &t->cells[row * t->ncols + col];
}

/* The column that --sort NAME names (its sort name or its JSON key), or -1. */
int gs_columns_find_sort(const gs_column *cols, size_t ncols, const char *name);

/* Sorts rows by one column: numbers descending, text ascending (unknown last). Rows that compare
 * equal keep their order, so a view's default order breaks the ties. */
int gs_table_sort(gs_table *t, size_t col);

/* Keeps the first `limit` rows; 0 keeps them all. */
void gs_table_limit(gs_table *t, size_t limit);

#endif
