/* A gzip stream inflated with ISA-L's igzip, several times zlib's speed: fast enough that a
 * .json.gz is read in chunks on several cores, each chunk inflating the stream from its start.
 * Members follow one another (gzip -c a b >c, pigz); bytes that are not gzip at the start pass
 * through unchanged, as zlib's gzread does (a pipe of plain JSON); bytes after a member that do
 * not start another are ignored, as gzip does. Internal to source.c and inflate_thread.c. */
#ifndef GS_INGEST_GUNZIP_H
#define GS_INGEST_GUNZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef struct gs_gunzip gs_gunzip;

/* Reads fd from its current position with read() (a pipe), or from byte 0 with pread() when
 * `positional` (a file several streams share). The caller keeps fd open and closes it. */
gs_gunzip *gs_gunzip_new(int fd, bool positional);
void gs_gunzip_free(gs_gunzip *g);

/* Up to n inflated bytes: the count, 0 at the end, -1 on error (gs_gunzip_message says which;
 * gs_gunzip_truncated whether the stream stopped inside a member). */
ssize_t gs_gunzip_read(gs_gunzip *g, char *buf, size_t n);
/* Inflates and drops bytes until `offset` bytes have come out in all; -1 on error, 1 when the
 * stream ends before. */
int gs_gunzip_skip_to(gs_gunzip *g, uint64_t offset);
const char *gs_gunzip_message(const gs_gunzip *g);
bool gs_gunzip_truncated(const gs_gunzip *g);

/* Compressed bytes consumed so far. */
uint64_t gs_gunzip_in_offset(const gs_gunzip *g);

#endif
