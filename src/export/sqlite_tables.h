/* The SQLite export's schema as data: each table is its columns (name, SQL type) and a function
 * that gives one row of values from the trace model. The same table drives CREATE TABLE, the
 * prepared INSERT and the indexes (sqlite.c), so the columns and the values cannot drift apart.
 * doc/export.md describes every column. */
#ifndef GS_EXPORT_SQLITE_TABLES_H
#define GS_EXPORT_SQLITE_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

enum sqlv_type { SQLV_NULL, SQLV_INT, SQLV_REAL, SQLV_TEXT };

typedef struct sqlv {
    enum sqlv_type type;
    int64_t i;
    double d;
    const char *s;
} sqlv;

/* What a row function needs besides the event: the trace, and where its string ids start in
 * StringIds (each trace's ids are moved past the previous traces'). */
typedef struct sql_src {
    const gs_trace *t;
    int64_t str_base;
} sql_src;

typedef struct sql_col {
    const char *name;
    const char *type; /* SQL type and constraints */
} sql_col;

#define SQL_MAX_COLS 24

typedef struct sql_table {
    const char *name;
    const sql_col *cols;
    size_t ncols;
    bool once; /* a fixed table (ENUM_*): filled once, not per trace */
    /* Candidate rows of one trace (or of the fixed table). */
    size_t (*count)(const gs_trace *t);
    /* Fills out[] for candidate i in column order and returns how many values it wrote (the
     * driver checks that this is ncols), or 0 to leave the candidate out. */
    size_t (*row)(const sql_src *src, size_t i, sqlv *out);
    const char *const *indexes; /* column lists to index, NULL-terminated; may be NULL */
} sql_table;

/* The tables in creation order; *n is set to their number. */
const sql_table *gs_sql_tables(size_t *n);

#endif
