/* Builds the indexes of a loaded trace once: every array sorted by start, GPU activity linked to
 * its launching API call by correlation id, the operator tree per thread with self times, and each
 * GPU activity linked to the operator that launched it. Sorts, then linear sweeps: no per-event
 * searches. */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/nesting.h"
#include "model/trace.h"

/* ---- sorting by (start asc, end desc, file order) through a permutation -------------------- */

typedef struct sort_key {
    gs_ns start, end;
    uint32_t idx;
} sort_key;

static int cmp_sort_key(const void *pa, const void *pb)
{
    const sort_key *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end > b->end ? -1 : 1; /* longer first: a parent precedes its children */
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Sorts `n` elements of `size` bytes at `base`; start/end are read at the given offsets. */
static int sort_events(void *base, size_t n, size_t size, size_t start_off, size_t end_off)
{
    if (n < 2)
        return 0;
    char *bytes = base;
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; i++) {
        gs_ns s0, s1, e0, e1;
        memcpy(&s0, bytes + (i - 1) * size + start_off, sizeof s0);
        memcpy(&s1, bytes + i * size + start_off, sizeof s1);
        memcpy(&e0, bytes + (i - 1) * size + end_off, sizeof e0);
        memcpy(&e1, bytes + i * size + end_off, sizeof e1);
        sorted = s0 < s1 || (s0 == s1 && e0 >= e1);
    }
    if (sorted)
        return 0;
    sort_key *keys = malloc(n * sizeof *keys);
    char *held = malloc(size);
    if (!keys || !held) {
        free(keys);
        free(held);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        memcpy(&keys[i].start, bytes + i * size + start_off, sizeof(gs_ns));
        memcpy(&keys[i].end, bytes + i * size + end_off, sizeof(gs_ns));
        keys[i].idx = (uint32_t)i;
    }
    qsort(keys, n, sizeof *keys, cmp_sort_key);
    /* Element i takes element keys[i].idx: applied in place, one cycle of the permutation at a
     * time (a position done points at itself), not through a copy of the whole array. */
    for (size_t i = 0; i < n; i++) {
        if (keys[i].idx == i)
            continue;
        memcpy(held, bytes + i * size, size);
        size_t j = i;
        for (;;) {
            size_t from = keys[j].idx;
            keys[j].idx = (uint32_t)j;
            if (from == i) {
                memcpy(bytes + j * size, held, size);
                break;
            }
            memcpy(bytes + j * size, bytes + from * size, size);
            j = from;
        }
    }
    free(keys);
    free(held);
    return 0;
}

#define SORT_ARRAY(vec, T, first, last)                                                            \
    sort_events((vec).v, (vec).n, sizeof(T), offsetof(T, first), offsetof(T, last))

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

/* The host threads of the op-tree ranges and the API calls, each given its place in (pid, tid)
 * order: what the nesting items are grouped by. */
typedef struct thread_key {
    int64_t pid, tid;
    uint32_t ordinal;
} thread_key;

typedef struct thread_map {
    thread_key *slots; /* ordinal UINT32_MAX: empty */
    size_t mask, n;
} thread_map;

static size_t hash_thread(int64_t pid, int64_t tid)
{
    return hash_u64((uint64_t)pid * 0x9e3779b97f4a7c15ULL ^ (uint64_t)tid);
}

/* The slot of (pid, tid), taken for it when new. */
static thread_key *thread_slot(thread_map *m, int64_t pid, int64_t tid)
{
    size_t i = hash_thread(pid, tid) & m->mask;
    while (m->slots[i].ordinal != UINT32_MAX && (m->slots[i].pid != pid || m->slots[i].tid != tid))
        i = (i + 1) & m->mask;
    if (m->slots[i].ordinal == UINT32_MAX) {
        m->slots[i] = (thread_key){pid, tid, 0};
        m->n++;
    }
    return &m->slots[i];
}

static int cmp_thread_key(const void *pa, const void *pb)
{
    const thread_key *a = pa, *b = pb;
    if (a->pid != b->pid)
        return a->pid < b->pid ? -1 : 1;
    return a->tid < b->tid ? -1 : a->tid > b->tid;
}

/* Numbers the threads of n intervals in (pid, tid) order. */
static int number_threads(const gs_trace *t, thread_map *m, size_t n)
{
    size_t cap = 16;
    while (cap < n * 2)
        cap *= 2;
    m->slots = malloc(cap * sizeof *m->slots);
    if (!m->slots)
        return -1;
    m->mask = cap - 1;
    m->n = 0;
    for (size_t i = 0; i < cap; i++)
        m->slots[i].ordinal = UINT32_MAX;
    for (size_t i = 0; i < t->ranges.n; i++)
        if (gs_range_in_op_tree(&t->ranges.v[i]))
            thread_slot(m, t->ranges.v[i].pid, t->ranges.v[i].tid);
    for (size_t i = 0; i < t->apis.n; i++)
        thread_slot(m, t->apis.v[i].pid, t->apis.v[i].tid);
    thread_key *keys = malloc((m->n ? m->n : 1) * sizeof *keys);
    if (!keys)
        return -1;
    size_t k = 0;
    for (size_t i = 0; i < cap; i++)
        if (m->slots[i].ordinal != UINT32_MAX)
            keys[k++] = m->slots[i];
    qsort(keys, k, sizeof *keys, cmp_thread_key);
    for (size_t i = 0; i < k; i++)
        thread_slot(m, keys[i].pid, keys[i].tid)->ordinal = (uint32_t)i;
    free(keys);
    return 0;
}

