#include "compare/mann_whitney.h"

#include <math.h>
#include <stdlib.h>

typedef struct tagged {
    gs_ns v;
    bool second; /* from b */
} tagged;

static int cmp_tagged(const void *pa, const void *pb)
{
    const tagged *a = pa, *b = pb;
    return (a->v > b->v) - (a->v < b->v);
}

/* P(U <= u) under the null hypothesis with no ties: the coefficients of the Gaussian binomial
 * [m+n choose m]_q count the arrangements giving each U. Built as the product over i of
 * (1 - q^(n+i)) / (1 - q^i); after each whole factor the coefficients are counts again
 * (non-negative), so doubles keep them accurately. */
static int exact_cdf(size_t m, size_t n, double u, double *p)
{
    size_t deg = m * n;
    double *c = calloc(deg + 1, sizeof *c);
    if (!c)
        return -1;
    c[0] = 1;
    size_t top = 0; /* degree so far */
    for (size_t i = 1; i <= m; i++) {
        size_t shift = n + i;
        size_t newtop = top + n;
        /* multiply by (1 - q^shift), highest terms first; terms past newtop cancel out */
        for (size_t k = newtop; k >= shift; k--)
            c[k] -= c[k - shift];
        /* divide by (1 - q^i): running sums with stride i */
        for (size_t k = i; k <= newtop; k++)
            c[k] += c[k - i];
        top = newtop;
    }
    double total = 0, below = 0;
    for (size_t k = 0; k <= deg; k++) {
        total += c[k];
        if ((double)k <= u)
            below += c[k];
    }
    free(c);
    *p = below / total;
    return 0;
}

int gs_mann_whitney(const gs_ns *a, size_t na, const gs_ns *b, size_t nb, gs_mw *out)
{
    size_t n = na + nb;
    tagged *all = malloc(n * sizeof *all);
    if (!all)
        return -1;
    for (size_t i = 0; i < na; i++)
        all[i] = (tagged){a[i], false};
    for (size_t i = 0; i < nb; i++)
        all[na + i] = (tagged){b[i], true};
    qsort(all, n, sizeof *all, cmp_tagged);
    /* Ranks from 1, ties sharing the mean of their ranks; sum(t^3 - t) over tie groups. */
    double rank_b = 0, ties = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && all[j].v == all[i].v)
            j++;
        double t = (double)(j - i), mean_rank = (double)(i + 1 + j) / 2;
        for (size_t k = i; k < j; k++)
            rank_b += all[k].second ? mean_rank : 0;
        ties += t * t * t - t;
        i = j;
    }
    free(all);
    double dna = (double)na, dnb = (double)nb, dn = (double)n;
    *out = (gs_mw){.u = rank_b - dnb * (dnb + 1) / 2};
    double mu = dna * dnb / 2;
    double u_small = out->u < mu ? out->u : dna * dnb - out->u;
    if (ties == 0 && na * nb <= GS_MW_EXACT_MAX_PAIRS) {
        double cdf;
        if (exact_cdf(na, nb, u_small, &cdf) != 0)
            return -1;
        out->exact = true;
        out->p = fmin(1, 2 * cdf);
        return 0;
    }
    double var = dna * dnb / 12 * ((dn + 1) - ties / (dn * (dn - 1)));
    if (var <= 0) { /* every value equal: nothing tells the samples apart */
        out->p = 1;
        return 0;
    }
    out->z = fmax(0, fabs(out->u - mu) - 0.5) / sqrt(var);
    out->p = fmin(1, erfc(out->z / sqrt(2)));
    return 0;
}
