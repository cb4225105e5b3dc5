#include "analysis/base/kernel_class.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/window.h"
#include "common/util.h"

/* ---- classification by name ----------------------------------------------------------------- */

enum match_kind {
    MATCH_PREFIX,          /* name starts with a */
    MATCH_CONTAINS,        /* a occurs anywhere in name */
    MATCH_PREFIX_CONTAINS, /* name starts with a and b occurs after it: regex ^a.*b */
};

typedef struct name_rule {
    enum match_kind kind;
    const char *a, *b;
    enum gs_kclass cls;
} name_rule;

/* gpuscope's rules, first match wins; a name no rule matches is compute. RCCL names its kernels
 * like NCCL, so ROCm collectives are caught too; `hip*` names are ordinary kernels. */
static const name_rule gpuscope_rules[] = {
    {MATCH_PREFIX, "nccl", NULL, GS_KCLASS_COMMUNICATION},
    {MATCH_CONTAINS, "ncclKernel", NULL, GS_KCLASS_COMMUNICATION},
    {MATCH_CONTAINS, "ncclDevKernel", NULL, GS_KCLASS_COMMUNICATION},
    {MATCH_PREFIX, "hccl", NULL, GS_KCLASS_COMMUNICATION},
};

/* HTA 0.5.0 (hta/utils/utils.py), the version the anchor was produced with, applied to every
 * GPU row's name (copies and sync records included):
 *   COMMUNICATION  ^nccl.*Kernel
 *   MEMORY         ^Memcpy | ^Memset | ^dma
 *   not COMPUTATION (so OTHER) when  ^nccl.*Kernel | .*Memcpy | ^Memset | .*Sync
 *                  (the regex is written `(.*(Memcpy)|(Memset))`, so Memset is anchored)
 *   COMPUTATION    the rest.
 * HTA's later sources add `^hip` and `^hccl` to COMMUNICATION; gpuscope follows
 * the release it is compared with. */
static const name_rule hta_rules[] = {
    {MATCH_PREFIX_CONTAINS, "nccl", "Kernel", GS_KCLASS_COMMUNICATION},
    {MATCH_PREFIX, "Memcpy", NULL, GS_KCLASS_MEMORY},
    {MATCH_PREFIX, "Memset", NULL, GS_KCLASS_MEMORY},
    {MATCH_PREFIX, "dma", NULL, GS_KCLASS_MEMORY},
    {MATCH_CONTAINS, "Memcpy", NULL, GS_KCLASS_OTHER},
    {MATCH_CONTAINS, "Sync", NULL, GS_KCLASS_OTHER},
};

static bool rule_matches(const name_rule *r, const char *name)
{
    size_t n = strlen(r->a);
    switch (r->kind) {
    case MATCH_PREFIX:
        return strncmp(name, r->a, n) == 0;
    case MATCH_CONTAINS:
        return strstr(name, r->a) != NULL;
    case MATCH_PREFIX_CONTAINS:
        return strncmp(name, r->a, n) == 0 && strstr(name + n, r->b) != NULL;
    }
    return false;
}

enum gs_kclass gs_kclass_of_name(const char *name, bool hta_compat)
{
    const name_rule *rules = hta_compat ? hta_rules : gpuscope_rules;
    size_t n = hta_compat ? COUNT_OF(hta_rules)
                          : COUNT_OF(gpuscope_rules);
    if (!name)
        return GS_KCLASS_COMPUTE;
    for (size_t i = 0; i < n; i++)
        if (rule_matches(&rules[i], name))
            return rules[i].cls;
    return GS_KCLASS_COMPUTE;
}

const char *gs_kclass_name(enum gs_kclass c)
{
    static const char *const names[GS_KCLASS__COUNT] = {
        [GS_KCLASS_COMPUTE] = "compute",
        [GS_KCLASS_COMMUNICATION] = "communication",
        [GS_KCLASS_MEMORY] = "memory",
        [GS_KCLASS_OTHER] = "other",
    };
    return (unsigned)c < GS_KCLASS__COUNT ? names[c] : "?";
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

int gs_activities_collect(const gs_trace *t, const gs_activity_opts *opts, gs_activities *out)
{
    collector c = {.t = t, .opts = opts, .out = out};
    bool hta = opts->hta_compat;
    if (hta)
        c.cut_applies = hta_cut(t, &c.cut);
    out->n = 0;
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        enum gs_kclass kc = gs_kclass_of_name(gs_trace_str(t, k->name), hta);
        if (add(&c, k->start, k->end, GS_GPU_KERNEL, kc, k->device, k->stream, i, k->api))
            return -1;
    }
    for (size_t i = 0; i < t->memops.n; i++) {
        const gs_memop *m = &t->memops.v[i];
        enum gs_kclass kc = hta ? gs_kclass_of_name(gs_trace_str(t, m->name), true)
                                : GS_KCLASS_MEMORY;
        if (add(&c, m->start, m->end, GS_GPU_MEMOP, kc, m->device, m->stream, i, m->api))
            return -1;
    }
    /* Sync records without a stream (Event Sync, Context Sync) are not on any GPU queue. */
    for (size_t i = 0; opts->with_syncs && i < t->syncs.n; i++) {
        const gs_gpu_sync *s = &t->syncs.v[i];
        if (s->stream < 0)
            continue;
        enum gs_kclass kc = hta ? gs_kclass_of_name(gs_trace_str(t, s->name), true)
                                : GS_KCLASS_OTHER;
        if (add(&c, s->start, s->end, GS_GPU_SYNC, kc, s->device, s->stream, i, s->api))
            return -1;
    }
    if (out->n > 1)
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
