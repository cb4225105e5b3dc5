#include "analysis/ranks/merge.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/diag_inputs.h"

static int cmp_summary(const void *pa, const void *pb)
{
    const gs_rank_summary *a = pa, *b = pb;
    if (a->id.rank != b->id.rank)
        return a->id.rank < b->id.rank ? -1 : 1;
    return strcmp(a->id.path, b->id.path);
}

void gs_rank_summaries_sort(gs_rank_summary *ranks, size_t n)
{
    if (n > 1)
        qsort(ranks, n, sizeof *ranks, cmp_summary);
    /* the stub traces moved: what pointed at their paths points at them again */
    for (size_t i = 0; i < n; i++)
        ranks[i].comm.path = ranks[i].temporal.path = ranks[i].id.path;
}

static void add_counts(gs_event_counts *to, const gs_event_counts *c)
{
    to->kernels += c->kernels;
    to->memcpys += c->memcpys;
    to->memsets += c->memsets;
    to->gpu_syncs += c->gpu_syncs;
    to->api_calls += c->api_calls;
    for (int k = 0; k < GS_RANGE__COUNT; k++)
        to->ranges[k] += c->ranges[k];
    to->instants += c->instants;
    to->memory_events += c->memory_events;
    to->counters += c->counters;
}

static void facts(gs_merged_report *m)
{
    for (size_t i = 0; i < m->n; i++) {
        const gs_rank_summary *s = &m->ranks[i];
        m->distinct_ranks += i == 0 || s->id.rank != m->ranks[i - 1].id.rank;
        m->world_size = s->id.world_size > m->world_size ? s->id.world_size : m->world_size;
        m->span = s->span > m->span ? s->span : m->span;
        m->profiler_steps =
            s->profiler_steps > m->profiler_steps ? s->profiler_steps : m->profiler_steps;
        add_counts(&m->events, &s->events);
    }
}

static int cmp_kernel_name(const void *pa, const void *pb)
{
    return strcmp(((const gs_sum_kernel *)pa)->name, ((const gs_sum_kernel *)pb)->name);
}

