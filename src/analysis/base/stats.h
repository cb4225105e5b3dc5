/* Duration statistics with the `nsys stats` conventions every summary table uses. */
#ifndef GS_ANALYSIS_STATS_H
#define GS_ANALYSIS_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "model/trace.h"

typedef struct gs_dur_stats {
    uint64_t count;
    gs_ns total;
    gs_ns avg;    /* total / count, rounded down */
    gs_ns med;    /* middle value; mean of the two middle values when count is even, rounded down */
    gs_ns min, max;
    gs_ns stddev; /* sample standard deviation (n - 1), rounded down; 0 for one value */
} gs_dur_stats;

/* Statistics of n durations sorted ascending (n > 0). */
gs_dur_stats gs_dur_stats_of_sorted(const gs_ns *sorted, size_t n);

/* Nearest-rank percentile (doc/design.md §9): the value at rank ceil(p/100 × n) (at least 1) of n
 * values, n > 0. Reorders v (quickselect, O(n) on average): no full sort for a median. */
gs_ns gs_percentile_select(gs_ns *v, size_t n, double p);

/* part / whole × 100; 0 when whole is 0. */
double gs_percent(gs_ns part, gs_ns whole);

#endif
