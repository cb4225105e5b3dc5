/* Events sorted by (start, the longer first, file order) through a permutation (time_sort.h):
 * a radix sort of (start, end, index) keys, then the elements moved in place. */
#include "model/time_sort.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "model/trace.h"

typedef struct sort_key {
    gs_ns start, end;
    uint32_t idx;
} sort_key;

/* One least-significant-digit pass: keys from src to dst by byte `shift` of their start (or of
 * their end, descending), keeping their order among keys with that byte equal. Skipped (false)
 * when every key has the same byte. */
static bool radix_pass(const sort_key *src, sort_key *dst, size_t n, bool by_end, uint64_t base,
                       unsigned shift)
{
    size_t count[256] = {0};
    for (size_t i = 0; i < n; i++) {
        uint64_t key = by_end ? base - (uint64_t)src[i].end : (uint64_t)src[i].start - base;
        count[(key >> shift) & 0xff]++;
    }
    size_t at = 0;
    for (unsigned d = 0; d < 256; d++) {
        if (count[d] == n)
            return false;
        size_t c = count[d];
        count[d] = at;
        at += c;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t key = by_end ? base - (uint64_t)src[i].end : (uint64_t)src[i].start - base;
        dst[count[(key >> shift) & 0xff]++] = src[i];
    }
    return true;
}

/* Sorts keys (in index order) by start, the longer first, then index: a stable radix sort by end
 * descending, then by start, each over only the bytes its times span (offsets from the least
 * start, or to the greatest end, in unsigned arithmetic: any two int64 are less than 2^64
 * apart). *keys may come back swapped with *tmp. */
static void sort_keys(sort_key **keys, sort_key **tmp, size_t n)
{
    gs_ns min_start = INT64_MAX, max_start = INT64_MIN, min_end = INT64_MAX, max_end = INT64_MIN;
    for (size_t i = 0; i < n; i++) {
        const sort_key *k = &(*keys)[i];
        min_start = k->start < min_start ? k->start : min_start;
        max_start = k->start > max_start ? k->start : max_start;
        min_end = k->end < min_end ? k->end : min_end;
        max_end = k->end > max_end ? k->end : max_end;
    }
    const struct {
        bool by_end;
        uint64_t base, span;
    } keys_by[] = {
        {true, (uint64_t)max_end, (uint64_t)max_end - (uint64_t)min_end},
        {false, (uint64_t)min_start, (uint64_t)max_start - (uint64_t)min_start},
    };
    for (size_t b = 0; b < COUNT_OF(keys_by); b++)
        for (unsigned shift = 0; shift < 64 && (keys_by[b].span >> shift) != 0; shift += 8)
            if (radix_pass(*keys, *tmp, n, keys_by[b].by_end, keys_by[b].base, shift)) {
                sort_key *swap = *keys;
                *keys = *tmp;
                *tmp = swap;
            }
}

int gs_sort_by_time(void *base, size_t n, size_t size, size_t start_off, size_t end_off)
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
    sort_key *keys = malloc(n * sizeof *keys), *tmp = malloc(n * sizeof *tmp);
    char *held = malloc(size);
    if (!keys || !tmp || !held) {
        free(keys);
        free(tmp);
        free(held);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        memcpy(&keys[i].start, bytes + i * size + start_off, sizeof(gs_ns));
        memcpy(&keys[i].end, bytes + i * size + end_off, sizeof(gs_ns));
        keys[i].idx = (uint32_t)i;
    }
    sort_keys(&keys, &tmp, n);
    free(tmp);
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


int gs_radix_order(const uint64_t *key, size_t n, uint32_t *order)
{
    if (n < 2)
        return 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        lo = key[i] < lo ? key[i] : lo;
        hi = key[i] > hi ? key[i] : hi;
    }
    uint32_t *tmp = malloc(n * sizeof *tmp), *src = order, *dst = tmp;
    if (!tmp)
        return -1;
    for (unsigned shift = 0; shift < 64 && ((hi - lo) >> shift) != 0; shift += 8) {
        size_t count[256] = {0};
        for (size_t i = 0; i < n; i++)
            count[((key[src[i]] - lo) >> shift) & 0xff]++;
        bool one_digit = false;
        size_t at = 0;
        for (unsigned d = 0; d < 256; d++) {
            one_digit = one_digit || count[d] == n;
            size_t c = count[d];
            count[d] = at;
            at += c;
        }
        if (one_digit)
            continue;
        for (size_t i = 0; i < n; i++)
            dst[count[((key[src[i]] - lo) >> shift) & 0xff]++] = src[i];
        uint32_t *swap = src;
        src = dst;
        dst = swap;
    }
    if (src != order)
        memcpy(order, src, n * sizeof *order);
    free(tmp);
    return 0;
}
