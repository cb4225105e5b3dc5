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
    gs_activities *out;
} collector;

static int add(collector *c, gs_ns start, gs_ns end, enum gs_gpu_class gc, enum gs_kclass kc,
               int32_t device, int32_t stream, size_t index, uint32_t api)
{
    if (c->opts->window && !gs_window_holds_gpu(c->opts->window, c->t, start, api))
        return 0;
    gs_ns launch = api != GS_NONE ? c->t->apis.v[api].start : 0;
    if (c->opts->hta_compat) {
        launch = ceil_us(launch);
        if (c->cut_applies && (api == GS_NONE || launch >= c->cut))
            return 0;
        end = hta_end(start, end);
        start = ceil_us(start);
        if (end < start)
            end = start;
    }
    gs_activity *a = GS_VEC_PUSH(c->out);
    if (!a)
        return -1;
    *a = (gs_activity){.start = start, .end = end, .gpu_class = (uint8_t)gc,
                       .kclass = (uint8_t)kc, .device = device, .stream = stream,
                       .index = (uint32_t)index, .api = api,
                       .launch = launch};
    return 0;
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

static bool sorted_run(const gs_activity *v, size_t lo, size_t hi)
{
    for (size_t i = lo + 1; i < hi; i++)
        if (cmp_activity(&v[i - 1], &v[i]) > 0)
            return false;
    return true;
}

/* Puts v[0..n) in cmp_activity's order. The readers keep each class in time order, so the
 * kernels, copies and syncs are usually three sorted runs (cut at run[0], run[1]): merged in
 * linear time where a sort of the whole would copy each activity log n times. cmp_activity is a
 * total order (no two activities compare equal), so both ways give the same array. */
static int sort_activities(gs_activities *out, const size_t run[2])
{
    gs_activity *v = out->v;
    size_t n = out->n;
    if (!sorted_run(v, 0, run[0]) || !sorted_run(v, run[0], run[1]) ||
        !sorted_run(v, run[1], n)) {
        qsort(v, n, sizeof *v, cmp_activity);
        return 0;
    }
    gs_activity *merged = malloc(n * sizeof *merged);
    if (!merged)
        return -1;
    size_t pos[3] = {0, run[0], run[1]}, end[3] = {run[0], run[1], n};
    for (size_t k = 0; k < n; k++) {
        int best = -1;
        for (int r = 0; r < 3; r++)
            if (pos[r] < end[r] && (best < 0 || cmp_activity(&v[pos[r]], &v[pos[best]]) < 0))
                best = r;
        merged[k] = v[pos[best]++];
    }
    free(out->v);
    out->v = merged;
    out->cap = n;
    return 0;
}

int gs_activities_collect(const gs_trace_ctx *ctx, const gs_activity_opts *opts, gs_activities *out)
{
    const gs_trace *t = ctx->trace;
    collector c = {.ctx = ctx, .t = t, .opts = opts, .out = out};
    bool hta = opts->hta_compat;
    if (hta)
        c.cut_applies = hta_cut(t, &c.cut);
    out->n = 0;
    /* room for every activity at once: growing by pushes would copy them again and again */
    size_t most = t->kernels.n + t->memops.n + (opts->with_syncs ? t->syncs.n : 0);
    if (gs_grow((void **)&out->v, &out->cap, most + 1, sizeof *out->v) != 0)
        return -1;
    size_t run[2];
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        enum gs_kclass kc = kclass_of(ctx, k->name, hta);
        if (add(&c, k->start, k->end, GS_GPU_KERNEL, kc, k->device, k->stream, i, k->api))
            return -1;
    }
    run[0] = out->n;
    for (size_t i = 0; i < t->memops.n; i++) {
        const gs_memop *m = &t->memops.v[i];
        enum gs_kclass kc = hta ? kclass_of(ctx, m->name, true) : GS_KCLASS_MEMORY;
        if (add(&c, m->start, m->end, GS_GPU_MEMOP, kc, m->device, m->stream, i, m->api))
            return -1;
    }
    run[1] = out->n;
    /* Sync records without a stream (Event Sync, Context Sync) are not on any GPU queue. */
    for (size_t i = 0; opts->with_syncs && i < t->syncs.n; i++) {
        const gs_gpu_sync *s = &t->syncs.v[i];
        if (s->stream < 0)
            continue;
        enum gs_kclass kc = hta ? kclass_of(ctx, s->name, true) : GS_KCLASS_OTHER;
        if (add(&c, s->start, s->end, GS_GPU_SYNC, kc, s->device, s->stream, i, s->api))
            return -1;
    }
    return out->n > 1 ? sort_activities(out, run) : 0;
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
