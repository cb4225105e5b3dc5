/* A confidence interval for the change of the median step time between two runs: the percentile
 * bootstrap of the difference of medians.
 *
 * Why this statistic: step times are skewed (a slow step now and then: a checkpoint, a GC pause,
 * a data-loader stall), so the median is what "a step takes" and a mean is pulled by the tail;
 * the two runs' steps are independent samples with no common distribution assumed, which is what
 * the bootstrap needs and no more. The interval comes from resampling each side with replacement
 * and taking the 2.5th and 97.5th nearest-rank percentiles of the resampled differences.
 *
 * Reproducible: the generator is our own (splitmix64), seeded with a fixed value, so the same
 * inputs give the same interval on every machine and every run. */
#ifndef GS_COMPARE_BOOTSTRAP_H
#define GS_COMPARE_BOOTSTRAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "compare/mann_whitney.h"
#include "model/trace.h"

#define GS_BOOT_RESAMPLES 2000
#define GS_BOOT_SEED UINT64_C(20240601)
#define GS_BOOT_LEVEL 0.95

/* splitmix64 (Steele, Lea, Flood 2014): tiny, fast, good enough to draw indices. */
typedef struct gs_rng {
    uint64_t state;
} gs_rng;

uint64_t gs_rng_next(gs_rng *r);
/* A uniform index in [0, n), n > 0 (Lemire's multiply-shift; the bias is below 2^-32 here). */
size_t gs_rng_below(gs_rng *r, size_t n);

typedef struct gs_boot_ci {
    size_t resamples;
    uint64_t seed;
    double level;                     /* GS_BOOT_LEVEL */
    gs_ns base_med, new_med;          /* nearest-rank medians of the samples themselves */
    gs_ns diff, diff_lo, diff_hi;     /* new_med - base_med and its interval */
    double pct, pct_lo, pct_hi;       /* (new_med / base_med - 1) x 100 and its interval */
} gs_boot_ci;

/* The interval of the difference of nearest-rank medians (new - base), in ns and in percent of
 * the base median (each resample's own ratio, so the percent interval is a bootstrap interval
 * too, not a rescaled one). nb, nn > 0. 0, or -1 when memory is exhausted. */
int gs_bootstrap_median_diff(const gs_ns *base, size_t nb, const gs_ns *next, size_t nn,
                             size_t resamples, uint64_t seed, gs_boot_ci *out);

/* Two samples compared as diff compares them (step times, GPU work per step): the interval with
 * GS_BOOT_RESAMPLES and GS_BOOT_SEED, and the Mann-Whitney test beside it. nb, nn > 0. 0, or -1
 * when memory is exhausted. */
int gs_compare_samples(const gs_ns *base, size_t nb, const gs_ns *next, size_t nn, gs_boot_ci *ci,
                       gs_mw *mw);

/* A change is significant when its interval leaves out 0. */
static inline bool gs_boot_ci_excludes_zero(const gs_boot_ci *ci)
{
    return ci->diff_lo > 0 || ci->diff_hi < 0;
}

#endif
