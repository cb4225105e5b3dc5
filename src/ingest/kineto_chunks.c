/* The event array of a plain file read in chunks on several cores (kineto_chunks.h).
 *
 * The cuts are guessed in the raw bytes: the first "}, {\"" at or after each fraction of the
 * file, which in JSON outside a string only happens between two objects. A guess may still be
 * wrong (the text inside a string, an object nested in an event), so a chunk's events are used
 * only when the chunk before it, read on past its end, meets an event object starting exactly at
 * the cut; otherwise the chunk before reads on to the array's end itself. Errors are those of the
 * first chunk that fails among the trusted ones: the one-thread reader's. */
#include "ingest/kineto_chunks.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/log.h"
#include "ingest/kineto.h"

enum {
    MAX_CHUNKS = KCHUNK_MAX,
    AUTO_CHUNK_BYTES = 16 << 20, /* smaller chunks do not repay a thread and a merge */
    SEARCH_WINDOW = 64 << 10,
    SEARCH_LIMIT = 4 << 20, /* no event boundary this far after a guess: no cut there */
};

typedef struct chunk_reader {
    kchunk c;
    gs_trace *t;
    gs_source *src;
    gs_json j;
    bool json_ready, started;
    gs_error err;
    int rc;
    uint64_t count;
    pthread_t thread;
} chunk_reader;

struct kchunk_set {
    const gs_load_opts *opts;
    size_t n;
    chunk_reader r[MAX_CHUNKS]; /* r[0].c is the calling thread's chunk */
    _Atomic uint64_t bytes[MAX_CHUNKS]; /* each chunk's model, for the memory budget */
    _Atomic uint64_t done[MAX_CHUNKS];  /* bytes each chunk has read, for progress */
    atomic_bool cancel;
    _Atomic size_t over_budget; /* 1 + the chunk that found the memory budget exceeded, 0: none */
    _Atomic uint64_t read_when_over;  /* bytes all chunks had read by then */
    _Atomic uint64_t bytes_when_over; /* and the model they had made */
};

/* ---- where to cut ------------------------------------------------------------------------- */

static size_t usable_cores(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return (size_t)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (size_t)n : 1;
}

