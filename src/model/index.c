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
    gs_nest_item *items = malloc((n ? n : 1) * sizeof *items);
    uint32_t *stack = malloc((n ? n : 1) * sizeof *stack);
    if (!items || !stack) {
        free(items);
        free(stack);
        return -1;
    }
    size_t k = 0;
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (gs_range_in_op_tree(r))
            items[k++] = (gs_nest_item){r->pid, r->tid, r->start, r->end, (uint32_t)i, 0};
    }
    for (size_t i = 0; i < t->apis.n; i++) {
        const gs_api *a = &t->apis.v[i];
        t->apis.v[i].parent = GS_NONE;
        items[k++] = (gs_nest_item){a->pid, a->tid, a->start, a->end, (uint32_t)i, 1};
    }
    qsort(items, k, sizeof *items, gs_nest_item_cmp);
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