/* Whether range item r comes before call item a in gs_nest_item_cmp's order, both of one thread:
 * by start, the longer first, a range before a call with the same interval. */
static bool range_first(const gs_nest_item *r, const gs_nest_item *a)
{
    return r->start != a->start ? r->start < a->start : r->end >= a->end;
}

/* The op-tree ranges and the API calls as nesting items in gs_nest_item_cmp's order, without a
 * sort: both arrays are already by (start, the longer first, index), so the items are each
 * thread's ranges and calls merged, threads in (pid, tid) order. *k: how many. */
static gs_nest_item *nest_items(const gs_trace *t, size_t n, size_t *k)
{
    thread_map m = {0};
    gs_nest_item *items = malloc((n ? n : 1) * sizeof *items);
    gs_nest_item *by_thread = malloc((n ? n : 1) * sizeof *by_thread);
    size_t *first = NULL, *fill = NULL;
    if (!items || !by_thread || number_threads(t, &m, n) != 0)
        goto fail;
    first = calloc(2 * m.n + 1, sizeof *first); /* per thread: its ranges, then its calls */
    fill = malloc((2 * m.n + 1) * sizeof *fill);
    if (!first || !fill)
        goto fail;
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (gs_range_in_op_tree(r))
            first[2 * thread_slot(&m, r->pid, r->tid)->ordinal + 1]++;
    }
    for (size_t i = 0; i < t->apis.n; i++)
        first[2 * thread_slot(&m, t->apis.v[i].pid, t->apis.v[i].tid)->ordinal + 2]++;
    for (size_t g = 1; g <= 2 * m.n; g++)
        first[g] += first[g - 1];
    memcpy(fill, first, (2 * m.n + 1) * sizeof *fill);
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (gs_range_in_op_tree(r))
            by_thread[fill[2 * thread_slot(&m, r->pid, r->tid)->ordinal]++] =
                (gs_nest_item){r->pid, r->tid, r->start, r->end, (uint32_t)i, 0};
    }
    for (size_t i = 0; i < t->apis.n; i++) {
        const gs_api *a = &t->apis.v[i];
        by_thread[fill[2 * thread_slot(&m, a->pid, a->tid)->ordinal + 1]++] =
            (gs_nest_item){a->pid, a->tid, a->start, a->end, (uint32_t)i, 1};
    }
    size_t out = 0;
    for (size_t th = 0; th < m.n; th++) {
        size_t r = first[2 * th], r_end = first[2 * th + 1], a = r_end, a_end = first[2 * th + 2];
        while (r < r_end && a < a_end)
            items[out++] = range_first(&by_thread[r], &by_thread[a]) ? by_thread[r++]
                                                                       : by_thread[a++];
        while (r < r_end)
            items[out++] = by_thread[r++];
        while (a < a_end)
            items[out++] = by_thread[a++];
    }
    *k = out;
    free(m.slots);
    free(by_thread);
    free(first);
    free(fill);
    return items;
fail:
    free(m.slots);
    free(items);
    free(by_thread);
    free(first);
    free(fill);
    return NULL;
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
    size_t k = 0;
    gs_nest_item *items = nest_items(t, n, &k);
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
 * was not captured), to the operator with the same External id. */
static int link_ops(gs_trace *t)
{
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
        g->op = g->api != GS_NONE ? t->apis.v[g->api].parent : GS_NONE;
        if (g->op == GS_NONE && g->external_id > 0)
            g->op = map_get(&ext, (uint64_t)g->external_id);
    }
    for (size_t i = 0; i < t->memops.n; i++) {
        gs_memop *g = &t->memops.v[i];
        g->op = g->api != GS_NONE ? t->apis.v[g->api].parent : GS_NONE;
        if (g->op == GS_NONE && g->external_id > 0)
            g->op = map_get(&ext, (uint64_t)g->external_id);
    }
    map_free(&ext);
    return 0;
}

/* The arrays other than the host's calls and ranges, sorted on a second thread while those two,
 * the largest in most traces, are sorted on the caller's. */
static void *sort_other_arrays(void *arg)
{
    gs_trace *t = arg;
    bool failed = SORT_ARRAY(t->kernels, gs_kernel, start, end) ||
                  SORT_ARRAY(t->memops, gs_memop, start, end) ||
                  SORT_ARRAY(t->syncs, gs_gpu_sync, start, end) ||
                  SORT_ARRAY(t->instants, gs_instant, ts, ts) ||
                  SORT_ARRAY(t->mem_events, gs_mem_event, ts, ts) ||
                  SORT_ARRAY(t->counters, gs_counter, ts, ts);
    return failed ? t : NULL;
}

static int sort_arrays(gs_trace *t)
{
    pthread_t other;
    bool threaded = pthread_create(&other, NULL, sort_other_arrays, t) == 0;
    void *other_failed = threaded ? NULL : sort_other_arrays(t);
    bool failed = SORT_ARRAY(t->apis, gs_api, start, end) ||
                  SORT_ARRAY(t->ranges, gs_range, start, end);
    if (threaded)
        pthread_join(other, &other_failed);
    return failed || other_failed ? -1 : 0;
}

int gs_trace_index(gs_trace *t, gs_error *err)
{
    if (sort_arrays(t) != 0)
        return gs_fail_oom(err);
    if (link_correlations(t) != 0 || build_tree(t) != 0 || link_ops(t) != 0)
        return gs_fail_oom(err);
    t->indexed = true;
    return 0;
}
