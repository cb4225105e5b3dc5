#include "export/sqlite.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "export/sqlite_tables.h"

static int db_fail(sqlite3 *db, const char *path, gs_error *err)
{
    return gs_fail(err, GS_EXIT_ENV, "%s: SQLite: %s", path, db ? sqlite3_errmsg(db) : "no memory");
}

static int exec(sqlite3 *db, const char *sql, const char *path, gs_error *err)
{
    return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : db_fail(db, path, err);
}

/* CREATE TABLE and INSERT text from the column table; the buffer holds any of ours. */
static void create_sql(const sql_table *tb, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "CREATE TABLE %s (", tb->name);
    for (size_t c = 0; c < tb->ncols && n < size; c++)
        n += (size_t)snprintf(buf + n, size - n, "%s\"%s\" %s", c ? ", " : "", tb->cols[c].name,
                              tb->cols[c].type);
    if (n < size)
        snprintf(buf + n, size - n, ")");
}

static void insert_sql(const sql_table *tb, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "INSERT INTO %s VALUES (", tb->name);
    for (size_t c = 0; c < tb->ncols && n < size; c++)
        n += (size_t)snprintf(buf + n, size - n, c ? ", ?" : "?");
    if (n < size)
        snprintf(buf + n, size - n, ")");
}

static int bind_row(sqlite3_stmt *st, const sqlv *v, size_t n)
{
    int rc = SQLITE_OK;
    for (size_t c = 0; c < n && rc == SQLITE_OK; c++) {
        int col = (int)c + 1;
        switch (v[c].type) {
        case SQLV_NULL: rc = sqlite3_bind_null(st, col); break;
        case SQLV_INT: rc = sqlite3_bind_int64(st, col, v[c].i); break;
        case SQLV_REAL: rc = sqlite3_bind_double(st, col, v[c].d); break;
        case SQLV_TEXT: rc = sqlite3_bind_text(st, col, v[c].s, -1, SQLITE_STATIC); break;
        }
    }
    return rc;
}

/* One table: the rows of every trace (or the fixed rows once). */
static int fill_table(sqlite3 *db, const sql_table *tb, const gs_profile *p, const char *path,
                      gs_error *err)
{
    char sql[2048];
    insert_sql(tb, sql, sizeof sql);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(db, path, err);
    int64_t str_base = 0;
    int rc = 0;
    size_t ntraces = tb->once ? (p->traces.n ? 1 : 0) : p->traces.n;
    for (size_t ti = 0; ti < ntraces && rc == 0; ti++) {
        sql_src src = {p->traces.v[ti], str_base};
        size_t n = tb->count(src.t);
        for (size_t i = 0; i < n && rc == 0; i++) {
            sqlv v[SQL_MAX_COLS];
            size_t got = tb->row(&src, i, v);
            if (got == 0)
                continue;
            if (got != tb->ncols) /* a row function and its column table disagree: a bug */
                rc = gs_fail(err, GS_EXIT_ENV, "%s: internal error: %zu values for the %zu "
                             "columns of %s", path, got, tb->ncols, tb->name);
            else if (bind_row(st, v, got) != SQLITE_OK || sqlite3_step(st) != SQLITE_DONE)
                rc = db_fail(db, path, err);
            sqlite3_reset(st);
        }
        str_base += (int64_t)src.t->strings.n;
    }
    sqlite3_finalize(st);
    return rc;
}

static int create_indexes(sqlite3 *db, const sql_table *tb, const char *path, gs_error *err)
{
    for (size_t i = 0; tb->indexes && tb->indexes[i]; i++) {
        char sql[256];
        snprintf(sql, sizeof sql, "CREATE INDEX %s_%s ON %s (\"%s\")", tb->name, tb->indexes[i],
                 tb->name, tb->indexes[i]);
        if (exec(db, sql, path, err) != 0)
            return -1;
    }
    return 0;
}

static int write_db(sqlite3 *db, const gs_profile *p, const char *path, gs_error *err)
{
    size_t ntables;
    const sql_table *tables = gs_sql_tables(&ntables);
    /* A fresh file written once: no journal, no fsync until the end. */
    if (exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN", path, err) != 0)
        return -1;
    for (size_t i = 0; i < ntables; i++) {
        char sql[2048];
        create_sql(&tables[i], sql, sizeof sql);
        if (exec(db, sql, path, err) != 0 || fill_table(db, &tables[i], p, path, err) != 0)
            return -1;
    }
    for (size_t i = 0; i < ntables; i++)
        if (create_indexes(db, &tables[i], path, err) != 0)
            return -1;
    return exec(db, "COMMIT", path, err);
}

int gs_export_sqlite(const gs_profile *p, const char *path, gs_error *err)
{
    if (unlink(path) != 0 && errno != ENOENT)
        return gs_fail(err, GS_EXIT_ENV, "%s: cannot replace: %s", path, strerror(errno));
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    rc = rc == SQLITE_OK ? write_db(db, p, path, err) : db_fail(db, path, err);
    if (sqlite3_close(db) != SQLITE_OK && rc == 0)
        rc = db_fail(db, path, err);
    if (rc != 0)
        unlink(path);
    return rc;
}
