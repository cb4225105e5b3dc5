/* Step-time breakdown by priority attribution (breakdown.h), as the plugin's OverallParser:
 *
 *   slots = union of the steps
 *   for each category in priority order: cost[c] = slots ∩ role[c]; slots -= cost[c]
 *   cost[Other] = slots
 *   per step: ns[c] = |cost[c] ∩ step|
 *
 * Role sets are collected from the whole trace and merged per role; GPU and host timelines are
 * mixed on purpose: host time overlapped by any GPU activity goes to the GPU category, so
 * "CPU Exec" is host work during which the GPU was idle. */
#include "analysis/trace/breakdown.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/intervals.h"
#include "analysis/base/kernel_class.h"
#include "common/log.h"
#include "common/util.h"
#include "common/vec.h"

static const struct {
    const char *key, *title;
} cat_names[GS_BD__COUNT] = {
    [GS_BD_KERNEL] = {"kernel", "Kernel"},
    [GS_BD_MEMCPY] = {"memcpy", "Memcpy"},
    [GS_BD_MEMSET] = {"memset", "Memset"},
    [GS_BD_COMM] = {"communication", "Communication"},
    [GS_BD_RUNTIME] = {"runtime", "Runtime"},
    [GS_BD_DATALOADER] = {"dataloader", "DataLoader"},
    [GS_BD_CPU_EXEC] = {"cpu_exec", "CPU Exec"},
    [GS_BD_OTHER] = {"other", "Other"},
};

const char *gs_bd_cat_key(enum gs_bd_cat c)
{
    return c < GS_BD__COUNT ? cat_names[c].key : "?";
}

const char *gs_bd_cat_title(enum gs_bd_cat c)
{
    return c < GS_BD__COUNT ? cat_names[c].title : "?";
}

/* Host ranges that are collective calls: every nccl:/gloo: op, or only the plugin's five names
 * of each (name_rule_table.c, COMM_OP and COMM_OP_PLUGIN). */
static bool is_comm_op(const gs_trace_ctx *c, gs_str name, bool tb_compat)
{
    return gs_ctx_name(c, name, tb_compat ? GS_NAME_COMM_OP_PLUGIN : GS_NAME_COMM_OP) != 0;
}

/* The role of a host range, or GS_BD__COUNT for none. Python frames (with_stack) and GPU-side
 * annotations take no role: the plugin ignores python_function events, and frames enclosing the
 * whole training loop would turn every idle instant into "CPU Exec". */
static enum gs_bd_cat range_role(const gs_trace_ctx *c, const gs_range *r, bool is_step,
                                  bool tb_compat)
{
    if (r->kind != GS_RANGE_OP && r->kind != GS_RANGE_ANNOTATION && r->kind != GS_RANGE_NVTX)
        return GS_BD__COUNT;
    if (is_step || gs_ctx_name(c, r->name, GS_NAME_PROFILER_STEP))
        return GS_BD__COUNT;
    /* NVTX too: gpuscope run's Python hooks mark DataLoader fetches with PyTorch's name. */
    if (gs_ctx_name(c, r->name, GS_NAME_DATALOADER))
        return GS_BD_DATALOADER;
    if (is_comm_op(c, r->name, tb_compat))
        return GS_BD_COMM;
    return GS_BD_CPU_EXEC;
}

/* The plugin's communication kernels: External id equal to that of a host op by one of its five
 * collective names. Sorted External ids of those ops in *ids (NULL when none). */
static int find_tb_comm_ids(const gs_trace_ctx *c, int64_t **ids, size_t *n)
{
    const gs_trace *t = c->trace;
    *ids = NULL;
    *n = 0;
    size_t cap = 0;
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        if ((r->kind != GS_RANGE_OP && r->kind != GS_RANGE_ANNOTATION) ||
            !is_comm_op(c, r->name, true))
            continue;
        if (gs_grow((void **)ids, &cap, *n + 1, sizeof **ids) != 0)
            return -1;
        (*ids)[(*n)++] = r->external_id;
    }
    if (*n)
        qsort(*ids, *n, sizeof **ids, gs_cmp_i64);
    return 0;
}

