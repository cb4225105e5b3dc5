/* Collective communication in one trace (rank): every communication kernel (kernel_class.h)
 * named by its collective, numbered so the same collective can be found on every rank, with its
 * message size when the trace records the collective's arguments.
 *
 * Matching across ranks: the k-th collective of a kind on a rank is the k-th of that kind on
 * every other rank of the same communicator. This holds for data, tensor and pipeline
 * parallelism as PyTorch issues them (every rank of a group calls the collectives of that group
 * in the same order); `seq` numbers them so, in order of start. */
#ifndef GS_ANALYSIS_COLLECTIVES_H
#define GS_ANALYSIS_COLLECTIVES_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "model/trace.h"

typedef enum gs_coll_kind {
    GS_COLL_ALL_REDUCE,
    GS_COLL_ALL_GATHER,
    GS_COLL_REDUCE_SCATTER,
    GS_COLL_BROADCAST,
    GS_COLL_REDUCE,
    GS_COLL_ALL_TO_ALL,
    GS_COLL_SEND_RECV, /* point-to-point: send, recv, sendrecv */
    GS_COLL_OTHER,     /* a communication kernel whose collective the name does not tell */
    GS_COLL__COUNT
} gs_coll_kind;

typedef struct gs_collective {
    uint32_t kernel;   /* index into the trace's kernels */
    gs_coll_kind kind;
    uint32_t seq;      /* 0, 1, 2 ... among this trace's collectives of the same kind */
    gs_ns start, end;  /* the kernel's */
    int64_t bytes;     /* message size from the collective's arguments, -1 when unknown */
    int32_t group_size; /* ranks in the communicator, -1 when unknown */
} gs_collective;

typedef struct gs_collectives {
    gs_collective *v; /* in order of start */
    size_t n;
} gs_collectives;

/* "all_reduce", "all_gather", ... as gpuscope's views and JSON name them. */
const char *gs_coll_kind_key(gs_coll_kind k);

/* The collectives of one trace. 0, or -1 with err (out of memory). */
int gs_collectives_find(const gs_trace_ctx *c, gs_collectives *out, gs_error *err);
void gs_collectives_free(gs_collectives *c);

/* The same, found once for a context and its views, by the first analysis that asks, and kept
 * with the context: NULL with err when out of memory. Safe from several threads. */
const gs_collectives *gs_ctx_collectives(const gs_trace_ctx *c, gs_error *err);

/* Where a context keeps them (gs_trace_ctx_build makes it, gs_trace_ctx_free frees it); NULL out
 * of memory. */
typedef struct gs_coll_once gs_coll_once;
gs_coll_once *gs_coll_once_new(void);
void gs_coll_once_free(gs_coll_once *o);

#endif
