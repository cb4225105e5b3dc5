/* One NVTX event queue per application thread: single producer (the thread), single consumer
 * (the writer). The producer never blocks and never allocates after the ring exists: when the
 * ring is full the event is dropped and counted. Entries are variable-length (a name is copied
 * in: callers pass temporaries) and 8-byte aligned; an entry never wraps, a PAD entry fills the
 * end of the ring instead. */
#ifndef GS_AGENT_NVTX_RING_H
#define GS_AGENT_NVTX_RING_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum gsa_nvtx_event {
    GSA_EV_PAD = 0,
    GSA_EV_PUSH = 1,   /* ts, domain, name */
    GSA_EV_POP = 2,    /* ts, domain */
    GSA_EV_START = 3,  /* ts, domain, id, name */
    GSA_EV_END = 4,    /* ts, id */
    GSA_EV_MARK = 5,   /* ts, domain, name */
    GSA_EV_THREAD_NAME = 6, /* name */
};

/* An event as the consumer sees it. A name is either inline bytes or a registered string id. */
typedef struct gsa_nvtx_ev {
    uint16_t type;
    uint32_t domain;   /* string id of the domain's name, 0 = the default domain */
    uint32_t name_id;  /* a registered string's id, or 0 when the name is inline */
    uint16_t name_len;
    int64_t ts;
    uint64_t id;       /* START/END */
    const char *name;  /* name_len bytes inside the ring, valid until consumed */
} gsa_nvtx_ev;

typedef struct gsa_ring {
    _Atomic uint64_t head; /* bytes ever written (producer) */
    _Atomic uint64_t tail; /* bytes ever consumed (writer) */
    _Atomic uint64_t dropped;
    _Atomic bool thread_exited;
    _Atomic bool woke; /* the writer was woken and has not caught up yet */
    uint64_t cap;       /* power of two */
    uint64_t tail_seen; /* producer: the tail when last read; reading the writer's line is dear */
    int64_t tid;
    struct gsa_ring *next; /* the registry's list */
    void *consumer;        /* the writer's pairing state for this thread */
    uint8_t *data;
} gsa_ring;

/* Fixed name bytes kept per event: longer names are cut (NVTX names are labels, not data). */
#define GSA_NAME_MAX 1024

/* On-ring entry: this header, then the name bytes, padded to 8. */
typedef struct gsa_ring_entry {
    uint16_t type;
    uint16_t name_len;
    uint32_t size; /* whole entry, header included */
    int64_t ts;
    uint64_t id;
    uint32_t domain;
    uint32_t name_id;
} gsa_ring_entry;

gsa_ring *gsa_ring_new(uint64_t cap, int64_t tid);
void gsa_ring_free(gsa_ring *r);

/* Consumer only: gives the ring's pages back to the system, but for those of unread events and
 * the `margin` bytes past the head where a producer that has just stopped recording may still
 * write (at most a pair of events: the caller knows it stopped). A page given back reads as
 * zeros and is mapped again when written. */
void gsa_ring_release(gsa_ring *r, uint64_t margin);

/* Producer: appends one event; false when it did not fit (counted in dropped). Inline: it is
 * most of the cost of an NVTX call. */
static inline bool gsa_ring_put(gsa_ring *r, const gsa_nvtx_ev *ev)
{
    size_t name_len = ev->name_len > GSA_NAME_MAX ? GSA_NAME_MAX : ev->name_len;
    uint64_t size = (sizeof(gsa_ring_entry) + name_len + 7) & ~(uint64_t)7;
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    uint64_t at = head & (r->cap - 1);
    uint64_t pad = r->cap - at < size ? r->cap - at : 0;
    if (head + pad + size - r->tail_seen > r->cap) {
        r->tail_seen = atomic_load_explicit(&r->tail, memory_order_acquire);
        if (head + pad + size - r->tail_seen > r->cap) {
            atomic_fetch_add_explicit(&r->dropped, 1, memory_order_relaxed);
            return false;
        }
    }
    if (pad) {
        /* Entries and the ring are multiples of 8, so a pad has room for its type and size;
         * the consumer reads only those. */
        gsa_ring_entry p = {GSA_EV_PAD, 0, (uint32_t)pad, 0, 0, 0, 0};
        memcpy(r->data + at, &p, pad < sizeof p ? pad : sizeof p);
        at = 0;
    }
    gsa_ring_entry e = {ev->type, (uint16_t)name_len, (uint32_t)size, ev->ts, ev->id,
                        ev->domain, ev->name_id};
    memcpy(r->data + at, &e, sizeof e);
    if (name_len)
        memcpy(r->data + at + sizeof e, ev->name, name_len);
    atomic_store_explicit(&r->head, head + pad + size, memory_order_release);
    return true;
}

/* Producer: whether more than half the ring is in use, by the tail last seen (refreshed when it
 * says so), to wake the writer before the ring fills. */
static inline bool gsa_ring_half_full(gsa_ring *r)
{
    uint64_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
    if (head - r->tail_seen <= r->cap / 2)
        return false;
    r->tail_seen = atomic_load_explicit(&r->tail, memory_order_acquire);
    return head - r->tail_seen > r->cap / 2;
}

/* Bytes in use. */
static inline uint64_t gsa_ring_used(const gsa_ring *r)
{
    return atomic_load_explicit(&r->head, memory_order_relaxed) -
           atomic_load_explicit(&r->tail, memory_order_acquire);
}

/* Consumer: the next event, or false when the ring is empty. gsa_ring_consume() releases it. */
bool gsa_ring_peek(gsa_ring *r, gsa_nvtx_ev *ev, uint64_t *size);
void gsa_ring_consume(gsa_ring *r, uint64_t size);

#endif