static bool is_comm_kernel(const gs_trace_ctx *c, const gs_kernel *k, const int64_t *ids,
                           size_t n, bool tb_compat)
{
    if (!tb_compat)
        return gs_ctx_name(c, k->name, GS_NAME_COMM_KERNEL) != 0;
    return n && bsearch(&k->external_id, ids, n, sizeof *ids, gs_cmp_i64) != NULL;
}

static int collect_roles(const gs_trace_ctx *c, const gs_steps *steps, bool tb_compat,
                         gs_spans *role)
{
    const gs_trace *t = c->trace;
    int64_t *ids;
    size_t nids;
    if (tb_compat && find_tb_comm_ids(c, &ids, &nids) != 0)
        return -1;
    if (!tb_compat) {
        ids = NULL;
        nids = 0;
    }
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        bool comm = is_comm_kernel(c, k, ids, nids, tb_compat);
        if (gs_spans_unite(&role[comm ? GS_BD_COMM : GS_BD_KERNEL], k->start, k->end) != 0) {
            free(ids);
            return -1;
        }
    }
    free(ids);
    for (size_t i = 0; i < t->memops.n; i++) {
        const gs_memop *m = &t->memops.v[i];
        enum gs_bd_cat cat = m->kind == GS_MEMOP_MEMSET ? GS_BD_MEMSET : GS_BD_MEMCPY;
        if (gs_spans_unite(&role[cat], m->start, m->end) != 0)
            return -1;
    }
    for (size_t i = 0; i < t->apis.n; i++) {
        if (tb_compat && t->apis.v[i].kind != GS_API_RUNTIME)
            continue; /* the plugin never knew cuda_driver */
        if (gs_spans_unite(&role[GS_BD_RUNTIME], t->apis.v[i].start, t->apis.v[i].end) != 0)
            return -1;
    }
    size_t next_step = 0; /* step ranges come in increasing range index */
    for (size_t i = 0; i < t->ranges.n; i++) {
        while (next_step < steps->n && steps->v[next_step].range < i)
            next_step++;
        bool is_step = next_step < steps->n && steps->v[next_step].range == i;
        enum gs_bd_cat cat = range_role(c, &t->ranges.v[i], is_step, tb_compat);
        if (cat != GS_BD__COUNT &&
            gs_spans_unite(&role[cat], t->ranges.v[i].start, t->ranges.v[i].end))
            return -1;
    }
    for (int k = 0; k < GS_BD__COUNT; k++)
        gs_spans_merge(&role[k]);
    return 0;
}

/* cost[c] = slots ∩ role[c], slots -= cost[c], in priority order; cost[Other] = what is left. */
static int attribute(const gs_steps *steps, gs_spans *role, gs_spans *cost)
{
    gs_spans slots = {0}, rest = {0};
    for (size_t i = 0; i < steps->n; i++) {
        if (gs_spans_add(&slots, steps->v[i].start, steps->v[i].end) != 0)
            goto oom;
    }
    gs_spans_merge(&slots);
    for (int c = 0; c < GS_BD_OTHER; c++) {
        if (gs_spans_intersect(&slots, &role[c], &cost[c]) != 0 ||
            gs_spans_subtract(&slots, &cost[c], &rest) != 0)
            goto oom;
        gs_spans tmp = slots;
        slots = rest;
        rest = tmp;
    }
    cost[GS_BD_OTHER] = slots;
    gs_spans_free(&rest);
    return 0;
oom:
    gs_spans_free(&slots);
    gs_spans_free(&rest);
    return -1;
}

