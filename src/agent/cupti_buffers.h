/* CUPTI's activity buffers: a pool CUPTI takes buffers from and a queue it hands filled ones
 * back on.
 *
 * CUPTI asks for buffers on application threads (a thread's buffer filled up: the launch that
 * filled it is waiting) and returns them on its own worker thread or on whichever thread
 * flushes, several at once. So both callbacks only pop or push on lock-free lists and never
 * decode, allocate under a lock or take an agent lock; the writer thread decodes the queue
 * (gsa_cupti_buffers_drain) and gives the buffers back to the pool. */
#ifndef GS_AGENT_CUPTI_BUFFERS_H
#define GS_AGENT_CUPTI_BUFFERS_H

#include <stddef.h>
#include <stdint.h>

#include <cupti_activity.h>

/* Kineto's size (CUPTI suggests 1 to 10 MB); with per-thread buffers (the CUDA 13 default)
 * every thread that launches work holds one. */
#define GSA_CUPTI_BUFFER_SIZE ((size_t)4 << 20)
/* At most 128 MB of host memory for buffers; past it CUPTI gets the discard buffer. */
#define GSA_CUPTI_BUFFER_CAP 32
/* Allocated at start so the first launches do not pay for malloc. */
#define GSA_CUPTI_BUFFER_PREALLOC 2

/* Allocates the first buffers (once; later calls do nothing). */
void gsa_cupti_buffers_init(void);

/* The CUPTI buffer callbacks (cuptiActivityRegisterCallbacks). */
void CUPTIAPI gsa_cupti_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records);
void CUPTIAPI gsa_cupti_buffer_completed(CUcontext context, uint32_t stream_id, uint8_t *buffer,
                                         size_t size, size_t valid_size);

/* Writer only: calls `fn` on every completed buffer, oldest first, then returns each to the
 * pool. Returns how many buffers it handled. */
typedef void (*gsa_cupti_buffer_fn)(void *ctx, uint8_t *buffer, size_t valid_size);
size_t gsa_cupti_buffers_drain(gsa_cupti_buffer_fn fn, void *ctx);

/* Writer only, once every kind is disabled and every buffer drained (after a window on demand):
 * the buffers' pages go back to the system; the buffers stay usable. */
void gsa_cupti_buffers_release(void);

/* How many requests were answered with the discard buffer (the pool was at its cap or malloc
 * failed) since the last call: the records CUPTI put there are lost. */
uint64_t gsa_cupti_buffers_take_discarded(void);

#endif