static int cmp_kernel_total(const void *pa, const void *pb)
{
    const gs_sum_kernel *a = pa, *b = pb;
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int merge_kernels(gs_merged_report *m)
{
    size_t n = 0;
    for (size_t i = 0; i < m->n; i++)
        n += m->ranks[i].nkernels;
    m->kernels = malloc((n ? n : 1) * sizeof *m->kernels);
    if (!m->kernels)
        return -1;
    n = 0;
    for (size_t i = 0; i < m->n; i++)
        for (size_t k = 0; k < m->ranks[i].nkernels; k++)
            m->kernels[n++] = m->ranks[i].kernels[k];
    qsort(m->kernels, n, sizeof *m->kernels, cmp_kernel_name);
    for (size_t i = 0; i < n; i++) {
        gs_sum_kernel *to = &m->kernels[m->nkernels], *k = &m->kernels[i];
        if (m->nkernels && strcmp(to[-1].name, k->name) == 0) {
            to[-1].count += k->count;
            to[-1].total += k->total;
            to[-1].min = k->min < to[-1].min ? k->min : to[-1].min;
            to[-1].max = k->max > to[-1].max ? k->max : to[-1].max;
        } else {
            *to = *k;
            m->nkernels++;
        }
        m->kernels_total += k->total;
    }
    qsort(m->kernels, m->nkernels, sizeof *m->kernels, cmp_kernel_total);
    return 0;
}

static bool ops_by_gpu; /* qsort has no context: the order key, set just before the sort */

static int cmp_op_name(const void *pa, const void *pb)
{
    return strcmp(((const gs_sum_op *)pa)->name, ((const gs_sum_op *)pb)->name);
}

static int cmp_op_total(const void *pa, const void *pb)
{
    const gs_sum_op *a = pa, *b = pb;
    gs_ns ka = ops_by_gpu ? a->cuda_total : a->cpu_total;
    gs_ns kb = ops_by_gpu ? b->cuda_total : b->cpu_total;
    if (ka != kb)
        return ka > kb ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int merge_ops(gs_merged_report *m)
{
    size_t n = 0;
    for (size_t i = 0; i < m->n; i++) {
        n += m->ranks[i].nops;
        m->ops_gpu |= m->ranks[i].ops_gpu;
    }
    m->ops = malloc((n ? n : 1) * sizeof *m->ops);
    if (!m->ops)
        return -1;
    n = 0;
    for (size_t i = 0; i < m->n; i++)
        for (size_t k = 0; k < m->ranks[i].nops; k++)
            m->ops[n++] = m->ranks[i].ops[k];
    qsort(m->ops, n, sizeof *m->ops, cmp_op_name);
    for (size_t i = 0; i < n; i++) {
        gs_sum_op *to = &m->ops[m->nops], *o = &m->ops[i];
        if (m->nops && strcmp(to[-1].name, o->name) == 0) {
            to[-1].calls += o->calls;
            to[-1].self_cpu += o->self_cpu;
            to[-1].cpu_total += o->cpu_total;
            to[-1].self_cuda += o->self_cuda;
            to[-1].cuda_total += o->cuda_total;
        } else {
            *to = *o;
            m->nops++;
        }
    }
    ops_by_gpu = m->ops_gpu;
    qsort(m->ops, m->nops, sizeof *m->ops, cmp_op_total);
    return 0;
}

static int merge_comm(gs_merged_report *m)
{
    size_t nk = 0, ns = 0;
    for (size_t i = 0; i < m->n; i++) {
        nk += m->ranks[i].nkinds;
        ns += m->ranks[i].ncomm_steps;
    }
    gs_comm *c = &m->comm;
    c->ranks = malloc((m->n ? m->n : 1) * sizeof *c->ranks);
    c->kinds = malloc((nk ? nk : 1) * sizeof *c->kinds);
    c->steps = malloc((ns ? ns : 1) * sizeof *c->steps);
    if (!c->ranks || !c->kinds || !c->steps)
        return -1;
    for (size_t i = 0; i < m->n; i++) {
        const gs_rank_summary *s = &m->ranks[i];
        c->ranks[c->nranks++] = s->comm;
        if (s->nkinds)
            memcpy(c->kinds + c->nkinds, s->kinds, s->nkinds * sizeof *c->kinds);
        if (s->ncomm_steps)
            memcpy(c->steps + c->nsteps, s->comm_steps, s->ncomm_steps * sizeof *c->steps);
        c->nkinds += s->nkinds;
        c->nsteps += s->ncomm_steps;
    }
    return 0;
}

/* One rank too, as gs_stragglers_build on one trace: its row, with nothing to compare. */
static int stragglers(gs_merged_report *m, bool align, gs_error *err)
{
    gs_strag_input *in = malloc((m->n ? m->n : 1) * sizeof *in);
    if (!in)
        return gs_fail_oom(err);
    for (size_t i = 0; i < m->n; i++)
        in[i] = (gs_strag_input){&m->ranks[i].id, &m->ranks[i].coll, &m->ranks[i].steps,
                                 m->ranks[i].compute_ns};
    int rc = gs_stragglers_from(in, m->n, align, &m->stragglers, err);
    free(in);
    return rc;
}

int gs_merge_ranks(gs_rank_summary *ranks, size_t n, bool align, gs_merged_report *out,
                   gs_error *err)
{
    memset(out, 0, sizeof *out);
    out->ranks = ranks;
    out->n = n;
    facts(out);
    if (stragglers(out, align, err) != 0) {
        gs_merged_report_free(out);
        return -1;
    }
    out->diagnosis = calloc(n ? n : 1, sizeof *out->diagnosis);
    int rc = out->diagnosis ? 0 : -1;
    for (size_t i = 0; i < n && rc == 0; i++) {
        gs_diag_straggler_inputs(&ranks[i].id, n > 1 ? &out->stragglers : NULL,
                                 &ranks[i].inputs);
        rc = gs_diagnose(&ranks[i].inputs, &out->diagnosis[i]);
    }
    if (rc != 0 || merge_kernels(out) != 0 || merge_ops(out) != 0 || merge_comm(out) != 0) {
        gs_merged_report_free(out);
        return gs_fail_oom(err);
    }
    return 0;
}

void gs_merged_report_free(gs_merged_report *m)
{
    for (size_t i = 0; m->diagnosis && i < m->n; i++)
        gs_diagnosis_free(&m->diagnosis[i]);
    free(m->diagnosis);
    gs_stragglers_free(&m->stragglers);
    free(m->comm.ranks);
    free(m->comm.kinds);
    free(m->comm.steps);
    free(m->kernels);
    free(m->ops);
    memset(m, 0, sizeof *m);
}
