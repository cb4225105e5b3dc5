/* Reading one file's event array on several cores: the array is cut into chunks at event
 * boundaries guessed in the raw bytes, each chunk found and parsed into a trace of its own on its
 * own thread, and the chunks' events are appended in file order to the trace, with their strings
 * interned again. The result is exactly the one-thread reader's: a chunk is used only once the
 * chunk before it, parsed on, ended exactly where the guess put its start, and the reader falls
 * back to one thread wherever a guess or a merge cannot be trusted. Internal to src/ingest. */
#ifndef GS_INGEST_KINETO_CHUNKS_H
#define GS_INGEST_KINETO_CHUNKS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ingest/json.h"
#include "ingest/kineto_event.h"
#include "ingest/load.h"

#define KCHUNK_MAX 8 /* chunks of one array at most */

typedef struct kchunk_set kchunk_set;

/* One chunk's reading, as kineto_read_events sees it (NULL there: the whole array). */
typedef struct kchunk {
    size_t index;      /* 0: the chunk the calling thread reads, from the array's '[' */
    uint64_t start;    /* offset of its first byte */
    uint64_t stop_at;  /* offset of the next chunk's first event; UINT64_MAX: none. Until
                        * stop_settled, where the next chunk looks for it: it is not before */
    bool stop_settled;
    bool stopped;      /* it ended there: the next chunk starts on an event boundary */
    bool resume;       /* its first event's '{' was already read (reading on after a stop) */
    bool unmergeable;  /* see kchunk_note_event */
    bool cancelled;    /* told to stop: its result is not needed */
    kchunk_set *set;
} kchunk;

/* Reads the events of the traceEvents array whose '[' j just returned, up to its ']', on as many
 * threads as opts->threads says (0: one per core, for files big enough to gain). On return *rest
 * is the scanner just past the ']': j, or a chunk's, which *set keeps until kchunk_set_free.
 * *tally: what the chunks used read (kread_tally). */
int kineto_read_events_split(gs_json *j, gs_trace *t, const gs_load_opts *opts, kread_tally *tally,
                             kchunk_set **set, gs_json **rest);
void kchunk_set_free(kchunk_set *set);

/* Called by kineto_read_events when the token at `offset` (an object's '{' when at_object) is
 * at or past c->stop_at: true when the chunk ends there, the next chunk's first event. Waits for
 * the next chunks to find where they start, when they have not yet. */
bool kchunk_stops_here(kchunk *c, uint64_t offset, bool at_object);

/* Called by kineto_read_events on each event a chunk reads: a negative number where the model
 * keeps a pid or tid makes the chunk unmergeable, since negative ids there stand for text ids
 * that are renumbered when chunks merge. */
void kchunk_note_event(kchunk *c, const kevent *ev);

/* Every few thousand events: false when the chunk should stop (cancelled). Checks the memory
 * budget against all chunks' models together (-1 with err set when over), and reports progress
 * over all chunks from chunk 0. */
int kchunk_checkpoint(kchunk *c, const gs_trace *t, const gs_json *j, const gs_load_opts *opts);

/* Appends the events of parts[0..n) (n <= KCHUNK_MAX chunks read into traces of their own, in file order) to t,
 * their strings interned into t's table; frees what the parts held. 0, or -1 out of memory. */
int kineto_merge_chunks(gs_trace *t, gs_trace *const *parts, size_t n, gs_error *err);

#endif
