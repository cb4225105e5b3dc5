/* Events sorted by (start, the longer first, file order) through a permutation (time_sort.h):
 * the runs already in that order merged when there are few of them (a reader's arrays come in a
 * few: 1 to 3 on the public traces looked at, 12 to 23 on doc/performance.md's benchmark input),
 * else one stable radix sort of their indices by start, then each run of equal starts put in
 * order by end; then the elements moved in place. */
#include "model/time_sort.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"
#include "model/trace.h"

static gs_ns time_at(const char *bytes, size_t i, size_t size, size_t off)
{
    gs_ns v;
    memcpy(&v, bytes + i * size + off, sizeof v);
    return v;
}

/* The events being sorted: where their ends are read. */
typedef struct events {
    const char *bytes;
    size_t size, end_off;
} events;

/* An event of a run of one start, with its end: what ties are put in order by. */
typedef struct tied {
    gs_ns end;
    uint32_t index;
} tied;

/* The order of events of one start: the later end first, then file order. */
static int cmp_tied(const void *pa, const void *pb)
{
    const tied *a = pa, *b = pb;
    if (a->end != b->end)
        return a->end > b->end ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* order[0..n), events of one start, put in cmp_tied's order over their ends gathered: by insertion
 * when few (most runs are two or three events: times in whole µs tie often), else by qsort. 0, or
 * -1 out of memory. */
static int order_ties(uint32_t *order, size_t n, const events *ev)
{
    enum { FEW = 16 };
    tied few[FEW];
    tied *v = n <= FEW ? few : gs_array_new(n, sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < n; i++)
        v[i] = (tied){time_at(ev->bytes, order[i], ev->size, ev->end_off), order[i]};
    if (n <= FEW) {
        for (size_t i = 1; i < n; i++) {
            tied x = v[i];
            size_t j = i;
            for (; j > 0 && cmp_tied(&x, &v[j - 1]) < 0; j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
    } else {
        qsort(v, n, sizeof *v, cmp_tied);
    }
    for (size_t i = 0; i < n; i++)
        order[i] = v[i].index;
    if (v != few)
        free(v);
    return 0;
}

/* Element i takes element order[i]: applied in place, one cycle of the permutation at a time (a
 * position done points at itself), not through a copy of the whole array. */
static void permute(char *bytes, size_t n, size_t size, uint32_t *order, char *held)
{
    for (size_t i = 0; i < n; i++) {
        if (order[i] == i)
            continue;
        memcpy(held, bytes + i * size, size);
        size_t j = i;
        for (;;) {
            size_t from = order[j];
            order[j] = (uint32_t)j;
            if (from == i) {
                memcpy(bytes + j * size, held, size);
                break;
            }
            memcpy(bytes + j * size, bytes + from * size, size);
            j = from;
        }
    }
}

/* Runs in order merged when at most this many: a heap of heads costs log2 of it per element,
 * where the radix sort reads and writes every element's key three times over. */
enum { MERGE_RUNS_MAX = 64 };

/* Whether the element after `prev` keeps the order: a later start, or the same and not longer. */
static bool in_order(gs_ns prev_start, gs_ns prev_end, gs_ns start, gs_ns end)
{
    return prev_start < start || (prev_start == start && prev_end >= end);
}

/* The runs of elements already in order: run[r] is run r's first element, run[count] = n.
 * Returns the count, or MERGE_RUNS_MAX + 1 when there are more (run[] then partly written). */
static size_t find_runs(const events *ev, size_t n, size_t start_off, size_t *run)
{
    size_t count = 1;
    run[0] = 0;
    gs_ns s0 = time_at(ev->bytes, 0, ev->size, start_off);
    gs_ns e0 = time_at(ev->bytes, 0, ev->size, ev->end_off);
    for (size_t i = 1; i < n; i++) {
        gs_ns s1 = time_at(ev->bytes, i, ev->size, start_off);
        gs_ns e1 = time_at(ev->bytes, i, ev->size, ev->end_off);
        if (!in_order(s0, e0, s1, e1)) {
            if (count == MERGE_RUNS_MAX)
                return MERGE_RUNS_MAX + 1;
            run[count++] = i;
        }
        s0 = s1;
        e0 = e1;
    }
    run[count] = n;
    return count;
}

/* A run's next element, as the merge compares it. */
typedef struct head {
    gs_ns start, end;
    uint32_t index;
} head;

/* The order of the sort: by start, the longer first, then file order (the index). */
static bool head_before(const head *a, const head *b)
{
    if (a->start != b->start)
        return a->start < b->start;
    if (a->end != b->end)
        return a->end > b->end;
    return a->index < b->index;
}

static head head_at(const events *ev, size_t start_off, size_t i)
{
    return (head){time_at(ev->bytes, i, ev->size, start_off),
                  time_at(ev->bytes, i, ev->size, ev->end_off), (uint32_t)i};
}

/* Moves heap slot i down to its place: heap[] holds runs by their heads' order. */
static void sift_down(uint32_t *heap, size_t n, const head *heads, size_t i)
{
    uint32_t r = heap[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && head_before(&heads[heap[c + 1]], &heads[heap[c]]))
            c++;
        if (!head_before(&heads[heap[c]], &heads[r]))
            break;
        heap[i] = heap[c];
        i = c;
    }
    heap[i] = r;
}

/* order[0..n): the elements by the sort's order, merged from the `count` runs in order that
 * run[] bounds. */
static void merge_runs(const events *ev, size_t n, size_t start_off, const size_t *run,
                       size_t count, uint32_t *order)
{
    head heads[MERGE_RUNS_MAX];
    uint32_t heap[MERGE_RUNS_MAX];
    size_t next[MERGE_RUNS_MAX], live = count;
    for (size_t r = 0; r < count; r++) {
        heads[r] = head_at(ev, start_off, run[r]);
        next[r] = run[r] + 1;
        heap[r] = (uint32_t)r;
    }
    for (size_t i = live / 2; i-- > 0;)
        sift_down(heap, live, heads, i);
    for (size_t k = 0; k < n; k++) {
        uint32_t r = heap[0];
        order[k] = heads[r].index;
        if (next[r] < run[r + 1])
            heads[r] = head_at(ev, start_off, next[r]++);
        else
            heap[0] = heap[--live];
        if (live)
            sift_down(heap, live, heads, 0);
    }
}

int gs_sort_by_time(void *base, size_t n, size_t size, size_t start_off, size_t end_off)
{
    if (n < 2)
        return 0;
    char *bytes = base;
    const events ev = {bytes, size, end_off};
    size_t run[MERGE_RUNS_MAX + 1];
    size_t runs = find_runs(&ev, n, start_off, run);
    if (runs == 1)
        return 0;
    uint32_t *order = gs_array_new(n, sizeof *order);
    char *held = malloc(size);
    if (order && held && runs <= MERGE_RUNS_MAX) {
        merge_runs(&ev, n, start_off, run, runs, order);
        permute(bytes, n, size, order, held);
        free(order);
        free(held);
        return 0;
    }
    uint64_t *start_key = gs_array_new(n, sizeof *start_key);
    int rc = start_key && order && held ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        start_key[i] = gs_radix_key(time_at(bytes, i, size, start_off));
        order[i] = (uint32_t)i;
    }
    /* By start, ties in file order, then each run of one start by end. */
    if (rc == 0)
        rc = gs_radix_order(start_key, n, order);
    for (size_t i = 0; rc == 0 && i < n;) {
        size_t j = i + 1;
        while (j < n && start_key[order[j]] == start_key[order[i]])
            j++;
        if (j - i > 1)
            rc = order_ties(order + i, j - i, &ev);
        i = j;
    }
    if (rc == 0)
        permute(bytes, n, size, order, held);
    free(start_key);
    free(order);
    free(held);
    return rc;
}

/* Digits of at most 11 bits: a pass's 2048 counters stay in the first-level cache, and times in
 * ns take three passes over a span of up to 8.6 s (33 bits), four up to 4.9 hours (44 bits); in
 * 8-bit digits they took five and six. 12 bits gained nothing on doc/performance.md's input. */
enum { DIGIT_BITS_MAX = 11, DIGITS_MAX = 1 << DIGIT_BITS_MAX, PASSES_MAX = 6 };

int gs_radix_order(const uint64_t *key, size_t n, uint32_t *order)
{
    if (n < 2)
        return 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        lo = key[i] < lo ? key[i] : lo;
        hi = key[i] > hi ? key[i] : hi;
    }
    if (lo == hi)
        return 0;
    unsigned bits = 64u - (unsigned)__builtin_clzll(hi - lo);
    unsigned passes = (bits + DIGIT_BITS_MAX - 1) / DIGIT_BITS_MAX;
    unsigned width = (bits + passes - 1) / passes;
    uint64_t mask = (UINT64_C(1) << width) - 1;
    uint32_t *tmp = gs_array_new(n, sizeof *tmp);
    size_t(*count)[DIGITS_MAX] = calloc(PASSES_MAX, sizeof *count);
    int rc = tmp && count ? 0 : -1;
    /* Every pass's counts in one sweep over the keys, which they do not depend on the order of. */
    for (size_t i = 0; rc == 0 && i < n; i++) {
        uint64_t k = key[i] - lo;
        for (unsigned p = 0; p < passes; p++)
            count[p][(k >> (p * width)) & mask]++;
    }
    uint32_t *src = order, *dst = tmp;
    for (unsigned p = 0; rc == 0 && p < passes; p++) {
        unsigned shift = p * width;
        if (count[p][((key[0] - lo) >> shift) & mask] == n)
            continue; /* one digit for all: the pass would move nothing */
        size_t at = 0;
        for (size_t d = 0; d <= mask; d++) {
            size_t c = count[p][d];
            count[p][d] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            dst[count[p][((key[src[i]] - lo) >> shift) & mask]++] = src[i];
        uint32_t *swap = src;
        src = dst;
        dst = swap;
    }
    if (rc == 0 && src != order)
        memcpy(order, src, n * sizeof *order);
    free(tmp);
    free(count);
    return rc;
}
