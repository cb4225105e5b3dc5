/* Reader of .gst files written by the gpuscope agent (doc/FORMAT.md, ".gst"). Internal to
 * src/ingest; use load.h, which picks this reader by the file's magic bytes. */
#ifndef GS_INGEST_GST_H
#define GS_INGEST_GST_H

#include <stdbool.h>
#include <stddef.h>

#include "ingest/load.h"
#include "ingest/source.h"

/* True when `head` (the first bytes of a file, `n` of them) starts like a .gst file. */
bool gst_is_magic(const void *head, size_t n);

/* Reads a whole .gst source into `t` (not indexed yet). A truncated last chunk is ignored and
 * its records counted in t->lost (GS_LOSS_TORN_CHUNK); corrupt data fails with the byte offset. */
int gst_read(gs_source *src, gs_trace *t, const gs_load_opts *opts, gs_error *err);

#endif
