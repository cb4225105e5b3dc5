#include "analysis/base/kernel_class.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/name_rules.h"
#include "analysis/base/window.h"
#include "common/util.h"

/* ---- classification by name ----------------------------------------------------------------- */

/* A kernel's class by its name, as the context judged it (the name rules' COMM_KERNEL, or with
 * hta_compat HTA_CLASS). */
static enum gs_kclass kclass_of(const gs_trace_ctx *c, gs_str name, bool hta_compat)
{
    if (hta_compat)
        return (enum gs_kclass)gs_ctx_name(c, name, GS_NAME_HTA_CLASS);
    return gs_ctx_name(c, name, GS_NAME_COMM_KERNEL) ? GS_KCLASS_COMMUNICATION : GS_KCLASS_COMPUTE;
}

/* ---- HTA's event selection ------------------------------------------------------------------ */

#define NS_PER_US 1000

/* A time as the double HTA holds after parsing the file's µs (correctly rounded: at today's
 * epoch-based µs values a double resolves only 0.25 µs). Times are the file's µs × 1000. */
static double us_double(gs_ns t)
{
    return (double)(t / NS_PER_US) + (double)(t % NS_PER_US) / NS_PER_US;
}

/* HTA rounds ns-resolution traces to whole µs (round_down_time_stamps): ts = ceil(ts),
 * end = floor(ts + dur), in float64 — so an end of ...587.928 µs becomes 588 (the sum is rounded
 * to 0.25 first). On integer-µs traces this changes nothing. */
static gs_ns ceil_us(gs_ns t)
{
    return (gs_ns)ceil(us_double(t)) * NS_PER_US;
}

static gs_ns hta_end(gs_ns start, gs_ns end)
{
    return (gs_ns)floor(us_double(start) + us_double(end - start)) * NS_PER_US;
}

/* HTA drops the last ProfilerStep when at least two distinct ProfilerStep names exist
 * (_filter_irrelevant_gpu_kernels):
 * only GPU work launched by a call that began before the last step's start is kept. Returns
 * false when no such cut applies. Names are interned, so distinct names are distinct ids. HTA
 * tests for the substring "ProfilerStep", not for gs_is_profiler_step's exact form. */
static bool hta_cut(const gs_trace *t, gs_ns *cut)
{
    gs_str first = GS_STR_EMPTY;
    bool several = false, any = false;
    gs_ns last = 0;
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (!strstr(gs_trace_str(t, r->name), "ProfilerStep"))
            continue;
        if (!any)
            first = r->name;
        else if (r->name != first)
            several = true;
        any = true;
        if (ceil_us(r->start) > last)
            last = ceil_us(r->start);
    }
    *cut = last;
    return several;
}

/* ---- collecting ---------------------------------------------------------------------------- */

typedef struct collector {
    const gs_trace_ctx *ctx;
    const gs_trace *t;
    const gs_activity_opts *opts;
    bool cut_applies;
    gs_ns cut;
} collector;

/* Where the activities come from: each of the trace's three arrays of GPU work. */
enum source_kind { FROM_KERNELS, FROM_MEMOPS, FROM_SYNCS, FROM__COUNT };

static size_t source_size(const collector *c, enum source_kind k)
{
    const gs_trace *t = c->t;
    return k == FROM_KERNELS  ? t->kernels.n
           : k == FROM_MEMOPS ? t->memops.n
                              : (c->opts->with_syncs ? t->syncs.n : 0);
}

