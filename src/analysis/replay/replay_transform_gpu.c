/* The transformations of the actions on the GPU's work: Tensor Cores for eligible kernels, a fused
 * optimizer, collectives overlapped with the backward pass, an operator group at its target share
 * of the roof (replay_actions.c says what each assumes; doc/whatif.md derives it). */
#include "analysis/replay/replay_tx.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/gpu_caps.h"
#include "analysis/base/thresholds.h"
#include "analysis/trace/op_summary.h"
#include "common/vec.h"

/* A fused kernel replaces this many launches of a foreach optimizer: PyTorch's multi_tensor_apply
 * takes up to about a hundred tensors per launch (MultiTensorApply.cuh's depth_to_max_tensors). */
#define RP_TENSORS_PER_LAUNCH 100

/* ---- mixed precision --------------------------------------------------------------------- */

/* Kernels of Tensor-Core-eligible operators that ran without Tensor Cores, and not in a low
 * precision already, run GS_TH_TC_SPEEDUP times faster, on a GPU with Tensor Cores (an unknown
 * GPU is given the benefit, as the advice does). */
int rp_tx_mixed_precision(tx *x)
{
    const gs_replay *m = x->m;
    const gs_gpu_caps *caps = gs_gpu_caps_find(m->vendor, m->compute_major, m->compute_minor);
    if (m->compute_major && caps && !caps->tensor_core)
        return 0;
    for (size_t i = 0; i < m->nedges; i++) {
        const rp_edge *e = &x->e[i];
        if (e->kind != RP_GPU)
            continue;
        const rp_op *o = &m->ops[e->ref];
        if (o->is_memop || kernel_is(x, o, GS_NAME_TENSOR_CORE) ||
            kernel_is(x, o, GS_NAME_LOW_PRECISION) || kernel_is(x, o, GS_NAME_COMM_KERNEL) ||
            !op_within(x, o, GS_NAME_TC_ELIGIBLE))
            continue;
        set_lag(x, i, (gs_ns)((double)lag_at(x, i) / GS_TH_TC_SPEEDUP));
    }
    return 0;
}

/* ---- fused optimizer --------------------------------------------------------------------- */

/* The optimizer step's host time (its operators and launches) shrinks to one launch per
 * RP_TENSORS_PER_LAUNCH kernels it made, and its kernels follow one another without gaps; the
 * kernels' own time (the bytes they move) stays. Nothing changes when most of its kernels are
 * multi-tensor already. */
int rp_tx_fused_optimizer(tx *x)
{
    const gs_replay *m = x->m;
    size_t launched = 0, multi = 0;
    for (size_t i = 0; i < m->nops; i++) {
        const rp_op *o = &m->ops[i];
        if (o->call == GS_NONE || m->call_edge[o->call] == GS_NONE ||
            !(x->e[m->call_edge[o->call]].flags & RP_IN_OPT))
            continue;
        launched++;
        multi += kernel_is(x, o, GS_NAME_MULTI_TENSOR_KERNEL);
    }
    if (!launched || 2 * multi >= launched)
        return 0;
    double keep = (double)((launched + RP_TENSORS_PER_LAUNCH - 1) / RP_TENSORS_PER_LAUNCH) /
                  (double)launched;
    for (size_t i = 0; i < m->nedges; i++) {
        const rp_edge *e = &x->e[i];
        if (rp_is_host(e) && (e->flags & RP_IN_OPT))
            set_lag(x, i, (gs_ns)((double)lag_at(x, i) * keep));
        else if (e->kind == RP_STREAM && m->ops[e->ref].call != GS_NONE &&
                 m->call_edge[m->ops[e->ref].call] != GS_NONE &&
                 (x->e[m->call_edge[m->ops[e->ref].call]].flags & RP_IN_OPT))
            put_lag(x, i, 0);
    }
    return 0;
}

/* ---- communication overlap --------------------------------------------------------------- */

typedef struct timed_op {
    gs_ns start;
    uint32_t op;
} timed_op;

static int timed_cmp(const void *pa, const void *pb)
{
    const timed_op *a = pa, *b = pb;
    return a->start != b->start ? (a->start < b->start ? -1 : 1) : (a->op > b->op) - (a->op < b->op);
}

static bool backward_compute(const tx *x, const rp_op *o)
{
    return !o->is_memop && !kernel_is(x, o, GS_NAME_COMM_KERNEL) &&
           (kernel_is(x, o, GS_NAME_BACKWARD_KERNEL) || op_within(x, o, GS_NAME_BACKWARD_OP));
}

/* In each step, the collectives launched once the backward pass began may start when the part of
 * the backward compute before them in proportion has run (the j-th of m after the first
 * ceil((j+1)/m) share of the backward kernels), and no earlier: their launch moves there, and
 * their wait on the compute stream goes. Collectives before the backward pass, and those that
 * started before their share had run, keep their place. */
