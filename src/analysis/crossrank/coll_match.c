#include "analysis/crossrank/coll_match.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

/* For each kind, the position of every collective of that kind in its rank's array, by seq:
 * collectives are in order of start and seq counts up per kind, so one pass fills it. */
typedef struct by_seq {
    size_t *pos[GS_COLL__COUNT];
    size_t count[GS_COLL__COUNT];
} by_seq;

static int by_seq_build(const gs_collectives *c, by_seq *b)
{
    memset(b, 0, sizeof *b);
    for (size_t i = 0; i < c->n; i++)
        b->count[c->v[i].kind]++;
    for (int k = 0; k < GS_COLL__COUNT; k++) {
        b->pos[k] = gs_array_new(b->count[k], sizeof *b->pos[k]);
        if (!b->pos[k])
            return -1;
        b->count[k] = 0;
    }
    for (size_t i = 0; i < c->n; i++) {
        const gs_collective *x = &c->v[i];
        if (x->seq == b->count[x->kind]) /* seq runs 0, 1, 2 ...; anything else is not matched */
            b->pos[x->kind][b->count[x->kind]++] = i;
    }
    return 0;
}

static void by_seq_free(by_seq *b)
{
    for (int k = 0; k < GS_COLL__COUNT; k++)
        free(b->pos[k]);
}

/* Kinds that synchronise their whole communicator. Point-to-point transfers end together only
 * on the two peers, which the k-th-on-every-rank rule cannot pair (rank 0 sends to 1 while 1
 * sends to 2); a kernel of unknown kind may be either. */
static bool synchronising(gs_coll_kind k)
{
    return k != GS_COLL_SEND_RECV && k != GS_COLL_OTHER;
}

static int match(gs_coll_match *m, by_seq *idx)
{
    size_t common[GS_COLL__COUNT];
    for (int k = 0; k < GS_COLL__COUNT; k++) {
        common[k] = idx[0].count[k];
        for (size_t r = 1; r < m->nranks; r++)
            if (idx[r].count[k] < common[k])
                common[k] = idx[r].count[k];
    }
    const gs_collectives *first = &m->ranks[0].coll;
    m->v = gs_array_new(first->n, sizeof *m->v);
    m->at = gs_array_new(first->n * m->nranks, sizeof *m->at);
    if (!m->v || !m->at)
        return -1;
    for (size_t i = 0; i < first->n; i++) {
        const gs_collective *c = &first->v[i];
        if (!synchronising(c->kind) || c->seq >= common[c->kind] ||
            idx[0].pos[c->kind][c->seq] != i)
            continue;
        m->v[m->n] = (gs_coll_instance){c->kind, c->seq};
        for (size_t r = 0; r < m->nranks; r++)
            m->at[m->n * m->nranks + r] = &m->ranks[r].coll.v[idx[r].pos[c->kind][c->seq]];
        m->n++;
    }
    return 0;
}

/* Indexes every rank's collectives by seq and pairs them (out->ranks filled). */
static int match_ranks(gs_coll_match *out, gs_error *err)
{
    if (out->nranks == 0)
        return 0;
    by_seq *idx = gs_array_zeroed(out->nranks, sizeof *idx);
    int rc = idx ? 0 : -1;
    size_t built = 0;
    for (; built < out->nranks && rc == 0; built++)
        rc = by_seq_build(&out->ranks[built].coll, &idx[built]);
    if (rc == 0)
        rc = match(out, idx);
    for (size_t r = 0; idx && r < built; r++)
        by_seq_free(&idx[r]);
    free(idx);
    if (rc != 0) {
        gs_coll_match_free(out);
        return gs_fail_oom(err);
    }
    return 0;
}

int gs_coll_match_from(const gs_rank_id *const *ids, const gs_collectives *colls, size_t n,
                       gs_coll_match *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    out->ranks = gs_array_zeroed(n, sizeof *out->ranks);
    if (!out->ranks)
        return gs_fail_oom(err);
    for (size_t r = 0; r < n; r++) {
        gs_coll_rank *x = &out->ranks[out->nranks++];
        x->coll.v = gs_array_new(colls[r].n, sizeof *x->coll.v);
        if (!x->coll.v || gs_rank_id_copy(&x->id, ids[r]) != 0) {
            gs_coll_match_free(out);
            return gs_fail_oom(err);
        }
        if (colls[r].n)
            memcpy(x->coll.v, colls[r].v, colls[r].n * sizeof *x->coll.v);
        x->coll.n = colls[r].n;
    }
    return match_ranks(out, err);
}

void gs_coll_match_free(gs_coll_match *m)
{
    for (size_t r = 0; r < m->nranks; r++) {
        gs_rank_id_free(&m->ranks[r].id);
        gs_collectives_free(&m->ranks[r].coll);
    }
    free(m->ranks);
    free(m->v);
    free(m->at);
    memset(m, 0, sizeof *m);
}
