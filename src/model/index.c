/* Builds the indexes of a loaded trace once: every array sorted by start, GPU activity linked to
 * its launching API call by correlation id, the operator tree per thread with self times, and each
 * GPU activity linked to the operator that launched it. Sorts, then linear sweeps: no per-event
 * searches. */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/beside.h"
#include "common/hashtab.h"
#include "common/vec.h"
#include "model/nesting.h"
#include "model/time_sort.h"
#include "model/trace.h"

#define SORT_ARRAY(vec, T, first, last)                                                            \
    gs_sort_by_time((vec).v, (vec).n, sizeof(T), offsetof(T, first), offsetof(T, last))

/* ---- correlation id -> API call ------------------------------------------------------------- */

typedef struct u64_map {
    uint64_t *keys; /* 0 = empty slot (0 is never a valid key here) */
    uint32_t *vals;
    size_t mask;
} u64_map;

static size_t hash_u64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k;
}

static int map_init(u64_map *m, size_t n)
{
    size_t cap = 16;
    while (cap < n * 2)
        cap *= 2;
    m->keys = gs_array_zeroed(cap, sizeof *m->keys);
    m->vals = gs_array_new(cap, sizeof *m->vals);
    m->mask = cap - 1;
    return m->keys && m->vals ? 0 : -1;
}

static void map_free(u64_map *m)
{
    free(m->keys);
    free(m->vals);
}

/* Keeps the first value for a key: the earliest call wins when ids repeat. */
static void map_put(u64_map *m, uint64_t key, uint32_t val)
{
    size_t i = hash_u64(key) & m->mask;
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & m->mask;
    if (!m->keys[i]) {
        m->keys[i] = key;
        m->vals[i] = val;
    }
}

static uint32_t map_get(const u64_map *m, uint64_t key)
{
    if (!key)
        return GS_NONE;
    for (size_t i = hash_u64(key) & m->mask; m->keys[i]; i = (i + 1) & m->mask)
        if (m->keys[i] == key)
            return m->vals[i];
    return GS_NONE;
}

static void link_gpu(gs_api *apis, const u64_map *corr, uint64_t correlation, uint32_t *api_field,
                     enum gs_gpu_class cls, uint32_t idx)
{
    uint32_t a = map_get(corr, correlation);
    *api_field = a;
    if (a != GS_NONE && apis[a].gpu == GS_NONE) {
        apis[a].gpu_class = (uint8_t)cls;
        apis[a].gpu = idx; /* a graph launch starts many kernels: point at the first */
    }
}

static int link_correlations(gs_trace *t)
{
    u64_map corr;
    if (map_init(&corr, t->apis.n) != 0) {
        map_free(&corr);
        return -1;
    }
    for (size_t i = 0; i < t->apis.n; i++) {
        t->apis.v[i].gpu = GS_NONE;
        t->apis.v[i].gpu_class = GS_GPU_NONE;
        if (t->apis.v[i].correlation)
            map_put(&corr, t->apis.v[i].correlation, (uint32_t)i);
    }
    for (size_t i = 0; i < t->kernels.n; i++)
        link_gpu(t->apis.v, &corr, t->kernels.v[i].correlation, &t->kernels.v[i].api,
                 GS_GPU_KERNEL, (uint32_t)i);
    for (size_t i = 0; i < t->memops.n; i++)
        link_gpu(t->apis.v, &corr, t->memops.v[i].correlation, &t->memops.v[i].api, GS_GPU_MEMOP,
                 (uint32_t)i);
    for (size_t i = 0; i < t->syncs.n; i++)
        link_gpu(t->apis.v, &corr, t->syncs.v[i].correlation, &t->syncs.v[i].api, GS_GPU_SYNC,
                 (uint32_t)i);
    map_free(&corr);
    return 0;
}

/* ---- operator tree per thread --------------------------------------------------------------- */

/* The host threads of the op-tree ranges and the API calls, each with its place in (pid, tid)
 * order: what the nesting items are grouped by. */
