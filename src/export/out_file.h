/* Where an exporter writes: a stdio stream to standard output, a file, or a gzip-compressed file
 * (chosen by a ".gz" suffix), so that every writer can use fprintf whatever the destination. */
#ifndef GS_EXPORT_OUT_FILE_H
#define GS_EXPORT_OUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"

/* Opens `path` for writing; NULL or "-" is standard output. A path ending in ".gz" is written
 * through zlib (level 6). Returns NULL with err set (exit class: environment). */
FILE *gs_out_open(const char *path, gs_error *err);

/* Flushes and closes (standard output is flushed, not closed). A failed write anywhere, e.g. a
 * full disk, is reported here; the partial file is then removed. Returns 0 or -1 with err set. */
int gs_out_close(FILE *f, const char *path, gs_error *err);

/* True when `path` names standard output. */
bool gs_out_is_stdout(const char *path);

#endif
