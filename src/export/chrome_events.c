#include "export/chrome_events.h"

#include <string.h>

#include "export/chrome_coll.h"

/* ---- host side ------------------------------------------------------------------------------- */

static const char *const range_cats[GS_RANGE__COUNT] = {
    [GS_RANGE_OP] = "cpu_op",
    [GS_RANGE_ANNOTATION] = "user_annotation",
    [GS_RANGE_NVTX] = "nvtx",
    [GS_RANGE_PYTHON] = "python_function",
    [GS_RANGE_GPU_ANNOTATION] = "gpu_user_annotation",
    [GS_RANGE_OTHER] = "other",
};

const char *chrome_range_cat(enum gs_range_kind kind)
{
    return kind < GS_RANGE__COUNT ? range_cats[kind] : "other";
}

void chrome_write_ranges(chrome_ctx *c)
{
    const gs_trace *t = c->t;
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        bool on_gpu = r->kind == GS_RANGE_GPU_ANNOTATION; /* pid = device, tid = stream */
        int64_t pid = on_gpu ? chrome_gpu_pid(c, r->pid) : chrome_host_pid(c, r->pid);
        chrome_begin(c, 'X', chrome_range_cat(r->kind), gs_trace_str(t, r->name), pid, r->tid);
        chrome_times(c, r->start, r->end - r->start);
        if (r->external_id)
            chrome_arg_int(c, "External id", chrome_external_id(c, r->external_id));
        if (r->input_dims != GS_STR_EMPTY)
            chrome_arg_raw(c, "Input Dims", gs_trace_str(t, r->input_dims)); /* kept as JSON */
        if (r->input_types != GS_STR_EMPTY)
            chrome_arg_raw(c, "Input type", gs_trace_str(t, r->input_types));
        if (r->concrete_inputs != GS_STR_EMPTY)
            chrome_arg_raw(c, "Concrete Inputs", gs_trace_str(t, r->concrete_inputs));
        if (r->flops > 0)
            chrome_arg_int(c, "flops", (int64_t)r->flops);
        if (r->domain != GS_STR_EMPTY)
            chrome_arg_str(c, "domain", gs_trace_str(t, r->domain));
        if (r->kind == GS_RANGE_OP) /* the reader takes them from operators and kernels only */
            chrome_write_coll_args(c, GS_COLL_ARGS_ON_OP, r->external_id);
        chrome_end(c);
    }
}

/* The launch call that a flow starts from: it must have launched exactly this activity, so that
 * every "s" has one "f" (real Kineto traces do not pair one to one; ours do). */
static bool flow_pair(const gs_trace *t, uint32_t api, enum gs_gpu_class cls, size_t idx)
{
    if (api == GS_NONE)
        return false;
    const gs_api *a = &t->apis.v[api];
    return a->correlation != 0 && a->gpu_class == cls && a->gpu == idx;
}

static bool launches_paired(const gs_trace *t, size_t api)
{
    const gs_api *a = &t->apis.v[api];
    if (a->gpu == GS_NONE)
        return false;
    if (a->gpu_class == GS_GPU_KERNEL)
        return flow_pair(t, t->kernels.v[a->gpu].api, GS_GPU_KERNEL, a->gpu) &&
               t->kernels.v[a->gpu].api == api;
    if (a->gpu_class == GS_GPU_MEMOP)
        return flow_pair(t, t->memops.v[a->gpu].api, GS_GPU_MEMOP, a->gpu) &&
               t->memops.v[a->gpu].api == api;
    return false;
}

static void write_flow(chrome_ctx *c, char ph, uint64_t id, int64_t pid, int64_t tid, gs_ns ts)
{
    chrome_begin(c, ph, "ac2g", "ac2g", pid, tid);
    gs_json_put_uint(c->w, "id", chrome_correlation(c, id));
    chrome_times(c, ts, -1);
    if (ph == 'f')
        gs_json_put_str(c->w, "bp", "e"); /* binds to the enclosing slice: the GPU activity */
    chrome_end(c);
}

void chrome_write_apis(chrome_ctx *c)
{
    const gs_trace *t = c->t;
    for (size_t i = 0; i < t->apis.n; i++) {
        const gs_api *a = &t->apis.v[i];
        int64_t pid = chrome_host_pid(c, a->pid);
        chrome_begin(c, 'X', a->kind == GS_API_DRIVER ? "cuda_driver" : "cuda_runtime",
                     gs_trace_str(t, a->name), pid, a->tid);
        chrome_times(c, a->start, a->end - a->start);
        if (a->external_id)
            chrome_arg_int(c, "External id", chrome_external_id(c, a->external_id));
        if (a->cbid >= 0)
            chrome_arg_int(c, "cbid", a->cbid);
        if (a->correlation)
            chrome_arg_uint(c, "correlation", chrome_correlation(c, a->correlation));
        chrome_end(c);
        if (launches_paired(t, i))
            write_flow(c, 's', a->correlation, pid, a->tid, a->start);
    }
}

/* ---- GPU side -------------------------------------------------------------------------------- */

static void write_gpu_ids(chrome_ctx *c, int32_t device, int32_t stream, uint64_t correlation,
                          int64_t external_id)
{
    if (external_id)
        chrome_arg_int(c, "External id", chrome_external_id(c, external_id));
    chrome_arg_int(c, "device", device);
    chrome_arg_int(c, "stream", stream);
    if (correlation)
        chrome_arg_uint(c, "correlation", chrome_correlation(c, correlation));
}

