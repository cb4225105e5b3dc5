/* The top level of the Chrome trace: Kineto's header keys, then per trace the metadata events
 * that name processes and threads (so Perfetto shows "GPU 0", "stream 7") and the events. */
#include "export/chrome.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export/chrome_coll.h"
#include "export/chrome_events.h"
#include "common/json_write.h"
#include "ingest/rank_parts.h"

/* Kineto sorts GPU processes after the host's: sort index 5000000 + device (≈2.3+). */
#define GPU_SORT_BASE INT64_C(5000000)

/* ---- the tracks a trace uses ----------------------------------------------------------------- */

typedef struct id_pair {
    int64_t a, b;
} id_pair;

/* Distinct pairs seen: few values over many events, so a linear search from the last hit. */
typedef struct id_set {
    GS_VEC(id_pair) v;
    size_t last;
} id_set;

static bool id_set_has(id_set *s, int64_t a, int64_t b)
{
    if (s->v.n && s->v.v[s->last].a == a && s->v.v[s->last].b == b)
        return true;
    for (size_t i = 0; i < s->v.n; i++)
        if (s->v.v[i].a == a && s->v.v[i].b == b) {
            s->last = i;
            return true;
        }
    return false;
}

static int id_set_add(id_set *s, int64_t a, int64_t b)
{
    if (id_set_has(s, a, b))
        return 0;
    id_pair *p = GS_VEC_PUSH(&s->v);
    if (!p)
        return -1;
    *p = (id_pair){a, b};
    s->last = s->v.n - 1;
    return 0;
}

typedef struct tracks {
    id_set host;    /* (pid, 0) */
    id_set gpus;    /* (device, 0) */
    id_set streams; /* (device, stream) */
    id_set syncs;   /* (device, stream) of sync records */
} tracks;

static void free_tracks(tracks *k)
{
    GS_VEC_FREE(&k->host.v);
    GS_VEC_FREE(&k->gpus.v);
    GS_VEC_FREE(&k->streams.v);
    GS_VEC_FREE(&k->syncs.v);
}

static int add_stream(tracks *k, int64_t device, int64_t stream)
{
    return id_set_add(&k->gpus, device, 0) | id_set_add(&k->streams, device, stream);
}

static int collect_tracks(const gs_trace *t, tracks *k)
{
    int rc = 0;
    for (size_t i = 0; i < t->devices.n; i++)
        rc |= id_set_add(&k->gpus, t->devices.v[i].id, 0);
    for (size_t i = 0; i < t->kernels.n && !rc; i++)
        rc |= add_stream(k, t->kernels.v[i].device, t->kernels.v[i].stream);
    for (size_t i = 0; i < t->memops.n && !rc; i++)
        rc |= add_stream(k, t->memops.v[i].device, t->memops.v[i].stream);
    for (size_t i = 0; i < t->syncs.n && !rc; i++)
        rc |= id_set_add(&k->gpus, t->syncs.v[i].device, 0) |
              id_set_add(&k->syncs, t->syncs.v[i].device, t->syncs.v[i].stream);
    for (size_t i = 0; i < t->ranges.n && !rc; i++) {
        const gs_range *r = &t->ranges.v[i];
        rc |= r->kind == GS_RANGE_GPU_ANNOTATION ? add_stream(k, r->pid, r->tid)
                                                 : id_set_add(&k->host, r->pid, 0);
    }
    for (size_t i = 0; i < t->apis.n && !rc; i++)
        rc |= id_set_add(&k->host, t->apis.v[i].pid, 0);
    for (size_t i = 0; i < t->instants.n && !rc; i++)
        rc |= id_set_add(&k->host, t->instants.v[i].pid, 0);
    for (size_t i = 0; i < t->mem_events.n && !rc; i++)
        rc |= id_set_add(&k->host, t->mem_events.v[i].pid, 0);
    for (size_t i = 0; i < t->counters.n && !rc; i++)
        rc |= t->counters.v[i].device >= 0 ? id_set_add(&k->gpus, t->counters.v[i].device, 0)
                                           : id_set_add(&k->host, t->pid, 0);
    return rc;
}

/* ---- metadata events ------------------------------------------------------------------------- */

static void write_meta(chrome_ctx *c, const char *what, int64_t pid, int64_t tid, gs_ns ts,
                       const char *key, const char *text, int64_t number)
{
    chrome_begin(c, 'M', NULL, what, pid, tid);
    chrome_times(c, ts, -1);
    if (text)
        chrome_arg_str(c, key, text);
    else
        chrome_arg_int(c, key, number);
    chrome_end(c);
}

