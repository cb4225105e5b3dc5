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
    return 0;
}

void gs_report_from_ranks_free(gs_report *r)
{
    free(r->facts.files);
    free(r->breakdown.v);
    free(r->temporal.rows);
    free(r->ranks);
    free(r->kernels.rows);
    free(r->ops.rows);
    memset(r, 0, sizeof *r);
}
