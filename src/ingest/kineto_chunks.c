/* The event array of a file read in chunks on several cores (kineto_chunks.h).
 *
 * The cuts are guessed in the raw bytes: the first "}, {\"" at or after each fraction of the
 * file, which in JSON outside a string only happens between two objects. Each chunk's thread
 * looks for its own cut, reading from its fraction on: a gzip file is inflated up to there on
 * that thread, beside the chunks before it, not first on one. A guess may still be wrong (the
 * text inside a string, an object nested in an event), so a chunk's events are used only when the
 * chunk before it, read on past its end, meets an event object starting exactly at the cut;
 * otherwise the chunk before reads on to the array's end itself. Errors are those of the first
 * chunk that fails among the trusted ones: the one-thread reader's. */
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

/* What inflating a byte of a gzip file costs a chunk that starts after it (it inflates all that
 * comes before its cut), as a share of what reading it costs: igzip inflates this content at
 * about 4 GB/s, and the reader parses about 0.5 GB/s a core. */
#define GZIP_SKIP_SHARE 0.125

/* Where a chunk's thread stands in finding its cut (under kchunk_set.mu). */
enum cut_state {
    CUT_PENDING,
    CUT_FOUND, /* c.start is the cut, and the chunk's scanner is ready there */
    CUT_NONE,  /* no cut (or no thread): the chunk before reads on over its part */
};

typedef struct chunk_reader {
    kchunk c;
    uint64_t guess;      /* where its thread looks for the cut from (chunks after the first) */
    uint64_t search_end; /* the next chunk's guess: the cut is before it, so cuts only grow */
    enum cut_state cut;
    gs_trace *t;
    gs_source *src;
    gs_json j;
    bool json_ready, started;
    gs_error err;
    int rc;
    kread_tally tally;
    pthread_t thread;
} chunk_reader;