static void name_processes(chrome_ctx *c, tracks *k, gs_ns ts)
{
    const gs_trace *t = c->t;
    char name[320], label[32];
    const char *host = gs_trace_str(t, t->hostname);
    for (size_t i = 0; i < k->host.v.n; i++) {
        int64_t pid = k->host.v.v[i].a, out = chrome_host_pid(c, pid);
        int n = c->multi ? snprintf(name, sizeof name, "rank %" PRId32 " ", t->id.rank) : 0;
        snprintf(name + n, sizeof name - (size_t)n, "pid %" PRId64 "%s%s%s", pid,
                 *host ? " (" : "", host, *host ? ")" : "");
        write_meta(c, "process_name", out, 0, ts, "name", name, 0);
        write_meta(c, "process_labels", out, 0, ts, "labels", "CPU", 0);
        write_meta(c, "process_sort_index", out, 0, ts, "sort_index", NULL, c->multi ? out : pid);
    }
    for (size_t i = 0; i < k->gpus.v.n; i++) {
        int64_t dev = k->gpus.v.v[i].a, out = chrome_gpu_pid(c, dev);
        const gs_device *d = gs_trace_device(t, (int32_t)dev);
        const char *dname = d ? gs_trace_str(t, d->name) : "";
        int n = c->multi ? snprintf(name, sizeof name, "rank %" PRId32 " ", t->id.rank) : 0;
        snprintf(name + n, sizeof name - (size_t)n, "GPU %" PRId64 "%s%s", dev,
                 *dname ? ": " : "", dname);
        snprintf(label, sizeof label, "GPU %" PRId64, dev);
        write_meta(c, "process_name", out, 0, ts, "name", name, 0);
        write_meta(c, "process_labels", out, 0, ts, "labels", label, 0);
        write_meta(c, "process_sort_index", out, 0, ts, "sort_index", NULL,
                   c->multi ? out : GPU_SORT_BASE + dev);
    }
}

static int name_threads(chrome_ctx *c, tracks *k, gs_ns ts)
{
    const gs_trace *t = c->t;
    id_set named = {0}; /* GPU tracks the trace names itself (Kineto input, an export read back) */
    char name[64];
    for (size_t i = 0; i < t->threads.n; i++) {
        const gs_thread *th = &t->threads.v[i];
        bool gpu = id_set_has(&k->streams, th->pid, th->tid) ||
                   id_set_has(&k->syncs, th->pid, th->tid - CHROME_SYNC_TID_OFFSET);
        if (gpu && id_set_add(&named, th->pid, th->tid) != 0) {
            GS_VEC_FREE(&named.v);
            return -1;
        }
        int64_t pid = gpu ? chrome_gpu_pid(c, th->pid) : chrome_host_pid(c, th->pid);
        write_meta(c, "thread_name", pid, th->tid, ts, "name", gs_trace_str(t, th->name), 0);
    }
    for (size_t i = 0; i < k->streams.v.n; i++) {
        id_pair s = k->streams.v.v[i];
        int64_t pid = chrome_gpu_pid(c, s.a);
        if (!id_set_has(&named, s.a, s.b)) {
            snprintf(name, sizeof name, "stream %" PRId64 " ", s.b); /* Kineto's, space and all */
            write_meta(c, "thread_name", pid, s.b, ts, "name", name, 0);
        }
        write_meta(c, "thread_sort_index", pid, s.b, ts, "sort_index", NULL, s.b);
    }
    for (size_t i = 0; i < k->syncs.v.n; i++) {
        id_pair s = k->syncs.v.v[i];
        int64_t pid = chrome_gpu_pid(c, s.a), tid = s.b + CHROME_SYNC_TID_OFFSET;
        if (!id_set_has(&named, s.a, tid)) {
            snprintf(name, sizeof name, "stream %" PRId64 " (sync)", s.b);
            write_meta(c, "thread_name", pid, tid, ts, "name", name, 0);
        }
        write_meta(c, "thread_sort_index", pid, tid, ts, "sort_index", NULL, tid);
    }
    GS_VEC_FREE(&named.v);
    return 0;
}

