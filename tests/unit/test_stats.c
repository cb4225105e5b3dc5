#include <string.h>
#include <math.h>
/* Duration statistics: the nsys conventions for median, average and standard deviation. */
#include "analysis/base/stats.h"
#include "check.h"

static void test_one_value(void)
{
    const gs_ns v[] = {42};
    gs_dur_stats s = gs_dur_stats_of_sorted(v, 1);
    CHECK_INT(s.count, 1);
    CHECK_INT(s.total, 42);
    CHECK_INT(s.avg, 42);
    CHECK_INT(s.med, 42);
    CHECK_INT(s.min, 42);
    CHECK_INT(s.max, 42);
    CHECK_INT(s.stddev, 0); /* one instance: 0, not NaN */
}

static void test_even_count_median_is_mean_of_middle_pair_rounded_down(void)
{
    const gs_ns v[] = {10, 11};
    gs_dur_stats s = gs_dur_stats_of_sorted(v, 2);
    CHECK_INT(s.med, 10); /* 10.5 */
    CHECK_INT(s.avg, 10); /* 10.5 */
    CHECK_INT(s.stddev, 0); /* sqrt(0.5) = 0.707 */

    const gs_ns w[] = {10, 20, 30, 40};
    s = gs_dur_stats_of_sorted(w, 4);
    CHECK_INT(s.med, 25);
    CHECK_INT(s.total, 100);
    CHECK_INT(s.avg, 25);
    /* deviations 15, 5, 5, 15: squares 500 / (n - 1 = 3) = 166.67, sqrt = 12.91 */
    CHECK_INT(s.stddev, 12);
}

static void test_odd_count_median_is_middle_value(void)
{
    const gs_ns v[] = {1, 2, 100};
    gs_dur_stats s = gs_dur_stats_of_sorted(v, 3);
    CHECK_INT(s.med, 2);
    CHECK_INT(s.avg, 34); /* 103 / 3 = 34.33 */
    CHECK_INT(s.min, 1);
    CHECK_INT(s.max, 100);
    /* mean 34.33: squares 1111.11 + 1045.44 + 4312.11 = 6468.67, / 2 = 3234.33, sqrt = 56.87 */
    CHECK_INT(s.stddev, 56);
}

static void test_percent(void)
{
    CHECK(gs_percent(1, 4) == 25.0);
    CHECK(gs_percent(0, 0) == 0.0);
    CHECK(gs_percent(5, 5) == 100.0);
}

/* Nearest-rank percentiles by selection agree with sorting, on ties, sorted and reversed input. */
static void test_percentile_select(void)
{
    gs_ns v[] = {40, 10, 30, 20, 50, 20, 20, 90, 60, 70};
    gs_ns sorted[] = {10, 20, 20, 20, 30, 40, 50, 60, 70, 90};
    const double ps[] = {1, 10, 25, 50, 51, 90, 95, 99, 100};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        gs_ns copy[10];
        memcpy(copy, v, sizeof v);
        size_t rank = (size_t)ceil(ps[i] / 100.0 * 10);
        CHECK_INT(gs_percentile_select(copy, 10, ps[i]), sorted[rank ? rank - 1 : 0]);
    }
    gs_ns one[] = {7};
    CHECK_INT(gs_percentile_select(one, 1, 50), 7);
    gs_ns same[] = {5, 5, 5, 5, 5, 5};
    CHECK_INT(gs_percentile_select(same, 6, 95), 5);
    gs_ns desc[1000];
    for (int i = 0; i < 1000; i++)
        desc[i] = 1000 - i;
    CHECK_INT(gs_percentile_select(desc, 1000, 50), 500);
    CHECK_INT(gs_percentile_select(desc, 1000, 95), 950);
    CHECK_INT(gs_percentile_select(desc, 1000, 100), 1000);
}

int main(void)
{
    test_percentile_select();
    test_one_value();
    test_even_count_median_is_mean_of_middle_pair_rounded_down();
    test_odd_count_median_is_middle_value();
    test_percent();
    return check_done("test_stats");
}
