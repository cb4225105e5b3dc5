/* CUPTI activity records into .gst records (cupti_decode.h). */
#include "agent/cupti_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/cupti_api.h"

/* Every field read below lies where the oldest record version CUPTI 12 may write has it, and
 * inside that version's size: reading a CUDA 12 record through a CUDA 13 struct never goes past
 * its end. */
#define SAME_PREFIX(new_t, old_t, field)                                                           \
    _Static_assert(offsetof(new_t, field) == offsetof(old_t, field) &&                             \
                       offsetof(old_t, field) + sizeof(((old_t *)0)->field) <= sizeof(old_t),      \
                   #new_t "." #field " is not inside " #old_t)

SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, registersPerThread);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, start);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, end);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, deviceId);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, contextId);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, streamId);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, gridX);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, gridY);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, gridZ);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, blockX);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, blockY);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, blockZ);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, staticSharedMemory);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, dynamicSharedMemory);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, correlationId);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, name);
SAME_PREFIX(CUpti_ActivityKernel10, CUpti_ActivityKernel9, graphId);

SAME_PREFIX(CUpti_ActivityMemcpy6, CUpti_ActivityMemcpy5, copyKind);
SAME_PREFIX(CUpti_ActivityMemcpy6, CUpti_ActivityMemcpy5, srcKind);
SAME_PREFIX(CUpti_ActivityMemcpy6, CUpti_ActivityMemcpy5, dstKind);
SAME_PREFIX(CUpti_ActivityMemcpy6, CUpti_ActivityMemcpy5, bytes);
SAME_PREFIX(CUpti_ActivityMemcpy6, CUpti_ActivityMemcpy5, start);
SAME_PREFIX(CUpti_ActivityMemcpy6, CUpti_ActivityMemcpy5, end);
SAME_PREFIX(CUpti_ActivityMemcpy6, CUpti_ActivityMemcpy5, deviceId);
SAME_PREFIX(CUpti_ActivityMemcpy6, CUpti_ActivityMemcpy5, contextId);
SAME_PREFIX(CUpti_ActivityMemcpy6, CUpti_ActivityMemcpy5, streamId);
SAME_PREFIX(CUpti_ActivityMemcpy6, CUpti_ActivityMemcpy5, correlationId);

SAME_PREFIX(CUpti_ActivityMemcpyPtoP4, CUpti_ActivityMemcpyPtoP3, copyKind);
SAME_PREFIX(CUpti_ActivityMemcpyPtoP4, CUpti_ActivityMemcpyPtoP3, srcKind);
SAME_PREFIX(CUpti_ActivityMemcpyPtoP4, CUpti_ActivityMemcpyPtoP3, dstKind);
SAME_PREFIX(CUpti_ActivityMemcpyPtoP4, CUpti_ActivityMemcpyPtoP3, bytes);
SAME_PREFIX(CUpti_ActivityMemcpyPtoP4, CUpti_ActivityMemcpyPtoP3, start);
SAME_PREFIX(CUpti_ActivityMemcpyPtoP4, CUpti_ActivityMemcpyPtoP3, end);
SAME_PREFIX(CUpti_ActivityMemcpyPtoP4, CUpti_ActivityMemcpyPtoP3, deviceId);
SAME_PREFIX(CUpti_ActivityMemcpyPtoP4, CUpti_ActivityMemcpyPtoP3, contextId);
SAME_PREFIX(CUpti_ActivityMemcpyPtoP4, CUpti_ActivityMemcpyPtoP3, streamId);
SAME_PREFIX(CUpti_ActivityMemcpyPtoP4, CUpti_ActivityMemcpyPtoP3, correlationId);

