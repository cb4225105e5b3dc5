#include "analysis/pipeline/merge.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"
#include "common/vec.h"

/* ---- what was profiled ---------------------------------------------------------------------- */

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
    for (int k = 0; k < GS_LOSS__COUNT; k++)
        to->lost[k] += c->lost[k];
}

static int merge_devices(const gs_rank_summary *v, size_t n, gs_profile_facts *f)
{
    size_t nd = 0;
    for (size_t i = 0; i < n; i++)
        nd += v[i].ndevices;
    f->devices = gs_array_zeroed(nd, sizeof *f->devices);
    if (!f->devices)
        return -1;
    for (size_t i = 0; i < n; i++)
        for (size_t d = 0; d < v[i].ndevices; d++) {
            gs_device_facts *df = &f->devices[f->ndevices++];
            *df = v[i].devices[d];
            if (!(df->name = gs_profile_facts_own(f, df->name)))
                return -1;
        }
    gs_profile_facts_dedupe_devices(f);
    return 0;
}

int gs_merge_facts(const gs_rank_summary *v, size_t n, gs_profile_facts *f, bool *has_devices)
{
    if (gs_profile_facts_init(f, NULL) != 0)
        return -1;
    f->files = gs_array_zeroed(n, sizeof *f->files);
    if (!f->files)
        return -1;
    f->nfiles = n;
    *has_devices = true;
    for (size_t i = 0; i < n; i++) {
        const gs_rank_summary *s = &v[i];
        f->files[i] = (gs_file_facts){gs_profile_facts_own(f, s->id.path),
                                      gs_profile_facts_own(f, s->format), s->id.rank,
                                      s->id.world_size, s->span, s->steps.n,
                                      (uint8_t)s->steps.source};
        if (!f->files[i].path || !f->files[i].format)
            return -1;
        memcpy(f->files[i].lost, s->events.lost, sizeof f->files[i].lost);
        f->files[i].tracing_cost = s->has_tracing_cost ? s->tracing_cost_ns : -1;
        if (s->has_startup)
            f->files[i].startup = s->startup;
        f->files[i].has_graphs = s->has_graphs;
        f->files[i].graphs = s->inputs.graphs;
        f->nranks += i == 0 || s->id.rank != v[i - 1].id.rank;
        f->world_size = s->id.world_size > f->world_size ? s->id.world_size : f->world_size;
        f->span = s->span > f->span ? s->span : f->span;
        f->steps = s->profiler_steps > f->steps ? s->profiler_steps : f->steps;
        add_counts(&f->events, &s->events);
        *has_devices &= s->has_devices;
    }
    return *has_devices ? merge_devices(v, n, f) : 0;
}

/* ---- stragglers and communication ---------------------------------------------------------- */

int gs_merge_stragglers(const gs_rank_summary *v, size_t n, bool align, gs_stragglers *out,
                        gs_error *err)
{
    gs_strag_input *in = gs_array_new(n, sizeof *in);
    if (!in)
        return gs_fail_oom(err);
    for (size_t i = 0; i < n; i++)
        in[i] = (gs_strag_input){&v[i].id, &v[i].coll, &v[i].steps, v[i].compute_ns};
    int rc = gs_stragglers_from(in, n, align, out, err);
    free(in);
    return rc;
}

int gs_merge_comm(const gs_rank_summary *v, size_t n, gs_comm *c)
{
    memset(c, 0, sizeof *c);
    size_t nk = 0, ns = 0;
    for (size_t i = 0; i < n; i++) {
        nk += v[i].nkinds;
        ns += v[i].ncomm_steps;
    }
    c->ranks = gs_array_new(n, sizeof *c->ranks);
    c->kinds = gs_array_new(nk, sizeof *c->kinds);
    c->steps = gs_array_new(ns, sizeof *c->steps);
    if (!c->ranks || !c->kinds || !c->steps)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const gs_rank_summary *s = &v[i];
        c->ranks[c->nranks] = s->comm;
        if (!(c->ranks[c->nranks].path = strdup(s->id.path)))
            return -1;
        c->nranks++;
        if (s->nkinds)
            memcpy(c->kinds + c->nkinds, s->kinds, s->nkinds * sizeof *c->kinds);
        if (s->ncomm_steps)
            memcpy(c->steps + c->nsteps, s->comm_steps, s->ncomm_steps * sizeof *c->steps);
        c->nkinds += s->nkinds;
        c->nsteps += s->ncomm_steps;
    }
    return 0;
}

/* ---- idle gaps ------------------------------------------------------------------------------ */

static gs_ns gap_length(const gs_gap *g)
{
    return g->end - g->start;
}

