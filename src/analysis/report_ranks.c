#include "analysis/report_ranks.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"

/* The kernel summary's order (nsys: Total desc, Instances asc, Name asc), so the merged table
 * lists the rows the trace report lists, in the same order. */
static int cmp_kernel_row(const void *pa, const void *pb)
{
    const gs_kernel_row *a = pa, *b = pb;
    if (a->time.total != b->time.total)
        return a->time.total > b->time.total ? -1 : 1;
    if (a->time.count != b->time.count)
        return a->time.count < b->time.count ? -1 : 1;
    return strcmp(a->name, b->name);
}

static void kernels(const gs_merged_report *m, gs_kernel_summary *k)
{
    for (size_t i = 0; i < m->nkernels; i++) {
        const gs_sum_kernel *s = &m->kernels[i];
        gs_kernel_row *row = &k->rows[k->nrows++];
        row->name = s->name;
        row->time = (gs_dur_stats){.count = s->count, .total = s->total,
                                   .avg = s->count ? s->total / (gs_ns)s->count : 0,
                                   .min = s->min, .max = s->max};
        row->time_pct = gs_percent(s->total, m->kernels_total);
        k->total += s->total;
    }
    if (k->nrows > 1)
        qsort(k->rows, k->nrows, sizeof *k->rows, cmp_kernel_row);
}

static void ops(const gs_merged_report *m, gs_op_summary *o)
{
    o->has_gpu = m->ops_gpu;
    for (size_t i = 0; i < m->nops; i++) {
        const gs_sum_op *s = &m->ops[i];
        o->rows[o->nrows++] = (gs_op_row){.name = s->name, .calls = s->calls,
                                          .self_cpu = s->self_cpu, .cpu_total = s->cpu_total,
                                          .self_cuda = s->self_cuda,
                                          .cuda_total = s->cuda_total};
    }
}

/* One rank's file line, breakdown, GPU time and verdict. */
static void rank(const gs_merged_report *m, size_t i, gs_report *r)
{
    gs_rank_summary *s = &m->ranks[i];
    r->facts.files[i] = (gs_file_facts){s->id.path, s->format,       s->id.rank,
                                        s->id.world_size, s->span, s->profiler_steps};
    gs_bd_trace *b = &r->breakdown.v[i];
    b->trace = &s->id;
    b->rank = s->id.rank;
    b->steps = s->steps;
    b->nkept = s->nkept;
    b->avg_total_ns = s->avg_total_ns;
    for (int c = 0; c < GS_BD__COUNT; c++) {
        b->avg_ns[c] = s->avg_ns[c];
        b->avg_pct[c] = b->avg_total_ns > 0 ? b->avg_ns[c] * 100.0 / b->avg_total_ns : 0;
    }
    b->gpu = s->gpu;
    r->temporal.rows[i] = s->temporal;
    r->ranks[i] = (gs_report_rank){b, s->inputs, m->diagnosis[i]};
}

/* ---- exact tables from the ranks' detail (rank_detail.h) ---------------------------------- */

static int cmp_ns(const void *pa, const void *pb)
{
    gs_ns a = *(const gs_ns *)pa, b = *(const gs_ns *)pb;
    return a < b ? -1 : a > b;
}

/* The statistics of n durations gathered from several ranks, as one trace's would be. */
static gs_dur_stats stats_of(gs_ns *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_ns);
    return gs_dur_stats_of_sorted(v, n);
}

/* Index of the kernel named `name` among a rank's, or -1 (a linear search: a rank has a few
 * hundred kernel names at most, and it runs once per name and rank). */
static long find_kernel(const gs_rank_summary *s, const char *name)
{
    for (size_t j = 0; j < s->nkernels; j++)
        if (strcmp(s->kernels[j].name, name) == 0)
            return (long)j;
    return -1;
}

