#include "compare/diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/trace/memory.h"

/* Pairs traces by rank; one trace against one trace always pairs. pairs[k] = {i, j}. */
static size_t pair_traces(const gs_breakdown bd[GS_SIDES], size_t (*pairs)[GS_SIDES])
{
    size_t nb = bd[GS_SIDE_BASE].n, nn = bd[GS_SIDE_NEW].n, np = 0;
    if (nb == 1 && nn == 1) {
        pairs[0][0] = pairs[0][1] = 0;
        return 1;
    }
    bool *used = calloc(nn + 1, sizeof *used);
    if (!used)
        return SIZE_MAX;
    for (size_t i = 0; i < nb; i++) {
        for (size_t j = 0; j < nn; j++) {
            if (used[j] || bd[GS_SIDE_BASE].v[i].id.rank != bd[GS_SIDE_NEW].v[j].id.rank)
                continue;
            used[j] = true;
            pairs[np][0] = i;
            pairs[np][1] = j;
            np++;
            break;
        }
    }
    free(used);
    return np;
}

/* Durations of the kept steps, in step order. */
static gs_ns *kept_durations(const gs_steps *s, size_t *n)
{
    gs_ns *v = malloc((s->n + 1) * sizeof *v);
    *n = 0;
    for (size_t i = 0; v && i < s->n; i++)
        if (gs_step_kept(s, i))
            v[(*n)++] = s->v[i].end - s->v[i].start;
    return v;
}

static int compare_steps(gs_rank_change *rc, gs_error *error)
{
    gs_ns *d[GS_SIDES];
    for (int s = 0; s < GS_SIDES; s++)
        d[s] = kept_durations(&rc->bd[s]->steps, &rc->kept[s]);
    int status = d[0] && d[1] ? 0 : -1;
    rc->has_ci = rc->kept[0] >= GS_DIFF_MIN_STEPS && rc->kept[1] >= GS_DIFF_MIN_STEPS;
    if (status == 0 && rc->has_ci) {
        status = gs_compare_samples(d[0], rc->kept[0], d[1], rc->kept[1], &rc->ci, &rc->mw);
        rc->significant = status == 0 && gs_boot_ci_excludes_zero(&rc->ci);
    }
    free(d[0]);
    free(d[1]);
    if (status != 0)
        return gs_fail_oom(error);
    const gs_trace_ctx *const ctx[GS_SIDES] = {rc->ctx[0], rc->ctx[1]};
    const gs_steps *const steps[GS_SIDES] = {&rc->bd[0]->steps, &rc->bd[1]->steps};
    const double step_ns[GS_SIDES] = {rc->bd[0]->avg_total_ns, rc->bd[1]->avg_total_ns};
    if (gs_collector_change_build(ctx, steps, step_ns, rc->has_ci, &rc->work, error) != 0)
        return -1;
    if (rc->has_ci)
        gs_collector_change_attribute(&rc->work, &rc->ci);
    return 0;
}

/* The pair with the highest lower bound of its change (NaN never wins), else the first. */
static size_t pick_headline(const gs_diff *d)
{
    size_t best = 0;
    bool found = false;
    for (size_t p = 0; p < d->npairs; p++) {
        const gs_rank_change *rc = &d->pairs[p];
        if (!rc->has_ci || isnan(rc->ci.pct_lo))
            continue;
        if (!found || rc->ci.pct_lo > d->pairs[best].ci.pct_lo)
            best = p;
        found = true;
    }
    return best;
}

static void average_breakdown(gs_diff *d)
{
    for (int s = 0; s < GS_SIDES; s++) {
        size_t n = 0;
        for (size_t p = 0; p < d->npairs; p++) {
            const gs_bd_trace *b = d->pairs[p].bd[s];
            if (!b->nkept)
                continue;
            n++;
            for (int c = 0; c < GS_BD__COUNT; c++)
                d->bd_avg[s][c] += b->avg_ns[c];
            d->bd_total[s] += b->avg_total_ns;
        }
        for (int c = 0; n && c < GS_BD__COUNT; c++)
            d->bd_avg[s][c] /= (double)n;
        if (n)
            d->bd_total[s] /= (double)n;
    }
}

