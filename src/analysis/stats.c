#include "analysis/stats.h"

#include <math.h>

/* Rounds down without overflowing; a <= b because the values are sorted. */
static gs_ns midpoint_floor(gs_ns a, gs_ns b)
{
    return a + (b - a) / 2;
}

gs_dur_stats gs_dur_stats_of_sorted(const gs_ns *sorted, size_t n)
{
    gs_dur_stats s = {.count = n, .min = sorted[0], .max = sorted[n - 1]};
    for (size_t i = 0; i < n; i++)
        s.total += sorted[i];
    s.avg = s.total / (gs_ns)n;
    s.med = n % 2 ? sorted[n / 2] : midpoint_floor(sorted[n / 2 - 1], sorted[n / 2]);
    if (n > 1) {
        double mean = (double)s.total / (double)n, squares = 0;
        for (size_t i = 0; i < n; i++)
            squares += ((double)sorted[i] - mean) * ((double)sorted[i] - mean);
        s.stddev = (gs_ns)floor(sqrt(squares / (double)(n - 1)));
    }
    return s;
}

double gs_percent(gs_ns part, gs_ns whole)
{
    return whole ? (double)part * 100.0 / (double)whole : 0.0;
}