struct kchunk_set {
    const gs_load_opts *opts;
    const gs_source *src; /* the file's: each chunk opens its own reader of it */
    pthread_mutex_t mu;
    pthread_cond_t cut_known; /* a chunk's cut state left CUT_PENDING */
    size_t n;
    chunk_reader r[MAX_CHUNKS]; /* r[0].c is the calling thread's chunk */
    _Atomic uint64_t bytes[MAX_CHUNKS]; /* each chunk's model, for the memory budget */
    _Atomic uint64_t done[MAX_CHUNKS];  /* bytes each chunk has read, for progress */
    atomic_bool cancel;
    _Atomic size_t over_budget; /* 1 + the chunk that found the memory budget exceeded, 0: none */
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

/* Where chunk k of n looks for its cut, content[start, size) being the array's: an even share of
 * it for a plain file. In a gzip file each chunk first inflates what comes before it, so the
 * chunks grow shorter the later they start, giving each as much work: chunk k's share of the
 * content before chunk k + 1 is r times chunk k - 1's, r = 1 - GZIP_SKIP_SHARE, which places
 * cut k at (1 - r^k) / (1 - r^n) of it. */
static uint64_t chunk_guess(uint64_t start, uint64_t size, size_t k, size_t n, bool gzip)
{
    if (!gzip)
        return start + (size - start) / n * k;
    double r = 1 - GZIP_SKIP_SHARE, rk = 1, rn = 1;
    for (size_t i = 0; i < n; i++) {
        rk *= i < k ? r : 1;
        rn *= r;
    }
    return start + (uint64_t)((double)(size - start) * (1 - rk) / (1 - rn));
}

static bool is_space(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Reads src, standing at `from`, for the '{' of the first `}, {"` (any spaces between) before
 * `end`, within SEARCH_LIMIT bytes; window holds SEARCH_WINDOW bytes. Returns that '{''s offset,
 * with the bytes read from it on in window[*text .. *text + *n); UINT64_MAX when there is none or
 * the bytes cannot be read. */
static uint64_t find_event_start(gs_source *src, uint64_t from, uint64_t end, char *window,
                                 size_t *text, size_t *n, gs_error *err)
{
    char last[3] = {0, 0, 0}; /* the last significant bytes, last[0] the latest */
    uint64_t latest = 0;      /* offset of last[0] */
    uint64_t base = from;     /* offset of window[0] */
    size_t len = 0;           /* bytes in window: those kept from the read before, then more */
    while (base + len < end && base + len - from < SEARCH_LIMIT) {
        ssize_t got = gs_source_read(src, window + len, SEARCH_WINDOW - len, err);
        if (got <= 0)
            break;
        size_t i = len;
        len += (size_t)got;
        for (; i < len && base + i < end; i++) {
            char c = window[i];
            if (is_space(c))
                continue;
            if (c == '"' && last[0] == '{' && last[1] == ',' && last[2] == '}') {
                *text = (size_t)(latest - base);
                *n = len - *text;
                return latest;
            }
            last[2] = last[1];
            last[1] = last[0];
            last[0] = c;
            latest = base + i;
        }
        /* A '{' last may begin the event sought: its bytes stay for the next read (unless a run
         * of spaces after it would fill the window: then it is given up). */
        size_t keep = last[0] == '{' ? (size_t)(base + len - latest) : 0;
        if (keep > SEARCH_WINDOW / 2) {
            keep = 0;
            last[0] = 0;
        }
        memmove(window, window + len - keep, keep);
        base += len - keep;
        len = keep;
    }
    return UINT64_MAX;
}

/* ---- the chunks' threads ------------------------------------------------------------------ */

/* Tells the chunks before r where r starts: found, or not (they read on over it). */
static void publish_cut(kchunk_set *s, chunk_reader *r, enum cut_state cut)
{
    pthread_mutex_lock(&s->mu);
    r->cut = cut;
    pthread_cond_broadcast(&s->cut_known);
    pthread_mutex_unlock(&s->mu);
}

/* Opens r's reader at its guess and finds its cut, where r's scanner then stands. */
static enum cut_state find_cut(kchunk_set *s, chunk_reader *r)
{
    r->src = gs_source_open_at(s->src, r->guess, &r->err);
    char *window = r->src ? malloc(SEARCH_WINDOW) : NULL;
    size_t text = 0, n = 0;
    uint64_t cut = window ? find_event_start(r->src, r->guess, r->search_end, window, &text, &n,
                                             &r->err)
                          : UINT64_MAX;
    if (cut != UINT64_MAX && gs_json_init_at(&r->j, r->src, cut, window + text, n, &r->err) == 0) {
        r->json_ready = true;
        r->c.start = cut;
    }
    free(window);
    return r->json_ready ? CUT_FOUND : CUT_NONE;
}

static void *read_chunk(void *arg)
{
    chunk_reader *r = arg;
    kchunk_set *s = r->c.set;
    enum cut_state cut = find_cut(s, r);
    publish_cut(s, r, cut);
    if (cut == CUT_FOUND)
        r->rc = kineto_read_events(&r->j, r->t, s->opts, &r->tally, NULL, NULL, &r->c);
    return NULL;
}

/* Starts chunk k's thread; when it cannot, the chunk has no cut. */
static void start_chunk(kchunk_set *s, const char *path, size_t k)
{
    chunk_reader *r = &s->r[k];
    r->t = gs_trace_new(path, &r->err);
    r->started = r->t && pthread_create(&r->thread, NULL, read_chunk, r) == 0;
    if (!r->started)
        publish_cut(s, r, CUT_NONE);
}

/* Where the first chunk after chunk k that found its cut starts, once the chunks between have
 * looked; UINT64_MAX when none did. */
static uint64_t next_start(kchunk_set *s, size_t k)
{
    uint64_t start = UINT64_MAX;
    pthread_mutex_lock(&s->mu);
    for (size_t m = k + 1; m < s->n && start == UINT64_MAX; m++) {
        while (s->r[m].cut == CUT_PENDING)
            pthread_cond_wait(&s->cut_known, &s->mu);
        if (s->r[m].cut == CUT_FOUND)
            start = s->r[m].c.start;
    }
    pthread_mutex_unlock(&s->mu);
    return start;
}

bool kchunk_stops_here(kchunk *c, uint64_t offset, bool at_object)
{
    if (!c->stop_settled) {
        c->stop_at = next_start(c->set, c->index);
        c->stop_settled = true;
        if (offset < c->stop_at)
            return false;
    }
    if (at_object && offset == c->stop_at) {
        c->stopped = true;
        return true;
    }
    c->stop_at = UINT64_MAX; /* the next chunk did not start on an event: read on */
    return false;
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
    pthread_cond_destroy(&s->cut_known);
    pthread_mutex_destroy(&s->mu);
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
    return !r->c.unmergeable && !r->c.cancelled;
}

/* The chunks that follow chunk 0 without a gap, used[0 .. *nused) (chunks with no cut are read
 * over by the one before), and what comes after them. */
enum chunks_end {
    CHUNKS_COMPLETE, /* the last of them read to the array's end */
    CHUNKS_FAILED,   /* chunk *bad failed: the input's error */
    CHUNKS_READ_ON,  /* chunk *bad cannot be used: read on from its start */
};

static enum chunks_end trusted_chunks(const kchunk_set *s, size_t used[], size_t *nused,
                                      size_t *bad)
{
    *nused = 0;
    for (size_t k = 1; k < s->n; k++) {
        const chunk_reader *r = &s->r[k];
        if (r->cut != CUT_FOUND)
            continue;
        *bad = k;
        if (!chunk_usable(r))
            return CHUNKS_READ_ON;
        if (r->rc != 0)
            return CHUNKS_FAILED;
        used[(*nused)++] = k;
        if (!r->c.stopped)
            return CHUNKS_COMPLETE;
    }
    return CHUNKS_READ_ON; /* not reached: the last chunk never stops before the array's end */
}

static int read_after_chunks(kchunk_set *s, gs_json *j, gs_trace *t, kread_tally *tally,
                             gs_json **rest)
{
    size_t used[MAX_CHUNKS], nused, bad = 0;
    enum chunks_end end = trusted_chunks(s, used, &nused, &bad);
    if (end == CHUNKS_FAILED) {
        *j->err = s->r[bad].err;
        return -1;
    }
    gs_trace *parts[MAX_CHUNKS];
    for (size_t u = 0; u < nused; u++) {
        parts[u] = s->r[used[u]].t;
        tally->events += s->r[used[u]].tally.events;
        tally->model_bytes += s->r[used[u]].tally.model_bytes;
    }
    if (kineto_merge_chunks(t, parts, nused, j->err) != 0)
        return -1;
    gs_json *last = nused ? &s->r[used[nused - 1]].j : j;
    last->err = j->err; /* the caller reads on with it: its errors are the caller's */
    *rest = last;
    GS_LOG(GS_LOG_INFO, "%s: events read in %zu chunk(s) on as many threads%s", t->id.path,
           nused + 1, end == CHUNKS_COMPLETE ? "" : "; the rest on one thread (a cut was not on "
                                                    "an event boundary or a chunk had negative "
                                                    "ids)");
    if (end == CHUNKS_COMPLETE)
        return 0;
    /* The rest on this thread, from the first event the unusable chunk would have read. */
    atomic_store(&s->cancel, false);
    for (size_t k = 0; k < s->n; k++)
        atomic_store(&s->bytes[k], 0), atomic_store(&s->done[k], 0);
    kchunk on = {.start = s->r[0].c.start, .stop_at = UINT64_MAX, .stop_settled = true,
                 .resume = true, .set = s};
    return kineto_read_events(last, t, s->opts, tally, NULL, NULL, &on);
}

int kineto_read_events_split(gs_json *j, gs_trace *t, const gs_load_opts *opts, kread_tally *tally,
                             kchunk_set **set, gs_json **rest)
{
    *rest = j;
    uint64_t start = gs_json_offset(j) + 1, size = gs_source_content_size(j->src);
    size_t n = gs_source_seekable(j->src) && size > start ? plan_chunks(opts, size - start) : 1;
    kchunk_set *s = n > 1 ? calloc(1, sizeof *s) : NULL;
    if (!s)
        return kineto_read_events(j, t, opts, tally, NULL, NULL, NULL);
    *set = s;
    s->opts = opts;
    s->src = j->src;
    s->n = n;
    pthread_mutex_init(&s->mu, NULL);
    pthread_cond_init(&s->cut_known, NULL);
    bool gzip = gs_source_is_gzip(j->src);
    for (size_t k = 0; k < n; k++) {
        uint64_t next = k + 1 < n ? chunk_guess(start, size, k + 1, n, gzip) : UINT64_MAX;
        s->r[k].c = (kchunk){.index = k, .start = start, .stop_at = next,
                             .stop_settled = k + 1 == n, .set = s};
        s->r[k].guess = chunk_guess(start, size, k, n, gzip);
        s->r[k].search_end = k + 1 < n ? next : size;
    }
    for (size_t k = 1; k < n; k++)
        start_chunk(s, t->id.path, k);
    gs_source_inflate_here(j->src);
    int rc = kineto_read_events(j, t, opts, tally, NULL, NULL, &s->r[0].c);
    bool read_whole = rc != 0 || !s->r[0].c.stopped;
    join_chunks(s, read_whole);
    size_t over = atomic_load(&s->over_budget);
    if (over && opts->budget)
        opts->budget->over = true;
    if (over) { /* a chunk found the budget exceeded: the trace does not fit, whatever else */
        if (over > 1)
            *j->err = s->r[over - 1].err;
        return -1;
    }
    if (rc == 0 && read_whole)
        GS_LOG(GS_LOG_INFO, "%s: events read on one thread: no chunk after the first of %zu "
               "started on an event boundary", t->id.path, s->n);
    return read_whole ? rc : read_after_chunks(s, j, t, tally, rest);
}
