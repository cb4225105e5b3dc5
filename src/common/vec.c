#include "common/vec.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
    return 0;
}

void gs_map_large_arrays(void)
{
#ifdef __GLIBC__
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
#endif
}
