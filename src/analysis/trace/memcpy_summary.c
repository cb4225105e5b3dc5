#include "analysis/trace/memcpy_summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/vec.h"

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

int gs_memcpy_summary_add(gs_memcpy_summary *s, const gs_trace_ctx *c, gs_error *err)
{
    const gs_trace *t = c->trace;
    if (gs_dur_items_reserve(&s->ops, t->memops.n) != 0) {
        gs_memcpy_summary_free(s);
        return gs_fail_oom(err);
    }
    for (size_t i = 0; i < t->memops.n; i++) {
        const gs_memop *m = &t->memops.v[i];
        if (!gs_window_holds_gpu(&c->window, t, m->start, m->api))
            continue;
        gs_dur_item *it = GS_VEC_PUSH(&s->ops);
        it->key.tag[TAG_KIND] = m->kind;
        it->key.tag[TAG_SRC] = m->src;
        it->key.tag[TAG_DST] = m->dst;
        it->dur = m->end - m->start;
        it->amount = (int64_t)m->bytes;
    }
    return 0;
}

int gs_memcpy_summary_finish(gs_memcpy_summary *s, gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    gs_dur_item *items = s->ops.v;
    size_t n = s->ops.n;
    gs_dur_group *groups;
    size_t ngroups;
    int rc = gs_dur_groups(items, n, &groups, &ngroups);
    s->rows = rc == 0 ? gs_array_zeroed(ngroups, sizeof *s->rows) : NULL;
    s->durations = rc == 0 ? gs_array_new(n, sizeof *s->durations) : NULL;
    if (!s->rows || !s->durations) {
        free(groups);
        gs_memcpy_summary_free(s);
        return gs_fail_oom(err);
    }
    for (size_t i = 0; i < n; i++) /* the items are sorted: by group, then duration */
        s->durations[i] = items[i].dur;
    GS_VEC_FREE(&s->ops);
    for (size_t g = 0, first = 0; g < ngroups; first += groups[g++].time.count) {
        s->rows[s->nrows] = make_row(&groups[g]);
        s->rows[s->nrows++].first = first;
    }
    free(groups);
    gs_memcpy_rows_sort(s->rows, s->nrows);
    GS_LOG_TOOK(logged_at, "copy summary");
    return 0;
}

int gs_memcpy_summary_build(const gs_trace_ctx *c, gs_memcpy_summary *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    return gs_memcpy_summary_add(out, c, err) != 0 ? -1 : gs_memcpy_summary_finish(out, err);
}

void gs_memcpy_summary_free(gs_memcpy_summary *s)
{
    free(s->rows);
    free(s->durations);
    GS_VEC_FREE(&s->ops);
    memset(s, 0, sizeof *s);
}
