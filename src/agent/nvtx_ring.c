#include "agent/nvtx_ring.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Mapped, not malloc'd: whole pages, which gsa_ring_release can give back. */
gsa_ring *gsa_ring_new(uint64_t cap, int64_t tid)
{
    gsa_ring *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    void *data = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (data == MAP_FAILED) {
        free(r);
        return NULL;
    }
    r->data = data;
    r->cap = cap;
    r->tid = tid;
    return r;
}

void gsa_ring_free(gsa_ring *r)
{
    if (r) {
        munmap(r->data, r->cap);
        free(r);
    }
}

void gsa_ring_release(gsa_ring *r, uint64_t margin)
{
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
    /* Kept: [tail, head + margin), the unread events and where the producer may still write.
     * Released: the rest of the ring, in whole pages, as stream positions that wrap once. */
    uint64_t from = (head + margin + page - 1) / page * page;
    uint64_t to = (tail + r->cap) / page * page;
    while (from < to) {
        uint64_t at = from & (r->cap - 1);
        uint64_t len = to - from < r->cap - at ? to - from : r->cap - at;
        madvise(r->data + at, len, MADV_DONTNEED);
        from += len;
    }
}

bool gsa_ring_peek(gsa_ring *r, gsa_nvtx_ev *ev, uint64_t *size)
{
    for (;;) {
        uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
        uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
        if (tail == head)
            return false;
        uint64_t at = tail & (r->cap - 1);
        gsa_ring_entry e;
        uint64_t avail = r->cap - at;
        memcpy(&e, r->data + at, avail < sizeof e ? avail : sizeof e);
        if (e.type == GSA_EV_PAD) {
            atomic_store_explicit(&r->tail, tail + e.size, memory_order_release);
            continue;
        }
        *ev = (gsa_nvtx_ev){e.type, e.domain, e.name_id, e.name_len, e.ts, e.id,
                            (const char *)r->data + at + sizeof e};
        *size = e.size;
        return true;
    }
}

void gsa_ring_consume(gsa_ring *r, uint64_t size)
{
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
    atomic_store_explicit(&r->tail, tail + size, memory_order_release);
}
