#include "export/sqlite_tables.h"

#include <math.h>
#include <string.h>

#include "common/util.h"
#include "export/chrome_events.h"

/* ---- values ---------------------------------------------------------------------------------- */

static sqlv v_int(int64_t v)
{
    return (sqlv){.type = SQLV_INT, .i = v};
}

static sqlv v_null(void)
{
    return (sqlv){.type = SQLV_NULL};
}

/* Unknown values are NULL, never the model's -1 / 0 sentinels, so SQL aggregates skip them. */
static sqlv v_known(int64_t v, bool known)
{
    return known ? v_int(v) : v_null();
}

static sqlv v_real(double v, bool known)
{
    return known && isfinite(v) ? (sqlv){.type = SQLV_REAL, .d = v} : v_null();
}

static sqlv v_text(const char *s)
{
    return s ? (sqlv){.type = SQLV_TEXT, .s = s} : v_null();
}

/* A reference into StringIds. */
static sqlv v_str(const sql_src *src, gs_str id)
{
    return v_int(src->str_base + (int64_t)id);
}

#define COLS(a) a, COUNT_OF(a)
#define RANK {"rank", "INTEGER NOT NULL"}
#define START_END {"start", "INTEGER NOT NULL"}, {"end", "INTEGER NOT NULL"}

static const char *const idx_start_corr[] = {"start", "correlationId", NULL};
static const char *const idx_start[] = {"start", NULL};
static const char *const idx_ts[] = {"ts", NULL};

/* ---- StringIds and META ---------------------------------------------------------------------- */

static const sql_col string_cols[] = {{"id", "INTEGER PRIMARY KEY"}, {"value", "TEXT NOT NULL"}};

static size_t string_count(const gs_trace *t)
{
    return t->strings.n;
}

static size_t string_row(const sql_src *src, size_t i, sqlv *o)
{
    o[0] = v_str(src, (gs_str)i);
    o[1] = v_text(gs_trace_str(src->t, (gs_str)i));
    return 2;
}

static const sql_col meta_cols[] = {
    RANK,
    {"worldSize", "INTEGER"},
    {"path", "TEXT"},
    {"format", "TEXT"},
    {"pid", "INTEGER"},
    {"hostname", "TEXT"},
    {"epochNs", "INTEGER NOT NULL"},
    {"rankSource", "TEXT"},
    {"eventsSkipped", "INTEGER"},
    {"recordsDropped", "INTEGER"},
};

static size_t meta_count(const gs_trace *t)
{
    (void)t;
    return 1;
}

static size_t meta_row(const sql_src *src, size_t i, sqlv *o)
{
    static const char *const sources[] = {"default", "metadata", "filename"};
    const gs_trace *t = src->t;
    (void)i;
    size_t k = 0;
    o[k++] = v_int(t->id.rank);
    o[k++] = v_known(t->id.world_size, t->id.world_size > 0);
    o[k++] = v_text(t->id.path);
    o[k++] = v_text(gs_trace_str(t, t->format));
    o[k++] = v_known(t->pid, t->pid != 0);
    o[k++] = v_text(gs_trace_str(t, t->hostname));
    o[k++] = v_int(t->id.epoch_ns);
    o[k++] = v_text(t->id.source < 3 ? sources[t->id.source] : NULL);
    o[k++] = v_int((int64_t)t->events_skipped);
    o[k++] = v_int((int64_t)gs_loss_total(t->lost)); /* collector's drops and reader's skips */
    return k;
}

static const sql_col gpu_cols[] = {
    RANK,
    {"id", "INTEGER NOT NULL"},
    {"name", "TEXT"},
    {"totalMemory", "INTEGER"},
    {"smCount", "INTEGER"},
    {"computeMajor", "INTEGER"},
    {"computeMinor", "INTEGER"},
    {"maxThreadsPerSm", "INTEGER"},
    {"uuid", "TEXT"},
};

static size_t gpu_count(const gs_trace *t)
{
    return t->devices.n;
}