typedef struct thread_entry {
    uint32_t key; /* thread_hash(pid, tid): the hash table's key */
    uint32_t ordinal;
    int64_t pid, tid;
} thread_entry;

typedef GS_VEC(thread_entry) thread_list;

static uint32_t thread_hash(int64_t pid, int64_t tid)
{
    uint64_t k = ((uint64_t)pid * 0x9E3779B97F4A7C15ULL ^ (uint64_t)tid) * 0x9E3779B97F4A7C15ULL;
    uint32_t h = (uint32_t)(k >> 32);
    return h ? h : 1; /* 0 marks an empty slot */
}

/* The entry of (pid, tid); when absent, a new one (appended to `seen` too) if `seen` is given,
 * else NULL. NULL out of memory. */
static thread_entry *thread_of(gs_hashtab *threads, int64_t pid, int64_t tid, thread_list *seen)
{
    uint32_t key = thread_hash(pid, tid);
    gs_hashpos pos;
    for (thread_entry *e = gs_hashtab_find(threads, key, &pos); e;
         e = gs_hashtab_next(threads, &pos))
        if (e->pid == pid && e->tid == tid)
            return e;
    thread_entry *copy = seen ? GS_VEC_PUSH(seen) : NULL;
    thread_entry *e = copy ? gs_hashtab_add(threads, key) : NULL;
    if (!e)
        return NULL;
    *e = *copy = (thread_entry){key, 0, pid, tid};
    return e;
}

static int cmp_thread(const void *pa, const void *pb)
{
    const thread_entry *a = pa, *b = pb;
    if (a->pid != b->pid)
        return a->pid < b->pid ? -1 : 1;
    return a->tid < b->tid ? -1 : a->tid > b->tid;
}

/* How the thread of element i of a per-thread order compares with (pid, tid), in cmp_thread's
 * order, by which the per-thread orders group their threads. */
static int thread_at_cmp(const gs_trace *t, bool ranges, uint32_t i, int64_t pid, int64_t tid)
{
    int64_t p = ranges ? t->ranges.v[i].pid : t->apis.v[i].pid;
    int64_t q = ranges ? t->ranges.v[i].tid : t->apis.v[i].tid;
    if (p != pid)
        return p < pid ? -1 : 1;
    return (q > tid) - (q < tid);
}