void chrome_write_kernels(chrome_ctx *c)
{
    const gs_trace *t = c->t;
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        int64_t pid = chrome_gpu_pid(c, k->device);
        chrome_begin(c, 'X', "kernel", gs_trace_str(t, k->name), pid, k->stream);
        chrome_times(c, k->start, k->end - k->start);
        write_gpu_ids(c, k->device, k->stream, k->correlation, k->external_id);
        if (k->registers_per_thread >= 0)
            chrome_arg_int(c, "registers per thread", k->registers_per_thread);
        if (k->shared_memory >= 0)
            chrome_arg_int(c, "shared memory", k->shared_memory);
        /* Floats with 9 significant digits read back as the same float. */
        if (k->blocks_per_sm >= 0)
            chrome_arg_real(c, "blocks per SM", k->blocks_per_sm, 9);
        if (k->warps_per_sm >= 0)
            chrome_arg_real(c, "warps per SM", k->warps_per_sm, 9);
        chrome_arg_dim3(c, "grid", k->grid);
        chrome_arg_dim3(c, "block", k->block);
        if (k->occupancy_pct >= 0)
            chrome_arg_real(c, "est. achieved occupancy %", k->occupancy_pct, 9);
        if (k->graph_id)
            chrome_arg_int(c, "graph id", k->graph_id);
        if (k->mangled != GS_STR_EMPTY) /* the CUPTI symbol a .gst kernel name came from */
            chrome_arg_str(c, "mangled name", gs_trace_str(t, k->mangled));
        chrome_write_coll_args(c, GS_COLL_ARGS_ON_KERNEL, (int64_t)k->correlation);
        chrome_end(c);
        if (flow_pair(t, k->api, GS_GPU_KERNEL, i))
            write_flow(c, 'f', k->correlation, pid, k->stream, k->start);
    }
}

void chrome_write_memops(chrome_ctx *c)
{
    const gs_trace *t = c->t;
    for (size_t i = 0; i < t->memops.n; i++) {
        const gs_memop *m = &t->memops.v[i];
        int64_t pid = chrome_gpu_pid(c, m->device);
        bool set = m->kind == GS_MEMOP_MEMSET;
        chrome_begin(c, 'X', set ? "gpu_memset" : "gpu_memcpy", gs_trace_str(t, m->name), pid,
                     m->stream);
        chrome_times(c, m->start, m->end - m->start);
        write_gpu_ids(c, m->device, m->stream, m->correlation, m->external_id);
        chrome_arg_uint(c, "bytes", m->bytes);
        if (m->end > m->start) /* bytes per ns = GB/s */
            chrome_arg_real(c, "memory bandwidth (GB/s)",
                            (double)m->bytes / (double)(m->end - m->start), 6);
        chrome_end(c);
        if (flow_pair(t, m->api, GS_GPU_MEMOP, i))
            write_flow(c, 'f', m->correlation, pid, m->stream, m->start);
    }
}

void chrome_write_syncs(chrome_ctx *c)
{
    const gs_trace *t = c->t;
    for (size_t i = 0; i < t->syncs.n; i++) {
        const gs_gpu_sync *s = &t->syncs.v[i];
        /* A track of its own (as Kineto since 2026): a sync spans kernels of its stream and
         * would not nest with them on the stream's track. */
        chrome_begin(c, 'X', "cuda_sync", gs_trace_str(t, s->name), chrome_gpu_pid(c, s->device),
                     (int64_t)s->stream + CHROME_SYNC_TID_OFFSET);
        chrome_times(c, s->start, s->end - s->start);
        write_gpu_ids(c, s->device, s->stream, s->correlation, 0);
        chrome_end(c);
    }
}

/* ---- instants and samples -------------------------------------------------------------------- */

void chrome_write_instants(chrome_ctx *c)
{
    const gs_trace *t = c->t;
    for (size_t i = 0; i < t->instants.n; i++) {
        const gs_instant *in = &t->instants.v[i];
        chrome_begin(c, 'i', "cpu_instant_event", gs_trace_str(t, in->name),
                     chrome_host_pid(c, in->pid), in->tid);
        chrome_times(c, in->ts, -1);
        gs_json_put_str(c->w, "s", "t"); /* thread-scoped */
        chrome_end(c);
    }
}

void chrome_write_mem_events(chrome_ctx *c)
{
    const gs_trace *t = c->t;
    for (size_t i = 0; i < t->mem_events.n; i++) {
        const gs_mem_event *m = &t->mem_events.v[i];
        chrome_begin(c, 'i', "cpu_instant_event", "[memory]", chrome_host_pid(c, m->pid), m->tid);
        chrome_times(c, m->ts, -1);
        gs_json_put_str(c->w, "s", "t"); /* thread-scoped */
        chrome_arg_int(c, "Device Type", m->device_type);
        chrome_arg_int(c, "Device Id", m->device);
        chrome_arg_int(c, "Addr", (int64_t)m->addr); /* Kineto writes it signed */
        chrome_arg_int(c, "Bytes", m->bytes);
        if (m->total_allocated >= 0)
            chrome_arg_int(c, "Total Allocated", m->total_allocated);
        if (m->total_reserved >= 0)
            chrome_arg_int(c, "Total Reserved", m->total_reserved);
        chrome_end(c);
    }
}

void chrome_write_counters(chrome_ctx *c)
{
    const gs_trace *t = c->t;
    for (size_t i = 0; i < t->counters.n; i++) {
        const gs_counter *s = &t->counters.v[i];
        /* A counter track belongs to a process: the GPU's, or the host process for host
         * metrics. The category says which, so that a reader gets the device back. */
        bool gpu = s->device >= 0;
        int64_t pid = gpu ? chrome_gpu_pid(c, s->device) : chrome_host_pid(c, t->pid);
        chrome_begin(c, 'C', gpu ? "gpu_counter" : "host_counter", gs_trace_str(t, s->name), pid,
                     0);
        chrome_times(c, s->ts, -1);
        chrome_arg_real(c, "value", s->value, 17);
        chrome_end(c);
    }
}
