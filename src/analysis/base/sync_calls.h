/* Blocking calls: the CUDA/HIP API calls that make the host wait for the GPU (stream, device and
 * event synchronize, a synchronous cudaMemcpy, a cudaMemcpyAsync whose host side is pageable), and
 * cudaStreamWaitEvent, which makes only a stream wait. Named by a table of API names; the sync
 * view (analysis/trace/sync.h) and step detection read it. */
#ifndef GS_ANALYSIS_SYNC_CALLS_H
#define GS_ANALYSIS_SYNC_CALLS_H

#include <stdint.h>

#include "model/trace.h"

/* What kind of blocking call; the table in sync.c maps API names to these. */
enum gs_sync_kind {
    GS_SYNC_STREAM,         /* cudaStreamSynchronize, hipStreamSynchronize */
    GS_SYNC_DEVICE,         /* cudaDeviceSynchronize, cuCtxSynchronize, ... */
    GS_SYNC_EVENT,          /* cudaEventSynchronize */
    GS_SYNC_MEMCPY,         /* synchronous cudaMemcpy (not Async) */
    GS_SYNC_MEMCPY_PAGEABLE, /* cudaMemcpyAsync with a pageable host side */
    GS_SYNC_WAIT_EVENT,     /* cudaStreamWaitEvent: GPU-side wait, host not blocked */
    GS_SYNC__COUNT
};

const char *gs_sync_kind_name(enum gs_sync_kind k);

/* The kind of a blocking call (enum gs_sync_kind), or -1 when the call does not block (nor is a
 * stream wait). */
int gs_sync_call_kind(const gs_trace *t, const gs_api *a);

/* The same for every call of a trace, each distinct API name looked up once. */
typedef struct gs_sync_kinds {
    int8_t *by_name;
} gs_sync_kinds;

int gs_sync_kinds_init(gs_sync_kinds *k, const gs_trace *t);
int gs_sync_kind_of(const gs_sync_kinds *k, const gs_trace *t, const gs_api *a);
void gs_sync_kinds_free(gs_sync_kinds *k);

/* Whether a call of this kind makes the host wait (every kind but the stream wait). */
static inline int gs_sync_kind_blocks(int kind)
{
    return kind >= 0 && kind != GS_SYNC_WAIT_EVENT;
}

#endif