/* The activity of the source's i-th element into *a; false when opts leave it out. */
static bool activity_at(const collector *c, enum source_kind k, size_t i, gs_activity *a)
{
    const gs_trace *t = c->t;
    bool hta = c->opts->hta_compat;
    gs_ns start, end;
    enum gs_gpu_class gc;
    enum gs_kclass kc;
    int32_t device, stream;
    uint32_t api;
    if (k == FROM_KERNELS) {
        const gs_kernel *x = &t->kernels.v[i];
        start = x->start, end = x->end, device = x->device, stream = x->stream, api = x->api;
        gc = GS_GPU_KERNEL;
        kc = kclass_of(c->ctx, x->name, hta);
    } else if (k == FROM_MEMOPS) {
        const gs_memop *x = &t->memops.v[i];
        start = x->start, end = x->end, device = x->device, stream = x->stream, api = x->api;
        gc = GS_GPU_MEMOP;
        kc = hta ? kclass_of(c->ctx, x->name, true) : GS_KCLASS_MEMORY;
    } else {
        const gs_gpu_sync *x = &t->syncs.v[i];
        if (x->stream < 0) /* Event Sync, Context Sync: not on any GPU queue */
            return false;
        start = x->start, end = x->end, device = x->device, stream = x->stream, api = x->api;
        gc = GS_GPU_SYNC;
        kc = hta ? kclass_of(c->ctx, x->name, true) : GS_KCLASS_OTHER;
    }
    if (c->opts->window && !gs_window_holds_gpu(c->opts->window, t, start, api))
        return false;
    gs_ns launch = api != GS_NONE ? t->apis.v[api].start : 0;
    if (hta) {
        launch = ceil_us(launch);
        if (c->cut_applies && (api == GS_NONE || launch >= c->cut))
            return false;
        end = hta_end(start, end);
        start = ceil_us(start);
        if (end < start)
            end = start;
    }
    *a = (gs_activity){.start = start, .end = end, .gpu_class = (uint8_t)gc,
                       .kclass = (uint8_t)kc, .device = device, .stream = stream,
                       .index = (uint32_t)i, .api = api, .launch = launch};
    return true;
}

static int cmp_activity(const void *pa, const void *pb)
{
    const gs_activity *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    if (a->gpu_class != b->gpu_class)
        return a->gpu_class < b->gpu_class ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* A source as the merge reads it: its next kept activity, when it has one. */
typedef struct cursor {
    size_t i, n;
    bool has;
    gs_activity next;
} cursor;

static void advance(const collector *c, enum source_kind k, cursor *s)
{
    s->has = false;
    while (!s->has && s->i < s->n)
        s->has = activity_at(c, k, s->i++, &s->next);
}

/* The readers keep each source in time order, so the activities are usually three sorted runs:
 * merged as they are made, into out's room for all of them, where collecting and then sorting
 * would write each activity twice or log n times. False when a source turns out not to be in
 * cmp_activity's order (out is then partly written). */
static bool merge_sources(const collector *c, gs_activities *out)
{
    cursor src[FROM__COUNT];
    for (int k = 0; k < FROM__COUNT; k++) {
        src[k] = (cursor){.n = source_size(c, (enum source_kind)k)};
        advance(c, (enum source_kind)k, &src[k]);
    }
    for (;;) {
        int best = -1;
        for (int k = 0; k < FROM__COUNT; k++)
            if (src[k].has && (best < 0 || cmp_activity(&src[k].next, &src[best].next) < 0))
                best = k;
        if (best < 0)
            return true;
        gs_activity *a = &out->v[out->n++];
        *a = src[best].next;
        advance(c, (enum source_kind)best, &src[best]);
        if (src[best].has && cmp_activity(&src[best].next, a) < 0)
            return false;
    }
}

int gs_activities_collect(const gs_trace_ctx *ctx, const gs_activity_opts *opts, gs_activities *out)
{
    const gs_trace *t = ctx->trace;
    collector c = {.ctx = ctx, .t = t, .opts = opts};
    if (opts->hta_compat)
        c.cut_applies = hta_cut(t, &c.cut);
    out->n = 0;
    size_t most = 0;
    for (int k = 0; k < FROM__COUNT; k++)
        most += source_size(&c, (enum source_kind)k);
    if (gs_grow((void **)&out->v, &out->cap, most + 1, sizeof *out->v) != 0)
        return -1;
    if (merge_sources(&c, out))
        return 0;
    /* cmp_activity is a total order (no two activities compare equal): sorted, the same array */
    out->n = 0;
    for (int k = 0; k < FROM__COUNT; k++)
        for (size_t i = 0; i < source_size(&c, (enum source_kind)k); i++)
            out->n += activity_at(&c, (enum source_kind)k, i, &out->v[out->n]);
    qsort(out->v, out->n, sizeof *out->v, cmp_activity);
    return 0;
}

const char *gs_activity_name(const gs_trace *t, const gs_activity *a)
{
    switch (a->gpu_class) {
    case GS_GPU_KERNEL:
        return gs_trace_str(t, t->kernels.v[a->index].name);
    case GS_GPU_MEMOP:
        return gs_trace_str(t, t->memops.v[a->index].name);
    case GS_GPU_SYNC:
        return gs_trace_str(t, t->syncs.v[a->index].name);
    }
    return NULL;
}
