/* Fuzz target for gzip sources (src/ingest/gunzip.c, source.c): any bytes as a file, read whole
 * from the start, then by second readers opened at offsets the input chooses (forwards and back),
 * as the chunked readers do. The reads must agree with one another. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ingest/source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { OUT_MAX = 1 << 22 }; /* inflated bytes looked at: a bomb stops here */

/* Up to cap bytes of s from where it stands; -1 on an error. */
static long long read_some(gs_source *s, char *out, size_t cap)
{
    size_t total = 0;
    gs_error err;
    while (total < cap) {
        ssize_t got = gs_source_read(s, out + total, cap - total < 4097 ? cap - total : 4097, &err);
        if (got < 0)
            return -1;
        if (got == 0)
            break;
        total += (size_t)got;
    }
    return (long long)total;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz.json.gz", MFD_CLOEXEC);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size) {
        if (fd >= 0)
            close(fd);
        return 0;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    gs_error err;
    gs_source *s = gs_source_open(path, &err);
    char *whole = malloc(OUT_MAX), *part = malloc(OUT_MAX);
    if (s && whole && part) {
        long long n = read_some(s, whole, OUT_MAX);
        uint64_t pick = size >= 4 ? (uint64_t)data[size - 1] << 8 | data[size - 2] : 7;
        for (int i = 0; i < 3 && n > 0; i++) {
            uint64_t from = (pick * (uint64_t)(i + 1)) % (uint64_t)n;
            gs_source *at = gs_source_open_at(s, from, &err);
            if (!at)
                continue;
            long long m = read_some(at, part, OUT_MAX);
            if (n < OUT_MAX && m != n - (long long)from)
                abort(); /* a reader opened at an offset sees the bytes a read from 0 saw */
            if (m > 0 && memcmp(part, whole + from, (size_t)m) != 0)
                abort();
            gs_source_close(at);
        }
    }
    free(whole);
    free(part);
    gs_source_close(s);
    close(fd);
    return 0;
}
