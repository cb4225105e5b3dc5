/* Which CUDA/HIP API calls block the host until the GPU catches up (sync_calls.h); the names are
 * the name rules' (name_rule_table.c, SYNC_CALL). */
#include "analysis/base/sync_calls.h"

#include "analysis/base/name_rules.h"

static const char *const kind_names[GS_SYNC__COUNT] = {
    [GS_SYNC_STREAM] = "stream sync",   [GS_SYNC_DEVICE] = "device sync",
    [GS_SYNC_EVENT] = "event sync",     [GS_SYNC_MEMCPY] = "sync memcpy",
    [GS_SYNC_MEMCPY_PAGEABLE] = "pageable memcpy", [GS_SYNC_WAIT_EVENT] = "stream wait event",
};

const char *gs_sync_kind_name(enum gs_sync_kind k)
{
    return (unsigned)k < GS_SYNC__COUNT ? kind_names[k] : "?";
}

int gs_sync_call_kind(const gs_trace *t, const gs_names *names, const gs_api *a)
{
    int kind = (int)gs_names_get(names, a->name, GS_NAME_SYNC_CALL) - 1;
    if (kind != GS_SYNC_ASYNC_COPY)
        return kind;
    /* An async copy blocks only when its host side is pageable. */
    if (a->gpu_class != GS_GPU_MEMOP || a->gpu == GS_NONE)
        return -1;
    const gs_memop *m = &t->memops.v[a->gpu];
    return m->src == GS_LOC_PAGEABLE || m->dst == GS_LOC_PAGEABLE ? GS_SYNC_MEMCPY_PAGEABLE : -1;
}
