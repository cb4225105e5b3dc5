#include "analysis/trace/host_during.h"

#include "analysis/trace/breakdown.h"
#include "analysis/trace/sync.h"
#include "common/vec.h"

#include <stdlib.h>
#include <string.h>

/* API calls nest at most runtime-over-driver deep, so the open calls at a time are among the
 * last few that started before it. */
#define API_NEST_LOOKBACK 4

static gs_ns overlap(gs_ns a0, gs_ns a1, gs_ns b0, gs_ns b1)
{
    gs_ns lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
    return hi > lo ? hi - lo : 0;
}

/* One thread's events: positions [lo, hi) of a thread_index's idx. */
typedef struct thread_run {
    int64_t pid;
    size_t lo, hi;
} thread_run;

/* Host events of one trace grouped by thread, each thread's in start order; the runs are found
 * once here, not again for every gap. */
typedef struct thread_index {
    const uint32_t *idx; /* the model's per-thread order of op-tree ranges or of apis */
    size_t n;
    thread_run *runs; /* one per thread: grown as threads are found */
    size_t nruns, cap;
} thread_index;

struct gs_host_index {
    const gs_trace_ctx *c;
    thread_index ranges, apis;
};

/* In [lo, hi) of a thread run, the first position whose start is > ts. */
#define UPPER_BOUND(arr, idx, lo, hi, ts, out)                                                     \
    do {                                                                                           \
        size_t lo_ = (lo), hi_ = (hi);                                                             \
        while (lo_ < hi_) {                                                                        \
            size_t mid_ = lo_ + (hi_ - lo_) / 2;                                                   \
            if ((arr)[(idx)[mid_]].start <= (ts))                                                  \
                lo_ = mid_ + 1;                                                                    \
            else                                                                                   \
                hi_ = mid_;                                                                        \
        }                                                                                          \
        (out) = lo_;                                                                               \
    } while (0)

typedef struct hit {
    uint32_t range;
    gs_ns ov, self;
} hit;

typedef GS_VEC(hit) hit_vec;

static int cmp_hit(const void *pa, const void *pb)
{
    uint32_t a = ((const hit *)pa)->range, b = ((const hit *)pb)->range;
    return a < b ? -1 : a > b;
}

static void note_sync(gs_gap_host *h, const char *name, gs_ns ov, bool blocks)
{
    if (ov > h->sync_ns && blocks) {
        h->sync_ns = ov;
        h->sync_api = name;
    }
}

/* One thread's op-tree ranges in the gap: those open at its start (the deepest open range and
 * its ancestors) and those starting inside it. Each gets its overlap minus its children's, so
 * the op with the most such time is where the thread really was. */
static int weigh_thread_ranges(const gs_trace_ctx *c, const uint32_t *idx, size_t lo, size_t hi,
                               const gs_span *g, hit_vec *hits, gs_gap_host *h)
{
    const gs_trace *t = c->trace;
    const gs_range *rv = t->ranges.v;
    size_t pos;
    UPPER_BOUND(rv, idx, lo, hi, g->start, pos);
    hits->n = 0;
    uint32_t x = pos > lo ? idx[pos - 1] : GS_NONE;
    while (x != GS_NONE && rv[x].end <= g->start)
        x = rv[x].parent;
    for (; x != GS_NONE; x = rv[x].parent) {
        hit *e = GS_VEC_PUSH(hits);
        if (!e)
            return -1;
        *e = (hit){x, overlap(rv[x].start, rv[x].end, g->start, g->end), 0};
    }
    for (size_t p = pos; p < hi && rv[idx[p]].start < g->end; p++) {
        hit *e = GS_VEC_PUSH(hits);
        if (!e)
            return -1;
        *e = (hit){idx[p], overlap(rv[idx[p]].start, rv[idx[p]].end, g->start, g->end), 0};
    }
    if (hits->n == 0) /* qsort and bsearch want a non-null array */
        return 0;
    qsort(hits->v, hits->n, sizeof *hits->v, cmp_hit);
    for (size_t i = 0; i < hits->n; i++)
        hits->v[i].self += hits->v[i].ov;
    for (size_t i = 0; i < hits->n; i++) {
        hit key = {rv[hits->v[i].range].parent, 0, 0};
        hit *p = key.range == GS_NONE ? NULL
                                      : bsearch(&key, hits->v, hits->n, sizeof key, cmp_hit);
        if (p)
            p->self -= hits->v[i].ov;
        /* Nested DataLoader ranges count once: only the outermost adds. */
        if (gs_ctx_name(c, rv[hits->v[i].range].name, GS_NAME_DATALOADER) &&
            !(p && gs_ctx_name(c, rv[p->range].name, GS_NAME_DATALOADER)))
            h->dataloader_ns += hits->v[i].ov;
    }
    for (size_t i = 0; i < hits->n; i++) {
        const gs_range *r = &rv[hits->v[i].range];
        if (hits->v[i].self > h->op_ns) {
            h->op_ns = hits->v[i].self;
            h->op = gs_trace_str(t, r->name);
        }
    }
    return 0;
}

