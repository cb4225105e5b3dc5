/* The kernel and copy tables merged across ranks (merge.h): rows grouped by name (kernels) or
 * by kind and locations (copies), with the medians and deviations of the pooled durations when
 * every rank has its detail. */
#include <stdlib.h>
#include <string.h>

#include "analysis/pipeline/merge.h"
#include "analysis/base/stats.h"
#include "common/util.h"
#include "common/vec.h"

/* One rank's durations of one row, ascending. */
typedef struct dur_part {
    const gs_ns *v;
    size_t n;
} dur_part;

/* The statistics of a row's durations pooled from the ranks, as one trace's would be; scratch
 * holds them all. A single part is sorted already. */
static gs_dur_stats pooled_stats(const dur_part *parts, size_t nparts, gs_ns *scratch)
{
    if (nparts == 1)
        return gs_dur_stats_of_sorted(parts[0].v, parts[0].n);
    size_t n = 0;
    for (size_t i = 0; i < nparts; i++) {
        memcpy(scratch + n, parts[i].v, parts[i].n * sizeof *scratch);
        n += parts[i].n;
    }
    qsort(scratch, n, sizeof *scratch, gs_cmp_i64);
    return gs_dur_stats_of_sorted(scratch, n);
}

/* Count, total, min and max of the rows together (med and stddev stay unknown: 0). */
static void combine(gs_dur_stats *to, uint64_t count, gs_ns total, gs_ns min, gs_ns max)
{
    to->min = to->count == 0 || min < to->min ? min : to->min;
    to->max = to->count == 0 || max > to->max ? max : to->max;
    to->count += count;
    to->total += total;
    to->avg = to->count ? to->total / (gs_ns)to->count : 0;
}

static bool every_detail(const gs_rank_summary *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!v[i].detail)
            return false;
    return n > 0;
}

/* ---- kernels -------------------------------------------------------------------------------- */

typedef struct kernel_part {
    const gs_sum_kernel *k;
    const gs_rank_summary *rank;
    size_t index; /* into the rank's kernels */
} kernel_part;

static int cmp_kernel_part(const void *pa, const void *pb)
{
    const kernel_part *a = pa, *b = pb;
    int c = strcmp(a->k->name, b->k->name);
    return c ? c : a->rank < b->rank ? -1 : a->rank > b->rank;
}

/* The kernel view's order: Total desc, Instances asc, Name asc. */
static int cmp_kernel_row(const void *pa, const void *pb)
{
    const gs_kernel_row *a = pa, *b = pb;
    if (a->time.total != b->time.total)
        return a->time.total > b->time.total ? -1 : 1;
    if (a->time.count != b->time.count)
        return a->time.count < b->time.count ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* The row of one name from its parts, one per rank that ran it. */
static void merge_kernel(const kernel_part *p, size_t np, bool spread, dur_part *durs,
                         gs_ns *scratch, gs_kernel_row *row)
{
    *row = (gs_kernel_row){.name = p[0].k->name};
    for (size_t i = 0; i < np; i++) {
        const gs_sum_kernel *k = p[i].k;
        combine(&row->time, k->count, k->total, k->min, k->max);
        if (spread) {
            const gs_rank_detail *d = p[i].rank->detail;
            durs[i] = (dur_part){d->kernel_durs + d->kernel_first[p[i].index], k->count};
        }
    }
    if (spread)
        row->time = pooled_stats(durs, np, scratch);
}

int gs_merge_kernels(const gs_rank_summary *v, size_t n, gs_kernel_summary *out, bool *spread)
{
    memset(out, 0, sizeof *out);
    if (gs_strtab_init(&out->names) != 0)
        return -1;
    *spread = every_detail(v, n);
    size_t np = 0;
    uint64_t most = 1;
    for (size_t i = 0; i < n; i++)
        np += v[i].nkernels;
    kernel_part *parts = gs_array_new(np, sizeof *parts);
    dur_part *durs = gs_array_new(n, sizeof *durs);
    out->rows = gs_array_zeroed(np, sizeof *out->rows);
    if (!parts || !durs || !out->rows) {
        free(parts);
        free(durs);
        return -1;
    }
    np = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < v[i].nkernels; k++)
            parts[np++] = (kernel_part){&v[i].kernels[k], &v[i], k};
    qsort(parts, np, sizeof *parts, cmp_kernel_part);
    for (size_t a = 0, b; a < np; a = b) {
        uint64_t count = 0;
        for (b = a; b < np && strcmp(parts[a].k->name, parts[b].k->name) == 0; b++)
            count += parts[b].k->count;
        most = count > most ? count : most;
    }
    gs_ns *scratch = *spread && n > 1 ? gs_array_new(most, sizeof *scratch) : NULL;
    int rc = *spread && n > 1 && !scratch ? -1 : 0;
    for (size_t a = 0, b; a < np && rc == 0; a = b) {
        for (b = a; b < np && strcmp(parts[a].k->name, parts[b].k->name) == 0; b++)
            ;
        gs_kernel_row *row = &out->rows[out->nrows++];
        merge_kernel(parts + a, b - a, *spread, durs, scratch, row);
        rc = gs_strtab_keep(&out->names, &row->name);
    }
    for (size_t r = 0; r < out->nrows; r++)
        out->total += out->rows[r].time.total;
    for (size_t r = 0; r < out->nrows; r++)
        out->rows[r].time_pct = gs_percent(out->rows[r].time.total, out->total);
    if (out->nrows > 1)
        qsort(out->rows, out->nrows, sizeof *out->rows, cmp_kernel_row);
    free(scratch);
    free(durs);
    free(parts);
    return rc;
}