static int write_trace(chrome_ctx *c)
{
    tracks k = {0};
    if (collect_tracks(c->t, &k) != 0) {
        free_tracks(&k);
        return -1;
    }
    gs_ns first = 0;
    gs_trace_span(c->t, &first, NULL);
    name_processes(c, &k, first);
    int rc = name_threads(c, &k, first);
    free_tracks(&k);
    if (rc != 0 || chrome_coll_index(c) != 0)
        return -1;
    chrome_write_ranges(c);
    chrome_write_apis(c);
    chrome_write_kernels(c);
    chrome_write_memops(c);
    chrome_write_syncs(c);
    chrome_write_instants(c);
    chrome_write_mem_events(c);
    chrome_write_counters(c);
    chrome_coll_index_free(c);
    return 0;
}

/* ---- the header ------------------------------------------------------------------------------ */

/* The layouts Kineto-shaped files have had: devices level with their key, sources one level in,
 * events at the start of their lines; the two lists close on a line of their own when empty. */
static const gs_json_layout device_list = {.lines = true, .indent = 0};
static const gs_json_layout source_list = {.lines = true, .indent = 2, .open_empty = true};
static const gs_json_layout event_list = {.lines = true, .indent = -2, .open_empty = true};

static void write_device(gs_json_writer *w, const gs_trace *t, const gs_device *d)
{
    gs_json_begin_object(w, NULL, GS_JSON_INLINE);
    gs_json_put_int(w, "id", d->id);
    gs_json_put_str(w, "name", gs_trace_str(t, d->name));
    gs_json_put_uint(w, "totalGlobalMem", d->total_memory);
    gs_json_put_int(w, "computeMajor", d->compute_major);
    gs_json_put_int(w, "computeMinor", d->compute_minor);
    gs_json_put_int(w, "numSms", d->num_sms);
    if (d->max_threads_per_sm > 0)
        gs_json_put_int(w, "maxThreadsPerMultiprocessor", d->max_threads_per_sm);
    gs_json_end(w);
}

/* Every device once (by id) over the traces: the ranks of one job usually share the model. */
static void write_devices(gs_json_writer *w, const gs_profile *p)
{
    gs_json_begin_array(w, "deviceProperties", device_list);
    for (size_t i = 0; i < p->traces.n; i++) {
        const gs_trace *t = p->traces.v[i];
        for (size_t d = 0; d < t->devices.n; d++) {
            bool seen = false;
            for (size_t j = 0; j < i && !seen; j++)
                seen = gs_trace_device(p->traces.v[j], t->devices.v[d].id) != NULL;
            for (size_t e = 0; e < d && !seen; e++)
                seen = t->devices.v[e].id == t->devices.v[d].id;
            if (!seen)
                write_device(w, t, &t->devices.v[d]);
        }
    }
    gs_json_end(w);
}

/* Where each trace came from: not read by Kineto tools, kept for people and provenance. */
static void write_sources(gs_json_writer *w, const gs_profile *p)
{
    gs_json_begin_array(w, "gpuscopeSources", source_list);
    for (size_t i = 0; i < p->traces.n; i++) {
        const gs_trace *t = p->traces.v[i];
        gs_json_begin_object(w, NULL, GS_JSON_INLINE);
        gs_json_put_str(w, "path", t->id.path);
        gs_json_put_str(w, "format", gs_trace_str(t, t->format));
        gs_json_put_int(w, "rank", t->id.rank);
        gs_json_put_int(w, "world_size", t->id.world_size);
        gs_json_put_int(w, "pid", t->pid);
        gs_json_put_str(w, "hostname", gs_trace_str(t, t->hostname));
        gs_json_put_int(w, "epoch_ns", t->id.epoch_ns);
        gs_json_end(w);
    }
    gs_json_end(w);
}

static void write_distributed_info(gs_json_writer *w, const gs_trace *t)
{
    gs_json_begin_object(w, "distributedInfo", GS_JSON_INLINE);
    gs_json_put_int(w, "rank", t->id.rank);
    if (t->id.world_size > 0)
        gs_json_put_int(w, "world_size", t->id.world_size);
    gs_json_end(w);
}

/* What the readers skipped, and captures cut short (which skipped nothing they could count), so
 * that reading the export back still says so: "gpuscopeSkipped": {"dropped_by_collector": 3}.
 * Only when there is something to say. */
static void write_skipped(gs_json_writer *w, const uint64_t lost[GS_LOSS__COUNT])
{
    if (!gs_loss_total(lost) && !lost[GS_LOSS_CUT_SHORT])
        return;
    gs_json_begin_object(w, "gpuscopeSkipped", GS_JSON_INLINE);
    for (int k = 0; k < GS_LOSS__COUNT; k++)
        if (lost[k])
            gs_json_put_uint(w, gs_loss_key((enum gs_loss)k), lost[k]);
    gs_json_end(w);
}

