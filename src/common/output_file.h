/* A file gpuscope writes (-o, --html): written whole or not at all, and never at the cost of a
 * file gpuscope did not create.
 *
 * A regular file, or a path where nothing is yet, is written to a new temporary file beside it
 * (created with O_EXCL, so never someone else's) and renamed over the path once complete: a
 * reader, or a second gpuscope writing the same path, sees the old file or the new one, never a
 * mix; a failed write removes the temporary file and leaves the old one as it was. A path that
 * is not a regular file (a device such as /dev/null, a FIFO, a symbolic link such as
 * /dev/stdout) is written through directly, as fopen would, and never removed: renaming over it
 * would replace the device or the link with a file, and removing it would remove the device. */
#ifndef GS_COMMON_OUTPUT_FILE_H
#define GS_COMMON_OUTPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/error.h"

typedef struct gs_output {
    char *path; /* the file asked for (a copy) */
    char *tmp;  /* the temporary file written instead, renamed over path by a close that keeps
                 * it; NULL when path is written directly */
    FILE *f;    /* where to write (the temporary file when there is one) */
} gs_output;

/* Opens `path` for writing. 0, or -1 with err (GS_EXIT_ENV: "PATH: cannot write: REASON"). */
int gs_output_open(gs_output *o, const char *path, gs_error *err);

/* The name to hand a library that opens files by name (SQLite): the temporary file, else the
 * path itself. */
const char *gs_output_name(const gs_output *o);

/* Closes the file. With keep, and when every write succeeded, the temporary file replaces the
 * path: 0. Otherwise the temporary file is removed, and only it: -1, with err set when the
 * failure was the file's own (a full disk: "PATH: write error: REASON"); without keep err is
 * left as the caller's failure set it. o is empty after. */
int gs_output_close(gs_output *o, bool keep, gs_error *err);

/* -1 with err (GS_EXIT_USAGE) when `path` is one of the inputs, by any name (a link, another
 * spelling): writing it would destroy what is being read. 0 when it is none of them, or does not
 * exist yet. */
int gs_output_check_inputs(const char *path, const char *const *inputs, size_t ninputs,
                           gs_error *err);

#endif
