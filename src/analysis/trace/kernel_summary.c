#include "analysis/trace/kernel_summary.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/dur_groups.h"
#include "analysis/base/names.h"
#include "analysis/base/window.h"
#include "common/log.h"

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
static const gs_range *launching_op(const gs_trace *t, const gs_kernel *k)
{
    for (uint32_t r = k->op; r != GS_NONE && r < t->ranges.n; r = t->ranges.v[r].parent) {
        const gs_range *g = &t->ranges.v[r];
        if (g->kind == GS_RANGE_OP ||
            (g->kind == GS_RANGE_NVTX && !gs_is_profiler_step(gs_trace_str(t, g->name))))
            return g;
    }
    return NULL;
}

static size_t count_kernels(const gs_profile *p, const gs_select *sel)
{
    size_t n = 0;
    for (size_t t = 0; t < p->traces.n; t++)
        if (gs_selected(sel, p->traces.v[t]))
            n += p->traces.v[t]->kernels.n;
    return n;
}

/* One item per kernel of the selected traces inside their windows, keyed by name (and grid,
 * block); *n counts them. */
static int collect(const gs_profile *p, const gs_select *sel, bool by_launch, gs_strtab *names,
                   gs_dur_item *items, size_t *nitems)
{
    size_t n = 0;
    for (size_t t = 0; t < p->traces.n; t++) {
        const gs_trace *tr = p->traces.v[t];
        if (!gs_selected(sel, tr))
            continue;
        gs_name_map map;
        gs_window w;
        if (gs_window_build(tr, sel, &w, NULL) != 0)
            return -1;
        if (gs_name_map_init(&map, names, tr, NULL) != 0) {
            gs_window_free(&w);
            return -1;
        }
        for (size_t i = 0; i < tr->kernels.n; i++) {
            const gs_kernel *k = &tr->kernels.v[i];
            if (!gs_window_holds_gpu(&w, tr, k->start, k->api))
                continue;
            gs_dur_item *it = &items[n++];
            memset(it, 0, sizeof *it);
            it->key.name = gs_name_map_get(&map, k->name);
            if (it->key.name == GS_STR_ERROR) {
                gs_name_map_free(&map);
                gs_window_free(&w);
                return -1;
            }
            if (by_launch) {
                memcpy(&it->key.tag[0], k->grid, sizeof k->grid);
                memcpy(&it->key.tag[3], k->block, sizeof k->block);
            }
            it->dur = k->end - k->start;
            const gs_range *op = launching_op(tr, k);
            it->aux = op ? gs_name_map_get(&map, op->name) : GS_STR_EMPTY;
            if (it->aux == GS_STR_ERROR) {
                gs_name_map_free(&map);
                gs_window_free(&w);
                return -1;
            }
        }
        gs_name_map_free(&map);
        gs_window_free(&w);
    }
    *nitems = n;
    return 0;
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
    s->rows = calloc(ngroups ? ngroups : 1, sizeof *s->rows);
    s->durations = malloc((n ? n : 1) * sizeof *s->durations);
    op_time *buf = malloc((n ? n : 1) * sizeof *buf);
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

int gs_kernel_summary_build(const gs_profile *p, const gs_select *sel, bool by_launch,
                            gs_kernel_summary *out, gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    memset(out, 0, sizeof *out);
    out->by_launch = by_launch;
    if (gs_strtab_init(&out->names) != 0)
        return gs_fail_oom(err);
    size_t n = count_kernels(p, sel);
    gs_dur_item *items = malloc((n ? n : 1) * sizeof *items);
    int rc = items ? collect(p, sel, by_launch, &out->names, items, &n) : -1;
    if (rc == 0)
        rc = make_rows(out, items, n);
    free(items);
    if (rc != 0) {
        gs_kernel_summary_free(out);
        return gs_fail_oom(err);
    }
    GS_LOG_TOOK(logged_at, "kernel summary");
    return 0;
}

void gs_kernel_summary_free(gs_kernel_summary *s)
{
    free(s->rows);
    free(s->durations);
    gs_strtab_free(&s->names);
    memset(s, 0, sizeof *s);
}