/* Every merged kernel's median and deviation from the durations of all ranks. */
static int exact_kernels(const gs_merged_report *m, gs_kernel_summary *k)
{
    uint64_t most = 1;
    for (size_t r = 0; r < k->nrows; r++)
        most = k->rows[r].time.count > most ? k->rows[r].time.count : most;
    gs_ns *v = malloc(most * sizeof *v);
    if (!v)
        return -1;
    for (size_t r = 0; r < k->nrows; r++) {
        size_t n = 0;
        for (size_t i = 0; i < m->n; i++) {
            const gs_rank_summary *s = &m->ranks[i];
            long j = find_kernel(s, k->rows[r].name);
            if (j < 0)
                continue;
            memcpy(v + n, s->detail->kernel_durs + s->detail->kernel_first[j],
                   s->kernels[j].count * sizeof *v);
            n += s->kernels[j].count;
        }
        k->rows[r].time = stats_of(v, n);
    }
    free(v);
    return 0;
}

/* One rank's row of the copies table, with that rank's durations. */
typedef struct memcpy_part {
    const gs_memcpy_row *row;
    const gs_ns *durs;
} memcpy_part;

static int cmp_memcpy_key(const void *pa, const void *pb)
{
    const gs_memcpy_row *a = ((const memcpy_part *)pa)->row, *b = ((const memcpy_part *)pb)->row;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->src != b->src)
        return a->src < b->src ? -1 : 1;
    return a->dst < b->dst ? -1 : a->dst > b->dst;
}

/* The copies table: the ranks' rows grouped by kind and locations, their durations pooled. */
static int exact_memcpy(const gs_merged_report *m, gs_memcpy_summary *out)
{
    size_t nparts = 0, ndurs = 0;
    for (size_t i = 0; i < m->n; i++)
        nparts += m->ranks[i].detail->nmemcpy;
    memcpy_part *parts = malloc((nparts ? nparts : 1) * sizeof *parts);
    out->rows = calloc(nparts ? nparts : 1, sizeof *out->rows);
    if (!parts || !out->rows) {
        free(parts);
        return -1;
    }
    nparts = 0;
    for (size_t i = 0; i < m->n; i++) {
        const gs_rank_detail *d = m->ranks[i].detail;
        for (size_t j = 0; j < d->nmemcpy; j++) {
            parts[nparts++] = (memcpy_part){&d->memcpy[j], d->memcpy_durs + d->memcpy[j].first};
            ndurs += d->memcpy[j].time.count;
        }
    }
    gs_ns *v = malloc((ndurs ? ndurs : 1) * sizeof *v);
    if (!v) {
        free(parts);
        return -1;
    }
    qsort(parts, nparts, sizeof *parts, cmp_memcpy_key);
    gs_ns total = 0;
    for (size_t a = 0; a < nparts;) {
        size_t b = a, n = 0;
        uint64_t bytes = 0;
        for (; b < nparts && cmp_memcpy_key(&parts[a], &parts[b]) == 0; b++) {
            memcpy(v + n, parts[b].durs, parts[b].row->time.count * sizeof *v);
            n += parts[b].row->time.count;
            bytes += parts[b].row->bytes;
        }
        const gs_memcpy_row *r = parts[a].row;
        gs_dur_stats st = stats_of(v, n);
        out->rows[out->nrows++] = gs_memcpy_row_make(r->kind, r->src, r->dst, st, bytes, 0);
        total += st.total;
        a = b;
    }
    for (size_t r = 0; r < out->nrows; r++) /* as the groups' share of all copies' time */
        out->rows[r].time_pct = gs_percent(out->rows[r].time.total, total);
    gs_memcpy_rows_sort(out->rows, out->nrows);
    free(v);
    free(parts);
    return 0;
}

static int cmp_gap(const void *pa, const void *pb)
{
    const gs_gap *a = pa, *b = pb;
    gs_ns la = a->end - a->start, lb = b->end - b->start;
    if (la != lb)
        return la > lb ? -1 : 1;
    return 0;
}

/* The longest gaps across ranks: each rank kept its longest, so they are among those. Ties go
 * to the earlier rank, then the earlier gap, as the idle analysis orders a profile's. */
