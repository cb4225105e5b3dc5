/* Events sorted by (start, the longer first, file order) through a permutation (time_sort.h):
 * one stable radix sort of their indices by start, then each run of equal starts put in order by
 * end, then the elements moved in place. */
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

/* Whether index a comes before index b among events with the same start: the later end first,
 * then file order. */
static bool tie_before(const uint64_t *end_key, uint32_t a, uint32_t b)
{
    return end_key[a] != end_key[b] ? end_key[a] > end_key[b] : a < b;
}

typedef struct tied {
    uint64_t end_key;
    uint32_t index;
} tied;

static int cmp_tied(const void *pa, const void *pb)
{
    const tied *a = pa, *b = pb;
    if (a->end_key != b->end_key)
        return a->end_key > b->end_key ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* order[0..n), indices of events with one start, put in tie_before's order: by insertion when
 * few (most runs are two or three events: times in whole µs tie often), else by qsort over
 * their ends gathered. 0, or -1 out of memory. */
static int order_ties(uint32_t *order, size_t n, const uint64_t *end_key)
{
    enum { FEW = 16 };
    if (n <= FEW) {
        for (size_t i = 1; i < n; i++) {
            uint32_t x = order[i];
            size_t j = i;
            for (; j > 0 && tie_before(end_key, x, order[j - 1]); j--)
                order[j] = order[j - 1];
            order[j] = x;
        }
        return 0;
    }
    tied *v = gs_array_new(n, sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < n; i++)
        v[i] = (tied){end_key[order[i]], order[i]};
    qsort(v, n, sizeof *v, cmp_tied);
    for (size_t i = 0; i < n; i++)
        order[i] = v[i].index;
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

static int radix_sort(const uint64_t *key, size_t n, uint32_t *order, uint64_t *sorted_key);

int gs_sort_by_time(void *base, size_t n, size_t size, size_t start_off, size_t end_off)
{
    if (n < 2)
        return 0;
    char *bytes = base;
    bool sorted = true;
    for (size_t i = 1; i < n && sorted; i++) {
        gs_ns s0 = time_at(bytes, i - 1, size, start_off), s1 = time_at(bytes, i, size, start_off);
        gs_ns e0 = time_at(bytes, i - 1, size, end_off), e1 = time_at(bytes, i, size, end_off);
        sorted = s0 < s1 || (s0 == s1 && e0 >= e1);
    }
    if (sorted)
        return 0;
    uint64_t *start_key = gs_array_new(n, sizeof *start_key);
    uint64_t *end_key = gs_array_new(n, sizeof *end_key);
    uint32_t *order = gs_array_new(n, sizeof *order);
    char *held = malloc(size);
    int rc = start_key && end_key && order && held ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        start_key[i] = gs_radix_key(time_at(bytes, i, size, start_off));
        end_key[i] = gs_radix_key(time_at(bytes, i, size, end_off));
        order[i] = (uint32_t)i;
    }
    /* By start, ties in file order; start_key then holds the starts in that order. */
    if (rc == 0)
        rc = radix_sort(start_key, n, order, start_key);
    for (size_t i = 0; rc == 0 && i < n;) {
        size_t j = i + 1;
        while (j < n && start_key[j] == start_key[i])
            j++;
        if (j - i > 1)
            rc = order_ties(order + i, j - i, end_key);
        i = j;
    }
    if (rc == 0)
        permute(bytes, n, size, order, held);
    free(start_key);
    free(end_key);
    free(order);
    free(held);
    return rc;
}

/* Digits of at most 11 bits: a pass's 2048 counters stay in the first-level cache, and the 35
 * bits a trace of half a minute spans in ns take three passes. */
enum { DIGIT_BITS_MAX = 11, DIGITS_MAX = 1 << DIGIT_BITS_MAX, PASSES_MAX = 6 };

/* gs_radix_order, which also writes the keys in their sorted order into sorted_key (which may
 * be key itself) when it is not NULL. The keys travel with their indices from pass to pass, so
 * that each pass reads both in sequence rather than each index's key wherever it lies. */
static int radix_sort(const uint64_t *key, size_t n, uint32_t *order, uint64_t *sorted_key)
{
    if (n < 2)
        return 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        lo = key[i] < lo ? key[i] : lo;
        hi = key[i] > hi ? key[i] : hi;
    }
    if (lo == hi) {
        for (size_t i = 0; sorted_key && i < n; i++)
            sorted_key[i] = lo;
        return 0;
    }
    unsigned bits = 64u - (unsigned)__builtin_clzll(hi - lo);
    unsigned passes = (bits + DIGIT_BITS_MAX - 1) / DIGIT_BITS_MAX;
    unsigned width = (bits + passes - 1) / passes;
    uint64_t mask = (UINT64_C(1) << width) - 1;
    uint64_t *key_a = gs_array_new(n, sizeof *key_a), *key_b = gs_array_new(n, sizeof *key_b);
    uint32_t *index_b = gs_array_new(n, sizeof *index_b);
    size_t(*count)[DIGITS_MAX] = calloc(PASSES_MAX, sizeof *count);
    int rc = key_a && key_b && index_b && count ? 0 : -1;
    /* The keys in order's order, less lo, and every pass's counts in one sweep. */
    for (size_t i = 0; rc == 0 && i < n; i++) {
        uint64_t k = key[order[i]] - lo;
        key_a[i] = k;
        for (unsigned p = 0; p < passes; p++)
            count[p][(k >> (p * width)) & mask]++;
    }
    unsigned last = 0; /* the last pass that moves anything: one digit for all moves nothing */
    for (unsigned p = 0; rc == 0 && p < passes; p++)
        if (count[p][(key_a[0] >> (p * width)) & mask] != n)
            last = p + 1;
    uint64_t *ks = key_a, *kd = key_b;
    uint32_t *is = order, *id = index_b;
    for (unsigned p = 0; rc == 0 && p < last; p++) {
        unsigned shift = p * width;
        if (count[p][(ks[0] >> shift) & mask] == n)
            continue;
        size_t at = 0;
        for (size_t d = 0; d <= mask; d++) {
            size_t c = count[p][d];
            count[p][d] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++) {
            size_t to = count[p][(ks[i] >> shift) & mask]++;
            kd[to] = ks[i];
            id[to] = is[i];
        }
        uint64_t *kswap = ks;
        ks = kd;
        kd = kswap;
        uint32_t *iswap = is;
        is = id;
        id = iswap;
    }
    if (rc == 0 && is != order)
        memcpy(order, is, n * sizeof *order);
    for (size_t i = 0; rc == 0 && sorted_key && i < n; i++)
        sorted_key[i] = ks[i] + lo;
    free(key_a);
    free(key_b);
    free(index_b);
    free(count);
    return rc;
}

int gs_radix_order(const uint64_t *key, size_t n, uint32_t *order)
{
    return radix_sort(key, n, order, NULL);
}