SAME_PREFIX(CUpti_ActivityMemset4, CUpti_ActivityMemset3, value);
SAME_PREFIX(CUpti_ActivityMemset4, CUpti_ActivityMemset3, bytes);
SAME_PREFIX(CUpti_ActivityMemset4, CUpti_ActivityMemset3, start);
SAME_PREFIX(CUpti_ActivityMemset4, CUpti_ActivityMemset3, end);
SAME_PREFIX(CUpti_ActivityMemset4, CUpti_ActivityMemset3, deviceId);
SAME_PREFIX(CUpti_ActivityMemset4, CUpti_ActivityMemset3, contextId);
SAME_PREFIX(CUpti_ActivityMemset4, CUpti_ActivityMemset3, streamId);
SAME_PREFIX(CUpti_ActivityMemset4, CUpti_ActivityMemset3, correlationId);
SAME_PREFIX(CUpti_ActivityMemset4, CUpti_ActivityMemset3, memoryKind);

SAME_PREFIX(CUpti_ActivitySynchronization2, CUpti_ActivitySynchronization, type);
SAME_PREFIX(CUpti_ActivitySynchronization2, CUpti_ActivitySynchronization, start);
SAME_PREFIX(CUpti_ActivitySynchronization2, CUpti_ActivitySynchronization, end);
SAME_PREFIX(CUpti_ActivitySynchronization2, CUpti_ActivitySynchronization, correlationId);
SAME_PREFIX(CUpti_ActivitySynchronization2, CUpti_ActivitySynchronization, contextId);
SAME_PREFIX(CUpti_ActivitySynchronization2, CUpti_ActivitySynchronization, streamId);

SAME_PREFIX(CUpti_ActivityMemory4, CUpti_ActivityMemory3, memoryOperationType);
SAME_PREFIX(CUpti_ActivityMemory4, CUpti_ActivityMemory3, memoryKind);
SAME_PREFIX(CUpti_ActivityMemory4, CUpti_ActivityMemory3, address);
SAME_PREFIX(CUpti_ActivityMemory4, CUpti_ActivityMemory3, bytes);
SAME_PREFIX(CUpti_ActivityMemory4, CUpti_ActivityMemory3, timestamp);
SAME_PREFIX(CUpti_ActivityMemory4, CUpti_ActivityMemory3, processId);
SAME_PREFIX(CUpti_ActivityMemory4, CUpti_ActivityMemory3, deviceId);
SAME_PREFIX(CUpti_ActivityMemory4, CUpti_ActivityMemory3, contextId);

/* CUDA 12.0 and 12.1 wrote the first Overhead record; overheadData comes with Overhead3. */
SAME_PREFIX(CUpti_ActivityOverhead3, CUpti_ActivityOverhead, overheadKind);
SAME_PREFIX(CUpti_ActivityOverhead3, CUpti_ActivityOverhead, start);
SAME_PREFIX(CUpti_ActivityOverhead3, CUpti_ActivityOverhead, end);

SAME_PREFIX(CUpti_ActivityDevice5, CUpti_ActivityDevice4, globalMemorySize);
SAME_PREFIX(CUpti_ActivityDevice5, CUpti_ActivityDevice4, numThreadsPerWarp);
SAME_PREFIX(CUpti_ActivityDevice5, CUpti_ActivityDevice4, numMultiprocessors);
SAME_PREFIX(CUpti_ActivityDevice5, CUpti_ActivityDevice4, maxWarpsPerMultiprocessor);
SAME_PREFIX(CUpti_ActivityDevice5, CUpti_ActivityDevice4, computeCapabilityMajor);
SAME_PREFIX(CUpti_ActivityDevice5, CUpti_ActivityDevice4, computeCapabilityMinor);
SAME_PREFIX(CUpti_ActivityDevice5, CUpti_ActivityDevice4, id);
SAME_PREFIX(CUpti_ActivityDevice5, CUpti_ActivityDevice4, uuid);
SAME_PREFIX(CUpti_ActivityDevice5, CUpti_ActivityDevice4, name);

SAME_PREFIX(CUpti_ActivityContext3, CUpti_ActivityContext, contextId);
SAME_PREFIX(CUpti_ActivityContext3, CUpti_ActivityContext, deviceId);

