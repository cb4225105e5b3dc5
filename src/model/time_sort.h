/* The model's arrays in time order: by start, the longer first (a parent before its children),
 * then in file order; what gs_trace_index sorts every array by. */
#ifndef GS_MODEL_TIME_SORT_H
#define GS_MODEL_TIME_SORT_H

#include <stddef.h>
#include <stdint.h>

/* Sorts `n` elements of `size` bytes at `base`, whose start and end times (gs_ns) are at the
 * given offsets. 0, or -1 out of memory (the array is then unchanged). */
int gs_sort_by_time(void *base, size_t n, size_t size, size_t start_off, size_t end_off);

/* Puts order[0..n) (indices into key[]) in ascending order of key[], ties left in the order
 * they have: a stable radix sort over the bits the keys span. 0, or -1 out of memory (order
 * then unchanged). */
int gs_radix_order(const uint64_t *key, size_t n, uint32_t *order);

/* A signed value as a gs_radix_order key, which sorts unsigned in the value's order. */
static inline uint64_t gs_radix_key(int64_t v)
{
    return (uint64_t)v ^ (1ULL << 63);
}

/* A pair of signed values as one key: by hi, then lo (a GPU's device, then its stream). */
static inline uint64_t gs_radix_key_pair(int32_t hi, int32_t lo)
{
    return (uint64_t)(uint32_t)(hi ^ INT32_MIN) << 32 | (uint32_t)(lo ^ INT32_MIN);
}

#endif
