/* A gzip stream inflated by a background thread into a ring of blocks. Internal to source.c. */
#ifndef GS_INGEST_INFLATE_THREAD_H
#define GS_INGEST_INFLATE_THREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ingest/gunzip.h"

typedef struct inflate_thread inflate_thread;

/* Starts inflating gz (which the caller still owns and frees after stop). NULL on failure. */
inflate_thread *inflate_thread_start(gs_gunzip *gz);

/* Copies up to n inflated bytes. Returns the count, 0 at the end, -1 when inflating failed
 * (*message says how; *truncated when the stream stopped inside a member), or INFLATE_DRAINED
 * once paused and every block inflated before the pause has been read. */
#define INFLATE_DRAINED (-2)
ssize_t inflate_thread_read(inflate_thread *p, char *buf, size_t n, bool *truncated,
                            const char **message);

/* Stops inflating ahead, once the block being inflated is done: the blocks inflated so far are
 * still read, and after them the stream goes on in gz, which is the caller's again (the inflated
 * bytes end where gz stands). */
void inflate_thread_pause(inflate_thread *p);

uint64_t inflate_thread_file_offset(inflate_thread *p);

void inflate_thread_stop(inflate_thread *p);

#endif
