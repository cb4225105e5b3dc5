#include "analysis/trace/comm.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/intervals.h"
#include "analysis/base/kernel_class.h"
#include "analysis/trace/temporal.h"
#include "common/log.h"
#include "common/util.h"

/* nccl-tests' bus bandwidth factors (its doc/PERFORMANCE.md): busbw = algbw × factor is what
 * each rank's busiest link carries, so it compares with the hardware's link bandwidth whatever
 * the collective. */
static const struct {
    gs_coll_kind kind;
    int numer; /* factor = numer × (n − 1) / n; 0 means a factor of 1 */
} bus_factors[] = {
    {GS_COLL_ALL_REDUCE, 2},     {GS_COLL_ALL_GATHER, 1}, {GS_COLL_REDUCE_SCATTER, 1},
    {GS_COLL_ALL_TO_ALL, 1},     {GS_COLL_BROADCAST, 0},  {GS_COLL_REDUCE, 0},
    {GS_COLL_SEND_RECV, 0},
};

double gs_comm_bus_factor(gs_coll_kind kind, int32_t n)
{
    if (n < 1)
        return 0.0;
    for (size_t i = 0; i < COUNT_OF(bus_factors); i++)
        if (bus_factors[i].kind == kind)
            return bus_factors[i].numer ? bus_factors[i].numer * (double)(n - 1) / n : 1.0;
    return 0.0; /* GS_COLL_OTHER: the collective, hence the factor, is unknown */
}

