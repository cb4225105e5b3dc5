/* Chunks of one file's events, read into traces of their own, appended to the trace in file
 * order (kineto_chunks.h). A chunk's strings are interned again in the order of their ids, which
 * is the order they first appear in the chunk, so every string gets the id the one-thread reader
 * would have given it; a pid or tid written as text stands in the model as the negative of its
 * string's id (kineto_event.c), and is renumbered with it. */
#include <stdlib.h>
#include <string.h>

#include "common/beside.h"
#include "common/vec.h"
#include "ingest/kineto_chunks.h"

typedef struct remap {
    gs_str *str; /* a chunk's string id -> the trace's */
} remap;

static gs_str str_of(const remap *m, gs_str s)
{
    return m->str[s];
}

static int64_t id_of(const remap *m, int64_t id)
{
    return id < 0 ? -(int64_t)m->str[-(id + 1)] - 1 : id;
}

/* A GPU activity's stream is its tid when the event names no stream (kineto.c): a tid written
 * as text other than "stream N" makes it negative, a string id to renumber. (A negative stream
 * or tid given as a number makes its chunk unmergeable: kchunk_note_event.) */
static int32_t stream_of(const remap *m, int32_t stream)
{
    return (int32_t)id_of(m, stream);
}

static void fix_kernel(gs_kernel *k, const remap *m)
{
    k->name = str_of(m, k->name);
    k->mangled = str_of(m, k->mangled);
    k->stream = stream_of(m, k->stream);
}

static void fix_memop(gs_memop *o, const remap *m)
{
    o->name = str_of(m, o->name);
    o->stream = stream_of(m, o->stream);
}

static void fix_sync(gs_gpu_sync *s, const remap *m)
{
    s->name = str_of(m, s->name);
    s->stream = stream_of(m, s->stream);
}

static void fix_api(gs_api *a, const remap *m)
{
    a->name = str_of(m, a->name);
    a->pid = id_of(m, a->pid);
    a->tid = id_of(m, a->tid);
}

static void fix_range(gs_range *r, const remap *m)
{
    r->name = str_of(m, r->name);
    r->input_dims = str_of(m, r->input_dims);
    r->input_types = str_of(m, r->input_types);
    r->concrete_inputs = str_of(m, r->concrete_inputs);
    r->domain = str_of(m, r->domain);
    r->pid = id_of(m, r->pid);
    r->tid = id_of(m, r->tid);
}

static void fix_instant(gs_instant *i, const remap *m)
{
    i->name = str_of(m, i->name);
    i->pid = id_of(m, i->pid);
    i->tid = id_of(m, i->tid);
}

static void fix_mem_event(gs_mem_event *e, const remap *m)
{
    e->pid = id_of(m, e->pid);
    e->tid = id_of(m, e->tid);
}

static void fix_counter(gs_counter *c, const remap *m)
{
    c->name = str_of(m, c->name);
}

static void fix_thread(gs_thread *th, const remap *m)
{
    th->pid = id_of(m, th->pid);
    th->tid = id_of(m, th->tid);
    th->name = str_of(m, th->name);
}

static void fix_coll_args(gs_coll_args *c, const remap *m)
{
    c->collective = str_of(m, c->collective);
    c->dtype = str_of(m, c->dtype);
    c->group = str_of(m, c->group);
}

/* Grows an array to exactly `need` elements: the model is read-only once read, so no room is
 * left for growth (the doubling of a growing array would cost up to twice the memory). */
static int reserve_exact(void **v, size_t *cap, size_t need, size_t elsize)
{
    if (need <= *cap)
        return 0;
    void *p = realloc(*v, need * elsize);
    if (!p)
        return -1;
    *v = p;
    *cap = need;
    return 0;
}

/* Elements moved at a time: the part gives back the memory of what was moved before the next
 * piece, so the merge never holds a part's array twice (once in t, once in the part). */
#define MOVE_BYTES ((size_t)4 << 20)

/* Appends every part's `field` array to t's, each element fixed by `fix`: from the end, a piece
 * at a time, each part's array shrunk behind it. */
