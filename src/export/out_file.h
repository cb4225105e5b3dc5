/* Where an exporter writes: standard output, a file, or a gzip-compressed file (chosen by a
 * ".gz" suffix), so that every writer can use fprintf whatever the destination. A file is a
 * gs_output (common/output_file.h): written whole or not at all. */
#ifndef GS_EXPORT_OUT_FILE_H
#define GS_EXPORT_OUT_FILE_H

#include <stdbool.h>
#include <stdio.h>

#include "common/error.h"
#include "common/output_file.h"

typedef struct gs_out {
    FILE *f;        /* where the writer writes: standard output, file.f, or a gzip stream */
    gs_output file; /* the file, when not standard output */
} gs_out;

/* Opens `path` for writing; NULL or "-" is standard output. A path ending in ".gz" is written
 * through zlib (level 6). 0, or -1 with err (exit class: environment). */
int gs_out_open(gs_out *o, const char *path, gs_error *err);

/* Flushes and closes (standard output is flushed, not closed). With keep, and when every write
 * succeeded, the file is in place: 0. Otherwise -1, with err set when the failure was the
 * output's own (a full disk), and what this wrote is removed, nothing else. */
int gs_out_close(gs_out *o, bool keep, gs_error *err);

/* True when `path` names standard output. */
bool gs_out_is_stdout(const char *path);

#endif
