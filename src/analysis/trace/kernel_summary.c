#include "analysis/trace/kernel_summary.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/dur_groups.h"
#include "analysis/base/names.h"
#include "common/log.h"
#include "common/vec.h"

static int cmp_dims(const int32_t *a, const int32_t *b)
{
    for (int k = 0; k < 3; k++)
        if (a[k] != b[k])
            return a[k] < b[k] ? -1 : 1;
    return 0;
}

/* nsys order: Total desc, Instances asc, Name asc; then grid and block so the order is total. */
static int cmp_row(const void *pa, const void *pb)
{
    const gs_kernel_row *a = pa, *b = pb;
    if (a->time.total != b->time.total)
        return a->time.total > b->time.total ? -1 : 1;
    if (a->time.count != b->time.count)
        return a->time.count < b->time.count ? -1 : 1;
    int c = strcmp(a->name, b->name);
    if (c)
        return c;
    c = cmp_dims(a->grid, b->grid);
    return c ? c : cmp_dims(a->block, b->block);
}

/* The operator that launched kernel k, as the TensorBoard plugin's kernel view and HTA name it:
 * the innermost framework operator around its launch, else the innermost NVTX range (emit_nvtx's
 * and gpuscope run's --torch-ops operators), never a step or a user annotation. */
static const gs_range *launching_op(const gs_trace_ctx *c, const gs_kernel *k)
{
    const gs_trace *t = c->trace;
    for (uint32_t r = k->op; r != GS_NONE && r < t->ranges.n; r = t->ranges.v[r].parent) {
        const gs_range *g = &t->ranges.v[r];
        if (g->kind == GS_RANGE_OP ||
            (g->kind == GS_RANGE_NVTX && !gs_ctx_name(c, g->name, GS_NAME_PROFILER_STEP)))
            return g;
    }
    return NULL;
}

typedef struct op_time {
    gs_str op;
    gs_ns time;
} op_time;

static int cmp_op_time(const void *pa, const void *pb)
{
    const op_time *a = pa, *b = pb;
    return (a->op > b->op) - (a->op < b->op);
}

/* The operator that launched most of a row's time, from its items; buf holds count entries. */
static void top_operator(gs_kernel_row *row, const gs_strtab *names, const gs_dur_item *items,
                         op_time *buf)
{
    size_t n = row->time.count;
    for (size_t i = 0; i < n; i++)
        buf[i] = (op_time){items[i].aux, items[i].dur};
    qsort(buf, n, sizeof *buf, cmp_op_time);
    gs_str best = GS_STR_EMPTY;
    gs_ns best_time = -1;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        gs_ns sum = 0;
        while (j < n && buf[j].op == buf[i].op)
            sum += buf[j++].time;
        if (buf[i].op != GS_STR_EMPTY && sum > best_time) {
            best = buf[i].op;
            best_time = sum;
        }
        i = j;
    }
    if (best == GS_STR_EMPTY)
        return;
    row->op = gs_str_get(names, best);
    row->op_pct = row->time.total > 0 ? 100.0 * (double)best_time / (double)row->time.total : 100;
}

static int make_rows(gs_kernel_summary *s, gs_dur_item *items, size_t n)
{
    gs_dur_group *groups;
    size_t ngroups;
    if (gs_dur_groups(items, n, &groups, &ngroups) != 0)
        return -1;
    s->rows = gs_array_zeroed(ngroups, sizeof *s->rows);
    s->durations = gs_array_new(n, sizeof *s->durations);
    op_time *buf = gs_array_new(n, sizeof *buf);
    if (!s->rows || !s->durations || !buf) {
        free(groups);
        free(buf);
        return -1;
    }
    for (size_t i = 0; i < n; i++) /* the items are sorted: by group, then duration */
        s->durations[i] = items[i].dur;
    for (size_t g = 0, first = 0; g < ngroups; first += groups[g++].time.count) {
        gs_kernel_row *row = &s->rows[s->nrows++];
        row->first = first;
        row->name = gs_str_get(&s->names, groups[g].key.name);
        memcpy(row->grid, &groups[g].key.tag[0], sizeof row->grid);
        memcpy(row->block, &groups[g].key.tag[3], sizeof row->block);
        row->time = groups[g].time;
        row->time_pct = groups[g].time_pct;
        top_operator(row, &s->names, items + first, buf);
        s->total += row->time.total;
    }
    free(groups);
    free(buf);
    qsort(s->rows, s->nrows, sizeof *s->rows, cmp_row);
    return 0;
}

int gs_kernel_summary_init(gs_kernel_summary *s, bool by_launch, gs_error *err)
{
    memset(s, 0, sizeof *s);
    s->by_launch = by_launch;
    return gs_strtab_init(&s->names) == 0 ? 0 : gs_fail_oom(err);
}

/* One item per kernel inside the window, keyed by name (and grid, block), with its launching
 * operator. */
static int collect(gs_kernel_summary *s, const gs_trace_ctx *c, gs_name_map *map)
{
    const gs_trace *t = c->trace;
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        if (!gs_window_holds_gpu(&c->window, t, k->start, k->api))
            continue;
        gs_dur_item *it = GS_VEC_PUSH(&s->kernels);
        it->key.name = gs_name_map_get(map, k->name);
        if (s->by_launch) {
            memcpy(&it->key.tag[0], k->grid, sizeof k->grid);
            memcpy(&it->key.tag[3], k->block, sizeof k->block);
        }
        it->dur = k->end - k->start;
        const gs_range *op = launching_op(c, k);
        it->aux = op ? gs_name_map_get(map, op->name) : GS_STR_EMPTY;
        if (it->key.name == GS_STR_ERROR || it->aux == GS_STR_ERROR)
            return -1;
    }
    return 0;
}

int gs_kernel_summary_add(gs_kernel_summary *s, const gs_trace_ctx *c, gs_error *err)
{
    gs_name_map map;
    if (gs_dur_items_reserve(&s->kernels, c->trace->kernels.n) != 0 ||
        gs_name_map_init(&map, &s->names, c->trace, NULL) != 0) {
        gs_kernel_summary_free(s);
        return gs_fail_oom(err);
    }
    int rc = collect(s, c, &map);
    gs_name_map_free(&map);
    if (rc != 0) {
        gs_kernel_summary_free(s);
        return gs_fail_oom(err);
    }
    return 0;
}

int gs_kernel_summary_finish(gs_kernel_summary *s, gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    int rc = make_rows(s, s->kernels.v, s->kernels.n);
    GS_VEC_FREE(&s->kernels);
    if (rc != 0) {
        gs_kernel_summary_free(s);
        return gs_fail_oom(err);
    }
    GS_LOG_TOOK(logged_at, "kernel summary");
    return 0;
}

int gs_kernel_summary_build(const gs_trace_ctx *c, bool by_launch, gs_kernel_summary *out,
                            gs_error *err)
{
    return gs_kernel_summary_init(out, by_launch, err) != 0 ||
                   gs_kernel_summary_add(out, c, err) != 0
               ? -1
               : gs_kernel_summary_finish(out, err);
}

void gs_kernel_summary_free(gs_kernel_summary *s)
{
    free(s->rows);
    free(s->durations);
    gs_strtab_free(&s->names);
    GS_VEC_FREE(&s->kernels);
    memset(s, 0, sizeof *s);
}