#define APPEND_ALL(field, fix)                                                                     \
    do {                                                                                           \
        size_t total = t->field.n;                                                                 \
        for (size_t p = 0; p < n; p++)                                                             \
            total += parts[p]->field.n;                                                            \
        if (reserve_exact((void **)&t->field.v, &t->field.cap, total, sizeof *t->field.v) != 0)  \
            goto oom;                                                                              \
        size_t piece = MOVE_BYTES / sizeof *t->field.v;                                            \
        for (size_t p = 0; p < n; p++) {                                                           \
            size_t base = t->field.n, left = parts[p]->field.n;                                    \
            while (left) {                                                                         \
                size_t take = left < piece ? left : piece, from = left - take;                     \
                memcpy(t->field.v + base + from, parts[p]->field.v + from,                         \
                       take * sizeof *t->field.v);                                                 \
                for (size_t i = from; i < left; i++)                                               \
                    fix(&t->field.v[base + i], &maps[p]);                                          \
                left = from;                                                                       \
                shrink((void **)&parts[p]->field.v, &parts[p]->field.cap, left,                    \
                       sizeof *t->field.v);                                                        \
            }                                                                                      \
            t->field.n += parts[p]->field.n;                                                       \
            GS_VEC_FREE(&parts[p]->field);                                                         \
        }                                                                                          \
    } while (0)

/* Gives back the memory past the first `keep` elements (a shrinking realloc does not fail in
 * practice; when it does, the array is left as it was). */
static void shrink(void **v, size_t *cap, size_t keep, size_t elsize)
{
    if (!keep || keep >= *cap)
        return;
    void *p = realloc(*v, keep * elsize);
    if (p) {
        *v = p;
        *cap = keep;
    }
}

static int build_remap(gs_trace *t, const gs_trace *part, remap *m)
{
    size_t n = part->strings.n;
    m->str = gs_array_new(n, sizeof *m->str);
    if (!m->str)
        return -1;
    m->str[0] = GS_STR_EMPTY;
    for (size_t id = 1; id < n; id++) {
        m->str[id] = gs_strtab_intern(&t->strings, gs_str_get(&part->strings, (gs_str)id),
                                      gs_str_len(&part->strings, (gs_str)id));
        if (m->str[id] == GS_STR_ERROR)
            return -1;
    }
    return 0;
}

static void add_counts(gs_trace *t, const gs_trace *part)
{
    if (!t->pid)
        t->pid = part->pid;
    t->old_categories |= part->old_categories;
    t->accelerator_events += part->accelerator_events;
    t->events_skipped += part->events_skipped;
    for (size_t i = 0; i < GS_SKIP__COUNT; i++)
        t->skipped_why[i] += part->skipped_why[i];
    for (size_t i = 0; i < GS_LOSS__COUNT; i++)
        t->lost[i] += part->lost[i];
}

/* What one thread appends: the ranges (the largest array) on one, every other array on another. */
typedef struct append_job {
    gs_trace *t;
    gs_trace *const *parts;
    size_t n;
    const remap *maps;
} append_job;

static int append_ranges(const append_job *j)
{
    gs_trace *t = j->t;
    gs_trace *const *parts = j->parts;
    size_t n = j->n;
    const remap *maps = j->maps;
    APPEND_ALL(ranges, fix_range);
    return 0;
oom:
    return -1;
}

static void *append_the_rest(void *arg)
{
    const append_job *j = arg;
    gs_trace *t = j->t;
    gs_trace *const *parts = j->parts;
    size_t n = j->n;
    const remap *maps = j->maps;
    APPEND_ALL(kernels, fix_kernel);
    APPEND_ALL(memops, fix_memop);
    APPEND_ALL(syncs, fix_sync);
    APPEND_ALL(apis, fix_api);
    APPEND_ALL(instants, fix_instant);
    APPEND_ALL(mem_events, fix_mem_event);
    APPEND_ALL(counters, fix_counter);
    APPEND_ALL(threads, fix_thread);
    APPEND_ALL(coll_args, fix_coll_args);
    return NULL;
oom:
    return arg;
}

int kineto_merge_chunks(gs_trace *t, gs_trace *const *parts, size_t n, gs_error *err)
{
    remap maps[KCHUNK_MAX] = {{0}};
    int rc = 0;
    if (n > KCHUNK_MAX)
        return gs_fail(err, GS_EXIT_INPUT, "%s: %zu chunks to merge, at most %d", t->id.path, n,
                       KCHUNK_MAX);
    for (size_t p = 0; p < n && rc == 0; p++) {
        rc = build_remap(t, parts[p], &maps[p]);
        add_counts(t, parts[p]);
    }
    if (rc == 0) {
        /* The two halves write different arrays of t and of the parts. */
        append_job job = {t, parts, n, maps};
        gs_beside other;
        gs_beside_start(&other, append_the_rest, &job);
        rc = append_ranges(&job);
        rc = gs_beside_join(&other) || rc != 0 ? -1 : 0;
    }
    for (size_t p = 0; p < n; p++)
        free(maps[p].str);
    return rc == 0 ? 0 : gs_fail_oom(err);
}
