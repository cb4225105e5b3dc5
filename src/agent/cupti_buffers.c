/* The activity buffer pool and the completed-buffer queue (cupti_buffers.h).
 *
 * Buffers live in a fixed table of slots and are named by slot index, so both lists are stacks
 * of small integers in one atomic word:
 *  - the free list is popped by many threads (requests) and pushed by the writer: its head
 *    carries a tag that changes on every update, so a pop that read a stale head fails its
 *    compare-and-swap instead of corrupting the list (the ABA problem);
 *  - the completed queue is pushed by many threads and emptied whole by the writer with one
 *    exchange, which needs no tag; the writer reverses it to get completion order. */
#include "agent/cupti_buffers.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "agent/agent.h"

#define NO_SLOT 0u /* list links hold slot index + 1 */

/* Handed out instead of NULL when the pool is exhausted: declining a request can crash CUPTI
 * before API version 27 (Kineto). Shared by every thread and never read. */
static _Alignas(8) uint8_t discard_buffer[64 << 10];

static struct {
    _Atomic(uint8_t *) mem[GSA_CUPTI_BUFFER_CAP];
    _Atomic uint32_t free_next[GSA_CUPTI_BUFFER_CAP];
    _Atomic uint32_t done_next[GSA_CUPTI_BUFFER_CAP];
    _Atomic size_t valid[GSA_CUPTI_BUFFER_CAP];
    _Atomic uint64_t free_head; /* tag << 32 | slot + 1 */
    _Atomic uint32_t done_head; /* slot + 1 */
    _Atomic uint32_t allocated; /* slots whose memory exists or is being allocated */
    _Atomic uint64_t discarded;
    atomic_flag initialised;
} pool = {.initialised = ATOMIC_FLAG_INIT};

static void free_push(uint32_t slot)
{
    uint64_t head = atomic_load_explicit(&pool.free_head, memory_order_relaxed);
    uint64_t next;
    do {
        atomic_store_explicit(&pool.free_next[slot], (uint32_t)head, memory_order_relaxed);
        next = ((head >> 32) + 1) << 32 | (slot + 1);
    } while (!atomic_compare_exchange_weak_explicit(&pool.free_head, &head, next,
                                                    memory_order_release, memory_order_relaxed));
}

/* A free slot, or -1 when the free list is empty. */
static int64_t free_pop(void)
{
    uint64_t head = atomic_load_explicit(&pool.free_head, memory_order_acquire);
    uint64_t next;
    do {
        uint32_t top = (uint32_t)head;
        if (top == NO_SLOT)
            return -1;
        uint32_t below = atomic_load_explicit(&pool.free_next[top - 1], memory_order_relaxed);
        next = ((head >> 32) + 1) << 32 | below;
    } while (!atomic_compare_exchange_weak_explicit(&pool.free_head, &head, next,
                                                    memory_order_acquire, memory_order_acquire));
    return (int64_t)(uint32_t)head - 1;
}

/* A new slot with its memory, or -1 at the cap or when no memory is left. Mapped rather than
 * malloc'd: whole pages that gsa_cupti_buffers_release can hand back. */
static int64_t grow(void)
{
    uint32_t slot = atomic_fetch_add(&pool.allocated, 1);
    if (slot >= GSA_CUPTI_BUFFER_CAP) {
        atomic_fetch_sub(&pool.allocated, 1);
        return -1;
    }
    uint8_t *mem = mmap(NULL, GSA_CUPTI_BUFFER_SIZE, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) {
        /* The slot stays reserved but empty: the cap only shrinks under memory pressure. */
        return -1;
    }
    atomic_store_explicit(&pool.mem[slot], mem, memory_order_release);
    return slot;
}

void gsa_cupti_buffers_init(void)
{
    if (atomic_flag_test_and_set(&pool.initialised))
        return;
    for (int i = 0; i < GSA_CUPTI_BUFFER_PREALLOC; i++) {
        int64_t slot = grow();
        if (slot >= 0)
            free_push((uint32_t)slot);
    }
}

