/* Append-only .gst chunk writer over a file descriptor, for the injected agent.
 *
 * Records are encoded into a caller-provided buffer; when the next record does not fit, the
 * buffered chunk is written with write(2) as one whole chunk. So a killed process leaves a file
 * that is a header plus complete chunks, and at worst one torn chunk the reader ignores. No
 * allocation, no printing, no exit: errors come back as -errno. Not thread-safe: the caller
 * serialises access (one writer per thread buffer, or a lock). */
#ifndef GS_COMMON_GST_WRITER_H
#define GS_COMMON_GST_WRITER_H

#include <stddef.h>
#include <stdint.h>

#include "common/gst_format.h"

typedef struct gst_writer {
    int fd;
    uint8_t *buf;      /* chunk header + payload being built */
    size_t cap, used;  /* used includes the chunk header space */
    uint32_t records;  /* in the current chunk */
    uint64_t chunks_written, records_written; /* chunks of records, and what they declare */
    int error;         /* first -errno seen; once set, every call returns it */
    /* Set by the caller after open, or NULL: called before each chunk is written with `fd`,
     * returns the descriptor to write it to (fd, or another open on the same file, which
     * replaces fd), or -1 to drop the chunk, whose records are counted in records_dropped (the
     * writer stays usable). The agent uses it to never write through a descriptor that the
     * program closed or reused (src/agent/agent.c). */
    int (*fd_check)(void *ctx, int fd);
    void *fd_check_ctx;
    uint64_t records_dropped;
} gst_writer;

/* Smallest buffer a writer accepts: one chunk header and the largest fixed record. */
#define GST_WRITER_MIN_BUFFER 256

/* Starts a file: writes the header now. `buf` must outlive the writer. 0 or -errno. */
int gst_writer_open(gst_writer *w, int fd, void *buf, size_t cap, uint32_t clock,
                    int64_t epoch_ns);

/* Appends one record of a fixed-size type (any but GST_REC_STRING); `rec` points to its host
 * struct (gst_kernel for GST_REC_KERNEL, ...). 0 or -errno. */
int gst_writer_add(gst_writer *w, uint32_t type, const void *rec);

/* Defines string `id` (> 0) as `len` bytes; `domain` names the NVTX domain of a registered
 * string, 0 otherwise. -EMSGSIZE when it cannot fit one chunk of this writer's buffer. */
int gst_writer_string(gst_writer *w, gst_strid id, gst_strid domain, const char *bytes,
                      size_t len);

/* Appends one record already encoded (its 8-byte header included, `size` a multiple of 8), as
 * read from another file: merging copies records without decoding them. 0 or -errno. */
int gst_writer_raw(gst_writer *w, const uint8_t *record, size_t size);

/* Writes the buffered chunk, if any. Call it at exit, at a signal-safe point, or periodically:
 * only flushed chunks survive a kill. 0 or -errno. */
int gst_writer_flush(gst_writer *w);

/* Writes the buffered chunk, then the end marker (GST_CHUNK_END): the file is whole up to here.
 * Call it when the file is finished (or everything is flushed before a signal's default action
 * ends the process); more records may still follow, and a later end marker. 0 or -errno. */
int gst_writer_end(gst_writer *w);

#endif