static size_t plan_chunks(const gs_load_opts *opts, uint64_t bytes)
{
    if (opts && opts->threads)
        return opts->threads < MAX_CHUNKS ? opts->threads : MAX_CHUNKS;
    size_t n = usable_cores();
    if (n > MAX_CHUNKS)
        n = MAX_CHUNKS;
    if (n > bytes / AUTO_CHUNK_BYTES)
        n = (size_t)(bytes / AUTO_CHUNK_BYTES);
    return n ? n : 1;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* The offset of the '{' of the first `}, {"` (any spaces between) at or after `from`, before
 * `end`; UINT64_MAX when there is none within SEARCH_LIMIT bytes or the bytes cannot be read. */
static uint64_t find_event_start(const gs_source *src, uint64_t from, uint64_t end)
{
    char *window = malloc(SEARCH_WINDOW);
    if (!window)
        return UINT64_MAX;
    char last[3] = {0, 0, 0}; /* the last significant bytes, last[0] the latest */
    uint64_t brace = 0;       /* offset of last[0] when it is '{' */
    uint64_t found = UINT64_MAX;
    gs_error ignored;
    for (uint64_t at = from; found == UINT64_MAX && at < end && at - from < SEARCH_LIMIT;) {
        ssize_t got = gs_source_pread(src, window, SEARCH_WINDOW, at, &ignored);
        if (got <= 0)
            break;
        for (ssize_t i = 0; i < got; i++) {
            char c = window[i];
            if (is_space(c))
                continue;
            if (c == '"' && last[0] == '{' && last[1] == ',' && last[2] == '}') {
                found = brace;
                break;
            }
            last[2] = last[1];
            last[1] = last[0];
            last[0] = c;
            brace = at + (uint64_t)i;
        }
        at += (uint64_t)got;
    }
    free(window);
    return found;
}

/* ---- the chunks' threads ------------------------------------------------------------------ */

static void *read_chunk(void *arg)
{
    chunk_reader *r = arg;
    r->rc = kineto_read_events(&r->j, r->t, r->c.set->opts, &r->count, NULL, NULL, &r->c);
    return NULL;
}

/* Starts chunk k's thread; false when it cannot (the chunk before then reads on over it). */
static bool start_chunk(kchunk_set *s, const gs_source *src, const char *path, size_t k)
{
    chunk_reader *r = &s->r[k];
    r->t = gs_trace_new(path, &r->err);
    r->src = r->t ? gs_source_open_at(src, r->c.start, &r->err) : NULL;
    if (!r->src || gs_json_init(&r->j, r->src, &r->err) != 0)
        return false;
    r->json_ready = true;
    r->j.buf_offset = r->c.start; /* offsets in messages are the file's */
    r->started = pthread_create(&r->thread, NULL, read_chunk, r) == 0;
    return r->started;
}

static void join_chunks(kchunk_set *s, bool cancel)
{
    if (cancel)
        atomic_store(&s->cancel, true);
    for (size_t k = 1; k < s->n; k++)
        if (s->r[k].started) {
            pthread_join(s->r[k].thread, NULL);
            s->r[k].started = false;
        }
}

void kchunk_set_free(kchunk_set *s)
{
    if (!s)
        return;
    join_chunks(s, true);
    for (size_t k = 1; k < s->n; k++) {
        if (s->r[k].json_ready)
            gs_json_free(&s->r[k].j);
        gs_source_close(s->r[k].src);
        gs_trace_delete(s->r[k].t);
    }
    free(s);
}

void kchunk_note_event(kchunk *c, const kevent *ev)
{
    if ((!ev->pid_is_text && ev->pid < 0) || (!ev->tid_is_text && ev->tid < 0) ||
        ((ev->have & KARG_DEVICE) && ev->device < 0) ||
        ((ev->have & KARG_STREAM) && ev->stream < 0))
        c->unmergeable = true;
}

int kchunk_checkpoint(kchunk *c, const gs_trace *t, const gs_json *j, const gs_load_opts *opts)
{
    kchunk_set *s = c->set;
    if (atomic_load(&s->cancel)) {
        c->cancelled = true;
        return 0;
    }
    uint64_t at = gs_json_offset(j);
    atomic_store(&s->bytes[c->index], gs_trace_bytes(t));
    atomic_store(&s->done[c->index], at - c->start);
    uint64_t others = 0, done = s->r[0].c.start;
    for (size_t k = 0; k < s->n; k++) {
        if (k != c->index)
            others += atomic_load(&s->bytes[k]);
        done += atomic_load(&s->done[k]);
    }
    if (opts->budget) {
        gs_mem_budget with_others = *opts->budget;
        with_others.used += others;
        if (gs_mem_budget_check(&with_others, t, at, j->err) != 0) {
            atomic_store(&s->read_when_over, done);
            atomic_store(&s->bytes_when_over, others + gs_trace_bytes(t));
            atomic_store(&s->over_budget, c->index + 1);
            atomic_store(&s->cancel, true);
            return -1;
        }
    }
    if (c->index == 0 && opts->progress)
        opts->progress(opts->progress_ctx, t->id.path, done, gs_source_content_size(j->src));
    return 0;
}

/* ---- reading, then putting the chunks together --------------------------------------------- */

static bool chunk_usable(const chunk_reader *r)
{
    return r->json_ready && r->c.set && !r->c.unmergeable && !r->c.cancelled;
}

/* Chunks 1 .. *merged-1 follow chunk 0 without a gap; what comes after them. */
enum chunks_end {
    CHUNKS_COMPLETE, /* the last of them read to the array's end */
    CHUNKS_FAILED,   /* chunk *merged failed: the input's error */
    CHUNKS_READ_ON,  /* chunk *merged cannot be used: read on from its start */
};

static enum chunks_end trusted_chunks(const kchunk_set *s, size_t *merged)
{
    for (size_t k = 1; k < s->n; k++) {
        const chunk_reader *r = &s->r[k];
        *merged = k;
        if (!chunk_usable(r))
            return CHUNKS_READ_ON;
        if (r->rc != 0)
            return CHUNKS_FAILED;
        if (!r->c.stopped) {
            *merged = k + 1;
            return CHUNKS_COMPLETE;
        }
    }
    *merged = s->n;
    return CHUNKS_READ_ON; /* not reached: the last chunk never stops before the array's end */
}

static int read_after_chunks(kchunk_set *s, gs_json *j, gs_trace *t, uint64_t *count,
                             gs_json **rest)
{
    size_t merged;
    enum chunks_end end = trusted_chunks(s, &merged);
    if (end == CHUNKS_FAILED) {
        *j->err = s->r[merged].err;
        return -1;
    }
    gs_trace *parts[MAX_CHUNKS];
    for (size_t k = 1; k < merged; k++) {
        parts[k - 1] = s->r[k].t;
        *count += s->r[k].count;
    }
    if (kineto_merge_chunks(t, parts, merged - 1, j->err) != 0)
        return -1;
    gs_json *last = merged > 1 ? &s->r[merged - 1].j : j;
    last->err = j->err; /* the caller reads on with it: its errors are the caller's */
    *rest = last;
    GS_LOG(GS_LOG_INFO, "%s: events read in %zu chunk(s) on as many threads%s", t->id.path,
           merged, end == CHUNKS_COMPLETE ? "" : "; the rest on one thread (a cut was not on an "
                                                  "event boundary or a chunk had negative ids)");
    if (end == CHUNKS_COMPLETE)
        return 0;
    /* The rest on this thread, from the first event the unusable chunk would have read. */
    atomic_store(&s->cancel, false);
    for (size_t k = 0; k < s->n; k++)
        atomic_store(&s->bytes[k], 0), atomic_store(&s->done[k], 0);
    kchunk on = {.start = s->r[0].c.start, .stop_at = UINT64_MAX, .resume = true, .set = s};
    return kineto_read_events(last, t, s->opts, count, NULL, NULL, &on);
}

int kineto_read_events_split(gs_json *j, gs_trace *t, const gs_load_opts *opts, uint64_t *count,
                             kchunk_set **set, gs_json **rest)
{
    *rest = j;
    uint64_t start = gs_json_offset(j) + 1, size = gs_source_content_size(j->src);
    size_t n = gs_source_seekable(j->src) && size > start ? plan_chunks(opts, size - start) : 1;
    kchunk_set *s = n > 1 ? calloc(1, sizeof *s) : NULL;
    if (!s)
        return kineto_read_events(j, t, opts, count, NULL, NULL, NULL);
    *set = s;
    s->opts = opts;
    s->r[0].c = (kchunk){.start = start, .set = s};
    s->n = 1;
    for (size_t k = 1; k < n; k++) {
        uint64_t cut = find_event_start(j->src, start + (size - start) / n * k, size);
        if (cut != UINT64_MAX && cut > s->r[s->n - 1].c.start) {
            s->r[s->n].c = (kchunk){.index = s->n, .start = cut, .set = s};
            s->n++;
        }
    }
    for (size_t k = 0; k < s->n; k++)
        s->r[k].c.stop_at = k + 1 < s->n ? s->r[k + 1].c.start : UINT64_MAX;
    for (size_t k = 1; k < s->n; k++)
        if (!start_chunk(s, j->src, t->id.path, k))
            s->r[k].c.set = NULL; /* not started: read over by the chunk before */
    if (s->n > 1)
        gs_source_inflate_here(j->src);
    int rc = kineto_read_events(j, t, opts, count, NULL, NULL, &s->r[0].c);
    bool read_whole = rc != 0 || !s->r[0].c.stopped;
    join_chunks(s, read_whole);
    size_t over = atomic_load(&s->over_budget);
    if (over && opts->budget)
        opts->budget->fits =
            gs_mem_budget_fits(opts->budget, atomic_load(&s->bytes_when_over),
                               (double)atomic_load(&s->read_when_over) / (double)size);
    if (over) { /* a chunk found the budget exceeded: the trace does not fit, whatever else */
        if (over > 1)
            *j->err = s->r[over - 1].err;
        return -1;
    }
    if (rc == 0 && read_whole)
        GS_LOG(GS_LOG_INFO, "%s: events read on one thread: the cut after the first of %zu "
               "chunk(s) was not on an event boundary", t->id.path, s->n);
    return read_whole ? rc : read_after_chunks(s, j, t, count, rest);
}
