/* Small helpers every folder uses: the length of an array, qsort comparators of plain numbers,
 * and string predicates. One home, so none is written twice. */
#ifndef GS_COMMON_UTIL_H
#define GS_COMMON_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* The number of elements of an array (not of a pointer). */
#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* qsort comparators, ascending. */
static inline int gs_cmp_i64(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return (a > b) - (a < b);
}

static inline int gs_cmp_i32(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return (a > b) - (a < b);
}

static inline int gs_cmp_u32(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return (a > b) - (a < b);
}

static inline int gs_cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

static inline int gs_cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* A stable sort (equal elements keep their order, unlike qsort's): a merge sort, or an insertion
 * sort in place when memory for the merge is short, so it cannot fail. */
void gs_stable_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* The same by an int32_t at `offset` in each element, ascending: rows put in rank order
 * (gs_stable_sort_by_i32(rows, n, sizeof *rows, offsetof(row_type, rank))). */
void gs_stable_sort_by_i32(void *base, size_t n, size_t size, size_t offset);

static inline bool gs_starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

static inline bool gs_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* Whether `word` is one of the words of s (runs of letters and digits), ignoring case: "H100" in
 * "NVIDIA H100 80GB HBM3", "AMD" in "AMD Instinct MI300X", not in "CAMDEN". */
bool gs_has_word(const char *s, const char *word);

#endif
