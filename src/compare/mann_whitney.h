/* The Mann-Whitney U test (Wilcoxon rank-sum), two-sided: do the step times of NEW tend to be
 * larger or smaller than those of BASE? A second opinion beside the bootstrap interval, with no
 * assumption on the shape of either distribution; it reports a p-value, where the bootstrap
 * reports how large the change is.
 *
 * Exact p-value (the distribution of U counted over every arrangement) when there are no ties and
 * na x nb <= GS_MW_EXACT_MAX_PAIRS, as small samples need; else the normal approximation with the
 * tie correction of the variance and a continuity correction (scipy's method="asymptotic"). */
#ifndef GS_COMPARE_MANN_WHITNEY_H
#define GS_COMPARE_MANN_WHITNEY_H

#include <stdbool.h>
#include <stddef.h>

#include "model/trace.h"

#define GS_MW_EXACT_MAX_PAIRS 2500

typedef struct gs_mw {
    double u;     /* U of the second sample: pairs (a, b) with b > a, plus half the ties */
    double z;     /* the normal approximation's z (0 when exact) */
    double p;     /* two-sided p-value */
    bool exact;
} gs_mw;

/* na, nb > 0. 0, or -1 when memory is exhausted. */
int gs_mann_whitney(const gs_ns *a, size_t na, const gs_ns *b, size_t nb, gs_mw *out);

#endif
