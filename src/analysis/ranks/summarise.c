#include "analysis/ranks/summarise.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"
#include "analysis/straggler.h"

static char *dup_str(const char *s)
{
    return strdup(s ? s : "");
}

static int copy_gpu(const gs_gpu_metrics *from, gs_gpu_metrics *to)
{
    *to = *from;
    to->v = malloc((from->n ? from->n : 1) * sizeof *to->v);
    if (!to->v)
        return -1;
    if (from->n)
        memcpy(to->v, from->v, from->n * sizeof *to->v);
    return 0;
}

/* Copies the step windows: the cross-rank phase places collectives in steps by start and end. */
static int copy_steps(const gs_steps *from, gs_steps *to)
{
    *to = *from;
    to->v = malloc((from->n ? from->n : 1) * sizeof *to->v);
    if (!to->v)
        return -1;
    if (from->n)
        memcpy(to->v, from->v, from->n * sizeof *to->v);
    return 0;
}

static int copy_kernels(const gs_kernel_summary *k, gs_rank_summary *s)
{
    s->kernels = calloc(k->nrows ? k->nrows : 1, sizeof *s->kernels);
    if (!s->kernels)
        return -1;
    for (size_t i = 0; i < k->nrows; i++, s->nkernels++) {
        const gs_dur_stats *d = &k->rows[i].time;
        s->kernels[i] = (gs_sum_kernel){dup_str(k->rows[i].name), d->count, d->total, d->min,
                                        d->max};
        if (!s->kernels[i].name)
            return -1;
    }
    return 0;
}

static int copy_ops(const gs_op_summary *o, gs_rank_summary *s)
{
    s->ops_gpu = o->has_gpu;
    s->ops = calloc(o->nrows ? o->nrows : 1, sizeof *s->ops);
    if (!s->ops)
        return -1;
    for (size_t i = 0; i < o->nrows; i++, s->nops++) {
        const gs_op_row *r = &o->rows[i];
        s->ops[i] = (gs_sum_op){dup_str(r->name), r->calls, r->self_cpu, r->cpu_total,
                                r->self_cuda, r->cuda_total};
        if (!s->ops[i].name)
            return -1;
    }
    return 0;
}

static int copy_comm(const gs_comm *c, gs_rank_summary *s)
{
    if (c->nranks)
        s->comm = c->ranks[0];
    s->comm.path = s->id.path;
    s->kinds = malloc((c->nkinds ? c->nkinds : 1) * sizeof *s->kinds);
    s->comm_steps = malloc((c->nsteps ? c->nsteps : 1) * sizeof *s->comm_steps);
    if (!s->kinds || !s->comm_steps)
        return -1;
    if (c->nkinds)
        memcpy(s->kinds, c->kinds, c->nkinds * sizeof *s->kinds);
    if (c->nsteps)
        memcpy(s->comm_steps, c->steps, c->nsteps * sizeof *s->comm_steps);
    s->nkinds = c->nkinds;
    s->ncomm_steps = c->nsteps;
    return 0;
}

/* The report of a one-trace profile is the per-rank phase: the same analyses, so a summary
 * holds the numbers a full-trace report shows for that rank. */
static int from_report(const gs_report *r, gs_rank_summary *s)
{
    s->format = dup_str(r->facts.nfiles ? r->facts.files[0].format : "");
    s->span = r->facts.span;
    s->profiler_steps = r->facts.steps;
    s->events = r->facts.events;
    const gs_bd_trace *bd = &r->breakdown.v[0];
    if (!s->format || copy_steps(&bd->steps, &s->steps) != 0 || copy_gpu(&bd->gpu, &s->gpu) != 0)
        return -1;
    s->nkept = bd->nkept;
    memcpy(s->avg_ns, bd->avg_ns, sizeof s->avg_ns);
    s->avg_total_ns = bd->avg_total_ns;
    s->inputs = r->ranks[0].inputs;
    s->sync_top_op = s->inputs.sync_top_op ? strdup(s->inputs.sync_top_op) : NULL;
    if (s->inputs.sync_top_op && !s->sync_top_op)
        return -1;
    s->inputs.sync_top_op = s->sync_top_op;
    if (r->temporal.nrows)
        s->temporal = r->temporal.rows[0];
    s->temporal.path = s->id.path;
    for (size_t i = 0; i < r->memory.ndevices; i++) {
        const gs_mem_device *d = &r->memory.devices[i];
        if (d->device_type != GS_MEM_DEVICE_CUDA)
            continue;
        if (d->peak_allocated > s->mem_peak_allocated)
            s->mem_peak_allocated = d->peak_allocated;
        if (d->peak_reserved > s->mem_peak_reserved)
            s->mem_peak_reserved = d->peak_reserved;
    }
    return copy_comm(&r->comm, s) | copy_kernels(&r->kernels, s) | copy_ops(&r->ops, s);
}

int gs_rank_summary_init(gs_rank_summary *s, const char *path, gs_error *err)
{
    memset(s, 0, sizeof *s);
    return gs_trace_init(&s->id, path, err);
}

int gs_rank_summarise(gs_trace *t, const gs_step_opts *steps, bool detail, gs_rank_summary *out,
                      gs_error *err)
{
    if (gs_rank_summary_init(out, t->path, err) != 0)
        return -1;
    out->id.rank = t->rank;
    out->id.world_size = t->world_size;
    out->id.epoch_ns = t->epoch_ns;
    gs_trace *one[1] = {t};
    gs_profile p = {.traces = {.v = one, .n = 1, .cap = 1}};
    const gs_report_opts opts = {.steps = *steps, .gaps = detail ? GS_RANK_DETAIL_GAPS : 0};
    gs_report r;
    if (gs_report_build(&p, NULL, &opts, &r, err) != 0) {
        gs_rank_summary_free(out);
        return -1;
    }
    int rc = from_report(&r, out) != 0 ||
                     (detail && gs_rank_detail_build(&r, &out->detail) != 0) ||
                     gs_strag_compute_per_step(t, &out->steps, &out->compute_ns) != 0
                 ? gs_fail_oom(err)
                 : gs_collectives_find(t, &out->coll, err);
    gs_report_free(&r);
    for (size_t i = 0; rc == 0 && i < out->coll.n; i++)
        out->coll.v[i].kernel = 0; /* an index into events the summary does not keep */
    if (rc != 0)
        gs_rank_summary_free(out);
    return rc;
}

void gs_rank_summary_free(gs_rank_summary *s)
{
    gs_trace_free(&s->id);
    free(s->format);
    gs_steps_free(&s->steps);
    gs_gpu_metrics_free(&s->gpu);
    free(s->sync_top_op);
    gs_collectives_free(&s->coll);
    free(s->kinds);
    free(s->comm_steps);
    for (size_t i = 0; i < s->nkernels; i++)
        free(s->kernels[i].name);
    free(s->kernels);
    for (size_t i = 0; i < s->nops; i++)
        free(s->ops[i].name);
    free(s->ops);
    gs_rank_detail_free(s->detail);
    memset(s, 0, sizeof *s);
}
