/* A gzip stream inflated by a background thread into a ring of blocks. Internal to source.c. */
#ifndef GS_INGEST_INFLATE_THREAD_H
#define GS_INGEST_INFLATE_THREAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <zlib.h>

typedef struct inflate_thread inflate_thread;

/* Starts inflating gz (which the caller still owns and closes after stop). NULL on failure. */
inflate_thread *inflate_thread_start(gzFile gz);

/* Copies up to n inflated bytes. Returns the count, 0 at the end, -1 when zlib failed (*zerr
 * and *zmsg say how; Z_BUF_ERROR means the stream stopped early). */
int inflate_thread_read(inflate_thread *p, char *buf, size_t n, int *zerr, const char **zmsg);

uint64_t inflate_thread_file_offset(inflate_thread *p);

void inflate_thread_stop(inflate_thread *p);

#endif
