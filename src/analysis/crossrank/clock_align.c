#include "analysis/crossrank/clock_align.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/util.h"
#include "common/vec.h"

gs_ns gs_median_ns(gs_ns *v, size_t n)
{
    qsort(v, n, sizeof *v, gs_cmp_i64);
    if (n % 2)
        return v[n / 2];
    gs_ns a = v[n / 2 - 1], b = v[n / 2];
    /* a + (b - a) / 2 cannot overflow; floor for negative differences too */
    gs_ns d = b - a;
    return a + (d >= 0 ? d / 2 : -((-d + 1) / 2));
}

static gs_ns abs_end(const gs_coll_match *m, size_t i, size_t r)
{
    return gs_coll_at(m, i, r)->end + m->ranks[r].id.epoch_ns;
}

static void estimate_offsets(const gs_coll_match *m, gs_clock *c, gs_ns *scratch)
{
    for (size_t r = 1; r < m->nranks; r++) {
        for (size_t i = 0; i < m->n; i++)
            scratch[i] = abs_end(m, i, r) - abs_end(m, i, 0);
        c->ranks[r].offset_ns = gs_median_ns(scratch, m->n);
    }
}

/* residual[r * n + i] = |aligned end of rank r - median aligned end of instance i|. */
static void compute_residuals(const gs_coll_match *m, const gs_clock *c, gs_ns *ends, gs_ns *res)
{
    for (size_t i = 0; i < m->n; i++) {
        for (size_t r = 0; r < m->nranks; r++)
            ends[r] = gs_clock_at(c, r, gs_coll_at(m, i, r)->end);
        gs_ns mid = gs_median_ns(ends, m->nranks);
        for (size_t r = 0; r < m->nranks; r++) {
            gs_ns d = gs_clock_at(c, r, gs_coll_at(m, i, r)->end) - mid;
            res[r * m->n + i] = d < 0 ? -d : d;
        }
    }
}

static gs_ns max_of(const gs_ns *v, size_t n)
{
    gs_ns x = 0;
    for (size_t i = 0; i < n; i++)
        x = v[i] > x ? v[i] : x;
    return x;
}

/* Each rank's offset and residual, or why the clocks were left as they are. */
static void log_clock(const gs_coll_match *m, bool estimate, const gs_clock *c)
{
    if (m->nranks < 2)
        return;
    if (!c->aligned) {
        GS_LOG(GS_LOG_INFO, "clock alignment: none (%s): each file's own clock",
               !estimate ? "--no-align" : "no collective matched on every rank");
        return;
    }
    GS_LOG(GS_LOG_INFO, "clock alignment: from the ends of %zu collectives matched on all %zu "
           "ranks, against rank %" PRId32 " (%s); residual median %.3f ms, max %.3f ms",
           m->n, m->nranks, m->ranks[0].id.rank, m->ranks[0].id.path,
           (double)c->residual_med_ns / 1e6, (double)c->residual_max_ns / 1e6);
    for (size_t r = 1; r < m->nranks; r++)
        GS_LOG(GS_LOG_INFO, "clock alignment: rank %" PRId32 " (%s): offset %+.3f ms, residual "
               "median %.3f ms, max %.3f ms", m->ranks[r].id.rank, m->ranks[r].id.path,
               (double)c->ranks[r].offset_ns / 1e6, (double)c->ranks[r].residual_med_ns / 1e6,
               (double)c->ranks[r].residual_max_ns / 1e6);
}

int gs_clock_align(const gs_coll_match *m, bool estimate, gs_clock *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    size_t n = m->n, nr = m->nranks;
    out->ranks = gs_array_zeroed(nr, sizeof *out->ranks);
    gs_ns *scratch = malloc((n * nr + nr + 1) * sizeof *scratch);
    gs_ns *ends = malloc((nr + 1) * sizeof *ends);
    if (!out->ranks || !scratch || !ends) {
        free(scratch);
        free(ends);
        gs_clock_free(out);
        return gs_fail_oom(err);
    }
    out->nranks = nr;
    out->aligned = estimate && n > 0 && nr > 1;
    if (out->aligned)
        estimate_offsets(m, out, scratch);
    for (size_t r = 0; r < nr; r++) {
        out->ranks[r].matched = n;
        out->ranks[r].shift_ns = m->ranks[r].id.epoch_ns - out->ranks[r].offset_ns;
    }
    if (n > 0 && nr > 1) {
        compute_residuals(m, out, ends, scratch);
        /* per rank first (medians reorder their slice), the overall maximum before the median */
        for (size_t r = 0; r < nr; r++) {
            out->ranks[r].residual_max_ns = max_of(scratch + r * n, n);
            out->ranks[r].residual_med_ns = gs_median_ns(scratch + r * n, n);
        }
        out->residual_max_ns = max_of(scratch, n * nr);
        out->residual_med_ns = gs_median_ns(scratch, n * nr);
    }
    free(scratch);
    free(ends);
    if (gs_log_on(GS_LOG_INFO))
        log_clock(m, estimate, out);
    return 0;
}

void gs_clock_free(gs_clock *c)
{
    free(c->ranks);
    memset(c, 0, sizeof *c);
}
