#include "compare/bootstrap.h"

#include <math.h>
#include <stdlib.h>

#include "analysis/base/stats.h"
#include "common/util.h"

uint64_t gs_rng_next(gs_rng *r)
{
    uint64_t z = (r->state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

size_t gs_rng_below(gs_rng *r, size_t n)
{
    return (size_t)(((gs_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

/* The median of n values drawn with replacement from v, using buf (n slots). */
static gs_ns resample_median(gs_rng *r, const gs_ns *v, size_t n, gs_ns *buf)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = v[gs_rng_below(r, n)];
    return gs_percentile_select(buf, n, 50);
}

/* Index of the nearest-rank p-th percentile of n sorted values. */
static size_t rank_index(size_t n, double p)
{
    size_t rank = (size_t)ceil(p / 100.0 * (double)n);
    return rank < 1 ? 0 : rank > n ? n - 1 : rank - 1;
}

static gs_ns median_of(const gs_ns *v, size_t n, gs_ns *buf)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = v[i];
    return gs_percentile_select(buf, n, 50);
}

int gs_bootstrap_median_diff(const gs_ns *base, size_t nb, const gs_ns *next, size_t nn,
                             size_t resamples, uint64_t seed, gs_boot_ci *out)
{
    size_t nbuf = nb > nn ? nb : nn;
    gs_ns *buf = malloc(nbuf * sizeof *buf);
    gs_ns *diffs = malloc((resamples + 1) * sizeof *diffs);
    double *pcts = malloc((resamples + 1) * sizeof *pcts);
    if (!buf || !diffs || !pcts) {
        free(buf);
        free(diffs);
        free(pcts);
        return -1;
    }
    /* A ratio needs a positive base median in every resample: every base value positive. */
    int ratio = 1;
    for (size_t i = 0; i < nb; i++)
        ratio &= base[i] > 0;
    *out = (gs_boot_ci){.resamples = resamples, .seed = seed, .level = GS_BOOT_LEVEL};
    out->base_med = median_of(base, nb, buf);
    out->new_med = median_of(next, nn, buf);
    out->diff = out->new_med - out->base_med;
    out->pct = ratio ? ((double)out->new_med / (double)out->base_med - 1) * 100 : NAN;
    gs_rng rng = {seed};
    for (size_t k = 0; k < resamples; k++) {
        /* Base first, then new: the order of draws is part of what makes the result repeatable. */
        gs_ns mb = resample_median(&rng, base, nb, buf);
        gs_ns mn = resample_median(&rng, next, nn, buf);
        diffs[k] = mn - mb;
        pcts[k] = ratio ? ((double)mn / (double)mb - 1) * 100 : NAN;
    }
    qsort(diffs, resamples, sizeof *diffs, gs_cmp_i64);
    double tail = (1 - GS_BOOT_LEVEL) / 2 * 100;
    size_t lo = rank_index(resamples, tail), hi = rank_index(resamples, 100 - tail);
    out->diff_lo = resamples ? diffs[lo] : out->diff;
    out->diff_hi = resamples ? diffs[hi] : out->diff;
    if (ratio && resamples) {
        qsort(pcts, resamples, sizeof *pcts, gs_cmp_double);
        out->pct_lo = pcts[lo];
        out->pct_hi = pcts[hi];
    } else {
        out->pct_lo = out->pct_hi = out->pct;
    }
    free(buf);
    free(diffs);
    free(pcts);
    return 0;
}

int gs_compare_samples(const gs_ns *base, size_t nb, const gs_ns *next, size_t nn, gs_boot_ci *ci,
                       gs_mw *mw)
{
    if (gs_bootstrap_median_diff(base, nb, next, nn, GS_BOOT_RESAMPLES, GS_BOOT_SEED, ci) != 0)
        return -1;
    return gs_mann_whitney(base, nb, next, nn, mw);
}