static int build_activity(gs_diff *d, gs_error *err)
{
    const gs_trace **traces = malloc((d->npairs + 1) * sizeof *traces);
    const gs_steps **steps = malloc((d->npairs + 1) * sizeof *steps);
    int rc = traces && steps ? 0 : gs_fail_oom(err);
    for (int s = 0; s < GS_SIDES && rc == 0; s++) {
        for (size_t p = 0; p < d->npairs; p++) {
            traces[p] = d->pairs[p].ctx[s]->trace;
            steps[p] = &d->pairs[p].bd[s]->steps;
        }
        rc = gs_activity_build(traces, steps, d->npairs, &d->act[s], err);
    }
    free(traces);
    free(steps);
    if (rc != 0)
        return rc;
    const size_t nsteps[GS_SIDES] = {d->act[0].steps, d->act[1].steps};
    const gs_act_set *k[GS_SIDES] = {&d->act[0].kernels, &d->act[1].kernels};
    const gs_act_set *o[GS_SIDES] = {&d->act[0].ops, &d->act[1].ops};
    if (gs_match_sets(k, nsteps, true, &d->kernels, &d->kernels_only) != 0 ||
        gs_match_sets(o, nsteps, false, &d->ops, &d->ops_only) != 0)
        return gs_fail_oom(err);
    return 0;
}

/* ---- memory peaks ---------------------------------------------------------------------------- */

static gs_mem_change *find_mem(gs_diff *d, size_t pair, const gs_mem_device *dev)
{
    for (size_t i = 0; i < d->nmem; i++) {
        gs_mem_change *m = &d->mem[i];
        if (m->pair == pair && m->device_type == dev->device_type && m->device == dev->device)
            return m;
    }
    return NULL;
}

static int add_memory(gs_diff *d, int side, const gs_memory_summary *ms, size_t *cap)
{
    for (size_t p = 0; p < d->npairs; p++) {
        const gs_trace *t = d->pairs[p].ctx[side]->trace;
        for (size_t i = 0; i < ms->ndevices; i++) {
            const gs_mem_device *dev = &ms->devices[i];
            if (strcmp(dev->path, t->id.path) != 0 || dev->rank != t->id.rank)
                continue;
            gs_mem_change *m = find_mem(d, p, dev);
            if (!m) {
                if (gs_grow((void **)&d->mem, cap, d->nmem + 1, sizeof *d->mem) != 0)
                    return -1;
                m = &d->mem[d->nmem++];
                *m = (gs_mem_change){.pair = p, .device_type = dev->device_type,
                                     .device = dev->device};
            }
            m->present[side] = true;
            m->peak_allocated[side] = dev->peak_allocated;
            m->peak_reserved[side] = dev->peak_reserved;
        }
    }
    return 0;
}

static int build_memory(gs_diff *d, gs_error *err)
{
    size_t cap = 0;
    for (int s = 0; s < GS_SIDES; s++) {
        gs_memory_summary ms;
        if (gs_memory_init(&ms, err) != 0)
            return -1;
        for (size_t i = 0; i < d->bd[s].n; i++)
            if (gs_memory_add(&ms, &d->ctx[s][i], err) != 0)
                return -1;
        int rc = add_memory(d, s, &ms, &cap);
        gs_memory_summary_free(&ms);
        if (rc != 0)
            return gs_fail_oom(err);
    }
    return 0;
}

/* ---- the whole diff -------------------------------------------------------------------------- */

static int no_common_rank(const gs_diff *d, gs_error *err)
{
    char ranks[GS_SIDES][160] = {"", ""};
    for (int s = 0; s < GS_SIDES; s++) {
        size_t len = 0;
        for (size_t i = 0; i < d->bd[s].n && len + 12 < sizeof ranks[s]; i++)
            len += (size_t)snprintf(ranks[s] + len, sizeof ranks[s] - len, " %d",
                                    (int)d->bd[s].v[i].id.rank);
    }
    return gs_fail(err, GS_EXIT_INPUT, "diff: BASE and NEW have no rank in common (BASE ranks:%s; "
                   "NEW ranks:%s)", ranks[0], ranks[1]);
}

static int build_pairs(gs_diff *d, gs_error *err)
{
    size_t (*idx)[GS_SIDES] = malloc((d->bd[0].n + 1) * sizeof *idx);
    d->pairs = calloc(d->bd[0].n + 1, sizeof *d->pairs);
    size_t np = idx && d->pairs ? pair_traces(d->bd, idx) : SIZE_MAX;
    int rc = np == SIZE_MAX ? gs_fail_oom(err) : np == 0 ? no_common_rank(d, err) : 0;
    for (size_t p = 0; rc == 0 && p < np; p++) {
        gs_rank_change *c = &d->pairs[d->npairs++];
        for (int s = 0; s < GS_SIDES; s++) {
            c->ctx[s] = &d->ctx[s][idx[p][s]];
            c->bd[s] = &d->bd[s].v[idx[p][s]];
        }
        rc = compare_steps(c, err);
    }
    free(idx);
    if (rc == 0) {
        d->unpaired[GS_SIDE_BASE] = d->bd[GS_SIDE_BASE].n - d->npairs;
        d->unpaired[GS_SIDE_NEW] = d->bd[GS_SIDE_NEW].n - d->npairs;
        d->headline = pick_headline(d);
    }
    return rc;
}