static double pct(gs_ns part, gs_ns whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* ---- per collective kind --------------------------------------------------------------------- */

typedef struct kind_acc {
    gs_comm_kind row;
    double bus_bytes; /* Σ bytes × factor over collectives with size and group size */
    gs_ns bus_time;
    bool mixed_groups;
} kind_acc;

static void add_collective(kind_acc *a, const gs_collective *c)
{
    gs_ns d = c->end - c->start;
    gs_comm_kind *r = &a->row;
    if (r->count == 0 || d < r->min)
        r->min = d;
    if (r->count == 0 || d > r->max)
        r->max = d;
    r->count++;
    r->total += d;
    if (c->bytes < 0)
        return;
    if (r->sized == 0)
        r->group_size = c->group_size;
    else if (r->group_size != c->group_size)
        a->mixed_groups = true;
    r->sized++;
    r->bytes += c->bytes;
    r->sized_time += d;
    double f = gs_comm_bus_factor(c->kind, c->group_size);
    if (f > 0) {
        a->bus_bytes += (double)c->bytes * f;
        a->bus_time += d;
    }
}

static int build_kind_rows(const gs_trace_ctx *c, gs_comm *out, size_t *ncoll, gs_error *err)
{
    const gs_trace *t = c->trace;
    const gs_collectives *colls = gs_ctx_collectives(c, err);
    if (!colls)
        return -1;
    kind_acc acc[GS_COLL__COUNT];
    memset(acc, 0, sizeof acc);
    for (size_t i = 0; i < colls->n; i++)
        add_collective(&acc[colls->v[i].kind], &colls->v[i]);
    *ncoll = colls->n;
    for (int k = 0; k < GS_COLL__COUNT; k++) {
        gs_comm_kind *r = &acc[k].row;
        if (r->count == 0)
            continue;
        r->rank = t->id.rank;
        r->kind = (gs_coll_kind)k;
        r->mean = r->total / (gs_ns)r->count;
        /* bytes per ns is GB/s (1e9 B/s), nccl-tests' unit. */
        r->algbw_gbps = r->sized_time > 0 ? (double)r->bytes / (double)r->sized_time : -1.0;
        r->busbw_gbps = acc[k].bus_time > 0 ? acc[k].bus_bytes / (double)acc[k].bus_time : -1.0;
        if (r->sized == 0 || acc[k].mixed_groups)
            r->group_size = -1;
        gs_comm_kind *dst = realloc(out->kinds, (out->nkinds + 1) * sizeof *out->kinds);
        if (!dst)
            return gs_fail_oom(err);
        out->kinds = dst;
        out->kinds[out->nkinds++] = *r;
    }
    return 0;
}

/* ---- overlap --------------------------------------------------------------------------------- */

typedef struct sets {
    gs_activities acts;
    gs_spans comp, comm, both;
} sets;

static void free_sets(sets *s)
{
    free(s->acts.v);
    gs_spans_free(&s->comp);
    gs_spans_free(&s->comm);
    gs_spans_free(&s->both);
}

/* Merged compute and communication time of a trace, and their intersection. */
static int build_sets(const gs_trace_ctx *c, bool hta, sets *s)
{
    /* HTA's overlap takes every GPU row with a stream and classifies it by name, so its sync
     * records count where its regexes put them; gpuscope counts kernels only. */
    const gs_activity_opts ao = {.hta_compat = hta, .with_syncs = hta};
    s->comp.n = s->comm.n = s->both.n = 0;
    if (gs_activities_collect(c, &ao, &s->acts) != 0)
        return -1;
    for (size_t i = 0; i < s->acts.n; i++) {
        const gs_activity *a = &s->acts.v[i];
        gs_spans *dst = a->kclass == GS_KCLASS_COMPUTE         ? &s->comp
                        : a->kclass == GS_KCLASS_COMMUNICATION ? &s->comm
                                                               : NULL;
        if (dst && gs_spans_add(dst, a->start, a->end) != 0)
            return -1;
    }
    gs_spans_merge(&s->comp);
    gs_spans_merge(&s->comm);
    return gs_spans_intersect(&s->comp, &s->comm, &s->both);
}

static int build_step_rows(const gs_trace *t, const gs_steps *st, const sets *s, gs_comm *out,
                           gs_comm_rank *r)
{
    gs_comm_step *dst = realloc(out->steps, (out->nsteps + st->n + 1) * sizeof *out->steps);
    if (!dst)
        return -1;
    out->steps = dst;
    gs_ns exposed_sum = 0, step_sum = 0;
    for (size_t i = 0; i < st->n; i++) {
        const gs_step *sp = &st->v[i];
        gs_comm_step *row = &out->steps[out->nsteps++];
        row->rank = t->id.rank;
        row->number = sp->number;
        row->warmup = sp->warmup;
        row->start = sp->start;
        row->end = sp->end;
        row->compute = gs_spans_overlap(&s->comp, sp->start, sp->end);
        row->communication = gs_spans_overlap(&s->comm, sp->start, sp->end);
        row->overlap = gs_spans_overlap(&s->both, sp->start, sp->end);
        row->exposed = row->communication - row->overlap;
        row->exposed_pct = pct(row->exposed, sp->end - sp->start);
        if (gs_step_kept(st, i)) {
            exposed_sum += row->exposed;
            step_sum += sp->end - sp->start;
        }
    }
    r->exposed_per_step = r->steps ? exposed_sum / (gs_ns)r->steps : 0;
    r->exposed_step_pct = pct(exposed_sum, step_sum);
    return 0;
}

static int analyse_rank(const gs_trace_ctx *c, bool hta_compat, const gs_temporal_row *tp,
                        sets *s, gs_comm *out, gs_error *err)
{
    const gs_trace *t = c->trace;
    gs_comm_rank *r = &out->ranks[out->nranks];
    memset(r, 0, sizeof *r);
    r->rank = t->id.rank;
    if (!(r->path = strdup(t->id.path)))
        return gs_fail_oom(err);
    out->nranks++;
    r->window = tp->window;
    r->idle = tp->idle;
    r->idle_pct = tp->idle_pct;
    if (build_sets(c, hta_compat, s) != 0)
        return gs_fail_oom(err);
    r->compute = gs_spans_length(&s->comp);
    r->communication = gs_spans_length(&s->comm);
    r->overlap = gs_spans_length(&s->both);
    r->exposed = r->communication - r->overlap;
    r->overlap_pct = r->communication > 0 ? pct(r->overlap, r->communication) : -1.0;
    r->exposed_pct = pct(r->exposed, r->window);
    if (build_kind_rows(c, out, &r->collectives, err) != 0)
        return -1;
    r->steps = c->steps.stats.n;
    r->step_median = c->steps.stats.med;
    return build_step_rows(t, &c->steps, s, out, r) == 0 ? 0 : gs_fail_oom(err);
}

int gs_comm_build(const gs_trace_ctx *c, bool hta_compat, gs_comm *comm, gs_error *err)
{
    memset(comm, 0, sizeof *comm);
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    comm->hta_compat = hta_compat;
    /* The GPU window and idle time of the whole trace, as the temporal breakdown has them. */
    const gs_trace_ctx whole = gs_trace_ctx_over(c, &(gs_window){.kind = GS_WINDOW_WHOLE});
    gs_temporal_row tp;
    if (gs_temporal_row_fill(&whole, hta_compat, &tp) != 0) {
        gs_comm_free(comm);
        return gs_fail_oom(err);
    }
    comm->ranks = calloc(1, sizeof *comm->ranks);
    sets s = {0};
    int rc = comm->ranks ? 0 : gs_fail_oom(err);
    if (rc == 0)
        rc = analyse_rank(c, hta_compat, &tp, &s, comm, err);
    free_sets(&s);
    gs_temporal_row_free(&tp);
    if (rc != 0)
        gs_comm_free(comm);
    else
        GS_LOG_TOOK(logged_at, "communication");
    return rc;
}

void gs_comm_free(gs_comm *comm)
{
    for (size_t i = 0; i < comm->nranks; i++)
        free(comm->ranks[i].path);
    free(comm->ranks);
    free(comm->kinds);
    free(comm->steps);
    memset(comm, 0, sizeof *comm);
}