void gsa_decoder_init(gsa_decoder *d, const gsa_decode_sink *sink, uint32_t cupti_version)
{
    memset(d, 0, sizeof *d);
    d->sink = *sink;
    d->cupti_version = cupti_version;
}

static gst_strid intern_cstr(gsa_decoder *d, const char *s)
{
    return s ? d->sink.intern(d->sink.ctx, s, strlen(s)) : 0;
}

/* A stream or context id CUPTI marks invalid (context synchronisation has no stream). */
static int32_t id_or_unknown(uint32_t id)
{
    return id == CUPTI_SYNCHRONIZATION_INVALID_VALUE ? -1 : (int32_t)id;
}

static void learn_context(gsa_decoder *d, uint32_t context, uint32_t device)
{
    for (unsigned i = 0; i < d->ncontexts; i++)
        if (d->contexts[i].context == context) {
            d->contexts[i].device = (int32_t)device;
            return;
        }
    if (d->ncontexts < GSA_DECODE_CONTEXTS)
        d->contexts[d->ncontexts++] = (struct gsa_context_device){context, (int32_t)device};
}

static int32_t context_device(const gsa_decoder *d, uint32_t context)
{
    for (unsigned i = 0; i < d->ncontexts; i++)
        if (d->contexts[i].context == context)
            return d->contexts[i].device;
    return -1;
}

/* Whether a GPU record is kept: CUPTI writes start = end = 0 when it could not time it. */
static bool keep_timed(gsa_decoder *d, uint64_t start, uint64_t end)
{
    if (start == 0 && end == 0) {
        d->untimed++;
        return false;
    }
    return d->sink.captured(d->sink.ctx, (int64_t)start, (int64_t)end);
}

static uint8_t mem_loc(uint32_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return GST_LOC_PAGEABLE;
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return GST_LOC_PINNED;
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE:
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC: return GST_LOC_DEVICE;
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return GST_LOC_ARRAY;
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED:
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return GST_LOC_MANAGED;
    default: return GST_LOC_UNKNOWN;
    }
}

/* CUDA arrays are device memory: a copy into one is a host-to-device copy; the ends' locations
 * still say "Array". */
static uint8_t copy_kind(uint32_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA: return GST_COPY_HTOD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH: return GST_COPY_DTOH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA: return GST_COPY_DTOD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH: return GST_COPY_HTOH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return GST_COPY_PTOP;
    default: return GST_COPY_UNKNOWN;
    }
}

static const char *overhead_name(uint32_t kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER: return "driver compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH: return "CUPTI buffer flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION: return "CUPTI instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE: return "CUPTI resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
        return "runtime-triggered module loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING: return "lazy function loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL: return "command buffer full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST: return "activity buffer request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT: return "UVM activity init";
    default: return "CUPTI overhead";
    }
}

static void decode_kernel(gsa_decoder *d, const CUpti_ActivityKernel10 *k)
{
    learn_context(d, k->contextId, k->deviceId);
    if (!keep_timed(d, k->start, k->end))
        return;
    gst_kernel out = {
        .start = (int64_t)k->start,
        .end = (int64_t)k->end,
        .correlation = k->correlationId,
        .graph_id = k->graphId,
        .device = (int32_t)k->deviceId,
        .stream = (int32_t)k->streamId,
        .name = intern_cstr(d, k->name),
        .grid = {k->gridX, k->gridY, k->gridZ},
        .block = {k->blockX, k->blockY, k->blockZ},
        .registers_per_thread = k->registersPerThread,
        .shared_memory = k->staticSharedMemory + k->dynamicSharedMemory,
    };
    d->sink.write(d->sink.ctx, GST_REC_KERNEL, &out);
}