static void weigh_thread_apis(const gs_trace_ctx *c, const uint32_t *idx, size_t lo, size_t hi,
                              const gs_span *g, gs_gap_host *h)
{
    const gs_trace *t = c->trace;
    const gs_api *av = t->apis.v;
    size_t pos;
    UPPER_BOUND(av, idx, lo, hi, g->start, pos);
    size_t from = pos - lo > API_NEST_LOOKBACK ? pos - API_NEST_LOOKBACK : lo;
    for (size_t p = from; p < hi && av[idx[p]].start < g->end; p++) {
        const gs_api *a = &av[idx[p]];
        gs_ns ov = overlap(a->start, a->end, g->start, g->end);
        const char *name = gs_trace_str(t, a->name);
        if (ov > h->api_ns) {
            h->api_ns = ov;
            h->api = name;
        }
        int kind = gs_sync_call_kind(t, &c->names, a);
        note_sync(h, name, ov, kind >= 0 && kind != GS_SYNC_WAIT_EVENT);
    }
}

/* Runs of one thread in an index sorted by (pid, tid, start); calls fn for each run of pid. */
static bool same_thread_range(const gs_range *a, const gs_range *b)
{
    return a->pid == b->pid && a->tid == b->tid;
}

static bool same_thread_api(const gs_api *a, const gs_api *b)
{
    return a->pid == b->pid && a->tid == b->tid;
}

/* Whether events a and b (indices into the ranges or the apis) are on one thread. */
typedef bool (*same_thread_fn)(const gs_trace *t, uint32_t a, uint32_t b);

static bool ranges_same_thread(const gs_trace *t, uint32_t a, uint32_t b)
{
    return same_thread_range(&t->ranges.v[a], &t->ranges.v[b]);
}

static bool apis_same_thread(const gs_trace *t, uint32_t a, uint32_t b)
{
    return same_thread_api(&t->apis.v[a], &t->apis.v[b]);
}

/* The runs of one thread each in an index sorted by (pid, tid, start). A run's end is found by
 * doubling steps, then halving between the last position on the thread and the first past it:
 * a few looks per thread, where a look at every event read the whole trace. */
static int find_runs(const gs_trace *t, thread_index *ti, same_thread_fn same, bool ranges)
{
    for (size_t i = 0; i < ti->n;) {
        uint32_t first = ti->idx[i];
        size_t in = i, step = 1; /* in: the last position known to be on first's thread */
        while (in + step < ti->n && same(t, ti->idx[in + step], first)) {
            in += step;
            step *= 2;
        }
        size_t out = in + step < ti->n ? in + step : ti->n; /* past the thread, or n */
        while (out - in > 1) {
            size_t mid = in + (out - in) / 2;
            if (same(t, ti->idx[mid], first))
                in = mid;
            else
                out = mid;
        }
        int64_t pid = ranges ? t->ranges.v[first].pid : t->apis.v[first].pid;
        if (gs_grow((void **)&ti->runs, &ti->cap, ti->nruns + 1, sizeof *ti->runs) != 0)
            return -1;
        ti->runs[ti->nruns++] = (thread_run){pid, i, out};
        i = out;
    }
    return 0;
}

int gs_host_index_build(const gs_trace_ctx *c, gs_host_index **out)
{
    const gs_trace *t = c->trace;
    gs_host_index *ix = calloc(1, sizeof *ix);
    *out = ix;
    if (!ix)
        return -1;
    ix->c = c;
    ix->ranges = (thread_index){t->thread_ranges.v, t->thread_ranges.n, NULL, 0, 0};
    ix->apis = (thread_index){t->thread_apis.v, t->thread_apis.n, NULL, 0, 0};
    if (find_runs(t, &ix->ranges, ranges_same_thread, true) != 0 ||
        find_runs(t, &ix->apis, apis_same_thread, false) != 0) {
        gs_host_index_free(ix);
        *out = NULL;
        return -1;
    }
    return 0;
}

void gs_host_index_free(gs_host_index *ix)
{
    if (!ix)
        return;
    free(ix->ranges.runs);
    free(ix->apis.runs);
    free(ix);
}

int gs_host_during(const gs_host_index *ix, int64_t pid, gs_ns start, gs_ns end, gs_gap_host *h)
{
    const gs_trace_ctx *c = ix->c;
    const thread_index *ri = &ix->ranges, *ai = &ix->apis;
    const gs_span g = {start, end};
    hit_vec hits = {0};
    int rc = 0;
    memset(h, 0, sizeof *h);
    for (size_t k = 0; k < ri->nruns && rc == 0; k++) {
        const thread_run *run = &ri->runs[k];
        if (pid == 0 || run->pid == pid)
            rc = weigh_thread_ranges(c, ri->idx, run->lo, run->hi, &g, &hits, h);
    }
    for (size_t k = 0; k < ai->nruns && rc == 0; k++) {
        const thread_run *run = &ai->runs[k];
        if (pid == 0 || run->pid == pid)
            weigh_thread_apis(c, ai->idx, run->lo, run->hi, &g, h);
    }
    free(hits.v);
    if (h->dataloader_ns > end - start) /* DataLoader ranges on several threads at once */
        h->dataloader_ns = end - start;
    return rc;
}