/* Each rank kept its longest, so the longest across ranks are among them. Ties go to the earlier
 * rank, then the earlier gap, as the idle analysis orders a profile's: the ranks' gaps are
 * gathered in rank order, each rank's longest first, and sorted by length stably. */
int gs_merge_gaps(const gs_rank_summary *v, size_t n, gs_idle *idle, bool *has_gaps)
{
    memset(idle, 0, sizeof *idle);
    if (gs_strtab_init(&idle->names) != 0)
        return -1;
    *has_gaps = true;
    size_t ng = 0;
    for (size_t i = 0; i < n; i++) {
        ng += v[i].ngaps;
        *has_gaps &= v[i].has_gaps;
    }
    if (!*has_gaps)
        return 0;
    idle->gaps = gs_array_zeroed(ng, sizeof *idle->gaps);
    if (!idle->gaps)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (v[i].ngaps)
            memcpy(idle->gaps + idle->ngaps, v[i].gaps, v[i].ngaps * sizeof *v[i].gaps);
        idle->ngaps += v[i].ngaps;
        idle->gaps_worth_listing += v[i].gaps_worth_listing;
    }
    for (size_t i = 1; i < idle->ngaps; i++) /* insertion sort: stable, and a few dozen gaps */
        for (size_t j = i; j > 0 && gap_length(&idle->gaps[j - 1]) < gap_length(&idle->gaps[j]);
             j--) {
            gs_gap t = idle->gaps[j];
            idle->gaps[j] = idle->gaps[j - 1];
            idle->gaps[j - 1] = t;
        }
    if (idle->ngaps > GS_RANK_GAPS)
        idle->ngaps = GS_RANK_GAPS;
    for (size_t i = 0; i < idle->ngaps; i++)
        if (gs_gap_keep_names(&idle->gaps[i], &idle->names) != 0)
            return -1;
    return 0;
}

/* ---- operators ------------------------------------------------------------------------------ */

static int cmp_op_name(const void *pa, const void *pb)
{
    return strcmp(((const gs_op_row *)pa)->name, ((const gs_op_row *)pb)->name);
}

/* The operator view's order: CUDA total desc when there is GPU work, else CPU total desc; then
 * name. qsort has no context, hence two comparators. */
static int cmp_names(const gs_op_row *a, const gs_op_row *b, gs_ns ka, gs_ns kb)
{
    if (ka != kb)
        return ka > kb ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int cmp_op_cuda(const void *pa, const void *pb)
{
    const gs_op_row *a = pa, *b = pb;
    return cmp_names(a, b, a->cuda_total, b->cuda_total);
}

static int cmp_op_cpu(const void *pa, const void *pb)
{
    const gs_op_row *a = pa, *b = pb;
    return cmp_names(a, b, a->cpu_total, b->cpu_total);
}

int gs_merge_ops(const gs_rank_summary *v, size_t n, gs_op_summary *o)
{
    memset(o, 0, sizeof *o);
    if (gs_strtab_init(&o->names) != 0)
        return -1;
    size_t nr = 0;
    for (size_t i = 0; i < n; i++) {
        nr += v[i].nops;
        o->has_gpu |= v[i].ops_gpu;
        o->cpu_base += v[i].ops_cpu;
    }
    gs_op_row *all = gs_array_new(nr, sizeof *all);
    if (!all)
        return -1;
    nr = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < v[i].nops; k++) {
            const gs_sum_op *s = &v[i].ops[k];
            all[nr++] = (gs_op_row){.name = s->name, .calls = s->calls, .self_cpu = s->self_cpu,
                                    .cpu_total = s->cpu_total, .self_cuda = s->self_cuda,
                                    .cuda_total = s->cuda_total};
        }
    qsort(all, nr, sizeof *all, cmp_op_name);
    for (size_t i = 0; i < nr; i++) {
        gs_op_row *to = &all[o->nrows], *r = &all[i];
        if (o->nrows && strcmp(to[-1].name, r->name) == 0) {
            to[-1].calls += r->calls;
            to[-1].self_cpu += r->self_cpu;
            to[-1].cpu_total += r->cpu_total;
            to[-1].self_cuda += r->self_cuda;
            to[-1].cuda_total += r->cuda_total;
        } else {
            *to = *r;
            o->nrows++;
        }
    }
    qsort(all, o->nrows, sizeof *all, o->has_gpu ? cmp_op_cuda : cmp_op_cpu);
    o->rows = all;
    for (size_t i = 0; i < o->nrows; i++)
        if (gs_strtab_keep(&o->names, &all[i].name) != 0)
            return -1;
    return 0;
}