static size_t gpu_row(const sql_src *src, size_t i, sqlv *o)
{
    const gs_device *d = &src->t->devices.v[i];
    size_t k = 0;
    o[k++] = v_int(src->t->id.rank);
    o[k++] = v_int(d->id);
    o[k++] = v_text(gs_trace_str(src->t, d->name));
    o[k++] = v_known((int64_t)d->total_memory, d->total_memory > 0);
    o[k++] = v_known(d->num_sms, d->num_sms > 0);
    o[k++] = v_int(d->compute_major);
    o[k++] = v_int(d->compute_minor);
    o[k++] = v_known(d->max_threads_per_sm, d->max_threads_per_sm > 0);
    o[k++] = v_text(d->uuid != GS_STR_EMPTY ? gs_trace_str(src->t, d->uuid) : NULL);
    return k;
}

static const sql_col thread_cols[] = {
    RANK, {"pid", "INTEGER"}, {"tid", "INTEGER"}, {"nameId", "INTEGER NOT NULL"}};

static size_t thread_count(const gs_trace *t)
{
    return t->threads.n;
}

static size_t thread_row(const sql_src *src, size_t i, sqlv *o)
{
    const gs_thread *th = &src->t->threads.v[i];
    o[0] = v_int(src->t->id.rank);
    o[1] = v_int(th->pid);
    o[2] = v_int(th->tid);
    o[3] = v_str(src, th->name);
    return 4;
}

/* ---- GPU activity ---------------------------------------------------------------------------- */

/* Columns every GPU activity table starts with, in this order. */
#define GPU_HEAD                                                                                   \
    RANK, START_END, {"deviceId", "INTEGER"}, {"streamId", "INTEGER"},                            \
        {"correlationId", "INTEGER"}, {"externalId", "INTEGER"}

static size_t gpu_head(const sql_src *src, gs_ns start, gs_ns end, int32_t device, int32_t stream,
                       uint64_t correlation, int64_t external_id, sqlv *o)
{
    o[0] = v_int(src->t->id.rank);
    o[1] = v_int(start);
    o[2] = v_int(end);
    o[3] = v_int(device);
    o[4] = v_int(stream);
    o[5] = v_known((int64_t)correlation, correlation != 0);
    o[6] = v_known(external_id, external_id != 0);
    return 7;
}

static const sql_col kernel_cols[] = {
    GPU_HEAD,
    {"gridX", "INTEGER"},
    {"gridY", "INTEGER"},
    {"gridZ", "INTEGER"},
    {"blockX", "INTEGER"},
    {"blockY", "INTEGER"},
    {"blockZ", "INTEGER"},
    {"registersPerThread", "INTEGER"},
    {"sharedMemory", "INTEGER"},
    {"blocksPerSm", "REAL"},
    {"warpsPerSm", "REAL"},
    {"occupancy", "REAL"},
    {"graphId", "INTEGER"},
    {"shortName", "INTEGER NOT NULL"},
    {"demangledName", "INTEGER NOT NULL"},
    {"mangledName", "INTEGER"},
};

static size_t kernel_count(const gs_trace *t)
{
    return t->kernels.n;
}

static size_t kernel_row(const sql_src *src, size_t i, sqlv *o)
{
    const gs_kernel *x = &src->t->kernels.v[i];
    size_t k = gpu_head(src, x->start, x->end, x->device, x->stream, x->correlation,
                        x->external_id, o);
    for (int d = 0; d < 3; d++)
        o[k++] = v_int(x->grid[d]);
    for (int d = 0; d < 3; d++)
        o[k++] = v_int(x->block[d]);
    o[k++] = v_known(x->registers_per_thread, x->registers_per_thread >= 0);
    o[k++] = v_known(x->shared_memory, x->shared_memory >= 0);
    o[k++] = v_real(x->blocks_per_sm, x->blocks_per_sm >= 0);
    o[k++] = v_real(x->warps_per_sm, x->warps_per_sm >= 0);
    o[k++] = v_real(x->occupancy_pct, x->occupancy_pct >= 0);
    o[k++] = v_known(x->graph_id, x->graph_id != 0);
    o[k++] = v_str(src, x->name); /* traces carry one name: short and demangled are the same */
    o[k++] = v_str(src, x->name);
    /* the CUPTI symbol a .gst name was demangled from; NULL when the trace had only one name */
    o[k++] = x->mangled != GS_STR_EMPTY ? v_str(src, x->mangled) : v_null();
    return k;
}

