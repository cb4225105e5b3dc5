/* What the actions' transformations share (replay_transform.c, replay_transform_gpu.c): the run
 * they change, and how they change an edge. Private to the files of this folder. */
#ifndef GS_ANALYSIS_REPLAY_TX_H
#define GS_ANALYSIS_REPLAY_TX_H

#include "analysis/replay/replay_model.h"

typedef struct tx {
    const gs_replay *m;
    const gs_trace *t;
    const rp_edge *e; /* the model's edges: what each is */
    rp_lags *lag;         /* the run's lags and launch sources, which the actions change */
    uint32_t *launch_from;
    const gs_replay_params *p;
    gs_replay_change *change; /* the current action's */
    bool failed;              /* out of memory keeping a long lag */
    bool kept_off;            /* an edge of a kind that stays on was turned off */
    bool touched;             /* a lag or a launch source changed */
} tx;

static inline gs_ns lag_at(const tx *x, size_t i)
{
    return rp_lag(x->lag, (uint32_t)i);
}

/* Sets edge i's lag, counting nothing; a chain's segment's change goes into the chain's lag too.
 * Only the kinds that may go off are turned off: the model keeps no measured time for a point
 * with an edge of another kind (rp_kind_may_go_off), and a segment is not one. */
static inline void put_lag(tx *x, size_t i, gs_ns lag)
{
    if (lag == RP_OFF && !rp_kind_may_go_off(x->e[i].kind)) {
        x->kept_off = true;
        return;
    }
    gs_ns was = lag_at(x, i);
    if (was == lag)
        return;
    if (rp_lag_set(x->lag, (uint32_t)i, lag) != 0)
        x->failed = true;
    if (i >= x->m->ngraph) {
        uint32_t chain = x->e[i].from;
        if (rp_lag_set(x->lag, chain, lag_at(x, chain) + (lag - was)) != 0)
            x->failed = true;
    }
    x->touched = true;
}

/* Sets edge i's lag, counting what changed for the current action. */
static inline void set_lag(tx *x, size_t i, gs_ns lag)
{
    const rp_edge *e = &x->e[i];
    gs_ns was = lag_at(x, i);
    if (was == lag)
        return;
    gs_ns before = was == RP_OFF ? 0 : was, after = lag == RP_OFF ? 0 : lag;
    if (rp_is_host(e)) {
        x->change->host_before += before;
        x->change->host_after += after;
    } else if (e->kind == RP_GPU) {
        x->change->gpu_before += before;
        x->change->gpu_after += after;
    }
    if (rp_is_host(e) || e->kind == RP_GPU || e->kind == RP_WAIT)
        x->change->items++;
    put_lag(x, i, lag);
}

/* Moves launch edge i's source to `from` when that point comes earlier in the order (a lower
 * number) than the op's start, where the edge ends. */
static inline bool move_source(tx *x, size_t i, uint32_t from)
{
    if (from >= x->m->ops[x->e[i].ref].start)
        return false;
    x->launch_from[x->e[i].ref] = from;
    x->touched = true;
    return true;
}

static inline const gs_kernel *kernel_of(const tx *x, const rp_op *o)
{
    return o->is_memop ? NULL : &x->t->kernels.v[o->index];
}

/* When the op started in the trace: its start point's measured time. */
static inline gs_ns op_start(const tx *x, const rp_op *o)
{
    return o->is_memop ? x->t->memops.v[o->index].start : x->t->kernels.v[o->index].start;
}

static inline bool kernel_is(const tx *x, const rp_op *o, enum gs_name_group g)
{
    const gs_kernel *k = kernel_of(x, o);
    return k && gs_ctx_name(x->m->ctx, k->name, g);
}

/* Whether the op's operator, or one enclosing it (a few levels up), is in group g. */
static inline bool op_within(const tx *x, const rp_op *o, enum gs_name_group g)
{
    uint32_t r = o->is_memop ? x->t->memops.v[o->index].op : x->t->kernels.v[o->index].op;
    for (int depth = 0; r != GS_NONE && depth < 8; depth++, r = x->t->ranges.v[r].parent)
        if (gs_ctx_name(x->m->ctx, x->t->ranges.v[r].name, g))
            return true;
    return false;
}

/* The actions on the GPU's work (replay_transform_gpu.c); 0, or -1 out of memory. */
int rp_tx_mixed_precision(tx *x);
int rp_tx_fused_optimizer(tx *x);
int rp_tx_overlap_comm(tx *x);
int rp_tx_roof_target(tx *x);

#endif
