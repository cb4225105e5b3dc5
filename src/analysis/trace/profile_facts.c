#include "analysis/trace/profile_facts.h"

#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/thresholds.h"
#include "common/log.h"
#include "common/util.h"

bool gs_file_tracing_cost_noticeable(const gs_file_facts *f)
{
    return f->tracing_cost > 0 && f->span > 0 &&
           (double)f->tracing_cost >= GS_TH_TRACING_COST_SHARE * (double)f->span;
}

/* Host ranges only: Kineto also projects annotations on GPU streams, which would count twice. */
static uint64_t count_steps(const gs_trace_ctx *c)
{
    const gs_trace *t = c->trace;
    uint64_t n = 0;
    for (size_t i = 0; i < t->ranges.n; i++)
        n += t->ranges.v[i].kind != GS_RANGE_GPU_ANNOTATION &&
             gs_ctx_name(c, t->ranges.v[i].name, GS_NAME_PROFILER_STEP);
    return n;
}

static void count_events(const gs_trace *t, gs_event_counts *c)
{
    c->kernels += t->kernels.n;
    for (size_t i = 0; i < t->memops.n; i++) {
        if (t->memops.v[i].kind == GS_MEMOP_MEMSET)
            c->memsets++;
        else
            c->memcpys++;
    }
    c->gpu_syncs += t->syncs.n;
    c->api_calls += t->apis.n;
    for (size_t i = 0; i < t->ranges.n; i++)
        if (t->ranges.v[i].kind < GS_RANGE__COUNT)
            c->ranges[t->ranges.v[i].kind]++;
    c->instants += t->instants.n;
    c->memory_events += t->mem_events.n;
    c->counters += t->counters.n;
    for (int i = 0; i < GS_LOSS__COUNT; i++)
        c->lost[i] += t->lost[i];
}

static int cmp_device(const gs_device_facts *a, const gs_device_facts *b)
{
    if (a->id != b->id)
        return a->id < b->id ? -1 : 1;
    int c = strcmp(a->name, b->name);
    if (c)
        return c;
    if (a->total_memory != b->total_memory)
        return a->total_memory < b->total_memory ? -1 : 1;
    if (a->num_sms != b->num_sms)
        return a->num_sms < b->num_sms ? -1 : 1;
    return strcmp(a->capability, b->capability);
}

static int cmp_device_qsort(const void *a, const void *b)
{
    return cmp_device(a, b);
}

void gs_profile_facts_dedupe_devices(gs_profile_facts *f)
{
    if (f->ndevices > 1)
        qsort(f->devices, f->ndevices, sizeof *f->devices, cmp_device_qsort);
    size_t kept = 0;
    for (size_t i = 0; i < f->ndevices; i++)
        if (kept == 0 || cmp_device(&f->devices[kept - 1], &f->devices[i]) != 0)
            f->devices[kept++] = f->devices[i];
    f->ndevices = kept;
}

static size_t count_distinct_ranks(const gs_profile_facts *f, int32_t *scratch)
{
    for (size_t i = 0; i < f->nfiles; i++)
        scratch[i] = f->files[i].rank;
    qsort(scratch, f->nfiles, sizeof *scratch, gs_cmp_i32);
    size_t n = 0;
    for (size_t i = 0; i < f->nfiles; i++)
        n += i == 0 || scratch[i] != scratch[i - 1];
    return n;
}

const char *gs_profile_facts_own(gs_profile_facts *f, const char *name)
{
    return gs_strtab_keep(&f->names, &name) == 0 ? name : NULL;
}

/* Adds one trace: its file facts, its devices, its events. 0, or -1 out of memory. */
static int add_trace(gs_profile_facts *f, const gs_trace_ctx *c)
{
    const gs_trace *t = c->trace;
    gs_file_facts *file = realloc(f->files, (f->nfiles + 1) * sizeof *f->files);
    gs_device_facts *devs = realloc(f->devices, (f->ndevices + t->devices.n + 1) * sizeof *devs);
    if (file)
        f->files = file;
    if (devs)
        f->devices = devs;
    if (!file || !devs)
        return -1;
    file = &f->files[f->nfiles++];
    *file = (gs_file_facts){gs_profile_facts_own(f, t->id.path),
                            gs_profile_facts_own(f, gs_trace_str(t, t->format)), t->id.rank,
                            t->id.world_size, c->has_span ? c->last - c->first : 0, c->steps.n,
                            (uint8_t)c->steps.source};
    if (!file->path || !file->format)
        return -1;
    memcpy(file->lost, t->lost, sizeof file->lost);
    file->tracing_cost = t->collector_overhead_ns;
    file->has_graphs = true;
    gs_graph_facts_count(t, &file->graphs);
    if (file->span > f->span)
        f->span = file->span;
    for (size_t d = 0; d < t->devices.n; d++) {
        const gs_device *dev = &t->devices.v[d];
        gs_device_facts *df = &f->devices[f->ndevices++];
        *df = (gs_device_facts){dev->id, gs_profile_facts_own(f, gs_trace_str(t, dev->name)),
                                dev->total_memory, dev->num_sms};
        if (!df->name)
            return -1;
        if (dev->compute_major > 0)
            snprintf(df->capability, sizeof df->capability, "%d.%d", (int)dev->compute_major,
                     (int)dev->compute_minor);
    }
    if (t->id.world_size > f->world_size)
        f->world_size = t->id.world_size;
    uint64_t profiler_steps = count_steps(c);
    if (profiler_steps > f->steps)
        f->steps = profiler_steps;
    count_events(t, &f->events);
    return 0;
}

int gs_profile_facts_init(gs_profile_facts *f, gs_error *err)
{
    memset(f, 0, sizeof *f);
    return gs_strtab_init(&f->names) == 0 ? 0 : gs_fail_oom(err);
}

int gs_profile_facts_add(gs_profile_facts *f, const gs_trace_ctx *c, gs_error *err)
{
    if (add_trace(f, c) != 0) {
        gs_profile_facts_free(f);
        return gs_fail_oom(err);
    }
    return 0;
}

int gs_profile_facts_finish(gs_profile_facts *f, gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    int32_t *ranks = malloc((f->nfiles + 1) * sizeof *ranks);
    if (!ranks) {
        gs_profile_facts_free(f);
        return gs_fail_oom(err);
    }
    gs_stable_sort_by_i32(f->files, f->nfiles, sizeof *f->files, offsetof(gs_file_facts, rank));
    f->nranks = count_distinct_ranks(f, ranks);
    free(ranks);
    gs_profile_facts_dedupe_devices(f);
    GS_LOG_TOOK(logged_at, "profile facts");
    return 0;
}

int gs_profile_facts_build(const gs_trace_ctx *c, gs_profile_facts *out, gs_error *err)
{
    return gs_profile_facts_init(out, err) != 0 || gs_profile_facts_add(out, c, err) != 0
               ? -1
               : gs_profile_facts_finish(out, err);
}

void gs_profile_facts_free(gs_profile_facts *f)
{
    free(f->files);
    free(f->devices);
    gs_strtab_free(&f->names);
    memset(f, 0, sizeof *f);
}