void CUPTIAPI gsa_cupti_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *max_records = 0; /* as many as fit */
    int64_t slot = free_pop();
    if (slot < 0)
        slot = grow();
    if (slot < 0) {
        atomic_fetch_add_explicit(&pool.discarded, 1, memory_order_relaxed);
        *buffer = discard_buffer;
        *size = sizeof discard_buffer;
        return;
    }
    *buffer = atomic_load_explicit(&pool.mem[slot], memory_order_acquire);
    *size = GSA_CUPTI_BUFFER_SIZE;
}

/* The slot of a pool buffer, -1 for any other (the discard buffer). */
static int64_t slot_of(const uint8_t *buffer)
{
    uint32_t n = atomic_load_explicit(&pool.allocated, memory_order_acquire);
    for (uint32_t i = 0; i < n && i < GSA_CUPTI_BUFFER_CAP; i++)
        if (atomic_load_explicit(&pool.mem[i], memory_order_relaxed) == buffer)
            return i;
    return -1;
}

void CUPTIAPI gsa_cupti_buffer_completed(CUcontext context, uint32_t stream_id, uint8_t *buffer,
                                         size_t size, size_t valid_size)
{
    (void)context, (void)stream_id; /* always NULL and 0 since CUDA 6 */
    int64_t slot = slot_of(buffer);
    if (slot < 0)
        return;
    atomic_store_explicit(&pool.valid[slot], valid_size, memory_order_relaxed);
    uint32_t head = atomic_load_explicit(&pool.done_head, memory_order_relaxed);
    do
        atomic_store_explicit(&pool.done_next[slot], head, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&pool.done_head, &head, (uint32_t)slot + 1,
                                                  memory_order_release, memory_order_relaxed));
    /* A buffer that filled up (rather than one a flush returned early) means records are
     * arriving fast: have the writer empty the queue now rather than at its next period. */
    if (valid_size > size / 2)
        gsa_wake_writer();
}

size_t gsa_cupti_buffers_drain(gsa_cupti_buffer_fn fn, void *ctx)
{
    uint32_t top = atomic_exchange_explicit(&pool.done_head, NO_SLOT, memory_order_acquire);
    /* The queue is newest first: reverse it to decode in completion order. */
    uint32_t oldest = NO_SLOT;
    while (top != NO_SLOT) {
        uint32_t below = atomic_load_explicit(&pool.done_next[top - 1], memory_order_relaxed);
        atomic_store_explicit(&pool.done_next[top - 1], oldest, memory_order_relaxed);
        oldest = top;
        top = below;
    }
    size_t handled = 0;
    for (uint32_t at = oldest; at != NO_SLOT; handled++) {
        uint32_t slot = at - 1;
        at = atomic_load_explicit(&pool.done_next[slot], memory_order_relaxed);
        fn(ctx, atomic_load_explicit(&pool.mem[slot], memory_order_relaxed),
           atomic_load_explicit(&pool.valid[slot], memory_order_relaxed));
        free_push(slot);
    }
    return handled;
}

void gsa_cupti_buffers_release(void)
{
    uint32_t n = atomic_load_explicit(&pool.allocated, memory_order_acquire);
    for (uint32_t i = 0; i < n && i < GSA_CUPTI_BUFFER_CAP; i++) {
        uint8_t *mem = atomic_load_explicit(&pool.mem[i], memory_order_acquire);
        /* The mapping stays (a late request still gets valid memory, zero-filled): only its
         * pages go back. */
        if (mem)
            madvise(mem, GSA_CUPTI_BUFFER_SIZE, MADV_DONTNEED);
    }
}

uint64_t gsa_cupti_buffers_take_discarded(void)
{
    return atomic_exchange_explicit(&pool.discarded, 0, memory_order_relaxed);
}
