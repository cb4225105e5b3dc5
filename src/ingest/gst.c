#include "ingest/gst.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/gst_format.h"
#include "common/hashtab.h"
#include "ingest/gst_names.h"

/* The writer's string ids are remapped once at the end, because a STRING record may come after
 * the records that use it (the agent flushes per-thread buffers in any order). Until then the
 * model's gs_str fields hold the writer's ids. */
typedef struct id_entry {
    uint32_t writer_id; /* never 0: id 0 is never defined */
    gs_str id;
} id_entry;

typedef struct reader {
    gs_source *src;
    gs_trace *t;
    gs_error *err;
    const gs_load_opts *opts;
    uint64_t offset; /* of the next byte the source will return */
    uint8_t *chunk;
    size_t chunk_cap;
    gs_hashtab writer_ids; /* writer id -> model id */
    unsigned process_seen;
    uint16_t minor;           /* the file's minor version: from 1, a whole file has an end */
    uint64_t chunks, records; /* chunks read that are not end markers, and their records */
    bool ended;               /* the last chunk read was an end marker */
    bool torn;                /* the last chunk was cut inside: its records are counted torn */
} reader;

static int map_put(reader *r, uint32_t writer_id, gs_str id)
{
    id_entry *e = gs_hashtab_find(&r->writer_ids, writer_id, NULL);
    if (!e && !(e = gs_hashtab_add(&r->writer_ids, writer_id)))
        return -1;
    e->id = id; /* a redefinition wins: the last one written is the newest */
    return 0;
}

static bool map_get(const reader *r, uint32_t writer_id, gs_str *id)
{
    const id_entry *e = gs_hashtab_find(&r->writer_ids, writer_id, NULL);
    if (e)
        *id = e->id;
    return e != NULL;
}

bool gst_is_magic(const void *head, size_t n)
{
    return n >= 4 && memcmp(head, GST_MAGIC, 4) == 0;
}

static int corrupt(reader *r, uint64_t at, const char *what)
{
    return gs_fail(r->err, GS_EXIT_INPUT, "%s: byte %" PRIu64 ": corrupt .gst file: %s",
                   r->t->id.path, at, what);
}

/* Reads up to n bytes; returns how many (fewer only at the end of the file), -1 on error. */
static ssize_t read_full(reader *r, uint8_t *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = gs_source_read(r->src, (char *)buf + got, n - got, r->err);
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        got += (size_t)k;
    }
    r->offset += got;
    return (ssize_t)got;
}

/* ---- records -> model ---------------------------------------------------------------------- */

static uint8_t mem_loc(uint8_t loc)
{
    static const uint8_t map[] = {
        [GST_LOC_UNKNOWN] = GS_LOC_UNKNOWN, [GST_LOC_PAGEABLE] = GS_LOC_PAGEABLE,
        [GST_LOC_PINNED] = GS_LOC_PINNED,   [GST_LOC_DEVICE] = GS_LOC_DEVICE,
        [GST_LOC_ARRAY] = GS_LOC_ARRAY,     [GST_LOC_MANAGED] = GS_LOC_MANAGED,
    };
    return loc < sizeof map ? map[loc] : GS_LOC_UNKNOWN;
}

static uint8_t copy_kind(uint8_t kind)
{
    static const uint8_t map[] = {
        [GST_COPY_UNKNOWN] = GS_MEMOP_COPY_OTHER, [GST_COPY_HTOD] = GS_MEMOP_HTOD,
        [GST_COPY_DTOH] = GS_MEMOP_DTOH,          [GST_COPY_DTOD] = GS_MEMOP_DTOD,
        [GST_COPY_HTOH] = GS_MEMOP_HTOH,          [GST_COPY_PTOP] = GS_MEMOP_PTOP,
    };
    return kind < sizeof map ? map[kind] : GS_MEMOP_COPY_OTHER;
}