/* The first place of the order whose thread is at or past (pid, tid), or past it. */
static size_t thread_bound(const gs_trace *t, bool ranges, int64_t pid, int64_t tid, bool past)
{
    const uint32_t *order = ranges ? t->thread_ranges.v : t->thread_apis.v;
    size_t lo = 0, hi = ranges ? t->thread_ranges.n : t->thread_apis.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = thread_at_cmp(t, ranges, order[mid], pid, tid);
        if (c < 0 || (past && c == 0))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void gs_thread_order_span(const gs_trace *t, bool ranges, int64_t pid, int64_t tid, size_t *lo,
                          size_t *hi)
{
    *lo = thread_bound(t, ranges, pid, tid, false);
    *hi = thread_bound(t, ranges, pid, tid, true);
}

/* Where number_threads' walks stand: the thread of the event before, which the next one is on
 * most of the time (a thread's events come in runs), looked up again only when it changes. */
typedef struct thread_run {
    bool known;
    int64_t pid, tid;
    const thread_entry *e; /* its entry, once the table no longer changes (ordinal_of) */
} thread_run;

static bool same_run(const thread_run *run, int64_t pid, int64_t tid)
{
    return run->known && run->pid == pid && run->tid == tid;
}

/* Adds (pid, tid) to the threads seen unless the event before was on it. false out of memory. */
static bool see_thread(gs_hashtab *threads, thread_list *seen, thread_run *run, int64_t pid,
                       int64_t tid)
{
    if (same_run(run, pid, tid))
        return true;
    *run = (thread_run){thread_of(threads, pid, tid, seen) != NULL, pid, tid, NULL};
    return run->known;
}

/* The ordinal of a thread seen, once the table no longer changes. */
static uint32_t ordinal_of(gs_hashtab *threads, thread_run *run, int64_t pid, int64_t tid)
{
    if (!same_run(run, pid, tid))
        *run = (thread_run){true, pid, tid, thread_of(threads, pid, tid, NULL)};
    return run->e->ordinal;
}

/* Each op-tree range's and each call's thread numbered in (pid, tid) order: of_range[i] (for the
 * ranges in the tree) and of_api[i]; *nthreads, how many. */
static int number_threads(const gs_trace *t, uint32_t *of_range, uint32_t *of_api,
                          size_t *nthreads)
{
    gs_hashtab threads = GS_HASHTAB_EMPTY(thread_entry);
    thread_list seen = {0};
    thread_run run = {0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < t->ranges.n; i++)
        if (gs_range_in_op_tree(&t->ranges.v[i]) &&
            !see_thread(&threads, &seen, &run, t->ranges.v[i].pid, t->ranges.v[i].tid))
            rc = -1;
    for (size_t i = 0; rc == 0 && i < t->apis.n; i++)
        if (!see_thread(&threads, &seen, &run, t->apis.v[i].pid, t->apis.v[i].tid))
            rc = -1;
    if (rc == 0) {
        if (seen.n) /* none: seen.v is NULL, which qsort may not be given */
            qsort(seen.v, seen.n, sizeof *seen.v, cmp_thread);
        for (size_t k = 0; k < seen.n; k++)
            thread_of(&threads, seen.v[k].pid, seen.v[k].tid, NULL)->ordinal = (uint32_t)k;
        run = (thread_run){0};
        for (size_t i = 0; i < t->ranges.n; i++)
            if (gs_range_in_op_tree(&t->ranges.v[i]))
                of_range[i] = ordinal_of(&threads, &run, t->ranges.v[i].pid, t->ranges.v[i].tid);
        for (size_t i = 0; i < t->apis.n; i++)
            of_api[i] = ordinal_of(&threads, &run, t->apis.v[i].pid, t->apis.v[i].tid);
        *nthreads = seen.n;
    }
    GS_VEC_FREE(&seen);
    gs_hashtab_free(&threads);
    return rc;
}

/* Whether range r comes before call a in gs_nest_item_cmp's order, both of one thread: by start,
 * the longer first, a range before a call with the same interval. */
static bool range_first(const gs_range *r, const gs_api *a)
{
    return r->start != a->start ? r->start < a->start : r->end >= a->end;
}

/* Each thread's op-tree ranges, then its calls, in by_thread, threads in (pid, tid) order:
 * thread th's ranges at [first[2 th], first[2 th + 1]), its calls from there to
 * first[2 th + 2]. Both arrays are already by (start, the longer first, index), and so is each
 * group. */
typedef struct thread_groups {
    uint32_t *by_thread;
    size_t *first;
    size_t nthreads;
} thread_groups;

/* The trace's op-tree ranges and calls (n of them) grouped by thread into *g. 0, or -1 out of
 * memory. */
static int group_by_thread(const gs_trace *t, size_t n, thread_groups *g)
{
    size_t nr = t->ranges.n ? t->ranges.n : 1, na = t->apis.n ? t->apis.n : 1;
    uint32_t *of_range = gs_array_new(nr, sizeof *of_range);
    uint32_t *of_api = gs_array_new(na, sizeof *of_api);
    *g = (thread_groups){.by_thread = gs_array_new(n, sizeof *g->by_thread)};
    bool ok = g->by_thread && of_range && of_api &&
              number_threads(t, of_range, of_api, &g->nthreads) == 0 &&
              (g->first = calloc(2 * g->nthreads + 1, sizeof *g->first)) != NULL;
    if (ok) {
        size_t *first = g->first;
        for (size_t i = 0; i < t->ranges.n; i++)
            if (gs_range_in_op_tree(&t->ranges.v[i]))
                first[2 * of_range[i] + 1]++;
        for (size_t i = 0; i < t->apis.n; i++)
            first[2 * of_api[i] + 2]++;
        for (size_t k = 1; k <= 2 * g->nthreads; k++)
            first[k] += first[k - 1];
        for (size_t i = 0; i < t->ranges.n; i++)
            if (gs_range_in_op_tree(&t->ranges.v[i]))
                g->by_thread[first[2 * of_range[i]]++] = (uint32_t)i;
        for (size_t i = 0; i < t->apis.n; i++)
            g->by_thread[first[2 * of_api[i] + 1]++] = (uint32_t)i;
        /* The fill moved each group's start onto the next group's: back by one group. */
        memmove(first + 1, first, 2 * g->nthreads * sizeof *first);
        first[0] = 0;
    }
    free(of_range);
    free(of_api);
    if (!ok) {
        free(g->by_thread);
        free(g->first);
    }
    return ok ? 0 : -1;
}

/* One thread's sweep: the ranges open around the time swept, innermost on top. */
typedef struct nest_sweep {
    gs_trace *t;
    uint32_t *stack;
    size_t depth;
} nest_sweep;

/* Places range or call idx, [start, end), under the innermost open range holding it whole. */
static void nest(nest_sweep *w, gs_ns start, gs_ns end, uint32_t idx, bool is_api)
{
    gs_trace *t = w->t;
    /* Pop ranges that do not contain this item (ended before it, or overlap it partially). */
    while (w->depth > 0) {
        const gs_range *top = &t->ranges.v[w->stack[w->depth - 1]];
        if (start >= top->start && end <= top->end)
            break;
        w->depth--;
    }
    uint32_t parent = w->depth ? w->stack[w->depth - 1] : GS_NONE;
    if (parent != GS_NONE)
        t->ranges.v[parent].self_ns -= end - start; /* no overflow: gs_trace_check */
    if (is_api) {
        t->thread_apis.v[t->thread_apis.n++] = idx;
        t->apis.v[idx].parent = parent;
        return;
    }
    t->thread_ranges.v[t->thread_ranges.n++] = idx;
    gs_range *r = &t->ranges.v[idx];
    r->parent = parent;
    r->depth = w->depth > UINT16_MAX ? UINT16_MAX : (uint16_t)w->depth;
    w->stack[w->depth++] = idx;
}

static void nest_range(nest_sweep *w, uint32_t i)
{
    nest(w, w->t->ranges.v[i].start, w->t->ranges.v[i].end, i, false);
}

static void nest_api(nest_sweep *w, uint32_t i)
{
    nest(w, w->t->apis.v[i].start, w->t->apis.v[i].end, i, true);
}

/* The operator tree (parents, depths, self times) and the per-thread orders, by one sweep of
 * each thread's ranges and calls merged in gs_nest_item_cmp's order as they are read. */
static int build_tree(gs_trace *t)
{
    size_t n = t->apis.n;
    for (size_t i = 0; i < t->ranges.n; i++) {
        gs_range *r = &t->ranges.v[i];
        r->parent = GS_NONE;
        r->depth = 0;
        r->self_ns = r->end - r->start;
        n += gs_range_in_op_tree(r);
    }
    for (size_t i = 0; i < t->apis.n; i++)
        t->apis.v[i].parent = GS_NONE;
    thread_groups g;
    if (group_by_thread(t, n, &g) != 0)
        return -1;
    nest_sweep w = {t, gs_array_new(n, sizeof *w.stack), 0};
    t->thread_ranges.n = t->thread_apis.n = 0;
    if (!w.stack ||
        gs_grow((void **)&t->thread_ranges.v, &t->thread_ranges.cap, n - t->apis.n + 1,
                sizeof *t->thread_ranges.v) != 0 ||
        gs_grow((void **)&t->thread_apis.v, &t->thread_apis.cap, t->apis.n + 1,
                sizeof *t->thread_apis.v) != 0) {
        free(g.by_thread);
        free(g.first);
        free(w.stack);
        return -1;
    }
    const uint32_t *by = g.by_thread;
    for (size_t th = 0; th < g.nthreads; th++) {
        size_t r = g.first[2 * th], r_end = g.first[2 * th + 1];
        size_t a = r_end, a_end = g.first[2 * th + 2];
        w.depth = 0;
        while (r < r_end && a < a_end) {
            if (range_first(&t->ranges.v[by[r]], &t->apis.v[by[a]]))
                nest_range(&w, by[r++]);
            else
                nest_api(&w, by[a++]);
        }
        while (r < r_end)
            nest_range(&w, by[r++]);
        while (a < a_end)
            nest_api(&w, by[a++]);
    }
    free(g.by_thread);
    free(g.first);
    free(w.stack);
    return 0;
}

/* GPU work is attributed to the range enclosing its launch call; without one (the runtime call
 * was not captured), to the operator with the same External id. The map of External ids is made
 * only when some GPU work needs it: most traces capture every launch call. */
static int link_ops(gs_trace *t)
{
    size_t unlaunched = 0;
    for (size_t i = 0; i < t->kernels.n; i++) {
        gs_kernel *g = &t->kernels.v[i];
        g->op = g->api != GS_NONE ? t->apis.v[g->api].parent : GS_NONE;
        unlaunched += g->op == GS_NONE && g->external_id > 0;
    }
    for (size_t i = 0; i < t->memops.n; i++) {
        gs_memop *g = &t->memops.v[i];
        g->op = g->api != GS_NONE ? t->apis.v[g->api].parent : GS_NONE;
        unlaunched += g->op == GS_NONE && g->external_id > 0;
    }
    if (!unlaunched)
        return 0;
    u64_map ext;
    if (map_init(&ext, t->ranges.n) != 0) {
        map_free(&ext);
        return -1;
    }
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (r->kind == GS_RANGE_OP && r->external_id > 0)
            map_put(&ext, (uint64_t)r->external_id, (uint32_t)i);
    }
    for (size_t i = 0; i < t->kernels.n; i++) {
        gs_kernel *g = &t->kernels.v[i];
        if (g->op == GS_NONE && g->external_id > 0)
            g->op = map_get(&ext, (uint64_t)g->external_id);
    }
    for (size_t i = 0; i < t->memops.n; i++) {
        gs_memop *g = &t->memops.v[i];
        if (g->op == GS_NONE && g->external_id > 0)
            g->op = map_get(&ext, (uint64_t)g->external_id);
    }
    map_free(&ext);
    return 0;
}

