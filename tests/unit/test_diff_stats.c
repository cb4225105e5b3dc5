/* The statistics of gpuscope diff: the seeded generator, the bootstrap interval of the difference
 * of medians, and the Mann-Whitney U test. Reference p-values were computed independently, with
 * no scipy, by counting arrangements (exact) or with the tie-corrected normal formula:
 * tests/unit/diff_stats_ref.py prints them. */
#include <math.h>

#include "check.h"
#include "compare/bootstrap.h"
#include "compare/mann_whitney.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static void check_near(double got, double want, double tol, const char *what)
{
    check_count++;
    if (!(fabs(got - want) <= tol)) {
        check_failures++;
        fprintf(stderr, "%s: got %.12g, want %.12g (+- %g)\n", what, got, want, tol);
    }
}

static void test_rng(void)
{
    /* splitmix64's published first output for seed 0: the same stream on every platform. */
    gs_rng r = {0};
    CHECK(gs_rng_next(&r) == UINT64_C(0xe220a8397b1dcdaf));
    CHECK(gs_rng_next(&r) == UINT64_C(0x6e789e6aa1b965f4));
    gs_rng s = {42};
    size_t hist[5] = {0};
    for (int i = 0; i < 50000; i++)
        hist[gs_rng_below(&s, 5)]++;
    for (int k = 0; k < 5; k++) /* 10000 expected each; 5 sigma is ~450 */
        CHECK(hist[k] > 9500 && hist[k] < 10500);
}

static void test_bootstrap_constant(void)
{
    gs_ns base[10], next[12];
    for (size_t i = 0; i < N_OF(base); i++)
        base[i] = 100;
    for (size_t i = 0; i < N_OF(next); i++)
        next[i] = 120;
    gs_boot_ci ci;
    CHECK_INT(gs_bootstrap_median_diff(base, N_OF(base), next, N_OF(next), 2000, 7, &ci), 0);
    CHECK_INT(ci.diff, 20);
    CHECK_INT(ci.diff_lo, 20);
    CHECK_INT(ci.diff_hi, 20);
    check_near(ci.pct, 20, 1e-9, "constant pct");
    check_near(ci.pct_lo, 20, 1e-9, "constant pct_lo");
    check_near(ci.pct_hi, 20, 1e-9, "constant pct_hi");
}

static void test_bootstrap_same(void)
{
    gs_ns v[20];
    for (size_t i = 0; i < N_OF(v); i++)
        v[i] = 1000 + (gs_ns)((i * 7) % 20) * 10; /* 1000..1190, shuffled */
    gs_boot_ci a, b;
    CHECK_INT(gs_bootstrap_median_diff(v, N_OF(v), v, N_OF(v), GS_BOOT_RESAMPLES, GS_BOOT_SEED, &a),
              0);
    CHECK_INT(a.base_med, 1090); /* nearest rank: the 10th of 20 */
    CHECK_INT(a.diff, 0);
    CHECK(a.diff_lo < 0 && a.diff_hi > 0);
    CHECK(a.pct_lo < 0 && a.pct_hi > 0);
    /* The interval of a sample against itself is symmetric in distribution, not in one draw;
     * with 20 values spread over 19 %, it stays within +-10 %. */
    CHECK(a.pct_lo > -10 && a.pct_hi < 10);
    /* Deterministic: the same seed gives the same interval. */
    CHECK_INT(gs_bootstrap_median_diff(v, N_OF(v), v, N_OF(v), GS_BOOT_RESAMPLES, GS_BOOT_SEED, &b),
              0);
    CHECK_INT(a.diff_lo, b.diff_lo);
    CHECK_INT(a.diff_hi, b.diff_hi);
    CHECK(a.pct_lo == b.pct_lo && a.pct_hi == b.pct_hi);
}

static void test_bootstrap_shift(void)
{
    /* NEW = BASE + 30 % with the same +-3 % spread: the interval holds 30 % and excludes 0. */
    gs_ns base[15], next[15];
    for (size_t i = 0; i < N_OF(base); i++) {
        base[i] = 10000 + (gs_ns)((i * 4) % 15) * 20;
        next[i] = 13000 + (gs_ns)((i * 11) % 15) * 20;
    }
    gs_boot_ci ci;
    CHECK_INT(gs_bootstrap_median_diff(base, N_OF(base), next, N_OF(next), 2000, GS_BOOT_SEED, &ci),
              0);
    CHECK_INT(ci.base_med, 10140);
    CHECK_INT(ci.new_med, 13140);
    CHECK_INT(ci.diff, 3000);
    CHECK(ci.diff_lo > 2500 && ci.diff_lo <= 3000 && ci.diff_hi >= 3000 && ci.diff_hi < 3500);
    check_near(ci.pct, 3000.0 / 10140 * 100, 1e-9, "shift pct");
    CHECK(ci.pct_lo > 25 && ci.pct_lo <= ci.pct && ci.pct <= ci.pct_hi && ci.pct_hi < 35);
    CHECK_INT(ci.resamples, 2000);
}

static void check_mw(const gs_ns *a, size_t na, const gs_ns *b, size_t nb, double u, double p,
                     bool exact, const char *name)
{
    gs_mw mw;
    CHECK_INT(gs_mann_whitney(a, na, b, nb, &mw), 0);
    check_near(mw.u, u, 1e-9, name);
    check_near(mw.p, p, 1e-9, name);
    CHECK(mw.exact == exact);
}

static void test_mann_whitney(void)
{
    const gs_ns sep3a[] = {1, 2, 3}, sep3b[] = {4, 5, 6};
    check_mw(sep3a, 3, sep3b, 3, 9, 0.1, true, "sep3"); /* 2 x 1/C(6,3) */
    const gs_ns sep4a[] = {1, 2, 3, 4}, sep4b[] = {5, 6, 7, 8};
    check_mw(sep4a, 4, sep4b, 4, 16, 2.0 / 70, true, "sep4");
    const gs_ns in5a[] = {1, 3, 5, 7, 9}, in5b[] = {2, 4, 6, 8, 10};
    check_mw(in5a, 5, in5b, 5, 15, 0.690476190476, true, "inter5");
    const gs_ns ta[] = {1, 2, 2, 3, 3, 3}, tb[] = {2, 3, 3, 4, 4, 5};
    check_mw(ta, 6, tb, 6, 29, 0.0784029345333, false, "ties");
    const gs_ns ua[] = {10, 20, 30, 40, 50, 60, 70}, ub[] = {35, 45, 55};
    check_mw(ua, 7, ub, 3, 12, 0.833333333333, true, "unequal");
    /* Swapping the samples mirrors U and keeps p. */
    check_mw(ub, 3, ua, 7, 9, 0.833333333333, true, "unequal swapped");
    gs_ns ma[20], mb[20], ba[60], bb[60];
    for (int i = 0; i < 20; i++) {
        ma[i] = 3 * i;
        mb[i] = 3 * i + 4;
    }
    check_mw(ma, 20, mb, 20, 229, 0.44496402484, true, "med20");
    for (int i = 0; i < 60; i++) {
        ba[i] = 2 * i;
        bb[i] = 2 * i + 3;
    }
    check_mw(ba, 60, bb, 60, 1889, 0.64228631133, false, "big"); /* 3600 pairs: normal */
    const gs_ns same[] = {5, 5, 5, 5};
    check_mw(same, 4, same, 4, 8, 1, false, "all tied");
}

int main(void)
{
    test_rng();
    test_bootstrap_constant();
    test_bootstrap_same();
    test_bootstrap_shift();
    test_mann_whitney();
    return check_done("test_diff_stats");
}