/* Names are made as Kineto writes them ("Memcpy HtoD (Pageable -> Device)"), so views group
 * .gst copies and Kineto copies alike. Interned now: these are model strings, not writer ids,
 * and are marked so the final remap leaves them alone. */
#define MODEL_STR 0x80000000u

static gs_str intern_model(reader *r, const char *s)
{
    gs_str id = gs_strtab_intern(&r->t->strings, s, strlen(s));
    return id == GS_STR_ERROR ? GS_STR_ERROR : id | MODEL_STR;
}

static gs_str memop_name(reader *r, uint8_t kind, uint8_t src, uint8_t dst, bool memset_op)
{
    char name[96];
    if (memset_op)
        snprintf(name, sizeof name, "Memset (%s)", dst ? gs_mem_loc_name(dst) : "Unknown");
    else if (src || dst)
        snprintf(name, sizeof name, "Memcpy %s (%s -> %s)", gs_memop_kind_name(kind),
                 src ? gs_mem_loc_name(src) : "Unknown", dst ? gs_mem_loc_name(dst) : "Unknown");
    else
        snprintf(name, sizeof name, "Memcpy %s", gs_memop_kind_name(kind));
    return intern_model(r, name);
}

static const char *sync_name(uint32_t type)
{
    switch (type) {
    case GST_SYNC_EVENT: return "Event Sync";
    case GST_SYNC_STREAM_WAIT_EVENT: return "Stream Wait Event";
    case GST_SYNC_STREAM: return "Stream Sync";
    case GST_SYNC_CONTEXT: return "Context Sync";
    default: return "Sync";
    }
}

/* Appends a zeroed element to `vec` into `p`, or returns from the caller out of memory. */
#define PUSH(vec, p)                                                                               \
    do {                                                                                           \
        if (!((p) = GS_VEC_PUSH(vec)))                                                             \
            return gs_fail_oom(r->err);                                                            \
    } while (0)

static int add_string(reader *r, const uint8_t *payload, size_t size, uint64_t at)
{
    gst_string s;
    gst_decode(gst_layout_of(GST_REC_STRING), payload, &s);
    size_t fixed = gst_layout_of(GST_REC_STRING)->payload_size;
    if (s.id == 0 || (s.id & MODEL_STR))
        return corrupt(r, at, "string id out of range (1 to 2^31-1)");
    if (s.length > size - fixed)
        return corrupt(r, at, "string longer than its record");
    gs_str id = gs_strtab_intern(&r->t->strings, (const char *)payload + fixed, s.length);
    if (id == GS_STR_ERROR || map_put(r, s.id, id) != 0)
        return gs_fail_oom(r->err);
    return 0;
}

/* A record of a known type other than STRING, decoded. */
typedef union record {
    gst_process process;
    gst_device device;
    gst_kernel kernel;
    gst_memcpy copy;
    gst_memset set;
    gst_api api;
    gst_sync sync;
    gst_nvtx_range range;
    gst_nvtx_mark mark;
    gst_memory memory;
    gst_counter counter;
    gst_note note;
    gst_thread thread;
} record;

static int add_process(reader *r, const record *u)
{
    /* A merged file (gpuscope run without %p) holds several processes: the first one, the
     * launched program, names the trace; the rest are its children. */
    if (r->process_seen++)
        return 0;
    gs_trace *t = r->t;
    t->pid = u->process.pid;
    if (u->process.rank >= 0) {
        t->id.rank = u->process.rank;
        t->id.source = GS_RANK_FROM_METADATA;
    }
    t->id.world_size = u->process.world_size > 0 ? u->process.world_size : 0;
    t->hostname = u->process.hostname;
    return 0; /* the model has no command line: kept in the file for people */
}

static int add_device(reader *r, const record *u)
{
    const gst_device *s = &u->device;
    gs_device *d;
    PUSH(&r->t->devices, d);
    *d = (gs_device){s->id, s->name, s->total_memory, s->num_sms, s->compute_major,
                     s->compute_minor, s->max_threads_per_sm, s->uuid};
    return 0;
}

