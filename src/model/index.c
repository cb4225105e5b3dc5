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
    m->keys = calloc(cap, sizeof *m->keys);
    m->vals = malloc(cap * sizeof *m->vals);
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

static gs_nest_item range_item(const gs_trace *t, uint32_t i)
{
    const gs_range *r = &t->ranges.v[i];
    return (gs_nest_item){r->pid, r->tid, r->start, r->end, i, 0};
}

static gs_nest_item api_item(const gs_trace *t, uint32_t i)
{
    const gs_api *a = &t->apis.v[i];
    return (gs_nest_item){a->pid, a->tid, a->start, a->end, i, 1};
}

/* Whether range r comes before call a in gs_nest_item_cmp's order, both of one thread: by start,
 * the longer first, a range before a call with the same interval. */
static bool range_first(const gs_range *r, const gs_api *a)
{
    return r->start != a->start ? r->start < a->start : r->end >= a->end;
}

/* The op-tree ranges and the API calls as nesting items in gs_nest_item_cmp's order, without a
 * sort: both arrays are already by (start, the longer first, index), so the items are each
 * thread's ranges and calls merged, threads in (pid, tid) order. n: how many; NULL out of
 * memory. */
static gs_nest_item *nest_items(const gs_trace *t, size_t n)
{
    size_t nr = t->ranges.n ? t->ranges.n : 1, na = t->apis.n ? t->apis.n : 1, nthreads = 0;
    gs_nest_item *items = malloc((n ? n : 1) * sizeof *items);
    uint32_t *of_range = malloc(nr * sizeof *of_range), *of_api = malloc(na * sizeof *of_api);
    uint32_t *by_thread = malloc((n ? n : 1) * sizeof *by_thread); /* ranges, then calls */
    size_t *first = NULL;
    bool ok = items && of_range && of_api && by_thread &&
              number_threads(t, of_range, of_api, &nthreads) == 0 &&
              (first = calloc(2 * nthreads + 1, sizeof *first)) != NULL;
    if (ok) {
        /* Per thread: where its ranges start in by_thread, then where its calls do. */
        for (size_t i = 0; i < t->ranges.n; i++)
            if (gs_range_in_op_tree(&t->ranges.v[i]))
                first[2 * of_range[i] + 1]++;
        for (size_t i = 0; i < t->apis.n; i++)
            first[2 * of_api[i] + 2]++;
        for (size_t g = 1; g <= 2 * nthreads; g++)
            first[g] += first[g - 1];
        for (size_t i = 0; i < t->ranges.n; i++)
            if (gs_range_in_op_tree(&t->ranges.v[i]))
                by_thread[first[2 * of_range[i]]++] = (uint32_t)i;
        for (size_t i = 0; i < t->apis.n; i++)
            by_thread[first[2 * of_api[i] + 1]++] = (uint32_t)i;
        /* The fill moved each group's start onto the next group's: back by one group. */
        memmove(first + 1, first, 2 * nthreads * sizeof *first);
        first[0] = 0;
        size_t out = 0;
        for (size_t th = 0; th < nthreads; th++) {
            size_t r = first[2 * th], r_end = first[2 * th + 1];
            size_t a = r_end, a_end = first[2 * th + 2];
            while (r < r_end && a < a_end)
                items[out++] = range_first(&t->ranges.v[by_thread[r]], &t->apis.v[by_thread[a]])
                                   ? range_item(t, by_thread[r++])
                                   : api_item(t, by_thread[a++]);
            while (r < r_end)
                items[out++] = range_item(t, by_thread[r++]);
            while (a < a_end)
                items[out++] = api_item(t, by_thread[a++]);
        }
    }
    free(of_range);
    free(of_api);
    free(by_thread);
    free(first);
    if (!ok) {
        free(items);
        return NULL;
    }
    return items;
}

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
    size_t k = n;
    gs_nest_item *items = nest_items(t, n);
    uint32_t *stack = malloc((n ? n : 1) * sizeof *stack);
    if (!items || !stack) {
        free(items);
        free(stack);
        return -1;
    }
    t->thread_ranges.n = t->thread_apis.n = 0;
    if (gs_grow((void **)&t->thread_ranges.v, &t->thread_ranges.cap, k - t->apis.n + 1,
                sizeof *t->thread_ranges.v) != 0 ||
        gs_grow((void **)&t->thread_apis.v, &t->thread_apis.cap, t->apis.n + 1,
                sizeof *t->thread_apis.v) != 0) {
        free(items);
        free(stack);
        return -1;
    }

    size_t depth = 0;
    for (size_t i = 0; i < k; i++) {
        const gs_nest_item *it = &items[i];
        if (i > 0 && (it->pid != items[i - 1].pid || it->tid != items[i - 1].tid))
            depth = 0;
        /* Pop ranges that do not contain this item (ended before it, or overlap it partially). */
        while (depth > 0) {
            const gs_range *top = &t->ranges.v[stack[depth - 1]];
            if (it->start >= top->start && it->end <= top->end)
                break;
            depth--;
        }
        uint32_t parent = depth ? stack[depth - 1] : GS_NONE;
        if (parent != GS_NONE)
            t->ranges.v[parent].self_ns -= it->end - it->start; /* no overflow: gs_trace_check */
        if (it->is_api) {
            t->thread_apis.v[t->thread_apis.n++] = it->idx;
            t->apis.v[it->idx].parent = parent;
        } else {
            t->thread_ranges.v[t->thread_ranges.n++] = it->idx;
            gs_range *r = &t->ranges.v[it->idx];
            r->parent = parent;
            r->depth = depth > UINT16_MAX ? UINT16_MAX : (uint16_t)depth;
            stack[depth++] = it->idx;
        }
    }
    free(items);
    free(stack);
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
