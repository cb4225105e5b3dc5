#include "analysis/base/intervals.h"

#include <stdlib.h>

int gs_spans_add(gs_spans *s, gs_ns start, gs_ns end)
{
    if (end <= start)
        return 0;
    gs_span *sp = GS_VEC_PUSH(s);
    if (!sp)
        return -1;
    sp->start = start;
    sp->end = end;
    return 0;
}

int gs_spans_unite(gs_spans *s, gs_ns start, gs_ns end)
{
    gs_span *last = s->n ? &s->v[s->n - 1] : NULL;
    if (end > start && last && start >= last->start && start <= last->end) {
        last->end = end > last->end ? end : last->end;
        return 0;
    }
    return gs_spans_add(s, start, end);
}

static int cmp_span(const void *pa, const void *pb)
{
    const gs_span *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return (a->end > b->end) - (a->end < b->end);
}

/* Whether the spans are in start order already: most are collected from the model's arrays,
 * which are, and the union below needs no more. */
static bool by_start(const gs_spans *s)
{
    for (size_t i = 1; i < s->n; i++)
        if (s->v[i].start < s->v[i - 1].start)
            return false;
    return true;
}

void gs_spans_merge(gs_spans *s)
{
    if (s->n < 2)
        return;
    if (!by_start(s))
        qsort(s->v, s->n, sizeof *s->v, cmp_span);
    size_t w = 0;
    for (size_t r = 1; r < s->n; r++) {
        if (s->v[r].start <= s->v[w].end) {
            if (s->v[r].end > s->v[w].end)
                s->v[w].end = s->v[r].end;
        } else {
            s->v[++w] = s->v[r];
        }
    }
    s->n = w + 1;
}

gs_ns gs_spans_length(const gs_spans *merged)
{
    gs_ns total = 0;
    for (size_t i = 0; i < merged->n; i++)
        total += merged->v[i].end - merged->v[i].start;
    return total;
}

/* The first interval that ends after t. */
static size_t first_ending_after(const gs_spans *m, gs_ns t)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->v[mid].end <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

gs_ns gs_spans_overlap(const gs_spans *merged, gs_ns start, gs_ns end)
{
    gs_ns total = 0;
    for (size_t i = first_ending_after(merged, start); i < merged->n; i++) {
        const gs_span *s = &merged->v[i];
        if (s->start >= end)
            break;
        gs_ns a = s->start > start ? s->start : start, b = s->end < end ? s->end : end;
        total += b - a;
    }
    return total;
}

int gs_spans_intersect(const gs_spans *a, const gs_spans *b, gs_spans *out)
{
    out->n = 0;
    for (size_t i = 0, j = 0; i < a->n && j < b->n;) {
        gs_ns lo = a->v[i].start > b->v[j].start ? a->v[i].start : b->v[j].start;
        gs_ns hi = a->v[i].end < b->v[j].end ? a->v[i].end : b->v[j].end;
        if (gs_spans_add(out, lo, hi) != 0)
            return -1;
        if (a->v[i].end < b->v[j].end)
            i++;
        else
            j++;
    }
    return 0;
}

int gs_spans_subtract(const gs_spans *a, const gs_spans *b, gs_spans *out)
{
    out->n = 0;
    size_t j = 0;
    for (size_t i = 0; i < a->n; i++) {
        gs_ns cur = a->v[i].start, end = a->v[i].end;
        while (j < b->n && b->v[j].end <= cur)
            j++;
        for (size_t k = j; k < b->n && b->v[k].start < end; k++) {
            if (gs_spans_add(out, cur, b->v[k].start) != 0)
                return -1;
            if (b->v[k].end > cur)
                cur = b->v[k].end;
        }
        if (gs_spans_add(out, cur, end) != 0)
            return -1;
    }
    return 0;
}

void gs_spans_free(gs_spans *s)
{
    GS_VEC_FREE(s);
}