static int add_kernel(reader *r, const record *u)
{
    const gst_kernel *s = &u->kernel;
    gs_kernel *k;
    PUSH(&r->t->kernels, k);
    k->start = s->start;
    k->end = s->end;
    k->name = s->name;
    k->device = s->device;
    k->stream = s->stream;
    k->correlation = s->correlation;
    memcpy(k->grid, s->grid, sizeof k->grid);
    memcpy(k->block, s->block, sizeof k->block);
    k->registers_per_thread = s->registers_per_thread;
    k->shared_memory = s->shared_memory;
    k->blocks_per_sm = k->warps_per_sm = k->occupancy_pct = -1;
    k->graph_id = s->graph_id;
    k->api = k->op = GS_NONE;
    return 0;
}

/* Copies and sets: the record's fields in `m`; the links and the name are set here. */
static int add_memop(reader *r, const gs_memop *m)
{
    gs_memop *d;
    PUSH(&r->t->memops, d);
    *d = *m;
    d->api = d->op = GS_NONE;
    d->name = memop_name(r, d->kind, d->src, d->dst, d->kind == GS_MEMOP_MEMSET);
    return d->name == GS_STR_ERROR ? gs_fail_oom(r->err) : 0;
}

static int add_memcpy(reader *r, const record *u)
{
    const gst_memcpy *s = &u->copy;
    gs_memop m = {.start = s->start, .end = s->end, .kind = copy_kind(s->copy_kind),
                  .src = mem_loc(s->src_loc), .dst = mem_loc(s->dst_loc), .device = s->device,
                  .stream = s->stream, .bytes = s->bytes, .correlation = s->correlation};
    return add_memop(r, &m);
}

static int add_memset(reader *r, const record *u)
{
    const gst_memset *s = &u->set;
    gs_memop m = {.start = s->start, .end = s->end, .kind = GS_MEMOP_MEMSET,
                  .src = GS_LOC_UNKNOWN, .dst = mem_loc(s->dst_loc), .device = s->device,
                  .stream = s->stream, .bytes = s->bytes, .correlation = s->correlation};
    return add_memop(r, &m);
}

static int add_api(reader *r, const record *u)
{
    const gst_api *s = &u->api;
    gs_api *a;
    PUSH(&r->t->apis, a);
    a->start = s->start;
    a->end = s->end;
    a->name = s->name;
    a->kind = s->kind == GST_API_RUNTIME  ? GS_API_RUNTIME
              : s->kind == GST_API_DRIVER ? GS_API_DRIVER
                                          : GS_API_OTHER;
    a->pid = s->pid;
    a->tid = s->tid;
    a->correlation = s->correlation;
    a->cbid = s->cbid;
    a->gpu = a->parent = GS_NONE;
    return 0;
}

static int add_sync(reader *r, const record *u)
{
    const gst_sync *s = &u->sync;
    gs_gpu_sync *g;
    PUSH(&r->t->syncs, g);
    *g = (gs_gpu_sync){s->start, s->end, intern_model(r, sync_name(s->sync_type)), s->device,
                       s->stream, s->correlation, GS_NONE};
    return g->name == GS_STR_ERROR ? gs_fail_oom(r->err) : 0;
}

static int add_nvtx_range(reader *r, const record *u)
{
    const gst_nvtx_range *s = &u->range;
    gs_range *g;
    PUSH(&r->t->ranges, g);
    g->start = s->start;
    g->end = s->end;
    g->name = s->name;
    g->kind = GS_RANGE_NVTX;
    g->pid = s->pid;
    g->tid = s->tid;
    g->domain = s->domain;
    g->parent = GS_NONE; /* nesting is the model's index's job */
    return 0;
}

