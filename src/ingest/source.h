/* A byte source for the readers: a file (plain or gzip, detected by its magic bytes), a pipe or
 * FIFO (either, read once), or memory. Streams: the reader pulls blocks, so memory does not grow
 * with the file. Devices are refused. */
#ifndef GS_INGEST_SOURCE_H
#define GS_INGEST_SOURCE_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/error.h"

typedef struct gs_source gs_source;

gs_source *gs_source_open(const char *path, gs_error *err);
/* The same with gzip inflated on the calling thread as bytes are read, not ahead on another:
 * for reading the first bytes of a file and no more. */
gs_source *gs_source_open_head(const char *path, gs_error *err);
gs_source *gs_source_memory(const char *data, size_t size, const char *name, gs_error *err);
void gs_source_close(gs_source *s);

/* Reads up to n bytes of (decompressed) content. Returns the count, 0 at the end, -1 on error
 * (err says what and where). */
ssize_t gs_source_read(gs_source *s, char *buf, size_t n, gs_error *err);

/* Copies the first n (at most GS_SOURCE_PEEK_MAX) bytes of content into buf without consuming
 * them: reads still start at the beginning. Returns how many there are, or -1 on error. */
#define GS_SOURCE_PEEK_MAX 8
ssize_t gs_source_peek(gs_source *s, char *buf, size_t n, gs_error *err);

/* A file (plain or gzip) or memory: its content can be read from any offset (gs_source_open_at),
 * by several threads at once. */
bool gs_source_seekable(const gs_source *s);
/* A second source over the same bytes of a seekable source, reading from `offset` on, for
 * another thread: what the readers use to parse one file in chunks on several cores. A gzip
 * file is inflated from its start up to `offset` (igzip: about 4 GB/s of content) on the first
 * read, on the thread that reads. `s` must stay open until this one is closed. */
gs_source *gs_source_open_at(const gs_source *s, uint64_t offset, gs_error *err);
/* Inflates gzip on the reading thread from here on, not ahead on another (what was inflated
 * ahead is read first): for a reader whose other chunks keep the other cores busy, where a
 * thread inflating ahead would only take turns with them and copy each byte once more. */
void gs_source_inflate_here(gs_source *s);

const char *gs_source_name(const gs_source *s);
bool gs_source_is_gzip(const gs_source *s);
/* Bytes of the underlying file consumed so far and its size: for progress. */
uint64_t gs_source_file_offset(const gs_source *s);
uint64_t gs_source_file_size(const gs_source *s);
/* The size of the content: a plain file's or memory's size; for a gzip file what its trailer
 * says (exact for one member under 4 GiB, an estimate otherwise); 0 for a pipe. */
uint64_t gs_source_content_size(const gs_source *s);

#endif
