#include "analysis/base/stats.h"

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

static void swap_ns(gs_ns *a, gs_ns *b)
{
    gs_ns t = *a;
    *a = *b;
    *b = t;
}

/* Hoare's selection with a median-of-three pivot: puts the k-th smallest at v[k]. */
static gs_ns select_kth(gs_ns *v, size_t n, size_t k)
{
    size_t lo = 0, hi = n - 1;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < v[lo])
            swap_ns(&v[mid], &v[lo]);
        if (v[hi] < v[lo])
            swap_ns(&v[hi], &v[lo]);
        if (v[hi] < v[mid])
            swap_ns(&v[hi], &v[mid]);
        gs_ns pivot = v[mid];
        size_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                swap_ns(&v[i], &v[j]);
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            break; /* v[j+1 .. i-1] all equal the pivot */
    }
    return v[k];
}

gs_ns gs_percentile_select(gs_ns *v, size_t n, double p)
{
    size_t rank = (size_t)ceil(p / 100.0 * (double)n);
    if (rank < 1)
        rank = 1;
    if (rank > n)
        rank = n;
    return select_kth(v, n, rank - 1);
}

double gs_percent(gs_ns part, gs_ns whole)
{
    return whole ? (double)part * 100.0 / (double)whole : 0.0;
}
