/* The same collective on every rank: the multi-rank analyses (clock alignment, stragglers) read
 * each collective as one instance with one kernel per rank.
 *
 * Matching follows collectives.h: the k-th collective of a kind on one rank is the k-th of that
 * kind on every other rank. An instance is kept when every selected rank has it (seq below the
 * smallest count of its kind over the ranks), so a trace that stops one collective early costs
 * that collective, not the alignment of the rest. Only collectives that synchronise the whole
 * communicator are matched (all-reduce, all-gather, reduce-scatter, broadcast, reduce,
 * all-to-all): send/recv pairs two peers, not every rank, and a kernel of unknown kind may too.
 * Ranks of different communicators (tensor and
 * data parallel groups mixed) are not told apart: the analyses assume one group. */
#ifndef GS_ANALYSIS_COLL_MATCH_H
#define GS_ANALYSIS_COLL_MATCH_H

#include <stddef.h>

#include "analysis/base/collectives.h"
#include "common/error.h"
#include "model/trace.h"

typedef struct gs_coll_rank {
    gs_rank_id id; /* owned */
    gs_collectives coll;
} gs_coll_rank;

typedef struct gs_coll_instance {
    gs_coll_kind kind;
    uint32_t seq;
} gs_coll_instance;

typedef struct gs_coll_match {
    gs_coll_rank *ranks; /* in the order given (by rank) */
    size_t nranks;
    gs_coll_instance *v; /* in order of start on the first rank */
    size_t n;
    const gs_collective **at; /* n × nranks: at[i * nranks + r] is instance i on rank r */
} gs_coll_match;

/* The collectives of n ranks, matched: ids[r] is rank r (its rank, path and epoch_ns are read),
 * colls[r] its collectives (found by gs_collectives_find, kept in its rank summary); both are
 * copied. 0, or -1 with err (out of memory). */
int gs_coll_match_from(const gs_rank_id *const *ids, const gs_collectives *colls, size_t n,
                       gs_coll_match *out, gs_error *err);
void gs_coll_match_free(gs_coll_match *m);

static inline const gs_collective *gs_coll_at(const gs_coll_match *m, size_t i, size_t r)
{
    return m->at[i * m->nranks + r];
}

#endif
