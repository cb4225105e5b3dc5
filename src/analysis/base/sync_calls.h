/* Blocking calls: the CUDA/HIP API calls that make the host wait for the GPU (stream, device and
 * event synchronize, a synchronous cudaMemcpy, a cudaMemcpyAsync whose host side is pageable), and
 * cudaStreamWaitEvent, which makes only a stream wait, named by the name rules (name_rule_table.c);
 * the sync view (analysis/trace/sync.h) and step detection read them. */
#ifndef GS_ANALYSIS_SYNC_CALLS_H
#define GS_ANALYSIS_SYNC_CALLS_H

#include <stdint.h>

#include "model/trace.h"

/* What kind of blocking call; the name rules map API names to these. */
enum gs_sync_kind {
    GS_SYNC_STREAM,         /* cudaStreamSynchronize, hipStreamSynchronize */
    GS_SYNC_DEVICE,         /* cudaDeviceSynchronize, cuCtxSynchronize, ... */
    GS_SYNC_EVENT,          /* cudaEventSynchronize */
    GS_SYNC_MEMCPY,         /* synchronous cudaMemcpy (not Async) */
    GS_SYNC_MEMCPY_PAGEABLE, /* cudaMemcpyAsync with a pageable host side */
    GS_SYNC_WAIT_EVENT,     /* cudaStreamWaitEvent: GPU-side wait, host not blocked */
    GS_SYNC__COUNT
};

/* In the name rules (name_rules.h): an async copy, which blocks only when its host side is
 * pageable (GS_SYNC_MEMCPY_PAGEABLE); not a kind of its own. */
#define GS_SYNC_ASYNC_COPY GS_SYNC__COUNT

const char *gs_sync_kind_name(enum gs_sync_kind k);

struct gs_names;

/* The kind of a blocking call (enum gs_sync_kind), or -1 when the call does not block (nor is a
 * stream wait); `names` are the trace's (name_rules.h). */
int gs_sync_call_kind(const gs_trace *t, const struct gs_names *names, const gs_api *a);

/* Whether a call of this kind makes the host wait (every kind but the stream wait). */
static inline int gs_sync_kind_blocks(int kind)
{
    return kind >= 0 && kind != GS_SYNC_WAIT_EVENT;
}

#endif