static void decode_memcpy(gsa_decoder *d, const CUpti_ActivityMemcpy6 *m)
{
    learn_context(d, m->contextId, m->deviceId);
    if (!keep_timed(d, m->start, m->end))
        return;
    gst_memcpy out = {(int64_t)m->start, (int64_t)m->end, m->bytes, m->correlationId,
                      (int32_t)m->deviceId, (int32_t)m->streamId, copy_kind(m->copyKind),
                      mem_loc(m->srcKind), mem_loc(m->dstKind)};
    d->sink.write(d->sink.ctx, GST_REC_MEMCPY, &out);
}

static void decode_peer_copy(gsa_decoder *d, const CUpti_ActivityMemcpyPtoP4 *m)
{
    learn_context(d, m->contextId, m->deviceId);
    if (!keep_timed(d, m->start, m->end))
        return;
    gst_memcpy out = {(int64_t)m->start, (int64_t)m->end, m->bytes, m->correlationId,
                      (int32_t)m->deviceId, (int32_t)m->streamId, copy_kind(m->copyKind),
                      mem_loc(m->srcKind), mem_loc(m->dstKind)};
    d->sink.write(d->sink.ctx, GST_REC_MEMCPY, &out);
}

static void decode_memset(gsa_decoder *d, const CUpti_ActivityMemset4 *m)
{
    learn_context(d, m->contextId, m->deviceId);
    if (!keep_timed(d, m->start, m->end))
        return;
    gst_memset out = {(int64_t)m->start, (int64_t)m->end, m->bytes, m->correlationId,
                      (int32_t)m->deviceId, (int32_t)m->streamId, m->value,
                      mem_loc(m->memoryKind)};
    d->sink.write(d->sink.ctx, GST_REC_MEMSET, &out);
}

static const char *api_name(gsa_decoder *d, CUpti_CallbackDomain domain, uint32_t cbid)
{
    const char **slot = NULL;
    if (cbid < GSA_DECODE_NAME_SLOTS)
        slot = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? &d->runtime_names[cbid]
                                                     : &d->driver_names[cbid];
    if (slot && *slot)
        return *slot;
    const char *name = d->sink.callback_name(d->sink.ctx, domain, cbid);
    /* A cbid CUPTI cannot name is cached as "" so it is not asked again. */
    if (slot)
        *slot = name ? name : "";
    return name ? name : "";
}

static void decode_api(gsa_decoder *d, const CUpti_ActivityAPI *a, bool driver)
{
    if (!d->sink.captured(d->sink.ctx, (int64_t)a->start, (int64_t)a->end))
        return;
    CUpti_CallbackDomain domain = driver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API;
    const char *name = api_name(d, domain, a->cbid);
    char unnamed[48];
    if (!*name) {
        snprintf(unnamed, sizeof unnamed, "%s cbid %u", driver ? "driver" : "runtime", a->cbid);
        name = unnamed;
    }
    gst_api out = {(int64_t)a->start, (int64_t)a->end, a->processId, a->threadId, a->correlationId,
                   (int32_t)a->cbid, intern_cstr(d, name),
                   driver ? GST_API_DRIVER : GST_API_RUNTIME};
    d->sink.write(d->sink.ctx, GST_REC_API, &out);
}

static void decode_sync(gsa_decoder *d, const CUpti_ActivitySynchronization2 *s)
{
    if (!keep_timed(d, s->start, s->end))
        return;
    uint32_t type = (uint32_t)s->type <= GST_SYNC_CONTEXT ? (uint32_t)s->type : GST_SYNC_UNKNOWN;
    gst_sync out = {(int64_t)s->start, (int64_t)s->end, s->correlationId,
                    context_device(d, s->contextId), id_or_unknown(s->streamId), type};
    d->sink.write(d->sink.ctx, GST_REC_SYNC, &out);
}

