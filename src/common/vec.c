#include "common/vec.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Huge pages, where the system gives them on request (transparent huge pages in "madvise" mode,
 * as Debian and Ubuntu ship): a large array is written front to back right after it is made,
 * and at 4 kB a page its faults were a quarter of the analyses' CPU on the benchmark input
 * (doc/performance.md); at 2 MB a page they are 512 times fewer. */
#define HUGE_PAGE ((size_t)2 << 20)

/* Asks for huge pages for a block of a huge page or more. Every page of the block is advised, so
 * that its mapping stays one and realloc can still move it without copying. The block is not
 * rounded up to whole huge pages: that placed it on a huge page's boundary, with a third fewer
 * faults, but more time in the kernel and 10 MB more at the peak, measured. */
static void advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (bytes < HUGE_PAGE)
        return;
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t from = (uintptr_t)p & ~(page - 1);
    uintptr_t to = ((uintptr_t)p + bytes + page - 1) & ~(page - 1);
    madvise((void *)from, to - from, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

int gs_grow(void **data, size_t *cap, size_t need, size_t elsize)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap : 16;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2)
            return -1;
        ncap *= 2;
    }
    if (ncap > SIZE_MAX / elsize)
        return -1;
    void *p = realloc(*data, ncap * elsize);
    if (!p)
        return -1;
    *data = p;
    *cap = ncap;
    advise_huge(p, ncap * elsize);
    return 0;
}

void *gs_array_new(size_t n, size_t size)
{
    n = n ? n : 1;
    if (n > SIZE_MAX / size)
        return NULL;
    void *p = malloc(n * size);
    if (p)
        advise_huge(p, n * size);
    return p;
}

void *gs_array_zeroed(size_t n, size_t size)
{
    n = n ? n : 1;
    if (n > SIZE_MAX / size)
        return NULL;
    void *p = calloc(n, size);
    if (p)
        advise_huge(p, n * size);
    return p;
}

void gs_zero_block(void *p, size_t size)
{
    memset(p, 0, size);
}

void gs_map_large_arrays(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}
