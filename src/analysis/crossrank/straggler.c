#include "analysis/crossrank/straggler.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/intervals.h"
#include "analysis/base/stats.h"
#include "analysis/base/thresholds.h"
#include "common/log.h"
#include "common/vec.h"

/* Per rank while building: its steps and whether a collective falls in a kept one. */
typedef struct rank_work {
    const gs_steps *steps;
    gs_ns wait_total, wait_straggler_total, lateness_total;
} rank_work;

bool gs_straggler_qualifies(size_t collectives, double last_share, double wait_share)
{
    return collectives >= GS_TH_STRAGGLER_MIN_COLLECTIVES &&
           last_share > GS_TH_STRAGGLER_LAST_SHARE && wait_share > GS_TH_STRAGGLER_WAIT_SHARE;
}

static bool in_kept_step(const gs_steps *s, gs_ns t)
{
    long i = gs_steps_at(s, t);
    return i >= 0 && gs_step_kept(s, (size_t)i);
}

static gs_ns per_step(gs_ns total, size_t steps)
{
    return steps ? total / (gs_ns)steps : total;
}

int gs_strag_compute_per_step(const gs_trace_ctx *c, gs_ns *out)
{
    const gs_trace *t = c->trace;
    const gs_steps *steps = &c->steps;
    gs_spans busy = {0}, kept = {0};
    int rc = 0;
    for (size_t i = 0; i < t->kernels.n && rc == 0; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        if (!gs_ctx_name(c, k->name, GS_NAME_COMM_KERNEL))
            rc = gs_spans_add(&busy, k->start, k->end);
    }
    for (size_t i = 0; i < steps->n && rc == 0; i++)
        if (gs_step_kept(steps, i))
            rc = gs_spans_add(&kept, steps->v[i].start, steps->v[i].end);
    if (rc == 0) {
        gs_spans_merge(&busy);
        gs_spans_merge(&kept);
        gs_ns total = 0;
        for (size_t i = 0; i < kept.n; i++)
            total += gs_spans_overlap(&busy, kept.v[i].start, kept.v[i].end);
        *out = per_step(total, steps->stats.n);
    }
    gs_spans_free(&busy);
    gs_spans_free(&kept);
    return rc;
}

/* Arrival of instance i on rank r, on the common clock. */
static gs_ns arrival(const gs_stragglers *s, size_t i, size_t r)
{
    return gs_clock_at(&s->clock, r, gs_coll_at(&s->match, i, r)->start);
}

static void judge_instance(gs_stragglers *s, rank_work *w, size_t i, gs_ns *scratch)
{
    gs_strag_instance *x = &s->v[i];
    size_t nr = s->nranks, last = 0, first = 0;
    for (size_t r = 1; r < nr; r++) {
        if (arrival(s, i, r) > arrival(s, i, last))
            last = r;
        if (arrival(s, i, r) < arrival(s, i, first))
            first = r;
    }
    size_t k = 0;
    for (size_t r = 0; r < nr; r++)
        if (r != last)
            scratch[k++] = arrival(s, i, r);
    x->kind = s->match.v[i].kind;
    x->seq = s->match.v[i].seq;
    x->last = (uint32_t)last;
    x->skew_ns = arrival(s, i, last) - arrival(s, i, first);
    x->lateness_ns = arrival(s, i, last) - gs_median_ns(scratch, k);
    long st = gs_steps_at(w[0].steps, gs_coll_at(&s->match, i, 0)->start);
    x->step = st >= 0 ? w[0].steps->v[st].number : -1;
    s->ranks[last].last++;
    w[last].lateness_total += x->lateness_ns;
    for (size_t r = 0; r < nr; r++)
        if (in_kept_step(w[r].steps, gs_coll_at(&s->match, i, r)->start))
            w[r].wait_total += arrival(s, i, last) - arrival(s, i, r);
}

/* The time each other rank waited for the candidate, per kept step, and their mean. */
static void wait_for_candidate(gs_stragglers *s, rank_work *w)
{
    size_t c = (size_t)s->candidate;
    gs_ns sum = 0;
    for (size_t i = 0; i < s->n; i++)
        for (size_t r = 0; r < s->nranks; r++) {
            gs_ns d = arrival(s, i, c) - arrival(s, i, r);
            if (r != c && d > 0 && in_kept_step(w[r].steps, gs_coll_at(&s->match, i, r)->start))
                w[r].wait_straggler_total += d;
        }
    for (size_t r = 0; r < s->nranks; r++) {
        s->ranks[r].wait_straggler_ns = per_step(w[r].wait_straggler_total, s->ranks[r].steps);
        if (r != c)
            sum += s->ranks[r].wait_straggler_ns;
    }
    s->others_wait_ns = s->nranks > 1 ? sum / (gs_ns)(s->nranks - 1) : 0;
}

static void compute_skew_stats(gs_stragglers *s, gs_ns *scratch)
{
    for (int kind = -1; kind < GS_COLL__COUNT; kind++) {
        size_t k = 0;
        for (size_t i = 0; i < s->n; i++)
            if (kind < 0 || s->v[i].kind == (gs_coll_kind)kind)
                scratch[k++] = s->v[i].skew_ns;
        gs_skew_stats *st = kind < 0 ? &s->skew_all : &s->skew[kind];
        st->n = k;
        if (k == 0)
            continue;
        st->max = scratch[0];
        for (size_t j = 1; j < k; j++)
            st->max = scratch[j] > st->max ? scratch[j] : st->max;
        st->p95 = gs_percentile_select(scratch, k, 95.0);
        st->med = gs_percentile_select(scratch, k, 50.0);
    }
}

