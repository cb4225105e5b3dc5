/* The replay's lags, one per edge, in 32 bits: the model's, and each run's copy that its actions
 * change. Nearly every lag is under 2.1 s (a segment of CPU time, a call, a kernel, a gap); the
 * few longer ones (an idle thread, a GPU idle between steps) are kept exactly beside them, in a
 * table by edge. Private to the replay's folder. */
#ifndef GS_ANALYSIS_REPLAY_LAGS_H
#define GS_ANALYSIS_REPLAY_LAGS_H

#include <stddef.h>
#include <stdint.h>

#include "common/hashtab.h"
#include "model/trace.h"

#define RP_OFF INT64_MIN /* an edge's lag when the edge is not in the graph */

enum {
    RP_LAG_OFF = INT32_MIN,  /* stored for RP_OFF */
    RP_LAG_LONG = INT32_MAX, /* stored for a lag the table holds */
};

typedef struct rp_lags {
    int32_t *v; /* per edge */
    size_t n, cap;
    gs_hashtab longs; /* rp_long_lag entries, keyed by edge + 1 */
} rp_lags;

typedef struct rp_long_lag {
    uint32_t key;
    gs_ns lag;
} rp_long_lag;

/* n lags, all 0. 0, or -1 out of memory. */
int rp_lags_init(rp_lags *l, size_t n);
void rp_lags_free(rp_lags *l);

/* One more lag, for the edge numbered l->n. 0, or -1 out of memory. */
int rp_lags_push(rp_lags *l, gs_ns lag);

/* Edge e's lag: 0, or -1 out of memory (a long lag's entry; the lag is then unchanged). */
int rp_lag_set(rp_lags *l, uint32_t e, gs_ns lag);

/* Makes `to` (as many edges) hold `from`'s lags. 0, or -1 out of memory. */
int rp_lags_copy(rp_lags *to, const rp_lags *from);

static inline gs_ns rp_lag(const rp_lags *l, uint32_t e)
{
    int32_t v = l->v[e];
    if (v != RP_LAG_OFF && v != RP_LAG_LONG)
        return v;
    if (v == RP_LAG_OFF)
        return RP_OFF;
    const rp_long_lag *x = gs_hashtab_find(&l->longs, e + 1, NULL);
    return x->lag;
}

#endif
