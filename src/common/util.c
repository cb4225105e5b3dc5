#include "common/util.h"

#include <ctype.h>
#include <stdlib.h>

/* What the elements are ordered by: a comparator, or an int32_t at an offset in each. */
typedef struct order {
    int (*cmp)(const void *, const void *);
    size_t offset;
} order;

static int compare(const order *o, const void *a, const void *b)
{
    if (o->cmp)
        return o->cmp(a, b);
    int32_t x, y;
    memcpy(&x, (const char *)a + o->offset, sizeof x);
    memcpy(&y, (const char *)b + o->offset, sizeof y);
    return (x > y) - (x < y);
}

/* Merges the sorted runs [a, a + na) and [b, b + nb) of `size`-byte elements into out. */
static void merge(const char *a, size_t na, const char *b, size_t nb, size_t size,
                  const order *o, char *out)
{
    while (na && nb) {
        const char **from = compare(o, b, a) < 0 ? &b : &a; /* ties take a: the earlier run */
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
static void insertion_sort(char *base, size_t n, size_t size, const order *o)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && compare(o, base + (j - 1) * size, base + j * size) > 0; j--)
            for (size_t k = 0; k < size; k++) { /* swap elements j - 1 and j */
                char c = base[(j - 1) * size + k];
                base[(j - 1) * size + k] = base[j * size + k];
                base[j * size + k] = c;
            }
}

static void stable_sort(void *base, size_t n, size_t size, const order *o)
{
    if (n < 2)
        return;
    char *tmp = malloc(n * size);
    if (!tmp) {
        insertion_sort(base, n, size, o);
        return;
    }
    char *from = base, *to = tmp;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            merge(from + lo * size, mid - lo, from + mid * size, hi - mid, size, o,
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

void gs_stable_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    stable_sort(base, n, size, &(order){.cmp = cmp});
}

void gs_stable_sort_by_i32(void *base, size_t n, size_t size, size_t offset)
{
    stable_sort(base, n, size, &(order){.offset = offset});
}

bool gs_has_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = s; *p;) {
        while (*p && !isalnum((unsigned char)*p))
            p++;
        const char *start = p;
        while (*p && isalnum((unsigned char)*p))
            p++;
        if ((size_t)(p - start) != n)
            continue;
        size_t i = 0;
        while (i < n && toupper((unsigned char)start[i]) == toupper((unsigned char)word[i]))
            i++;
        if (i == n)
            return true;
    }
    return false;
}