/* The rank last most often, and the median rank's step and compute. */
static void pick_candidate(gs_stragglers *s, gs_ns *scratch)
{
    for (size_t r = 0; r < s->nranks; r++) {
        gs_strag_rank *x = &s->ranks[r];
        x->last_share = s->n ? (double)x->last / (double)s->n : 0.0;
        if (x->last > 0 && (s->candidate < 0 || x->last > s->ranks[s->candidate].last))
            s->candidate = (int)r;
    }
    for (size_t r = 0; r < s->nranks; r++)
        scratch[r] = s->ranks[r].step_ns;
    s->median_step_ns = s->nranks ? gs_median_ns(scratch, s->nranks) : 0;
    for (size_t r = 0; r < s->nranks; r++)
        scratch[r] = s->ranks[r].compute_ns;
    s->median_compute_ns = s->nranks ? gs_median_ns(scratch, s->nranks) : 0;
}

static void decide(gs_stragglers *s)
{
    if (s->candidate < 0) {
        if (s->nranks > 1)
            GS_LOG(GS_LOG_INFO, "stragglers: no rank arrived last at a collective matched on "
                   "every rank: no straggler");
        return;
    }
    const gs_strag_rank *c = &s->ranks[s->candidate];
    s->compute_excess = s->median_compute_ns > 0
                            ? (double)c->compute_ns / (double)s->median_compute_ns - 1.0
                            : 0.0;
    double wait_share =
        s->median_step_ns > 0 ? (double)s->others_wait_ns / (double)s->median_step_ns : 0.0;
    if (gs_straggler_qualifies(s->n, c->last_share, wait_share))
        s->straggler = s->candidate;
    GS_LOG(GS_LOG_INFO,
           "stragglers: rank %" PRId32 " (%s) arrived last at %.0f %% of %zu collectives (> "
           "%.0f %%?, >= %d?), the others wait for it %.1f %% of the median step (> %.0f %%?): "
           "%s",
           c->id->rank, c->id->path, 100 * c->last_share, s->n,
           100 * GS_TH_STRAGGLER_LAST_SHARE, GS_TH_STRAGGLER_MIN_COLLECTIVES, 100 * wait_share,
           100 * GS_TH_STRAGGLER_WAIT_SHARE,
           s->straggler >= 0 ? "the straggler" : "no straggler");
}

static void analyse(gs_stragglers *s, const gs_strag_input *in, rank_work *w, gs_ns *scratch)
{
    for (size_t r = 0; r < s->nranks; r++) {
        s->ranks[r].id = &s->match.ranks[r].id;
        w[r].steps = in[r].steps;
        s->ranks[r].steps = in[r].steps->stats.n;
        s->ranks[r].step_ns = in[r].steps->stats.mean;
        s->ranks[r].compute_ns = in[r].compute_ns;
    }
    for (size_t i = 0; i < s->n; i++)
        judge_instance(s, w, i, scratch);
    for (size_t r = 0; r < s->nranks; r++) {
        gs_strag_rank *x = &s->ranks[r];
        x->wait_ns = per_step(w[r].wait_total, x->steps);
        x->mean_lateness_ns = x->last ? w[r].lateness_total / (gs_ns)x->last : 0;
    }
    pick_candidate(s, scratch);
    if (s->candidate >= 0)
        wait_for_candidate(s, w);
    decide(s);
    compute_skew_stats(s, scratch);
}

int gs_stragglers_from(const gs_strag_input *in, size_t n, bool align, gs_stragglers *out,
                       gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    memset(out, 0, sizeof *out);
    out->straggler = out->candidate = -1;
    const gs_rank_id **ids = gs_array_new(n, sizeof *ids);
    gs_collectives *colls = gs_array_new(n, sizeof *colls);
    int rc = ids && colls ? 0 : gs_fail_oom(err);
    for (size_t r = 0; r < n && rc == 0; r++) {
        ids[r] = in[r].id;
        colls[r] = *in[r].coll;
    }
    if (rc == 0)
        rc = gs_coll_match_from(ids, colls, n, &out->match, err);
    free(ids);
    free(colls);
    if (rc == 0)
        rc = gs_clock_align(&out->match, align, &out->clock, err);
    if (rc != 0) {
        gs_stragglers_free(out);
        return -1;
    }
    out->nranks = out->match.nranks;
    out->n = out->nranks > 1 ? out->match.n : 0; /* one rank waits for no other */
    GS_LOG(GS_LOG_INFO, "stragglers: %zu rank(s), %zu collective(s) matched on every rank",
           out->nranks, out->match.n);
    size_t ns = out->n > out->nranks ? out->n : out->nranks;
    out->ranks = gs_array_zeroed(out->nranks, sizeof *out->ranks);
    out->v = gs_array_zeroed(out->n, sizeof *out->v);
    rank_work *w = gs_array_zeroed(out->nranks, sizeof *w);
    gs_ns *scratch = gs_array_new(ns, sizeof *scratch);
    rc = out->ranks && out->v && w && scratch ? 0 : gs_fail_oom(err);
    if (rc == 0)
        analyse(out, in, w, scratch);
    free(w);
    free(scratch);
    if (rc != 0)
        gs_stragglers_free(out);
    else
        GS_LOG_TOOK(logged_at, "stragglers");
    return rc;
}

void gs_stragglers_free(gs_stragglers *s)
{
    gs_coll_match_free(&s->match);
    gs_clock_free(&s->clock);
    free(s->ranks);
    free(s->v);
    memset(s, 0, sizeof *s);
    s->straggler = s->candidate = -1;
}

int gs_stragglers_rank_of(const gs_stragglers *s, const gs_rank_id *id)
{
    for (size_t r = 0; r < s->nranks; r++)
        if (gs_rank_id_cmp(s->ranks[r].id, id) == 0)
            return (int)r;
    return -1;
}