/* ---- copies and sets ------------------------------------------------------------------------ */

typedef struct copy_part {
    const gs_memcpy_row *row;
    const gs_rank_summary *rank;
} copy_part;

static int cmp_copy_key(const void *pa, const void *pb)
{
    const gs_memcpy_row *a = ((const copy_part *)pa)->row, *b = ((const copy_part *)pb)->row;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->src != b->src)
        return a->src < b->src ? -1 : 1;
    return a->dst < b->dst ? -1 : a->dst > b->dst;
}

/* Ranks in order within a group, as a sort on the key alone would not keep them. */
static int cmp_copy_part(const void *pa, const void *pb)
{
    int c = cmp_copy_key(pa, pb);
    const gs_rank_summary *a = ((const copy_part *)pa)->rank, *b = ((const copy_part *)pb)->rank;
    return c ? c : a < b ? -1 : a > b;
}

static gs_memcpy_row merge_copy(const copy_part *p, size_t np, bool spread, dur_part *durs,
                                gs_ns *scratch)
{
    gs_dur_stats st = {0};
    uint64_t bytes = 0;
    for (size_t i = 0; i < np; i++) {
        const gs_memcpy_row *r = p[i].row;
        combine(&st, r->time.count, r->time.total, r->time.min, r->time.max);
        bytes += r->bytes;
        if (spread)
            durs[i] = (dur_part){p[i].rank->detail->memcpy_durs + r->first, r->time.count};
    }
    if (spread)
        st = pooled_stats(durs, np, scratch);
    const gs_memcpy_row *r = p[0].row;
    return gs_memcpy_row_make(r->kind, r->src, r->dst, st, bytes, 0);
}

int gs_merge_copies(const gs_rank_summary *v, size_t n, gs_memcpy_summary *out, bool *has_copies,
                    bool *spread)
{
    memset(out, 0, sizeof *out);
    *has_copies = true;
    size_t np = 0, ndurs = 0;
    for (size_t i = 0; i < n; i++) {
        *has_copies &= v[i].has_copies;
        np += v[i].ncopies;
        for (size_t k = 0; k < v[i].ncopies; k++)
            ndurs += v[i].copies[k].time.count;
    }
    *spread = *has_copies && every_detail(v, n);
    if (!*has_copies)
        return 0;
    copy_part *parts = gs_array_new(np, sizeof *parts);
    dur_part *durs = gs_array_new(n, sizeof *durs);
    gs_ns *scratch = *spread && n > 1 ? gs_array_new(ndurs, sizeof *scratch) : NULL;
    out->rows = gs_array_zeroed(np, sizeof *out->rows);
    if (!parts || !durs || !out->rows || (*spread && n > 1 && !scratch)) {
        free(parts);
        free(durs);
        free(scratch);
        return -1;
    }
    np = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < v[i].ncopies; k++)
            parts[np++] = (copy_part){&v[i].copies[k], &v[i]};
    qsort(parts, np, sizeof *parts, cmp_copy_part);
    gs_ns total = 0;
    for (size_t a = 0, b; a < np; a = b) {
        for (b = a; b < np && cmp_copy_key(&parts[a], &parts[b]) == 0; b++)
            ;
        out->rows[out->nrows] = merge_copy(parts + a, b - a, *spread, durs, scratch);
        total += out->rows[out->nrows++].time.total;
    }
    for (size_t r = 0; r < out->nrows; r++) /* as the groups' share of all copies' time */
        out->rows[r].time_pct = gs_percent(out->rows[r].time.total, total);
    gs_memcpy_rows_sort(out->rows, out->nrows);
    free(scratch);
    free(durs);
    free(parts);
    return 0;
}