static int add_nvtx_mark(reader *r, const record *u)
{
    const gst_nvtx_mark *s = &u->mark;
    gs_instant *i; /* the model keeps no domain for marks */
    PUSH(&r->t->instants, i);
    *i = (gs_instant){s->ts, s->name, s->pid, s->tid};
    return 0;
}

static int add_memory(reader *r, const record *u)
{
    const gst_memory *s = &u->memory;
    gs_mem_event *e;
    PUSH(&r->t->mem_events, e);
    bool on_device = s->loc == GST_LOC_DEVICE || s->loc == GST_LOC_ARRAY;
    *e = (gs_mem_event){s->ts, s->pid, s->tid, on_device ? 1 : 0, s->device, s->addr, s->bytes,
                        s->total_allocated, s->total_reserved};
    return 0;
}

static int add_counter(reader *r, const record *u)
{
    const gst_counter *s = &u->counter;
    gs_counter *c;
    PUSH(&r->t->counters, c);
    *c = (gs_counter){s->ts, s->name, s->device, s->value};
    return 0;
}

static int add_note(reader *r, const record *u)
{
    /* The merge's notes say what a per-process file lost: its torn chunk's records, or its end
     * (one capture cut short); every other note's count is of records the collector dropped. */
    uint32_t source = u->note.source;
    uint64_t *lost = &r->t->lost[source == GST_NOTE_MERGE       ? GS_LOSS_TORN_CHUNK
                                 : source == GST_NOTE_CUT_SHORT ? GS_LOSS_CUT_SHORT
                                                                : GS_LOSS_DROPPED];
    uint64_t n = source == GST_NOTE_CUT_SHORT ? 1 : u->note.records_dropped;
    *lost = *lost + n >= *lost ? *lost + n : UINT64_MAX;
    /* CUPTI's overhead records: what CUDA tracing cost the program. */
    gs_trace *t = r->t;
    if (u->note.source == GST_NOTE_CUPTI && u->note.overhead_ns > 0 &&
        u->note.overhead_ns < INT64_MAX - t->collector_overhead_ns)
        t->collector_overhead_ns += u->note.overhead_ns;
    return 0;
}

static int add_thread(reader *r, const record *u)
{
    const gst_thread *s = &u->thread;
    gs_thread *th;
    PUSH(&r->t->threads, th);
    *th = (gs_thread){s->pid, s->tid, s->name};
    return 0;
}

/* What each record type adds to the model. STRING records have their own reader (add_string):
 * their bytes follow the fixed fields. */
static int (*const record_adders[GST_REC__COUNT])(reader *r, const record *u) = {
    [GST_REC_PROCESS] = add_process,       [GST_REC_DEVICE] = add_device,
    [GST_REC_KERNEL] = add_kernel,         [GST_REC_MEMCPY] = add_memcpy,
    [GST_REC_MEMSET] = add_memset,         [GST_REC_API] = add_api,
    [GST_REC_SYNC] = add_sync,             [GST_REC_NVTX_RANGE] = add_nvtx_range,
    [GST_REC_NVTX_MARK] = add_nvtx_mark,   [GST_REC_MEMORY] = add_memory,
    [GST_REC_COUNTER] = add_counter,       [GST_REC_NOTE] = add_note,
    [GST_REC_THREAD] = add_thread,
};

/* One record of a known type; `payload` holds at least its layout's bytes. */
static int add_record(reader *r, uint32_t type, const uint8_t *payload)
{
    record u;
    gst_decode(gst_layout_of(type), payload, &u);
    return record_adders[type] ? record_adders[type](r, &u) : 0;
}

