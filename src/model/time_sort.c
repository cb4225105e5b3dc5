/* Events sorted by (start, the longer first, file order) through a permutation (time_sort.h):
 * stable radix passes over their indices, by end then by start, then the elements moved in
 * place. */
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
    uint64_t *key = gs_array_new(n, sizeof *key);
    uint32_t *order = gs_array_new(n, sizeof *order);
    char *held = malloc(size);
    int rc = key && order && held ? 0 : -1;
    /* Stable passes: by end, the later first, then by start; ties stay in file order. */
    for (size_t i = 0; rc == 0 && i < n; i++) {
        key[i] = ~gs_radix_key(time_at(bytes, i, size, end_off));
        order[i] = (uint32_t)i;
    }
    if (rc == 0)
        rc = gs_radix_order(key, n, order);
    for (size_t i = 0; rc == 0 && i < n; i++)
        key[i] = gs_radix_key(time_at(bytes, i, size, start_off));
    if (rc == 0)
        rc = gs_radix_order(key, n, order);
    /* Element i takes element order[i]: applied in place, one cycle of the permutation at a time
     * (a position done points at itself), not through a copy of the whole array. */
    for (size_t i = 0; rc == 0 && i < n; i++) {
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
    free(key);
    free(order);
    free(held);
    return rc;
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
    uint32_t *tmp = gs_array_new(n, sizeof *tmp), *src = order, *dst = tmp;
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
