#include "analysis/trace/launch.h"

#include "analysis/base/stats.h"
#include "analysis/base/thresholds.h"
#include "analysis/base/window.h"
#include "common/log.h"
#include "common/util.h"
#include "common/vec.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* One kernel as the statistics see it. A launch call that launched several kernels (a CUDA graph,
 * or a multi-kernel driver call) is counted once: its cost and delay go with its first kernel,
 * later kernels of the same call carry cost = delay = -1. */
typedef struct item {
    long step;   /* index into the steps, -1 outside every step */
    gs_ns dur;   /* kernel duration */
    gs_ns cost;  /* launch call duration, -1 when none or already counted */
    gs_ns delay; /* launch delay, -1 when none or already counted */
    bool linked; /* has a launching API call */
    bool is_short, graph, driver;
} item;

/* Driver-API launches (Triton and other JIT kernels); HTA's launch list misses them. */
static const char *const driver_launch_prefixes[] = {
    "cuLaunchKernel", "cuLaunchCooperativeKernel", "hipModuleLaunchKernel",
    "hipExtModuleLaunchKernel"};

/* Launch calls that are CUDA-graph launches: they launch many kernels at once. */
static bool is_graph_launch(const char *name)
{
    return gs_is_graph_launch_call(name);
}

static bool is_driver_launch(const char *name)
{
    for (size_t i = 0; i < COUNT_OF(driver_launch_prefixes); i++)
        if (strncmp(name, driver_launch_prefixes[i], strlen(driver_launch_prefixes[i])) == 0)
            return true;
    return false;
}

/* What a launch call's name says, judged once per name of the trace (kind[name], 0 until then):
 * a trace has a few launch call names and millions of launches. */
enum { NAME_JUDGED = 1, NAME_DRIVER = 2, NAME_GRAPH = 4 };

static unsigned launch_name_kind(const gs_trace *t, gs_str id, uint8_t *kind)
{
    if (!kind[id]) {
        const char *name = gs_trace_str(t, id);
        kind[id] = (uint8_t)(NAME_JUDGED | (is_driver_launch(name) ? NAME_DRIVER : 0) |
                             (is_graph_launch(name) ? NAME_GRAPH : 0));
    }
    return kind[id];
}

/* Statistics of n items; scratch holds room for n values. */
static void compute_window_stats(const item *it, size_t n, gs_ns *scratch, gs_launch_stats *s)
{
    memset(s, 0, sizeof *s);
    size_t nd = 0;
    for (size_t i = 0; i < n; i++) {
        s->kernels++;
        s->kernel_time += it[i].dur;
        s->launched += it[i].linked;
        s->short_kernels += it[i].is_short;
        s->short_kernel_time += it[i].is_short ? it[i].dur : 0;
        s->graph_kernels += it[i].graph;
        s->driver_launches += it[i].driver;
        scratch[i] = it[i].dur;
    }
    if (n)
        s->med_kernel = gs_percentile_select(scratch, n, 50);
    s->short_time_pct =
        s->kernel_time ? 100.0 * (double)s->short_kernel_time / (double)s->kernel_time : 0;

    for (size_t i = 0; i < n; i++)
        if (it[i].cost >= 0) {
            scratch[nd++] = it[i].cost;
            s->launch_cost += it[i].cost;
            s->cost_outliers += it[i].cost > GS_TH_LAUNCH_CALL_CUTOFF_NS;
        }
    s->launch_calls = nd;
    if (nd)
        s->med_launch_cost = gs_percentile_select(scratch, nd, 50);

    nd = 0;
    for (size_t i = 0; i < n; i++)
        if (it[i].delay >= 0) {
            scratch[nd++] = it[i].delay;
            s->delay_outliers += it[i].delay > GS_TH_LAUNCH_DELAY_OUTLIER_NS;
            if (it[i].delay > s->delay_max)
                s->delay_max = it[i].delay;
        }
    if (nd) {
        s->delay_med = gs_percentile_select(scratch, nd, 50);
        s->delay_p95 = gs_percentile_select(scratch, nd, 95);
    }
}

/* The step of an event: where its launch call began (the host decides the step), else its start. */
static long step_of(const gs_steps *steps, gs_ns ts)
{
    return steps && steps->n ? gs_steps_at(steps, ts) : -1;
}

/* One item per kernel, in kernel order; `seen` marks launch calls already counted, name_kind
 * holds what each name says (launch_name_kind). A kernel outside the window belongs to no step. */
static void make_items(const gs_trace *t, const gs_steps *steps, const gs_window *w, item *items,
                       bool *seen, uint8_t *name_kind)
{
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        item *it = &items[i];
        *it = (item){.dur = k->end - k->start, .cost = -1, .delay = -1, .graph = k->graph_id != 0};
        const gs_api *a = k->api != GS_NONE ? &t->apis.v[k->api] : NULL;
        it->step = !w || gs_window_holds_gpu(w, t, k->start, k->api)
                       ? step_of(steps, a ? a->start : k->start)
                       : -1;
        if (!a)
            continue;
        unsigned kind = launch_name_kind(t, a->name, name_kind);
        it->linked = true;
        gs_ns call = a->end - a->start;
        it->driver = (kind & NAME_DRIVER) != 0;
        /* ROCm writes no graph id: a kernel launched by a graph launch is a graph kernel too. */
        it->graph = it->graph || (kind & NAME_GRAPH);
        /* A kernel of a graph shares its launch call with the whole graph: comparing it with
         * the call says nothing about launch overhead, so it is never "short". */
        it->is_short = !it->graph && call <= GS_TH_LAUNCH_CALL_CUTOFF_NS && it->dur < call;
        if (seen[k->api])
            continue;
        seen[k->api] = true;
        it->cost = call;
        it->delay = k->start > a->end ? k->start - a->end : 0;
    }
}