/* CUPTI_ACTIVITY_MEMCPY_KIND numbers, as nsys stores copyKind. */
static const int64_t cupti_copy_kind[GS_MEMOP__COUNT] = {
    [GS_MEMOP_HTOD] = 1, [GS_MEMOP_DTOH] = 2, [GS_MEMOP_DTOD] = 8,
    [GS_MEMOP_HTOH] = 9, [GS_MEMOP_PTOP] = 10, [GS_MEMOP_COPY_OTHER] = 0,
};

static const sql_col memcpy_cols[] = {
    GPU_HEAD,          {"bytes", "INTEGER NOT NULL"}, {"copyKind", "INTEGER NOT NULL"},
    {"srcKind", "INTEGER NOT NULL"}, {"dstKind", "INTEGER NOT NULL"}, {"name", "INTEGER NOT NULL"},
};

static size_t memop_count(const gs_trace *t)
{
    return t->memops.n;
}

static size_t memcpy_row(const sql_src *src, size_t i, sqlv *o)
{
    const gs_memop *m = &src->t->memops.v[i];
    if (m->kind == GS_MEMOP_MEMSET)
        return 0;
    size_t k = gpu_head(src, m->start, m->end, m->device, m->stream, m->correlation,
                        m->external_id, o);
    o[k++] = v_int((int64_t)m->bytes);
    o[k++] = v_int(m->kind < GS_MEMOP__COUNT ? cupti_copy_kind[m->kind] : 0);
    o[k++] = v_int(m->src); /* enum gs_mem_loc numbers CUPTI_ACTIVITY_MEMORY_KIND's way */
    o[k++] = v_int(m->dst);
    o[k++] = v_str(src, m->name);
    return k;
}

static const sql_col memset_cols[] = {
    GPU_HEAD, {"bytes", "INTEGER NOT NULL"}, {"memKind", "INTEGER NOT NULL"},
    {"name", "INTEGER NOT NULL"},
};

static size_t memset_row(const sql_src *src, size_t i, sqlv *o)
{
    const gs_memop *m = &src->t->memops.v[i];
    if (m->kind != GS_MEMOP_MEMSET)
        return 0;
    size_t k = gpu_head(src, m->start, m->end, m->device, m->stream, m->correlation,
                        m->external_id, o);
    o[k++] = v_int((int64_t)m->bytes);
    o[k++] = v_int(m->dst);
    o[k++] = v_str(src, m->name);
    return k;
}

/* CUpti_ActivitySynchronizationType, from the name the model keeps. */
static int64_t sync_type(const char *name)
{
    static const char *const names[] = {NULL, "Event Sync", "Stream Wait Event", "Stream Sync",
                                        "Context Sync"};
    for (size_t i = 1; i < COUNT_OF(names); i++)
        if (!strcmp(name, names[i]))
            return (int64_t)i;
    return 0;
}

static const sql_col sync_cols[] = {
    GPU_HEAD, {"syncType", "INTEGER NOT NULL"}, {"name", "INTEGER NOT NULL"}};

static size_t sync_count(const gs_trace *t)
{
    return t->syncs.n;
}

static size_t sync_row(const sql_src *src, size_t i, sqlv *o)
{
    const gs_gpu_sync *s = &src->t->syncs.v[i];
    size_t k = gpu_head(src, s->start, s->end, s->device, s->stream, s->correlation, 0, o);
    o[k++] = v_int(sync_type(gs_trace_str(src->t, s->name)));
    o[k++] = v_str(src, s->name);
    return k;
}

