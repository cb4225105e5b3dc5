/* The reader of Chrome-trace JSON written by PyTorch's Kineto (a top-level object), and its event
 * loop, which the legacy reader (legacy.h) shares. Internal to src/ingest; use load.h. */
#ifndef GS_INGEST_KINETO_H
#define GS_INGEST_KINETO_H

#include "ingest/json.h"
#include "ingest/kineto_chunks.h"
#include "ingest/kineto_event.h"
#include "ingest/kineto_part.h"
#include "ingest/load.h"

/* After the top-level '{': reads the whole trace object, or the part of it opts->part names. */
int kineto_read_object(gs_json *j, gs_trace *t, const gs_load_opts *opts);

/* Gives an event the category its format implies when it names none. */
typedef void (*kineto_classify_fn)(gs_trace *t, kevent *ev);

/* Reads the events of an array whose '[' was just returned, up to its ']'. With a classifier
 * (a bare-array format, whose every element must be an event) each event goes through it before
 * joining the model; without one (traceEvents) elements that are not objects are skipped. With a
 * part (one rank of a file of several), only that part's events join, moved back. With a chunk
 * (kineto_chunks.h), only the chunk's events: it stops before the event object at chunk->stop_at.
 * *tally: what it read (kread_tally). */
int kineto_read_events(gs_json *j, gs_trace *t, const gs_load_opts *opts, kread_tally *tally,
                       kineto_classify_fn classify, const kpart *part, kchunk *chunk);

/* Adds one parsed event to the model by its phase and category. 0, or -1 out of memory. */
int kineto_add_event(gs_trace *t, const kevent *ev);

/* The bytes of the model's arrays kineto_add_event would fill with the event: the element its
 * phase and category make, and a collective's args; 0 for metadata and what it skips. */
uint64_t kineto_event_bytes(const gs_trace *t, const kevent *ev);

#endif
