#include "model/trace.h"

#include <stdlib.h>
#include <string.h>

int gs_trace_init(gs_trace *t, const char *path, gs_error *err)
{
    memset(t, 0, sizeof *t);
    t->collector_overhead_ns = -1;
    if (gs_strtab_init(&t->strings) != 0)
        return gs_fail_oom(err);
    t->id.path = strdup(path ? path : "");
    if (!t->id.path) {
        gs_strtab_free(&t->strings);
        return gs_fail_oom(err);
    }
    return 0;
}

void gs_trace_free(gs_trace *t)
{
    gs_strtab_free(&t->strings);
    gs_rank_id_free(&t->id);
    GS_VEC_FREE(&t->kernels);
    GS_VEC_FREE(&t->memops);
    GS_VEC_FREE(&t->syncs);
    GS_VEC_FREE(&t->apis);
    GS_VEC_FREE(&t->ranges);
    GS_VEC_FREE(&t->instants);
    GS_VEC_FREE(&t->mem_events);
    GS_VEC_FREE(&t->counters);
    GS_VEC_FREE(&t->devices);
    GS_VEC_FREE(&t->threads);
    GS_VEC_FREE(&t->coll_args);
    GS_VEC_FREE(&t->thread_ranges);
    GS_VEC_FREE(&t->thread_apis);
    memset(t, 0, sizeof *t);
}

int gs_rank_id_copy(gs_rank_id *dst, const gs_rank_id *src)
{
    *dst = *src;
    dst->path = strdup(src->path ? src->path : "");
    if (!dst->path) {
        memset(dst, 0, sizeof *dst);
        return -1;
    }
    return 0;
}

void gs_rank_id_free(gs_rank_id *id)
{
    free(id->path);
    memset(id, 0, sizeof *id);
}

int gs_rank_id_cmp(const gs_rank_id *a, const gs_rank_id *b)
{
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return strcmp(a->path ? a->path : "", b->path ? b->path : "");
}

gs_trace *gs_trace_new(const char *path, gs_error *err)
{
    gs_trace *t = malloc(sizeof *t);
    if (!t) {
        gs_fail_oom(err);
        return NULL;
    }
    if (gs_trace_init(t, path, err) != 0) {
        free(t);
        return NULL;
    }
    return t;
}

void gs_trace_delete(gs_trace *t)
{
    if (t) {
        gs_trace_free(t);
        free(t);
    }
}

void gs_profile_free(gs_profile *p)
{
    for (size_t i = 0; i < p->traces.n; i++)
        gs_trace_delete(p->traces.v[i]);
    GS_VEC_FREE(&p->traces);
}

#define VEC_BYTES(vec) ((uint64_t)(vec).cap * sizeof *(vec).v)

uint64_t gs_trace_bytes(const gs_trace *t)
{
    return gs_strtab_bytes(&t->strings) + VEC_BYTES(t->kernels) + VEC_BYTES(t->memops) +
           VEC_BYTES(t->syncs) + VEC_BYTES(t->apis) + VEC_BYTES(t->ranges) +
           VEC_BYTES(t->instants) + VEC_BYTES(t->mem_events) + VEC_BYTES(t->counters) +
           VEC_BYTES(t->devices) + VEC_BYTES(t->threads) + VEC_BYTES(t->coll_args) +
           VEC_BYTES(t->thread_ranges) + VEC_BYTES(t->thread_apis);
}

#define SPAN_OVER(arr, first_field, last_field)                                                    \
    for (size_t i = 0; i < (arr).n; i++) {                                                         \
        gs_ns a = (arr).v[i].first_field, b = (arr).v[i].last_field;                               \
        if (!any || a < lo)                                                                        \
            lo = a;                                                                                \
        if (!any || b > hi)                                                                        \
            hi = b;                                                                                \
        any = true;                                                                                \
    }

bool gs_trace_span(const gs_trace *t, gs_ns *first, gs_ns *last)
{
    bool any = false;
    gs_ns lo = 0, hi = 0;
    SPAN_OVER(t->kernels, start, end)
    SPAN_OVER(t->memops, start, end)
    SPAN_OVER(t->syncs, start, end)
    SPAN_OVER(t->apis, start, end)
    SPAN_OVER(t->ranges, start, end)
    SPAN_OVER(t->instants, ts, ts)
    SPAN_OVER(t->mem_events, ts, ts)
    if (first)
        *first = lo;
    if (last)
        *last = hi;
    return any;
}

const gs_device *gs_trace_device(const gs_trace *t, int32_t id)
{
    for (size_t i = 0; i < t->devices.n; i++)
        if (t->devices.v[i].id == id)
            return &t->devices.v[i];
    return NULL;
}

const char *gs_memop_kind_name(enum gs_memop_kind k)
{
    static const char *const names[GS_MEMOP__COUNT] = {
        [GS_MEMOP_HTOD] = "HtoD",   [GS_MEMOP_DTOH] = "DtoH",
        [GS_MEMOP_DTOD] = "DtoD",   [GS_MEMOP_HTOH] = "HtoH",
        [GS_MEMOP_PTOP] = "PtoP",   [GS_MEMOP_COPY_OTHER] = "Copy",
        [GS_MEMOP_MEMSET] = "Memset",
    };
    return (unsigned)k < GS_MEMOP__COUNT ? names[k] : "?";
}

const char *gs_mem_loc_name(enum gs_mem_loc l)
{
    static const char *const names[GS_LOC__COUNT] = {
        [GS_LOC_UNKNOWN] = "",        [GS_LOC_PAGEABLE] = "Pageable", [GS_LOC_PINNED] = "Pinned",
        [GS_LOC_DEVICE] = "Device",   [GS_LOC_ARRAY] = "Array",       [GS_LOC_MANAGED] = "Managed",
    };
    return (unsigned)l < GS_LOC__COUNT ? names[l] : "?";
}

bool gs_is_profiler_step(const char *name)
{
    size_t n = strlen(GS_PROFILER_STEP_PREFIX);
    if (strncmp(name, GS_PROFILER_STEP_PREFIX, n) != 0 || !name[n])
        return false;
    return name[n + strspn(name + n, "0123456789")] == '\0';
}
