/* `gpuscope export --format sqlite`: the trace model as an SQLite database whose schema follows
 * nsys's export (StringIds, TARGET_INFO_GPU, CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS, ...); the
 * tables are listed in sqlite_tables.c and described in doc/export.md. */
#ifndef GS_EXPORT_SQLITE_H
#define GS_EXPORT_SQLITE_H

#include "common/error.h"
#include "model/trace.h"

/* Writes every trace of `p` into a new database at `path` (an existing file is replaced); each
 * row carries its trace's rank. All inserts run in one transaction through prepared statements;
 * the indexes are built after them. On failure the file is removed. */
int gs_export_sqlite(const gs_profile *p, const char *path, gs_error *err);

#endif
