#include "analysis/trace/memcpy_summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/dur_groups.h"
#include "analysis/base/window.h"
#include "common/log.h"

enum { TAG_KIND, TAG_SRC, TAG_DST };

void gs_memcpy_label(char *buf, size_t size, enum gs_memop_kind kind, enum gs_mem_loc src,
                     enum gs_mem_loc dst)
{
    const char *k = gs_memop_kind_name(kind);
    const char *s = gs_mem_loc_name(src), *d = gs_mem_loc_name(dst);
    if (src != GS_LOC_UNKNOWN && dst != GS_LOC_UNKNOWN)
        snprintf(buf, size, "%s (%s -> %s)", k, s, d);
    else if (src != GS_LOC_UNKNOWN || dst != GS_LOC_UNKNOWN) /* a memset has one side */
        snprintf(buf, size, "%s (%s)", k, src != GS_LOC_UNKNOWN ? s : d);
    else
        snprintf(buf, size, "%s", k);
}

static int cmp_row(const void *pa, const void *pb)
{
    const gs_memcpy_row *a = pa, *b = pb;
    if (a->time.total != b->time.total)
        return a->time.total > b->time.total ? -1 : 1;
    if (a->time.count != b->time.count)
        return a->time.count < b->time.count ? -1 : 1;
    return strcmp(a->operation, b->operation);
}

/* The copies and sets of the selected traces inside their windows: how many, and with items
 * one item each. SIZE_MAX when a window cannot be built (out of memory). */
static size_t collect(const gs_profile *p, const gs_select *sel, gs_dur_item *items)
{
    size_t n = 0;
    for (size_t t = 0; t < p->traces.n; t++) {
        const gs_trace *tr = p->traces.v[t];
        if (!gs_selected(sel, tr))
            continue;
        gs_window w;
        if (gs_window_build(tr, sel, &w, NULL) != 0)
            return SIZE_MAX;
        for (size_t i = 0; i < tr->memops.n; i++) {
            const gs_memop *m = &tr->memops.v[i];
            if (!gs_window_holds_gpu(&w, tr, m->start, m->api))
                continue;
            if (items) {
                gs_dur_item *it = &items[n];
                memset(it, 0, sizeof *it);
                it->key.tag[TAG_KIND] = m->kind;
                it->key.tag[TAG_SRC] = m->src;
                it->key.tag[TAG_DST] = m->dst;
                it->dur = m->end - m->start;
                it->amount = (int64_t)m->bytes;
            }
            n++;
        }
        gs_window_free(&w);
    }
    return n;
}

void gs_memcpy_rows_sort(gs_memcpy_row *rows, size_t n)
{
    if (n > 1)
        qsort(rows, n, sizeof *rows, cmp_row);
}

gs_memcpy_row gs_memcpy_row_make(uint8_t kind, uint8_t src, uint8_t dst, gs_dur_stats time,
                                 uint64_t bytes, double time_pct)
{
    gs_memcpy_row row = {
        .kind = kind, .src = src, .dst = dst, .time = time, .bytes = bytes, .time_pct = time_pct,
    };
    gs_memcpy_label(row.operation, sizeof row.operation, row.kind, row.src, row.dst);
    row.bandwidth_gbps = row.time.total > 0 ? (double)row.bytes / (double)row.time.total : 0;
    row.pageable = row.src == GS_LOC_PAGEABLE || row.dst == GS_LOC_PAGEABLE;
    return row;
}

static gs_memcpy_row make_row(const gs_dur_group *g)
{
    return gs_memcpy_row_make((uint8_t)g->key.tag[TAG_KIND], (uint8_t)g->key.tag[TAG_SRC],
                              (uint8_t)g->key.tag[TAG_DST], g->time, (uint64_t)g->amount,
                              g->time_pct);
}

int gs_memcpy_summary_build(const gs_profile *p, const gs_select *sel, gs_memcpy_summary *out,
                            gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    memset(out, 0, sizeof *out);
    size_t n = collect(p, sel, NULL);
    gs_dur_item *items = n != SIZE_MAX ? malloc((n ? n : 1) * sizeof *items) : NULL;
    if (!items || collect(p, sel, items) == SIZE_MAX) {
        free(items);
        return gs_fail_oom(err);
    }
    gs_dur_group *groups;
    size_t ngroups;
    int rc = gs_dur_groups(items, n, &groups, &ngroups);
    out->rows = rc == 0 ? calloc(ngroups ? ngroups : 1, sizeof *out->rows) : NULL;
    out->durations = rc == 0 ? malloc((n ? n : 1) * sizeof *out->durations) : NULL;
    if (!out->rows || !out->durations) {
        free(items);
        free(groups);
        gs_memcpy_summary_free(out);
        return gs_fail_oom(err);
    }
    for (size_t i = 0; i < n; i++) /* the items are sorted: by group, then duration */
        out->durations[i] = items[i].dur;
    free(items);
    for (size_t g = 0, first = 0; g < ngroups; first += groups[g++].time.count) {
        out->rows[out->nrows] = make_row(&groups[g]);
        out->rows[out->nrows++].first = first;
    }
    free(groups);
    gs_memcpy_rows_sort(out->rows, out->nrows);
    GS_LOG_TOOK(logged_at, "copy summary");
    return 0;
}

void gs_memcpy_summary_free(gs_memcpy_summary *s)
{
    free(s->rows);
    free(s->durations);
    memset(s, 0, sizeof *s);
}