static int exact_gaps(const gs_merged_report *m, gs_idle *idle)
{
    size_t n = 0;
    for (size_t i = 0; i < m->n; i++)
        n += m->ranks[i].detail->ngaps;
    idle->gaps = calloc(n ? n : 1, sizeof *idle->gaps);
    if (!idle->gaps)
        return -1;
    for (size_t i = 0; i < m->n; i++) {
        const gs_rank_detail *d = m->ranks[i].detail;
        if (d->ngaps)
            memcpy(idle->gaps + idle->ngaps, d->gaps, d->ngaps * sizeof *d->gaps);
        idle->ngaps += d->ngaps;
        idle->gaps_worth_listing += d->gaps_worth_listing;
    }
    /* in rank order, each rank's longest first: a stable sort by length keeps ties in order */
    for (size_t i = 1; i < idle->ngaps; i++)
        for (size_t j = i; j > 0 && cmp_gap(&idle->gaps[j - 1], &idle->gaps[j]) > 0; j--) {
            gs_gap t = idle->gaps[j];
            idle->gaps[j] = idle->gaps[j - 1];
            idle->gaps[j - 1] = t;
        }
    if (idle->ngaps > GS_RANK_DETAIL_GAPS)
        idle->ngaps = GS_RANK_DETAIL_GAPS;
    return 0;
}

static int exact_devices(const gs_merged_report *m, gs_profile_facts *f)
{
    size_t n = 0;
    for (size_t i = 0; i < m->n; i++)
        n += m->ranks[i].detail->ndevices;
    f->devices = calloc(n ? n : 1, sizeof *f->devices);
    if (!f->devices)
        return -1;
    for (size_t i = 0; i < m->n; i++) {
        const gs_rank_detail *d = m->ranks[i].detail;
        if (d->ndevices)
            memcpy(f->devices + f->ndevices, d->devices, d->ndevices * sizeof *d->devices);
        f->ndevices += d->ndevices;
    }
    gs_profile_facts_dedupe_devices(f);
    return 0;
}

/* With every rank's detail, what summaries alone leave out: the report is then the one on the
 * traces. */
static int exact(const gs_merged_report *m, gs_report *out)
{
    for (size_t i = 0; i < m->n; i++)
        if (!m->ranks[i].detail)
            return 0;
    if (m->n == 0)
        return 0;
    if (exact_devices(m, &out->facts) != 0 || exact_gaps(m, &out->idle) != 0 ||
        exact_kernels(m, &out->kernels) != 0 || exact_memcpy(m, &out->memcpy) != 0)
        return -1;
    out->from_summaries = false;
    return 0;
}

int gs_report_from_ranks(const gs_merged_report *m, gs_report *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    out->from_summaries = true;
    size_t n = m->n ? m->n : 1;
    out->facts.files = calloc(n, sizeof *out->facts.files);
    out->breakdown.v = calloc(n, sizeof *out->breakdown.v);
    out->temporal.rows = calloc(n, sizeof *out->temporal.rows);
    out->ranks = calloc(n, sizeof *out->ranks);
    out->kernels.rows = calloc(m->nkernels ? m->nkernels : 1, sizeof *out->kernels.rows);
    out->ops.rows = calloc(m->nops ? m->nops : 1, sizeof *out->ops.rows);
    if (!out->facts.files || !out->breakdown.v || !out->temporal.rows || !out->ranks ||
        !out->kernels.rows || !out->ops.rows) {
        gs_report_from_ranks_free(out);
        return gs_fail_oom(err);
    }
    gs_profile_facts *f = &out->facts;
    f->nfiles = m->n;
    f->nranks = m->distinct_ranks;
    f->world_size = m->world_size;
    f->span = m->span;
    f->steps = m->profiler_steps;
    f->events = m->events;
    for (size_t i = 0; i < m->n; i++)
        rank(m, i, out);
    out->breakdown.n = out->temporal.nrows = out->nranks = m->n;
    out->comm = m->comm;
    kernels(m, &out->kernels);
    ops(m, &out->ops);
    if (exact(m, out) != 0) {
        gs_report_from_ranks_free(out);
        return gs_fail_oom(err);
    }
    return 0;
}

void gs_report_from_ranks_free(gs_report *r)
{
    free(r->facts.files);
    free(r->facts.devices);
    free(r->idle.gaps);
    free(r->memcpy.rows);
    free(r->breakdown.v);
    free(r->temporal.rows);
    free(r->ranks);
    free(r->kernels.rows);
    free(r->ops.rows);
    memset(r, 0, sizeof *r);
}