/* The arrays other than the ranges, sorted on a second thread while the ranges, the largest
 * (over 100 bytes an element) in most traces, are sorted on the caller's: on the 521 MB trace of
 * doc/performance.md, 67 MB against 79. */
static void *sort_other_arrays(void *arg)
{
    gs_trace *t = arg;
    bool failed = SORT_ARRAY(t->apis, gs_api, start, end) ||
                  SORT_ARRAY(t->kernels, gs_kernel, start, end) ||
                  SORT_ARRAY(t->memops, gs_memop, start, end) ||
                  SORT_ARRAY(t->syncs, gs_gpu_sync, start, end) ||
                  SORT_ARRAY(t->instants, gs_instant, ts, ts) ||
                  SORT_ARRAY(t->mem_events, gs_mem_event, ts, ts) ||
                  SORT_ARRAY(t->counters, gs_counter, ts, ts);
    return failed ? t : NULL;
}

static int sort_arrays(gs_trace *t)
{
    gs_beside other;
    gs_beside_start(&other, sort_other_arrays, t);
    bool failed = SORT_ARRAY(t->ranges, gs_range, start, end);
    return gs_beside_join(&other) || failed ? -1 : 0;
}

static void *link_correlations_apart(void *arg)
{
    return link_correlations(arg) != 0 ? arg : NULL;
}

int gs_trace_index(gs_trace *t, gs_error *err)
{
    if (sort_arrays(t) != 0)
        return gs_fail_oom(err);
    /* The correlations on a second thread while the tree is built on this one: they write
     * different fields (the calls' GPU work and the GPU work's call; the parents). */
    gs_beside other;
    gs_beside_start(&other, link_correlations_apart, t);
    int rc = build_tree(t);
    if (gs_beside_join(&other) || rc != 0 || link_ops(t) != 0)
        return gs_fail_oom(err);
    t->indexed = true;
    return 0;
}