static void split_steps(gs_bd_trace *out, const gs_spans *cost)
{
    const gs_steps *s = &out->steps;
    double total = 0;
    for (size_t i = 0; i < s->n; i++) {
        gs_bd_step *b = &out->step[i];
        b->number = s->v[i].number;
        b->start = s->v[i].start;
        b->end = s->v[i].end;
        b->warmup = s->v[i].warmup;
        for (int c = 0; c < GS_BD__COUNT; c++)
            b->ns[c] = gs_spans_overlap(&cost[c], b->start, b->end);
        if (!gs_step_kept(s, i))
            continue;
        out->nkept++;
        total += (double)(b->end - b->start);
        for (int c = 0; c < GS_BD__COUNT; c++)
            out->avg_ns[c] += (double)b->ns[c];
    }
    if (!out->nkept)
        return;
    out->avg_total_ns = total / (double)out->nkept;
    for (int c = 0; c < GS_BD__COUNT; c++) {
        out->avg_ns[c] /= (double)out->nkept;
        out->avg_pct[c] = out->avg_total_ns > 0 ? out->avg_ns[c] * 100.0 / out->avg_total_ns : 0;
    }
}

/* The GPU metrics window: from the first step counted to the end of the last step. */
static void find_metrics_window(const gs_steps *s, gs_ns *ws, gs_ns *we)
{
    *ws = *we = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (gs_step_kept(s, i)) {
            *ws = s->v[i].start;
            *we = s->v[s->n - 1].end;
            return;
        }
    }
}

static void free_trace(gs_bd_trace *b)
{
    gs_rank_id_free(&b->id);
    gs_steps_free(&b->steps);
    free(b->step);
    gs_gpu_metrics_free(&b->gpu);
}

static int breakdown_trace(const gs_trace_ctx *c, bool tb_compat, gs_bd_trace *out,
                           gs_error *err)
{
    const gs_trace *t = c->trace;
    memset(out, 0, sizeof *out);
    if (gs_rank_id_copy(&out->id, &t->id) != 0 || gs_steps_copy(&out->steps, &c->steps) != 0)
        return gs_fail_oom(err);
    gs_spans role[GS_BD__COUNT] = {{0}}, cost[GS_BD__COUNT] = {{0}};
    int rc = -1;
    out->step = gs_array_zeroed(out->steps.n, sizeof *out->step);
    if (!out->step || collect_roles(c, &out->steps, tb_compat, role) != 0 ||
        attribute(&out->steps, role, cost) != 0) {
        gs_fail_oom(err);
        goto done;
    }
    split_steps(out, cost);
    gs_ns ws, we;
    find_metrics_window(&out->steps, &ws, &we);
    rc = gs_gpu_metrics_compute(t, ws, we, &out->gpu, err);
done:
    for (int k = 0; k < GS_BD__COUNT; k++) {
        gs_spans_free(&role[k]);
        gs_spans_free(&cost[k]);
    }
    return rc;
}

int gs_breakdown_add(gs_breakdown *b, const gs_trace_ctx *c, bool tb_compat, gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    gs_bd_trace *grown = realloc(b->v, (b->n + 1) * sizeof *grown);
    if (!grown) {
        gs_breakdown_free(b);
        return gs_fail_oom(err);
    }
    b->v = grown;
    int rc = breakdown_trace(c, tb_compat, &b->v[b->n], err);
    b->n++;
    if (rc != 0) {
        gs_breakdown_free(b);
        return -1;
    }
    GS_LOG_TOOK(logged_at, "breakdown");
    return 0;
}

static int cmp_trace(const void *pa, const void *pb)
{
    return gs_rank_id_cmp(&((const gs_bd_trace *)pa)->id, &((const gs_bd_trace *)pb)->id);
}

void gs_breakdown_finish(gs_breakdown *b)
{
    if (b->n > 1)
        qsort(b->v, b->n, sizeof *b->v, cmp_trace);
}

int gs_breakdown_build(const gs_trace_ctx *c, bool tb_compat, gs_breakdown *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    return gs_breakdown_add(out, c, tb_compat, err);
}

void gs_breakdown_free(gs_breakdown *b)
{
    for (size_t i = 0; i < b->n; i++)
        free_trace(&b->v[i]);
    free(b->v);
    memset(b, 0, sizeof *b);
}