static int read_records(reader *r, const gst_chunk_header *h, uint64_t base)
{
    size_t pos = 0;
    uint32_t count = 0;
    while (pos < h->payload_size) {
        uint64_t at = base + pos;
        size_t left = h->payload_size - pos;
        if (left < GST_RECORD_HEADER_SIZE)
            return corrupt(r, at, "record header cut by the chunk's end");
        const uint8_t *p = r->chunk + pos;
        uint32_t type = gst_get_u16(p);
        uint32_t size = gst_get_u32(p + 4);
        if (size < GST_RECORD_HEADER_SIZE || size > left)
            return corrupt(r, at, "record size out of its chunk");
        const gst_layout *l = gst_layout_of(type);
        /* Newer writers may append fields (a larger size) or add types (skipped by size). */
        if (l && size - GST_RECORD_HEADER_SIZE < l->payload_size)
            return corrupt(r, at, "record smaller than its type");
        int rc = 0;
        if (type == GST_REC_STRING)
            rc = add_string(r, p + GST_RECORD_HEADER_SIZE, size - GST_RECORD_HEADER_SIZE, at);
        else if (l)
            rc = add_record(r, type, p + GST_RECORD_HEADER_SIZE);
        else
            gs_trace_skip(r->t, GS_SKIP_UNKNOWN, 1);
        if (rc != 0)
            return rc;
        pos += size;
        count++;
    }
    if (count != h->record_count)
        return corrupt(r, base - GST_CHUNK_HEADER_SIZE, "record count differs from the chunk's");
    return 0;
}

static int read_header(reader *r)
{
    uint8_t buf[GST_FILE_HEADER_SIZE];
    ssize_t got = read_full(r, buf, sizeof buf);
    if (got < 0)
        return -1;
    if (!gst_is_magic(buf, (size_t)got) ||
        ((size_t)got >= GST_MAGIC_SIZE && memcmp(buf, GST_MAGIC, GST_MAGIC_SIZE) != 0))
        return corrupt(r, 0, "bad magic");
    if ((size_t)got < sizeof buf)
        return gs_fail(r->err, GS_EXIT_INPUT, "%s: byte %" PRIu64 ": truncated .gst header",
                       r->t->id.path, r->offset);
    gst_file_header h;
    gst_decode_file_header(buf, &h);
    if (h.version_major != GST_VERSION_MAJOR)
        return gs_fail(r->err, GS_EXIT_INPUT,
                       "%s: byte 8: .gst version %u.%u, this gpuscope reads version %d.x",
                       r->t->id.path, h.version_major, h.version_minor, GST_VERSION_MAJOR);
    if (h.header_size < GST_FILE_HEADER_SIZE || h.header_size > 4096)
        return corrupt(r, 12, "header size");
    r->t->id.epoch_ns = h.epoch_ns;
    r->minor = h.version_minor;
    /* A newer minor version's longer header: skip what this reader does not know. */
    for (uint32_t extra = h.header_size - GST_FILE_HEADER_SIZE; extra > 0;) {
        uint32_t n = extra < sizeof buf ? extra : (uint32_t)sizeof buf;
        got = read_full(r, buf, n);
        if (got < 0)
            return -1;
        if ((uint32_t)got < n)
            return gs_fail(r->err, GS_EXIT_INPUT, "%s: byte %" PRIu64 ": truncated .gst header",
                           r->t->id.path, r->offset);
        extra -= n;
    }
    return 0;
}

/* An end marker: what it counts must be what was read, or chunks went missing in between. */
static int read_end(reader *r, const gst_chunk_header *h, uint64_t at)
{
    if (h->payload_size < GST_END_PAYLOAD_SIZE)
        return corrupt(r, at + 8, "end marker smaller than its two counts");
    uint64_t chunks = gst_get_u64(r->chunk), records = gst_get_u64(r->chunk + 8);
    if (chunks != r->chunks || records != r->records) {
        char what[160];
        snprintf(what, sizeof what,
                 "the end marker counts %" PRIu64 " chunks of %" PRIu64 " records, the file has "
                 "%" PRIu64 " of %" PRIu64, chunks, records, r->chunks, r->records);
        return corrupt(r, at + GST_CHUNK_HEADER_SIZE, what);
    }
    r->ended = true;
    return 0;
}