/* ---- host side ------------------------------------------------------------------------------- */

static const sql_col api_cols[] = {
    RANK,
    START_END,
    {"pid", "INTEGER"},
    {"tid", "INTEGER"},
    {"correlationId", "INTEGER"},
    {"externalId", "INTEGER"},
    {"nameId", "INTEGER NOT NULL"},
    {"cbid", "INTEGER"},
    {"isDriver", "INTEGER NOT NULL"},
    {"parentId", "INTEGER"},
};

static size_t api_count(const gs_trace *t)
{
    return t->apis.n;
}

static size_t api_row(const sql_src *src, size_t i, sqlv *o)
{
    const gs_api *a = &src->t->apis.v[i];
    size_t k = 0;
    o[k++] = v_int(src->t->id.rank);
    o[k++] = v_int(a->start);
    o[k++] = v_int(a->end);
    o[k++] = v_int(a->pid);
    o[k++] = v_int(a->tid);
    o[k++] = v_known((int64_t)a->correlation, a->correlation != 0);
    o[k++] = v_known(a->external_id, a->external_id != 0);
    o[k++] = v_str(src, a->name);
    o[k++] = v_known(a->cbid, a->cbid >= 0);
    o[k++] = v_int(a->kind == GS_API_DRIVER);
    o[k++] = v_known(a->parent, a->parent != GS_NONE);
    return k;
}

/* Ranges: NVTX ranges in NVTX_EVENTS, every other kind in OPS; both share the id space (the
 * model's range index, per rank), so a parentId may point into either table. */
#define RANGE_HEAD                                                                                 \
    RANK, {"id", "INTEGER NOT NULL"}, START_END, {"pid", "INTEGER"}, {"tid", "INTEGER"},         \
        {"parentId", "INTEGER"}, {"depth", "INTEGER"}

static size_t range_head(const sql_src *src, size_t i, const gs_range *r, sqlv *o)
{
    bool tree = gs_range_in_op_tree(r);
    o[0] = v_int(src->t->id.rank);
    o[1] = v_int((int64_t)i);
    o[2] = v_int(r->start);
    o[3] = v_int(r->end);
    o[4] = v_int(r->pid);
    o[5] = v_int(r->tid);
    o[6] = v_known(r->parent, tree && r->parent != GS_NONE);
    o[7] = v_known(r->depth, tree);
    return 8;
}

static size_t range_count(const gs_trace *t)
{
    return t->ranges.n;
}

/* nsys's NvtxEventType for a push/pop range (gpuscope does not tell start/end ranges apart). */
#define NVTX_PUSH_POP_RANGE 59

static const sql_col nvtx_cols[] = {
    RANGE_HEAD,
    {"eventType", "INTEGER NOT NULL"},
    {"textId", "INTEGER NOT NULL"},
    {"domainId", "INTEGER NOT NULL"},
    {"selfNs", "INTEGER"},
};

static size_t nvtx_row(const sql_src *src, size_t i, sqlv *o)
{
    const gs_range *r = &src->t->ranges.v[i];
    if (r->kind != GS_RANGE_NVTX)
        return 0;
    size_t k = range_head(src, i, r, o);
    o[k++] = v_int(NVTX_PUSH_POP_RANGE);
    o[k++] = v_str(src, r->name);
    o[k++] = v_str(src, r->domain);
    o[k++] = v_int(r->self_ns);
    return k;
}

static const sql_col op_cols[] = {
    RANGE_HEAD,
    {"kind", "TEXT NOT NULL"},
    {"nameId", "INTEGER NOT NULL"},
    {"externalId", "INTEGER"},
    {"selfNs", "INTEGER"},
    {"inputDimsId", "INTEGER"},
};