static int cmp_item_step(const void *pa, const void *pb)
{
    long a = ((const item *)pa)->step, b = ((const item *)pb)->step;
    return (a > b) - (a < b);
}

/* Graph launch calls per step (they may have launched no kernel the trace kept). */
static void count_graph_launches(const gs_trace *t, const gs_steps *steps, gs_launch_rank *r)
{
    for (size_t i = 0; i < t->apis.n; i++) {
        const gs_api *a = &t->apis.v[i];
        if (!is_graph_launch(gs_trace_str(t, a->name)))
            continue;
        r->total.graph_launches++;
        long s = step_of(steps, a->start);
        if (s >= 0) {
            r->steps[s].s.graph_launches++;
            if (gs_step_kept(steps, (size_t)s))
                r->kept.graph_launches++;
        }
    }
}

static void fill_step_rows(const gs_steps *steps, const item *items, size_t n, gs_ns *scratch,
                           gs_launch_rank *r)
{
    size_t i = 0;
    while (i < n && items[i].step < 0)
        i++;
    for (size_t s = 0; s < steps->n; s++) {
        gs_launch_step *row = &r->steps[s];
        const gs_step *st = &steps->v[s];
        *row = (gs_launch_step){.number = st->number, .start = st->start, .end = st->end,
                                .warmup = st->warmup};
        size_t j = i;
        while (j < n && items[j].step == (long)s)
            j++;
        compute_window_stats(items + i, j - i, scratch, &row->s);
        i = j;
        gs_ns dur = st->end - st->start;
        row->launches_per_s = dur > 0 ? (double)row->s.launch_calls * 1e9 / (double)dur : 0;
    }
}

static int launch_trace(const gs_trace_ctx *c, gs_launch_rank *out, gs_error *err)
{
    const gs_trace *t = c->trace;
    const gs_steps *steps = &c->steps;
    const gs_window *w = &c->window;
    memset(out, 0, sizeof *out);
    out->rank = t->id.rank;
    out->path = strdup(t->id.path);
    out->step_source = steps->source;
    size_t n = t->kernels.n;
    item *items = gs_array_new(n, sizeof *items);
    bool *seen = gs_array_zeroed(t->apis.n, sizeof *seen);
    gs_ns *scratch = gs_array_new(n, sizeof *scratch);
    item *kept = gs_array_new(n, sizeof *kept);
    uint8_t *name_kind = gs_array_zeroed(t->strings.n, sizeof *name_kind);
    out->steps = gs_array_zeroed(steps->n, sizeof *out->steps);
    if (!items || !seen || !scratch || !kept || !name_kind || !out->steps || !out->path) {
        free(items), free(seen), free(scratch), free(kept), free(name_kind);
        gs_launch_rank_free(out);
        return gs_fail_oom(err);
    }
    out->nsteps = steps->n;
    make_items(t, steps, w, items, seen, name_kind);
    free(name_kind);
    compute_window_stats(items, n, scratch, &out->total);

    qsort(items, n, sizeof *items, cmp_item_step);
    fill_step_rows(steps, items, n, scratch, out);

    size_t nk = 0;
    gs_ns kept_time = 0;
    for (size_t i = 0; i < n; i++)
        if (items[i].step >= 0 && gs_step_kept(steps, (size_t)items[i].step))
            kept[nk++] = items[i];
    compute_window_stats(kept, nk, scratch, &out->kept);
    for (size_t s = 0; s < steps->n; s++)
        if (gs_step_kept(steps, s)) {
            out->nkept++;
            kept_time += steps->v[s].end - steps->v[s].start;
        }
    out->kernels_per_step = out->nkept ? (double)out->kept.kernels / (double)out->nkept : 0;
    out->launches_per_s =
        kept_time > 0 ? (double)out->kept.launch_calls * 1e9 / (double)kept_time : 0;
    count_graph_launches(t, steps, out);
    gs_graph_facts_count(t, &out->graphs);
    free(items), free(seen), free(scratch), free(kept);
    return 0;
}

void gs_launch_rank_free(gs_launch_rank *r)
{
    free(r->path);
    free(r->steps);
    memset(r, 0, sizeof *r);
}

int gs_launch_add(gs_launch_summary *s, const gs_trace_ctx *c, gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    gs_launch_rank *grown = realloc(s->ranks, (s->nranks + 1) * sizeof *grown);
    if (!grown) {
        gs_launch_summary_free(s);
        return gs_fail_oom(err);
    }
    s->ranks = grown;
    if (launch_trace(c, &s->ranks[s->nranks], err) != 0) {
        gs_launch_summary_free(s);
        return -1;
    }
    s->nranks++;
    GS_LOG_TOOK(logged_at, "launch");
    return 0;
}

void gs_launch_finish(gs_launch_summary *s)
{
    gs_stable_sort_by_i32(s->ranks, s->nranks, sizeof *s->ranks, offsetof(gs_launch_rank, rank));
}

int gs_launch_build(const gs_trace_ctx *c, gs_launch_summary *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    return gs_launch_add(out, c, err);
}

void gs_launch_summary_free(gs_launch_summary *s)
{
    for (size_t i = 0; i < s->nranks; i++)
        gs_launch_rank_free(&s->ranks[i]);
    free(s->ranks);
    memset(s, 0, sizeof *s);
}
