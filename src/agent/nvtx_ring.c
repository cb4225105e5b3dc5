#include "agent/nvtx_ring.h"

#include <stdlib.h>
#include <string.h>

/* On-ring entry: this header, then the name bytes, padded to 8. */
typedef struct entry {
    uint16_t type;
    uint16_t name_len;
    uint32_t size; /* whole entry, header included */
    int64_t ts;
    uint64_t id;
    uint32_t domain;
    uint32_t name_id;
} entry;

gsa_ring *gsa_ring_new(uint64_t cap, int64_t tid)
{
    gsa_ring *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->data = malloc(cap);
    if (!r->data) {
        free(r);
        return NULL;
    }
    r->cap = cap;
    r->tid = tid;
    return r;
}

void gsa_ring_free(gsa_ring *r)
{
    if (r) {
        free(r->data);
        free(r);
    }
}

bool gsa_ring_put(gsa_ring *r, const gsa_nvtx_ev *ev)
{
    size_t name_len = ev->name_len > GSA_NAME_MAX ? GSA_NAME_MAX : ev->name_len;
    uint64_t size = (sizeof(entry) + name_len + 7) & ~(uint64_t)7;
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    uint64_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);
    uint64_t at = head & (r->cap - 1);
    uint64_t pad = r->cap - at < size ? r->cap - at : 0;
    if (head + pad + size - tail > r->cap) {
        atomic_fetch_add_explicit(&r->dropped, 1, memory_order_relaxed);
        return false;
    }
    if (pad) {
        entry p = {GSA_EV_PAD, 0, (uint32_t)pad, 0, 0, 0, 0};
        /* The ring is a multiple of 8 and entries are too, so a pad always has room for its
         * size field; the consumer reads only that. */
        memcpy(r->data + at, &p, pad < sizeof p ? pad : sizeof p);
        at = 0;
    }
    entry e = {ev->type, (uint16_t)name_len, (uint32_t)size, ev->ts, ev->id, ev->domain,
               ev->name_id};
    memcpy(r->data + at, &e, sizeof e);
    if (name_len)
        memcpy(r->data + at + sizeof e, ev->name, name_len);
    atomic_store_explicit(&r->head, head + pad + size, memory_order_release);
    return true;
}

bool gsa_ring_peek(gsa_ring *r, gsa_nvtx_ev *ev, uint64_t *size)
{
    for (;;) {
        uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
        uint64_t head = atomic_load_explicit(&r->head, memory_order_acquire);
        if (tail == head)
            return false;
        uint64_t at = tail & (r->cap - 1);
        entry e;
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
