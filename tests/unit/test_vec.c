/* Growable and large arrays (src/common/vec.h): growth keeps the elements, a push zeroes its
 * element, the array allocators' edge cases, and huge pages for a large array where the system
 * gives them on request. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/vec.h"

typedef struct item {
    uint64_t a;
    uint32_t b;
} item;

static void test_push_and_grow(void)
{
    GS_VEC(item) v = {0};
    for (uint32_t i = 0; i < 100000; i++) {
        item *it = GS_VEC_PUSH(&v);
        CHECK(it != NULL);
        if (!it)
            break;
        it->a = i;
        it->b = i * 3;
    }
    CHECK_INT(v.n, 100000);
    CHECK(v.cap >= v.n);
    bool kept = true;
    for (uint32_t i = 0; i < v.n; i++)
        kept = kept && v.v[i].a == i && v.v[i].b == i * 3;
    CHECK(kept);
    v.n--; /* the last element's room, still holding its values, is pushed again: zeroed */
    item *again = GS_VEC_PUSH(&v);
    CHECK(again && again->a == 0 && again->b == 0);
    GS_VEC_FREE(&v);
    CHECK(v.v == NULL && v.n == 0 && v.cap == 0);
}

static void test_array_edges(void)
{
    uint32_t *none = gs_array_new(0, sizeof *none); /* room for one: callers index [0] safely */
    CHECK(none != NULL);
    free(none);
    uint8_t *zero = gs_array_zeroed(0, 1);
    CHECK(zero != NULL && zero[0] == 0);
    free(zero);
    CHECK(gs_array_new(SIZE_MAX / 4, 8) == NULL); /* the product overflows */
    CHECK(gs_array_zeroed(SIZE_MAX / 4, 8) == NULL);
    size_t n = (size_t)5 << 20; /* large: its own mapping, advised */
    uint8_t *big = gs_array_zeroed(n, 1);
    CHECK(big != NULL);
    bool zeroed = true;
    for (size_t i = 0; big && i < n; i += 4093)
        zeroed = zeroed && big[i] == 0;
    CHECK(zeroed);
    free(big);
}

/* The transparent-huge-page mode the kernel names in brackets, or "" when it has none. */
static const char *thp_mode(char *buf, size_t size)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    buf[0] = 0;
    if (!f)
        return buf;
    char line[128] = "";
    if (fgets(line, sizeof line, f)) {
        char *open = strchr(line, '['), *close = open ? strchr(open, ']') : NULL;
        if (open && close && (size_t)(close - open) < size) {
            memcpy(buf, open + 1, (size_t)(close - open - 1));
            buf[close - open - 1] = 0;
        }
    }
    fclose(f);
    return buf;
}

/* The kB of huge pages in the mapping that holds p (/proc/self/smaps), or -1 if not found. */
static long huge_kb_at(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return -1;
    char line[512];
    bool inside = false;
    long kb = -1;
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
            inside = (uintptr_t)p >= lo && (uintptr_t)p < hi;
            continue;
        }
        if (inside && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
            break;
    }
    fclose(f);
    return kb;
}

/* The system's count of huge-page faults that found no free huge page (/proc/vmstat), or -1. */
static long thp_fallbacks(void)
{
    FILE *f = fopen("/proc/vmstat", "r");
    if (!f)
        return -1;
    char line[128];
    long n = -1;
    while (fgets(line, sizeof line, f) && sscanf(line, "thp_fault_fallback %ld", &n) != 1)
        ;
    fclose(f);
    return n;
}

/* A 16 MB array, written through, lies mostly on huge pages: a mapping not on a 2 MB boundary
 * still holds 7 whole huge pages. Checked in "madvise" mode only: with "always" they come
 * without asking, with "never" not at all. When the kernel asked for huge pages but found none
 * free (fragmented memory), that is the system's state, not this code's: said, not failed. */
static void test_huge_pages(void)
{
    char mode[32];
    if (strcmp(thp_mode(mode, sizeof mode), "madvise") != 0) {
        printf("test_vec: huge pages not checked: transparent huge pages are \"%s\", not "
               "\"madvise\"\n", mode);
        return;
    }
    gs_map_large_arrays();
    size_t n = (size_t)16 << 20;
    uint8_t *fresh = gs_array_new(n, 1);
    CHECK(fresh != NULL);
    if (!fresh)
        return;
    long fallbacks = thp_fallbacks();
    memset(fresh, 1, n);
    long kb = huge_kb_at(fresh);
    if (kb < 7 * 2048 && fallbacks >= 0 && thp_fallbacks() > fallbacks)
        printf("test_vec: huge pages asked for, none free (%ld kB given)\n", kb);
    else
        CHECK(kb >= 7 * 2048);
    free(fresh);
}

int main(void)
{
    test_push_and_grow();
    test_array_edges();
    test_huge_pages();
    return check_done("test_vec");
}