static size_t op_row(const sql_src *src, size_t i, sqlv *o)
{
    const gs_range *r = &src->t->ranges.v[i];
    if (r->kind == GS_RANGE_NVTX)
        return 0;
    size_t k = range_head(src, i, r, o);
    o[k++] = v_text(chrome_range_cat(r->kind)); /* the Kineto category: cpu_op, ... */
    o[k++] = v_str(src, r->name);
    o[k++] = v_known(r->external_id, r->external_id != 0);
    o[k++] = v_known(r->self_ns, gs_range_in_op_tree(r));
    o[k++] = r->input_dims != GS_STR_EMPTY ? v_str(src, r->input_dims) : v_null();
    return k;
}

static const sql_col instant_cols[] = {
    RANK, {"ts", "INTEGER NOT NULL"}, {"nameId", "INTEGER NOT NULL"}, {"pid", "INTEGER"},
    {"tid", "INTEGER"}};

static size_t instant_count(const gs_trace *t)
{
    return t->instants.n;
}

static size_t instant_row(const sql_src *src, size_t i, sqlv *o)
{
    const gs_instant *in = &src->t->instants.v[i];
    o[0] = v_int(src->t->id.rank);
    o[1] = v_int(in->ts);
    o[2] = v_str(src, in->name);
    o[3] = v_int(in->pid);
    o[4] = v_int(in->tid);
    return 5;
}

static const sql_col mem_cols[] = {
    RANK,
    {"ts", "INTEGER NOT NULL"},
    {"pid", "INTEGER"},
    {"tid", "INTEGER"},
    {"deviceType", "INTEGER"},
    {"deviceId", "INTEGER"},
    {"address", "INTEGER"},
    {"bytes", "INTEGER NOT NULL"},
    {"totalAllocated", "INTEGER"},
    {"totalReserved", "INTEGER"},
};

static size_t mem_count(const gs_trace *t)
{
    return t->mem_events.n;
}

static size_t mem_row(const sql_src *src, size_t i, sqlv *o)
{
    const gs_mem_event *m = &src->t->mem_events.v[i];
    size_t k = 0;
    o[k++] = v_int(src->t->id.rank);
    o[k++] = v_int(m->ts);
    o[k++] = v_int(m->pid);
    o[k++] = v_int(m->tid);
    o[k++] = v_int(m->device_type);
    o[k++] = v_int(m->device);
    o[k++] = v_int((int64_t)m->addr);
    o[k++] = v_int(m->bytes);
    o[k++] = v_known(m->total_allocated, m->total_allocated >= 0);
    o[k++] = v_known(m->total_reserved, m->total_reserved >= 0);
    return k;
}

static const sql_col counter_cols[] = {
    RANK, {"ts", "INTEGER NOT NULL"}, {"nameId", "INTEGER NOT NULL"}, {"deviceId", "INTEGER"},
    {"value", "REAL"}};

static size_t counter_count(const gs_trace *t)
{
    return t->counters.n;
}

static size_t counter_row(const sql_src *src, size_t i, sqlv *o)
{
    const gs_counter *c = &src->t->counters.v[i];
    o[0] = v_int(src->t->id.rank);
    o[1] = v_int(c->ts);
    o[2] = v_str(src, c->name);
    o[3] = v_known(c->device, c->device >= 0);
    o[4] = v_real(c->value, true);
    return 5;
}

/* ---- fixed tables: what the enumerations mean (nsys's ENUM_* tables) ------------------------- */

static const sql_col enum_cols[] = {
    {"id", "INTEGER PRIMARY KEY"}, {"name", "TEXT NOT NULL"}, {"label", "TEXT NOT NULL"}};

