/* Which CUDA/HIP API calls block the host until the GPU catches up (sync_calls.h). */
#include "analysis/base/sync_calls.h"
#include "common/util.h"

#include <stdlib.h>
#include <string.h>

/* A memcpy call is blocking only when its copy has a pageable host side; the table marks it. */
enum { ASYNC_COPY = GS_SYNC__COUNT };

/* Blocking API calls by name. A name matches when the trace's name equals it or continues with
 * '_' (a CUPTI version suffix such as cudaMemcpy_v3020), so cudaMemcpy never matches
 * cudaMemcpyAsync. */
static const struct sync_api {
    const char *name;
    int kind; /* enum gs_sync_kind, or ASYNC_COPY */
} sync_apis[] = {
    {"cudaStreamSynchronize", GS_SYNC_STREAM},
    {"hipStreamSynchronize", GS_SYNC_STREAM},
    {"cuStreamSynchronize", GS_SYNC_STREAM},
    {"cudaDeviceSynchronize", GS_SYNC_DEVICE},
    {"cudaThreadSynchronize", GS_SYNC_DEVICE},
    {"hipDeviceSynchronize", GS_SYNC_DEVICE},
    {"cuCtxSynchronize", GS_SYNC_DEVICE},
    {"cudaEventSynchronize", GS_SYNC_EVENT},
    {"hipEventSynchronize", GS_SYNC_EVENT},
    {"cuEventSynchronize", GS_SYNC_EVENT},
    {"cudaStreamWaitEvent", GS_SYNC_WAIT_EVENT},
    {"hipStreamWaitEvent", GS_SYNC_WAIT_EVENT},
    {"cuStreamWaitEvent", GS_SYNC_WAIT_EVENT},
    {"cudaMemcpy", GS_SYNC_MEMCPY},
    {"cudaMemcpy2D", GS_SYNC_MEMCPY},
    {"cudaMemcpy3D", GS_SYNC_MEMCPY},
    {"cudaMemcpyToSymbol", GS_SYNC_MEMCPY},
    {"cudaMemcpyFromSymbol", GS_SYNC_MEMCPY},
    {"hipMemcpy", GS_SYNC_MEMCPY},
    {"cuMemcpyDtoH", GS_SYNC_MEMCPY},
    {"cuMemcpyHtoD", GS_SYNC_MEMCPY},
    {"cuMemcpy", GS_SYNC_MEMCPY},
    {"cudaMemcpyAsync", ASYNC_COPY},
    {"cudaMemcpy2DAsync", ASYNC_COPY},
    {"hipMemcpyAsync", ASYNC_COPY},
    {"cuMemcpyDtoHAsync", ASYNC_COPY},
    {"cuMemcpyHtoDAsync", ASYNC_COPY},
    {"cuMemcpyAsync", ASYNC_COPY},
};

static const char *const kind_names[GS_SYNC__COUNT] = {
    [GS_SYNC_STREAM] = "stream sync",   [GS_SYNC_DEVICE] = "device sync",
    [GS_SYNC_EVENT] = "event sync",     [GS_SYNC_MEMCPY] = "sync memcpy",
    [GS_SYNC_MEMCPY_PAGEABLE] = "pageable memcpy", [GS_SYNC_WAIT_EVENT] = "stream wait event",
};

const char *gs_sync_kind_name(enum gs_sync_kind k)
{
    return (unsigned)k < GS_SYNC__COUNT ? kind_names[k] : "?";
}

static int api_table_kind(const char *name)
{
    for (size_t i = 0; i < COUNT_OF(sync_apis); i++) {
        size_t len = strlen(sync_apis[i].name);
        if (strncmp(name, sync_apis[i].name, len) == 0 && (name[len] == '\0' || name[len] == '_'))
            return sync_apis[i].kind;
    }
    return -1;
}

/* An async copy blocks only when its host side is pageable. */
static int resolve_kind(const gs_trace *t, const gs_api *a, int kind)
{
    if (kind != ASYNC_COPY)
        return kind;
    if (a->gpu_class != GS_GPU_MEMOP || a->gpu == GS_NONE)
        return -1;
    const gs_memop *m = &t->memops.v[a->gpu];
    return m->src == GS_LOC_PAGEABLE || m->dst == GS_LOC_PAGEABLE ? GS_SYNC_MEMCPY_PAGEABLE : -1;
}

int gs_sync_call_kind(const gs_trace *t, const gs_api *a)
{
    return resolve_kind(t, a, api_table_kind(gs_trace_str(t, a->name)));
}

/* by_name holds the table kind + 2 of each API name (0: not an API name of this trace). */
int gs_sync_kinds_init(gs_sync_kinds *k, const gs_trace *t)
{
    k->by_name = calloc(t->strings.n ? t->strings.n : 1, 1);
    if (!k->by_name)
        return -1;
    for (size_t i = 0; i < t->apis.n; i++) {
        gs_str name = t->apis.v[i].name;
        if (!k->by_name[name])
            k->by_name[name] = (int8_t)(api_table_kind(gs_trace_str(t, name)) + 2);
    }
    return 0;
}

int gs_sync_kind_of(const gs_sync_kinds *k, const gs_trace *t, const gs_api *a)
{
    return resolve_kind(t, a, k->by_name[a->name] - 2);
}

void gs_sync_kinds_free(gs_sync_kinds *k)
{
    free(k->by_name);
    k->by_name = NULL;
}