/* Returns 1 after a chunk, 0 at the end of the file (or a truncated last chunk), -1 on error. */
static int read_chunk(reader *r)
{
    uint8_t hb[GST_CHUNK_HEADER_SIZE];
    uint64_t at = r->offset;
    ssize_t got = read_full(r, hb, sizeof hb);
    if (got <= 0)
        return (int)got;
    if ((size_t)got < sizeof hb)
        return 0; /* a torn chunk header: the writer was killed mid-write */
    gst_chunk_header h;
    gst_decode_chunk_header(hb, &h);
    if (h.magic != GST_CHUNK_MAGIC)
        return corrupt(r, at, "bad chunk magic");
    if (h.payload_size > GST_MAX_CHUNK_PAYLOAD)
        return corrupt(r, at + 8, "chunk larger than 64 MiB");
    /* The buffer grows with the bytes that really arrive, not with the size a header claims:
     * a hostile header in a tiny file costs no more memory than the file. */
    size_t have = 0;
    while (have < h.payload_size) {
        if (have == r->chunk_cap) {
            size_t cap = r->chunk_cap ? r->chunk_cap * 2 : 1 << 16;
            if (cap > h.payload_size)
                cap = h.payload_size;
            uint8_t *p = realloc(r->chunk, cap);
            if (!p)
                return gs_fail_oom(r->err);
            r->chunk = p;
            r->chunk_cap = cap;
        }
        size_t want = (r->chunk_cap < h.payload_size ? r->chunk_cap : h.payload_size) - have;
        got = read_full(r, r->chunk + have, want);
        if (got < 0)
            return -1;
        have += (size_t)got;
        if ((size_t)got < want)
            break;
    }
    if (have < h.payload_size) {
        r->t->lost[GS_LOSS_TORN_CHUNK] += h.record_count; /* the writer was killed mid-chunk */
        r->torn = h.record_count > 0; /* else (a torn end marker) nothing says it is cut */
        return 0;
    }
    if (h.type == GST_CHUNK_END)
        return read_end(r, &h, at) == 0 ? 1 : -1;
    r->ended = false;
    r->chunks++;
    r->records += h.record_count;
    if (h.type != GST_CHUNK_RECORDS) {
        gs_trace_skip(r->t, GS_SKIP_UNKNOWN, h.record_count); /* a newer writer's chunk type */
        return 1;
    }
    return read_records(r, &h, at + GST_CHUNK_HEADER_SIZE) == 0 ? 1 : -1;
}

/* Replaces the writer's string ids left in the model by interned ids. An id never defined
 * (its STRING record was in a lost chunk) shows as "<string N>" rather than failing the load. */
static int remap(reader *r, gs_str *field)
{
    uint32_t v = *field;
    if ((v & MODEL_STR) && (v & ~MODEL_STR) < r->t->strings.n) {
        *field = v & ~MODEL_STR;
        return 0;
    }
    if (v == 0 || map_get(r, v, field))
        return 0;
    char name[32];
    snprintf(name, sizeof name, "<string %" PRIu32 ">", v);
    gs_str id = gs_strtab_intern(&r->t->strings, name, strlen(name));
    if (id == GS_STR_ERROR || map_put(r, v, id) != 0)
        return gs_fail_oom(r->err);
    *field = id;
    return 0;
}

