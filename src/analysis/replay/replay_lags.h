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

/* A lag RP_OFF or outside 32 bits, into the table (rp_lag_set). */
int rp_lag_set_rare(rp_lags *l, uint32_t e, gs_ns lag);

/* Edge e's lag: 0, or -1 out of memory (a long lag's entry; the lag is then unchanged). Inline,
 * as rp_lag: a graph's millions of edges take it in the build and in every run. */
static inline int rp_lag_set(rp_lags *l, uint32_t e, gs_ns lag)
{
    if (lag > RP_LAG_OFF && lag < RP_LAG_LONG) {
        l->v[e] = (int32_t)lag; /* an entry the edge had stays, unread */
        return 0;
    }
    return rp_lag_set_rare(l, e, lag);
}

/* Grows l for rp_lags_push. */
int rp_lags_grow(rp_lags *l);

/* One more lag, for the edge numbered l->n. 0, or -1 out of memory. */
static inline int rp_lags_push(rp_lags *l, gs_ns lag)
{
    if (l->n == l->cap && rp_lags_grow(l) != 0)
        return -1;
    l->v[l->n] = 0;
    if (rp_lag_set(l, (uint32_t)l->n, lag) != 0)
        return -1;
    l->n++;
    return 0;
}

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