/* The setup of the paired traces of each side. */
static int build_setup(gs_diff *d, gs_error *err)
{
    const gs_trace **v[GS_SIDES];
    for (int s = 0; s < GS_SIDES; s++)
        v[s] = malloc((d->npairs + 1) * sizeof *v[s]);
    if (!v[0] || !v[1]) {
        free(v[0]), free(v[1]);
        return gs_fail_oom(err);
    }
    for (int s = 0; s < GS_SIDES; s++)
        for (size_t p = 0; p < d->npairs; p++)
            v[s][p] = d->pairs[p].ctx[s]->trace;
    const gs_trace *const *traces[GS_SIDES] = {v[0], v[1]};
    const size_t n[GS_SIDES] = {d->npairs, d->npairs};
    gs_diff_setup_build(traces, n, &d->setup);
    free(v[0]), free(v[1]);
    return 0;
}

bool gs_diff_category_comparable(const gs_diff *d, enum gs_bd_cat c)
{
    const bool *ok = d->setup.comparable;
    switch (c) {
    case GS_BD_CPU_EXEC:
        return ok[GS_REC_CPU_OPS] && ok[GS_REC_RUNTIME];
    case GS_BD_OTHER:
        return ok[GS_REC_CPU_OPS] && ok[GS_REC_RUNTIME];
    case GS_BD_RUNTIME:
        return ok[GS_REC_RUNTIME];
    default:
        return true;
    }
}

/* Each selected trace's context and breakdown, in profile order. */
static int build_side(gs_diff *d, int side, const gs_profile *p, const gs_diff_opts *opts,
                      gs_error *err)
{
    d->ctx[side] = calloc(p->traces.n + 1, sizeof *d->ctx[side]);
    if (!d->ctx[side])
        return gs_fail_oom(err);
    for (size_t i = 0; i < p->traces.n; i++) {
        const gs_trace *t = p->traces.v[i];
        if (!gs_selected(&opts->select, &t->id))
            continue;
        if (gs_trace_ctx_build(t, &opts->ctx, &d->ctx[side][d->bd[side].n], err) != 0 ||
            gs_breakdown_add(&d->bd[side], &d->ctx[side][d->bd[side].n], false, err) != 0)
            return -1;
    }
    return 0;
}

int gs_diff_build(const gs_profile *base, const gs_profile *next, const gs_diff_opts *opts,
                  gs_diff *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    const gs_profile *prof[GS_SIDES] = {base, next};
    int rc = 0;
    for (int s = 0; s < GS_SIDES && rc == 0; s++)
        rc = build_side(out, s, prof[s], opts, err);
    if (rc == 0)
        rc = build_pairs(out, err);
    if (rc == 0) {
        average_breakdown(out);
        rc = build_activity(out, err);
    }
    if (rc == 0)
        rc = build_memory(out, err);
    if (rc == 0)
        rc = build_setup(out, err);
    if (rc != 0)
        gs_diff_free(out);
    return rc;
}

void gs_diff_free(gs_diff *d)
{
    for (int s = 0; s < GS_SIDES; s++) {
        /* every context up to the last built: a failed build leaves its own freed (zeroed) */
        for (size_t i = 0; d->ctx[s] && i <= d->bd[s].n; i++)
            gs_trace_ctx_free(&d->ctx[s][i]);
        free(d->ctx[s]);
        gs_breakdown_free(&d->bd[s]);
        gs_activity_free(&d->act[s]);
    }
    free(d->pairs);
    gs_delta_list_free(&d->kernels);
    gs_delta_list_free(&d->kernels_only);
    gs_delta_list_free(&d->ops);
    gs_delta_list_free(&d->ops_only);
    free(d->mem);
    memset(d, 0, sizeof *d);
}

bool gs_diff_on_gpu_work(const gs_diff *d)
{
    return d->setup.collection_differs && d->npairs && d->pairs[d->headline].work.has_ci;
}

bool gs_diff_gate(const gs_diff *d, double pct)
{
    if (!d->npairs)
        return false;
    const gs_rank_change *rc = &d->pairs[d->headline];
    return rc->has_ci && rc->ci.pct_lo > pct;
}