/* Keys that gpuscope reads back and other tools skip: what tracing cost the program (a .gst
 * trace's), who recorded the events (a .gst or legacy trace's format), and how many events of
 * an accelerator gpuscope does not read the trace held (MTIA's, exported as other ranges), on
 * which the advice read back depends (doc/diagnosis.md). */
static void write_collector(gs_json_writer *w, const gs_trace *t)
{
    if (t->collector_overhead_ns >= 0)
        gs_json_put_int(w, "gpuscopeTracingCostNs", t->collector_overhead_ns);
    if (t->accelerator_events)
        gs_json_put_uint(w, "gpuscopeAcceleratorEvents", t->accelerator_events);
    const char *by = gs_trace_str(t, t->recorded_by != GS_STR_EMPTY ? t->recorded_by : t->format);
    if (strcmp(by, "gst") == 0 || strcmp(by, "legacy") == 0)
        gs_json_put_str(w, "gpuscopeRecordedBy", by);
}

/* The first key of a file of several traces: for each, in the order of its ids (part i), the keys
 * its own export would have at the top, which gpuscope reads to give each part back its identity,
 * clock and devices (ingest/rank_parts.h). Other tools skip it. */
static void write_ranks(gs_json_writer *w, const gs_profile *p)
{
    gs_json_begin_array(w, "gpuscopeRanks", source_list);
    for (size_t i = 0; i < p->traces.n; i++) {
        const gs_trace *t = p->traces.v[i];
        gs_json_begin_object(w, NULL, GS_JSON_INLINE);
        write_distributed_info(w, t);
        gs_json_put_int(w, "baseTimeNanoseconds", t->id.epoch_ns);
        gs_json_begin_array(w, "deviceProperties", GS_JSON_INLINE);
        for (size_t d = 0; d < t->devices.n; d++)
            write_device(w, t, &t->devices.v[d]);
        gs_json_end(w);
        write_skipped(w, t->lost);
        write_collector(w, t);
        gs_json_end(w);
    }
    gs_json_end(w);
}

int gs_export_chrome(const gs_profile *p, FILE *out, const char *name, gs_error *err)
{
    if (p->traces.n > GS_PARTS_MAX)
        return gs_fail(err, GS_EXIT_USAGE,
                       "%zu traces: one chrome file holds at most %d, since each is read back on "
                       "its own; export them in several files (--rank R)",
                       p->traces.n, GS_PARTS_MAX);
    bool multi = p->traces.n > 1;
    const gs_trace *t0 = p->traces.n ? p->traces.v[0] : NULL;
    gs_ns base = t0 ? t0->id.epoch_ns : 0;
    gs_json_writer w;
    gs_json_writer_init(&w, out);
    gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
    if (multi)
        write_ranks(&w, p); /* first, so that a reader finds it without reading the events */
    gs_json_put_int(&w, "schemaVersion", 1);
    write_devices(&w, p);
    if (t0 && !multi && (t0->id.source != GS_RANK_DEFAULT || t0->id.world_size > 0))
        write_distributed_info(&w, t0);
    write_sources(&w, p);
    /* Summed over the traces: what a reader that takes the file as one trace sees. */
    uint64_t lost[GS_LOSS__COUNT] = {0};
    for (size_t i = 0; i < p->traces.n; i++)
        for (int k = 0; k < GS_LOSS__COUNT; k++)
            lost[k] += p->traces.v[i]->lost[k];
    write_skipped(&w, lost);
    if (t0 && !multi)
        write_collector(&w, t0);
    gs_json_put_str(&w, "displayTimeUnit", "ms");
    if (base)
        gs_json_put_int(&w, "baseTimeNanoseconds", base);
    gs_json_begin_array(&w, "traceEvents", event_list);
    chrome_ctx c = {.w = &w, .multi = multi};
    for (size_t i = 0; i < p->traces.n; i++) {
        c.t = p->traces.v[i];
        c.index = i;
        c.shift = c.t->id.epoch_ns - base; /* every trace on the first one's clock */
        if (write_trace(&c) != 0)
            return gs_fail_oom(err);
    }
    gs_json_end(&w);
    gs_json_put_str(&w, "traceName", name ? name : "");
    gs_json_end(&w);
    return 0;
}