static const struct enum_row {
    const char *name, *label;
} copy_kinds[] = {
    {"CUDA_MEMCPY_KIND_UNKNOWN", "Unknown"}, {"CUDA_MEMCPY_KIND_HTOD", "Host-to-Device"},
    {"CUDA_MEMCPY_KIND_DTOH", "Device-to-Host"}, {"CUDA_MEMCPY_KIND_HTOA", "Host-to-Array"},
    {"CUDA_MEMCPY_KIND_ATOH", "Array-to-Host"}, {"CUDA_MEMCPY_KIND_ATOA", "Array-to-Array"},
    {"CUDA_MEMCPY_KIND_ATOD", "Array-to-Device"}, {"CUDA_MEMCPY_KIND_DTOA", "Device-to-Array"},
    {"CUDA_MEMCPY_KIND_DTOD", "Device-to-Device"}, {"CUDA_MEMCPY_KIND_HTOH", "Host-to-Host"},
    {"CUDA_MEMCPY_KIND_PTOP", "Peer-to-Peer"},
}, mem_kinds[] = {
    {"CUDA_MEMOPR_MEMORY_KIND_UNKNOWN", "Unknown"},
    {"CUDA_MEMOPR_MEMORY_KIND_PAGEABLE", "Pageable"},
    {"CUDA_MEMOPR_MEMORY_KIND_PINNED", "Pinned"},
    {"CUDA_MEMOPR_MEMORY_KIND_DEVICE", "Device"},
    {"CUDA_MEMOPR_MEMORY_KIND_ARRAY", "Array"},
    {"CUDA_MEMOPR_MEMORY_KIND_MANAGED", "Managed"},
};

static size_t copy_kind_count(const gs_trace *t)
{
    (void)t;
    return COUNT_OF(copy_kinds);
}

static size_t mem_kind_count(const gs_trace *t)
{
    (void)t;
    return COUNT_OF(mem_kinds);
}

static size_t enum_row(const struct enum_row *rows, size_t i, sqlv *o)
{
    o[0] = v_int((int64_t)i);
    o[1] = v_text(rows[i].name);
    o[2] = v_text(rows[i].label);
    return 3;
}

static size_t copy_kind_row(const sql_src *src, size_t i, sqlv *o)
{
    (void)src;
    return enum_row(copy_kinds, i, o);
}

static size_t mem_kind_row(const sql_src *src, size_t i, sqlv *o)
{
    (void)src;
    return enum_row(mem_kinds, i, o);
}

/* ---- the schema ------------------------------------------------------------------------------ */

static const sql_table tables[] = {
    {"META", COLS(meta_cols), false, meta_count, meta_row, NULL},
    {"StringIds", COLS(string_cols), false, string_count, string_row, NULL},
    {"TARGET_INFO_GPU", COLS(gpu_cols), false, gpu_count, gpu_row, NULL},
    {"THREAD_NAMES", COLS(thread_cols), false, thread_count, thread_row, NULL},
    {"CUPTI_ACTIVITY_KIND_KERNEL", COLS(kernel_cols), false, kernel_count, kernel_row,
     idx_start_corr},
    {"CUPTI_ACTIVITY_KIND_MEMCPY", COLS(memcpy_cols), false, memop_count, memcpy_row,
     idx_start_corr},
    {"CUPTI_ACTIVITY_KIND_MEMSET", COLS(memset_cols), false, memop_count, memset_row,
     idx_start_corr},
    {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", COLS(sync_cols), false, sync_count, sync_row,
     idx_start_corr},
    {"CUPTI_ACTIVITY_KIND_RUNTIME", COLS(api_cols), false, api_count, api_row, idx_start_corr},
    {"NVTX_EVENTS", COLS(nvtx_cols), false, range_count, nvtx_row, idx_start},
    {"OPS", COLS(op_cols), false, range_count, op_row, idx_start},
    {"INSTANTS", COLS(instant_cols), false, instant_count, instant_row, idx_ts},
    {"MEMORY_EVENTS", COLS(mem_cols), false, mem_count, mem_row, idx_ts},
    {"COUNTERS", COLS(counter_cols), false, counter_count, counter_row, idx_ts},
    {"ENUM_CUDA_MEMCPY_OPER", COLS(enum_cols), true, copy_kind_count, copy_kind_row, NULL},
    {"ENUM_CUDA_MEM_KIND", COLS(enum_cols), true, mem_kind_count, mem_kind_row, NULL},
};

const sql_table *gs_sql_tables(size_t *n)
{
    *n = COUNT_OF(tables);
    return tables;
}