static void decode_memory(gsa_decoder *d, const CUpti_ActivityMemory4 *m)
{
    learn_context(d, m->contextId, m->deviceId);
    int64_t bytes;
    if (m->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION)
        bytes = (int64_t)m->bytes;
    else if (m->memoryOperationType == CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE)
        bytes = -(int64_t)m->bytes;
    else
        return;
    if (!d->sink.captured(d->sink.ctx, (int64_t)m->timestamp, (int64_t)m->timestamp))
        return;
    uint8_t loc = mem_loc(m->memoryKind);
    bool host = loc == GST_LOC_PAGEABLE || loc == GST_LOC_PINNED;
    /* The record names no thread: 0 stands for "unknown", as no thread has id 0. */
    gst_memory out = {(int64_t)m->timestamp, m->processId, 0, m->address, bytes, -1, -1,
                      host ? -1 : (int32_t)m->deviceId, loc};
    d->sink.write(d->sink.ctx, GST_REC_MEMORY, &out);
}

static void decode_overhead(gsa_decoder *d, const CUpti_ActivityOverhead3 *o)
{
    /* Untimed overhead is no lost GPU work: it is just left out. */
    if ((o->start || o->end) && d->sink.captured(d->sink.ctx, (int64_t)o->start, (int64_t)o->end)) {
        const char *text = overhead_name(o->overheadKind);
        gst_note out = {(int64_t)o->start, 0, (int64_t)(o->end - o->start), GST_NOTE_CUPTI,
                        intern_cstr(d, text)};
        d->sink.write(d->sink.ctx, GST_REC_NOTE, &out);
    }
    /* "Client is responsible for freeing this memory" (Overhead3, CUDA 12.6 and 13 headers);
     * older records end before the field. */
    if (d->cupti_version >= GSA_CUPTI_VERSION_12_6)
        free(o->overheadData);
}

static void decode_device(gsa_decoder *d, const CUpti_ActivityDevice5 *v)
{
    char uuid[48];
    const unsigned char *b = (const unsigned char *)v->uuid.bytes;
    snprintf(uuid, sizeof uuid,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
             b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
             b[14], b[15]);
    gst_device out = {(int32_t)v->id,
                      (int32_t)v->numMultiprocessors,
                      v->globalMemorySize,
                      (int32_t)v->computeCapabilityMajor,
                      (int32_t)v->computeCapabilityMinor,
                      (int32_t)(v->maxWarpsPerMultiprocessor * v->numThreadsPerWarp),
                      intern_cstr(d, v->name),
                      intern_cstr(d, uuid)};
    d->sink.write(d->sink.ctx, GST_REC_DEVICE, &out);
    /* CUDA 13 hands the name over ("Client is responsible for freeing this memory"); CUDA 12's
     * is shared by CUPTI ("should not be modified"). */
    if (d->cupti_version >= GSA_CUPTI_VERSION_13_0)
        free((void *)v->name);
}

void gsa_decode_record(gsa_decoder *d, const CUpti_Activity *record)
{
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        decode_kernel(d, (const CUpti_ActivityKernel10 *)record);
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        decode_memcpy(d, (const CUpti_ActivityMemcpy6 *)record);
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
        decode_peer_copy(d, (const CUpti_ActivityMemcpyPtoP4 *)record);
        break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        decode_memset(d, (const CUpti_ActivityMemset4 *)record);
        break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
        decode_api(d, (const CUpti_ActivityAPI *)record,
                   record->kind == CUPTI_ACTIVITY_KIND_DRIVER);
        break;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        decode_sync(d, (const CUpti_ActivitySynchronization2 *)record);
        break;
    case CUPTI_ACTIVITY_KIND_MEMORY2:
        decode_memory(d, (const CUpti_ActivityMemory4 *)record);
        break;
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
        decode_overhead(d, (const CUpti_ActivityOverhead3 *)record);
        break;
    case CUPTI_ACTIVITY_KIND_DEVICE:
        decode_device(d, (const CUpti_ActivityDevice5 *)record);
        break;
    case CUPTI_ACTIVITY_KIND_CONTEXT: {
        const CUpti_ActivityContext3 *c = (const CUpti_ActivityContext3 *)record;
        learn_context(d, c->contextId, c->deviceId);
        break;
    }
    default:
        break;
    }
}