static int remap_all(reader *r)
{
    gs_trace *t = r->t;
    int rc = remap(r, &t->hostname);
    for (size_t i = 0; rc == 0 && i < t->kernels.n; i++)
        rc = remap(r, &t->kernels.v[i].name);
    for (size_t i = 0; rc == 0 && i < t->memops.n; i++)
        rc = remap(r, &t->memops.v[i].name);
    for (size_t i = 0; rc == 0 && i < t->syncs.n; i++)
        rc = remap(r, &t->syncs.v[i].name);
    for (size_t i = 0; rc == 0 && i < t->apis.n; i++)
        rc = remap(r, &t->apis.v[i].name);
    for (size_t i = 0; rc == 0 && i < t->ranges.n; i++)
        rc = remap(r, &t->ranges.v[i].name) || remap(r, &t->ranges.v[i].domain) ? -1 : 0;
    for (size_t i = 0; rc == 0 && i < t->instants.n; i++)
        rc = remap(r, &t->instants.v[i].name);
    for (size_t i = 0; rc == 0 && i < t->counters.n; i++)
        rc = remap(r, &t->counters.v[i].name);
    for (size_t i = 0; rc == 0 && i < t->devices.n; i++)
        rc = remap(r, &t->devices.v[i].name) || remap(r, &t->devices.v[i].uuid) ? -1 : 0;
    for (size_t i = 0; rc == 0 && i < t->threads.n; i++)
        rc = remap(r, &t->threads.v[i].name);
    return rc;
}

/* CUPTI gives no per-SM figures; they follow from the launch shape and the device's SM count
 * exactly as Kineto computes its "blocks per SM" and "warps per SM". Occupancy stays unknown. */
static void derive_per_sm(gs_trace *t)
{
    for (size_t i = 0; i < t->kernels.n; i++) {
        gs_kernel *k = &t->kernels.v[i];
        const gs_device *d = NULL;
        for (size_t j = 0; j < t->devices.n && !d; j++)
            if (t->devices.v[j].id == k->device && t->devices.v[j].num_sms > 0)
                d = &t->devices.v[j];
        if (!d || k->grid[0] <= 0 || k->grid[1] <= 0 || k->grid[2] <= 0 || k->block[0] <= 0 ||
            k->block[1] <= 0 || k->block[2] <= 0)
            continue;
        double blocks = (double)k->grid[0] * k->grid[1] * k->grid[2];
        double threads = (double)k->block[0] * k->block[1] * k->block[2];
        /* Clamped: a double beyond float's range does not convert (undefined behaviour). */
        k->blocks_per_sm = (float)fmin(blocks / d->num_sms, 1e30);
        k->warps_per_sm = (float)fmin(blocks * ceil(threads / 32) / d->num_sms, 1e30);
    }
}

int gst_read(gs_source *src, gs_trace *t, const gs_load_opts *opts, gs_error *err)
{
    reader r = {.src = src, .t = t, .err = err, .opts = opts,
                .writer_ids = GS_HASHTAB_EMPTY(id_entry)};
    t->format = gs_strtab_intern(&t->strings, "gst", 3);
    t->collector_overhead_ns = 0; /* the agent records what tracing cost, as notes */
    int rc = t->format == GS_STR_ERROR ? gs_fail_oom(err) : read_header(&r);
    while (rc == 0) {
        rc = read_chunk(&r);
        if (rc == 1) {
            rc = opts ? gs_mem_budget_check(opts->budget, t, r.offset, err) : 0;
            if (rc == 0 && opts && opts->progress)
                opts->progress(opts->progress_ctx, t->id.path, gs_source_file_offset(src),
                               gs_source_file_size(src));
        } else if (rc == 0) {
            break;
        }
    }
    /* From version 1.1 a whole file ends with an end marker: one that stops at a chunk boundary
     * without it was cut short, and what came after is missing (a torn chunk says so already). */
    if (rc == 0 && r.minor >= 1 && !r.ended && !r.torn)
        t->lost[GS_LOSS_CUT_SHORT]++;
    /* Fields still hold writer ids even on failure; the caller frees the trace unread. */
    if (rc == 0)
        rc = remap_all(&r);
    if (rc == 0)
        rc = gst_names_refine(t, err);
    if (rc == 0)
        rc = gs_trace_merge_devices(t, err);
    if (rc == 0)
        derive_per_sm(t);
    free(r.chunk);
    gs_hashtab_free(&r.writer_ids);
    return rc;
}
