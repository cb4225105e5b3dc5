#include "common/util.h"

#include <stdlib.h>

/* Merges the sorted runs [a, a + na) and [b, b + nb) of `size`-byte elements into out. */
static void merge(const char *a, size_t na, const char *b, size_t nb, size_t size,
                  int (*cmp)(const void *, const void *), char *out)
{
    while (na && nb) {
        const char **from = cmp(b, a) < 0 ? &b : &a; /* ties take a: the earlier run */
        memcpy(out, *from, size);
        out += size;
        *from += size;
        if (from == &a)
            na--;
        else
            nb--;
    }
    memcpy(out, na ? a : b, (na ? na : nb) * size);
}

/* In place, element by element: slow on long arrays, but needs no memory. */
static void insertion_sort(char *base, size_t n, size_t size,
                           int (*cmp)(const void *, const void *))
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && cmp(base + (j - 1) * size, base + j * size) > 0; j--)
            for (size_t k = 0; k < size; k++) { /* swap elements j - 1 and j */
                char c = base[(j - 1) * size + k];
                base[(j - 1) * size + k] = base[j * size + k];
                base[j * size + k] = c;
            }
}

void gs_stable_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n < 2)
        return;
    char *tmp = malloc(n * size);
    if (!tmp) {
        insertion_sort(base, n, size, cmp);
        return;
    }
    char *from = base, *to = tmp;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            merge(from + lo * size, mid - lo, from + mid * size, hi - mid, size, cmp,
                  to + lo * size);
        }
        char *swap = from;
        from = to;
        to = swap;
    }
    if (from != base)
        memcpy(base, from, n * size);
    free(tmp);
}
