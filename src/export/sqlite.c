#include "export/sqlite.h"

#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/dynlib.h"
#include "common/output_file.h"
#include "common/util.h"
#include "export/sqlite_tables.h"

/* The SQLite functions the export calls, loaded when it runs (common/dynlib.h); the types come
 * from sqlite3.h, so a pointer cannot disagree with the function it holds. */
typedef struct sqlite_api {
    __typeof__(sqlite3_open_v2) *open_v2;
    __typeof__(sqlite3_close) *close;
    __typeof__(sqlite3_errmsg) *errmsg;
    __typeof__(sqlite3_exec) *exec;
    __typeof__(sqlite3_prepare_v2) *prepare_v2;
    __typeof__(sqlite3_bind_null) *bind_null;
    __typeof__(sqlite3_bind_int64) *bind_int64;
    __typeof__(sqlite3_bind_double) *bind_double;
    __typeof__(sqlite3_bind_text) *bind_text;
    __typeof__(sqlite3_step) *step;
    __typeof__(sqlite3_reset) *reset;
    __typeof__(sqlite3_finalize) *finalize;
} sqlite_api;

#define SYM(name) {"sqlite3_" #name, offsetof(sqlite_api, name)}
static const gs_dynsym sqlite_syms[] = {
    SYM(open_v2),    SYM(close),     SYM(errmsg),      SYM(exec),      SYM(prepare_v2),
    SYM(bind_null),  SYM(bind_int64), SYM(bind_double), SYM(bind_text), SYM(step),
    SYM(reset),      SYM(finalize),
};
#undef SYM

static const gs_dynlib sqlite_lib = {
    "libsqlite3.so.0", "export --format sqlite",
    "SQLite (Debian, Ubuntu: libsqlite3-0; Fedora, RHEL: sqlite-libs)", sqlite_syms,
    COUNT_OF(sqlite_syms)};

/* The database being written: the functions, the handle, and its path for messages. */
typedef struct out_db {
    sqlite_api sq;
    sqlite3 *db;
    const char *path;
} out_db;

static int db_fail(const out_db *o, gs_error *err)
{
    return gs_fail(err, GS_EXIT_ENV, "%s: SQLite: %s", o->path,
                   o->db ? o->sq.errmsg(o->db) : "no memory");
}

static int exec(const out_db *o, const char *sql, gs_error *err)
{
    return o->sq.exec(o->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : db_fail(o, err);
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

static int bind_row(const sqlite_api *sq, sqlite3_stmt *st, const sqlv *v, size_t n)
{
    int rc = SQLITE_OK;
    for (size_t c = 0; c < n && rc == SQLITE_OK; c++) {
        int col = (int)c + 1;
        switch (v[c].type) {
        case SQLV_NULL: rc = sq->bind_null(st, col); break;
        case SQLV_INT: rc = sq->bind_int64(st, col, v[c].i); break;
        case SQLV_REAL: rc = sq->bind_double(st, col, v[c].d); break;
        case SQLV_TEXT: rc = sq->bind_text(st, col, v[c].s, -1, SQLITE_STATIC); break;
        }
    }
    return rc;
}

/* One table: the rows of every trace (or the fixed rows once). */
static int fill_table(const out_db *o, const sql_table *tb, const gs_profile *p, gs_error *err)
{
    char sql[2048];
    insert_sql(tb, sql, sizeof sql);
    sqlite3_stmt *st = NULL;
    if (o->sq.prepare_v2(o->db, sql, -1, &st, NULL) != SQLITE_OK)
        return db_fail(o, err);
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
                             "columns of %s", o->path, got, tb->ncols, tb->name);
            else if (bind_row(&o->sq, st, v, got) != SQLITE_OK || o->sq.step(st) != SQLITE_DONE)
                rc = db_fail(o, err);
            o->sq.reset(st);
        }
        str_base += (int64_t)src.t->strings.n;
    }
    o->sq.finalize(st);
    return rc;
}

static int create_indexes(const out_db *o, const sql_table *tb, gs_error *err)
{
    for (size_t i = 0; tb->indexes && tb->indexes[i]; i++) {
        char sql[256];
        snprintf(sql, sizeof sql, "CREATE INDEX %s_%s ON %s (\"%s\")", tb->name, tb->indexes[i],
                 tb->name, tb->indexes[i]);
        if (exec(o, sql, err) != 0)
            return -1;
    }
    return 0;
}

static int write_db(const out_db *o, const gs_profile *p, gs_error *err)
{
    size_t ntables;
    const sql_table *tables = gs_sql_tables(&ntables);
    /* A fresh file written once: no journal, no fsync until the end. */
    if (exec(o, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN", err) != 0)
        return -1;
    for (size_t i = 0; i < ntables; i++) {
        char sql[2048];
        create_sql(&tables[i], sql, sizeof sql);
        if (exec(o, sql, err) != 0 || fill_table(o, &tables[i], p, err) != 0)
            return -1;
    }
    for (size_t i = 0; i < ntables; i++)
        if (create_indexes(o, &tables[i], err) != 0)
            return -1;
    return exec(o, "COMMIT", err);
}

int gs_export_sqlite(const gs_profile *p, const char *path, gs_error *err)
{
    out_db o = {.path = path};
    if (gs_dynlib_load(&sqlite_lib, &o.sq, err) != 0)
        return -1;
    /* The database is written afresh, as a file: a device or FIFO cannot hold one (and as root,
     * `-o /dev/null` once replaced the device with a regular file). */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return gs_fail(err, GS_EXIT_ENV, "%s: not a regular file: the database is written as a new "
                       "file", path);
    /* SQLite opens files by name: it writes the output's temporary file (empty, so a new
     * database), which replaces the path once the database is complete. */
    gs_output out;
    if (gs_output_open(&out, path, err) != 0)
        return -1;
    int rc = o.sq.open_v2(gs_output_name(&out), &o.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                          NULL);
    rc = rc == SQLITE_OK ? write_db(&o, p, err) : db_fail(&o, err);
    if (o.sq.close(o.db) != SQLITE_OK && rc == 0)
        rc = db_fail(&o, err);
    if (gs_output_close(&out, rc == 0, err) != 0)
        rc = -1;
    return rc;
}
