/* The replay's lags in 32 bits, the long ones in a table beside them (replay_lags.h). */
#include "analysis/replay/replay_lags.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

int rp_lags_init(rp_lags *l, size_t n)
{
    *l = (rp_lags){.v = gs_array_zeroed(n, sizeof *l->v), .n = n, .cap = n ? n : 1};
    gs_hashtab_init(&l->longs, sizeof(rp_long_lag));
    return l->v ? 0 : -1;
}

int rp_lags_grow(rp_lags *l)
{
    return gs_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
}

void rp_lags_free(rp_lags *l)
{
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
    gs_hashtab_free(&l->longs);
}

int rp_lag_set_rare(rp_lags *l, uint32_t e, gs_ns lag)
{
    if (lag == RP_OFF) {
        l->v[e] = RP_LAG_OFF;
        return 0;
    }
    rp_long_lag *x = gs_hashtab_find(&l->longs, e + 1, NULL);
    if (!x && !(x = gs_hashtab_add(&l->longs, e + 1)))
        return -1;
    x->lag = lag;
    l->v[e] = RP_LAG_LONG;
    return 0;
}

int rp_lags_copy(rp_lags *to, const rp_lags *from)
{
    memcpy(to->v, from->v, from->n * sizeof *to->v);
    return gs_hashtab_copy(&to->longs, &from->longs);
}