static void overlap_one_step(tx *x, const uint32_t *ops, size_t nops, timed_op *bwd,
                             timed_op *comm)
{
    const gs_replay *m = x->m;
    size_t nb = 0, nc = 0;
    for (size_t k = 0; k < nops; k++) {
        const rp_op *o = &m->ops[ops[k]];
        if (backward_compute(x, o))
            bwd[nb++] = (timed_op){op_start(x, o), ops[k]};
        else if (kernel_is(x, o, GS_NAME_COMM_KERNEL))
            comm[nc++] = (timed_op){op_start(x, o), ops[k]};
    }
    if (!nb || !nc)
        return;
    qsort(bwd, nb, sizeof *bwd, timed_cmp);
    qsort(comm, nc, sizeof *comm, timed_cmp);
    size_t first = 0;
    gs_ns bwd_launch = m->ops[bwd[0].op].call != GS_NONE
                           ? x->t->apis.v[m->ops[bwd[0].op].call].start : bwd[0].start;
    while (first < nc && (m->ops[comm[first].op].call == GS_NONE ||
                          x->t->apis.v[m->ops[comm[first].op].call].start < bwd_launch))
        first++;
    size_t mc = nc - first;
    for (size_t j = 0; j < mc; j++) {
        const rp_op *c = &m->ops[comm[first + j].op];
        size_t k = ((j + 1) * nb + mc - 1) / mc - 1;
        uint32_t ready = m->ops[bwd[k].op].end, launch = GS_NONE;
        for (uint32_t e = m->first_in[c->start]; e < m->first_in[c->start + 1]; e++)
            launch = x->e[e].kind == RP_LAUNCH ? e : launch;
        /* The launch moves to `ready` whether the call came before it (the collective then
         * waits for its own gradients, not the whole backward pass) or after; one that started
         * before `ready` overlaps already. */
        if (launch == GS_NONE || !move_source(x, launch, ready))
            continue;
        put_lag(x, launch, 0);
        x->change->items++;
        for (uint32_t e = m->first_in[c->start]; e < m->first_in[c->start + 1]; e++)
            if (x->e[e].kind == RP_XSTREAM)
                put_lag(x, e, RP_OFF);
    }
}

/* The ops of the kept steps grouped by step, each group in the ops' order (a counting sort):
 * by_step[first[s] .. first[s + 1]) are step s's. */
static void group_by_step(const gs_replay *m, uint32_t *first, uint32_t *by_step)
{
    for (size_t i = 0; i < m->nops; i++)
        if (m->ops[i].step >= 0 && (size_t)m->ops[i].step < m->nsteps)
            first[m->ops[i].step + 1]++;
    for (size_t s = 0; s < m->nsteps; s++)
        first[s + 1] += first[s];
    uint32_t *cursor = first; /* first[s] moves along step s's group, then is s + 1's start */
    for (size_t i = 0; i < m->nops; i++)
        if (m->ops[i].step >= 0 && (size_t)m->ops[i].step < m->nsteps)
            by_step[cursor[m->ops[i].step]++] = (uint32_t)i;
    for (size_t s = m->nsteps; s > 0; s--)
        first[s] = first[s - 1];
    first[0] = 0;
}

int rp_tx_overlap_comm(tx *x)
{
    const gs_replay *m = x->m;
    size_t n = m->nops ? m->nops : 1;
    timed_op *bwd = gs_array_new(n, sizeof *bwd), *comm = gs_array_new(n, sizeof *comm);
    uint32_t *by_step = gs_array_new(n, sizeof *by_step);
    uint32_t *first = gs_array_zeroed(m->nsteps + 1, sizeof *first);
    int rc = bwd && comm && by_step && first ? 0 : -1;
    if (rc == 0)
        group_by_step(m, first, by_step);
    for (size_t s = 0; s < m->nsteps && rc == 0; s++)
        overlap_one_step(x, by_step + first[s], first[s + 1] - first[s], bwd, comm);
    free(bwd);
    free(comm);
    free(by_step);
    free(first);
    return rc;
}

/* ---- the largest operator group at its target share of the roof -------------------------- */

/* The GPU work the roofline counts for a call (kernels, memsets, device copies; not the
 * collectives nor the host copies) of the calls of operator p->roof_op takes p->roof_scale of
 * its time. */
int rp_tx_roof_target(tx *x)
{
    const gs_replay_params *p = x->p;
    if (!p->roof_op || !(p->roof_scale > 0 && p->roof_scale < 1))
        return 0;
    for (size_t i = 0; i < x->m->nedges; i++) {
        const rp_edge *e = &x->e[i];
        if (e->kind != RP_GPU || lag_at(x, i) == RP_OFF)
            continue;
        const rp_op *o = &x->m->ops[e->ref];
        const gs_memop *mo = o->is_memop ? &x->t->memops.v[o->index] : NULL;
        if (mo ? mo->kind != GS_MEMOP_MEMSET && mo->kind != GS_MEMOP_DTOD
               : kernel_is(x, o, GS_NAME_COMM_KERNEL))
            continue;
        uint32_t r = mo ? mo->op : x->t->kernels.v[o->index].op;
        if (r != GS_NONE &&
            !strcmp(gs_trace_str(x->t, x->t->ranges.v[gs_op_call_of(x->t, r)].name), p->roof_op))
            set_lag(x, i, (gs_ns)((double)lag_at(x, i) * p->roof_scale));
    }
    return 0;
}
