/* The actions' transformations of the replay's edges, one function per action in the order of
 * enum gs_replay_action (replay_actions.c says what each assumes; doc/whatif.md derives it): here
 * those on the host's side and the profiler's cost, and the table of all of them; those on the
 * GPU's work are in replay_transform_gpu.c. Each changes lags, turns edges off, or moves an edge's
 * source to an earlier point. */
#include "analysis/replay/replay_tx.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/gpu_caps.h"
#include "common/vec.h"

/* What an async copy's call costs the host once it no longer waits: a launch call's cost. */
#define RP_ASYNC_CALL_NS 5000
/* Main-process share of a batch's loading time that stays with workers: receiving the batch. */
#define RP_BATCH_RESIDUE 0.1
/* Pinned host-to-device bandwidth by PCIe generation, bytes per ns (GB/s), when the trace has no
 * large pinned copy to measure it by: x16 links, about 80 % of the raw rate (PCIe 3: Volta and
 * Turing boards; 4: Ampere; 5: Hopper and later). */
#define RP_PCIE3_BW 12.0
#define RP_PCIE4_BW 24.0
#define RP_PCIE5_BW 48.0
#define RP_PINNED_MEASURE_BYTES (1u << 20)

/* ---- CUDA graphs ------------------------------------------------------------------------- */

/* Where a lane's walk stands: the graph its calls go into (the graph launch's point), and the
 * operators' dispatch before a run's first launch, which goes with the graph too: kept aside until
 * the run shows it launches anything. */
typedef struct graph_lane {
    uint32_t graph, last; /* last: the point the lane's previous edge ended at */
    GS_VEC(uint32_t) before;
} graph_lane;

/* Host edge i, from point `from` to point p, in its lane's walk (a chain's inner points, which
 * no step's bound is, are GS_NONE). 0, or -1 out of memory. */
static int graph_step(tx *x, graph_lane *g, uint32_t *graph_of_call, uint32_t i, uint32_t from,
                      uint32_t p)
{
    const rp_edge *e = &x->e[i];
    if (from != g->last || (from != GS_NONE && x->m->step_mark[from]) ||
        (e->flags & (RP_IN_DATA | RP_BLOCKS | RP_IDLE))) {
        /* the lane's first edge, a step's bound, a fetch, a wait for the GPU or for another
         * thread (the only step bound other threads have) ends the graph */
        g->graph = GS_NONE;
        g->before.n = 0;
    }
    g->last = p;
    if (e->kind == RP_CALL && !(e->flags & RP_BLOCKS) && !(e->flags & RP_IN_DATA)) {
        if (g->graph == GS_NONE && (e->flags & RP_LAUNCHES)) {
            g->graph = e->from; /* the graph launch: costs what this call cost */
            graph_of_call[e->ref] = g->graph;
            for (size_t k = 0; k < g->before.n; k++)
                set_lag(x, g->before.v[k], 0);
            g->before.n = 0;
        } else if (g->graph != GS_NONE) {
            graph_of_call[e->ref] = g->graph;
            set_lag(x, i, 0);
        }
    } else if (e->kind == RP_SEGMENT && (e->flags & RP_IN_OP)) {
        if (g->graph != GS_NONE) {
            set_lag(x, i, 0);
        } else {
            uint32_t *slot = GS_VEC_PUSH(&g->before);
            if (!slot)
                return -1;
            *slot = i;
        }
    }
    return 0;
}

/* Edge i, which ends at point p, in its lane's walk: a host edge, or a chain's segments in turn.
 * 0, or -1 out of memory. */
static int graph_edge(tx *x, graph_lane *lanes, uint32_t *graph_of_call, uint32_t i, uint32_t p)
{
    const rp_edge *e = &x->e[i];
    if (rp_is_host(e))
        return graph_step(x, &lanes[e->lane], graph_of_call, i, e->from, p);
    if (e->kind != RP_CHAIN)
        return 0;
    uint32_t first = x->m->chain_first[e->ref], last = x->m->chain_first[e->ref + 1] - 1;
    int rc = 0;
    for (uint32_t s = first; s <= last && rc == 0; s++)
        rc = graph_step(x, &lanes[e->lane], graph_of_call, s, s == first ? e->from : GS_NONE,
                        s == last ? p : GS_NONE);
    return rc;
}

/* Runs of a lane's edges between two blocking calls (or DataLoader fetches, step bounds, waits
 * for another thread) become one graph each: its first launch call stands for the graph launch,
 * the other calls and the operators' dispatch go; the graph's ops start from the graph launch and
 * follow one another at the stream's least gap. Python time (segments outside operators) stays.
 * Each lane is walked in its own order: its edges' points, which are in the model's order. */
static int cuda_graphs(tx *x)
{
    const gs_replay *m = x->m;
    uint32_t *graph_of_call = gs_array_new(x->t->apis.n, sizeof *graph_of_call);
    graph_lane *lanes = gs_array_zeroed(RP_MAX_LANES, sizeof *lanes);
    int rc = graph_of_call && lanes ? 0 : -1;
    if (graph_of_call)
        memset(graph_of_call, 0xff, (x->t->apis.n ? x->t->apis.n : 1) * sizeof *graph_of_call);
    for (size_t l = 0; lanes && l < RP_MAX_LANES; l++)
        lanes[l].graph = lanes[l].last = GS_NONE;
    for (uint32_t p = 0; p < m->npoints && rc == 0; p++)
        for (uint32_t i = m->first_in[p]; i < m->first_in[p + 1] && rc == 0; i++)
            rc = graph_edge(x, lanes, graph_of_call, i, p);
    for (size_t l = 0; lanes && l < RP_MAX_LANES; l++)
        GS_VEC_FREE(&lanes[l].before);
    free(lanes);
    if (rc != 0) {
        free(graph_of_call);
        return -1;
    }
    for (size_t i = 0; i < m->nedges; i++) {
        const rp_edge *e = &x->e[i];
        if (e->kind != RP_LAUNCH && e->kind != RP_STREAM)
            continue;
        const rp_op *o = &m->ops[e->ref];
        if (o->call == GS_NONE || graph_of_call[o->call] == GS_NONE)
            continue;
        if (e->kind == RP_LAUNCH) {
            move_source(x, i, graph_of_call[o->call]);
            if (lag_at(x, i) > m->inputs.launch_latency_ns)
                put_lag(x, i, m->inputs.launch_latency_ns);
        } else if (lag_at(x, i) > m->inputs.stream_gap_ns) {
            put_lag(x, i, m->inputs.stream_gap_ns);
        }
    }
    free(graph_of_call);
    return rc;
}

/* ---- torch.compile fusion ---------------------------------------------------------------- */

/* The op that ends at point p: the source of p's duration edge; GS_NONE when none. */
static uint32_t op_ending_at(const gs_replay *m, uint32_t p)
{
    for (uint32_t e = m->first_in[p]; e < m->first_in[p + 1]; e++)
        if (m->edges[e].kind == RP_GPU)
            return m->edges[e].ref;
    return GS_NONE;
}

static bool fusable(const tx *x, const rp_op *o)
{
    return kernel_is(x, o, GS_NAME_POINTWISE_KERNEL) && !kernel_is(x, o, GS_NAME_COMPILED_KERNEL);
}

/* What torch.compile's default mode changes: pointwise kernels that follow one another on a stream
 * within a step become one, as long as the longest, and the kernels fused away lose their launch;
 * the operators' dispatch between kernels goes (the generated code launches the kernels itself,
 * each launch call staying). */
static int compile_fusion(tx *x)
{
    const gs_replay *m = x->m;
    size_t nops = m->nops;
    uint32_t *prev = gs_array_new(nops, sizeof *prev);
    uint32_t *next = gs_array_new(nops, sizeof *next);
    uint32_t *gpu_edge = gs_array_new(nops, sizeof *gpu_edge);
    uint8_t *gone_range = gs_array_zeroed(x->t->ranges.n, 1);
    int rc = -1;
    if (!prev || !next || !gpu_edge || !gone_range)
        goto done;
    memset(prev, 0xff, (nops ? nops : 1) * sizeof *prev);
    memset(next, 0xff, (nops ? nops : 1) * sizeof *next);
    for (size_t i = 0; i < m->nedges; i++) {
        uint32_t before = x->e[i].kind == RP_STREAM ? op_ending_at(m, x->e[i].from) : GS_NONE;
        if (before != GS_NONE) {
            prev[x->e[i].ref] = before;
            next[before] = x->e[i].ref;
        }
        if (x->e[i].kind == RP_GPU)
            gpu_edge[x->e[i].ref] = (uint32_t)i;
    }
    /* The stream edges give each op its neighbours; a chain's head is a fusable op whose
     * predecessor is not one (or is in another step). */
    for (size_t i = 0; i < nops; i++) {
        const rp_op *o = &m->ops[i];
        if (!fusable(x, o) || (prev[i] != GS_NONE && fusable(x, &m->ops[prev[i]]) &&
                               m->ops[prev[i]].step == o->step))
            continue;
        /* i heads a chain: walk it by the stream's successors. */
        gs_ns longest = o->dur;
        size_t len = 1;
        for (uint32_t j = next[i]; j != GS_NONE && fusable(x, &m->ops[j]) &&
                                   m->ops[j].step == o->step;
             j = next[j], len++) {
            const rp_op *f = &m->ops[j];
            longest = f->dur > longest ? f->dur : longest;
            set_lag(x, gpu_edge[j], 0);
            for (uint32_t e = m->first_in[f->start]; e < m->first_in[f->start + 1]; e++) {
                if (x->e[e].kind == RP_LAUNCH)
                    put_lag(x, e, RP_OFF);
                else if (x->e[e].kind == RP_STREAM)
                    put_lag(x, e, 0);
            }
            if (f->call != GS_NONE && m->call_edge[f->call] != GS_NONE)
                set_lag(x, m->call_edge[f->call], 0);
            uint32_t r = x->t->kernels.v[f->index].op;
            if (r != GS_NONE)
                gone_range[r] = 1;
        }
        if (len > 1)
            set_lag(x, gpu_edge[i], longest);
    }
    /* The generated code calls the kernels itself: the operators' dispatch goes wherever the
     * model runs (not in regions compiled already, the optimizer's step or the DataLoader). */
    for (size_t i = 0; i < m->nedges; i++) {
        const rp_edge *e = &x->e[i];
        if (e->kind != RP_SEGMENT)
            continue; /* ref is a segment's operator only */
        bool gone = e->ref != GS_NONE && gone_range[e->ref];
        bool dispatch = (e->flags & RP_IN_OP) &&
                        !(e->flags & (RP_IN_COMPILED | RP_IN_OPT | RP_IN_DATA));
        if (gone || dispatch)
            set_lag(x, i, 0);
    }
    rc = 0;
done:
    free(prev);
    free(next);
    free(gpu_edge);
    free(gone_range);
    return rc;
}

/* ---- DataLoader workers ------------------------------------------------------------------ */

/* The batches arrive one per interval from the workers: the fetch ends at the latest of its
 * start plus the residue (receiving the batch) and the batch's arrival, the previous batch's
 * plus the interval. Loading in the main process (single-process iterator): the interval is
 * the mean fetch over k workers and the residue a tenth of it. Workers already (their number
 * unknown): twice as many halve the interval, taken as one mean step (the loader kept the step
 * waiting, so a batch came once per step), and the residue is the shortest fetch. */
static int dataloader_workers(tx *x)
{
    const gs_replay *m = x->m;
    const gs_trace *t = x->t;
    gs_ns sum = 0, shortest = INT64_MAX;
    size_t n = 0;
    bool single = false;
    for (size_t i = 0; i < m->nedges; i++) {
        const rp_edge *e = &x->e[i];
        if (e->kind != RP_BATCH || !(e->flags & RP_IN_DATA) || m->range_start[e->ref] != e->from)
            continue; /* the fetch's start to its batch point: one per fetch */
        const gs_range *r = &t->ranges.v[e->ref];
        gs_ns d = r->end - r->start;
        sum += d;
        shortest = d < shortest ? d : shortest;
        n++;
        single = single || strstr(gs_trace_str(t, r->name), "SingleProcess") != NULL;
    }
    if (!n)
        return 0;
    gs_ns mean = sum / (gs_ns)n, steps = 0;
    for (size_t s = 0; s < m->nsteps; s++)
        steps += m->steps[s].step->end - m->steps[s].step->start;
    int k = x->p->dataloader_workers > 0 ? x->p->dataloader_workers : 4;
    gs_ns interval = single ? mean / k : steps / (gs_ns)m->nsteps / 2;
    gs_ns residue = single ? (gs_ns)((double)mean * RP_BATCH_RESIDUE) : shortest;
    for (size_t i = 0; i < m->nedges; i++) {
        const rp_edge *e = &x->e[i];
        if (e->kind == RP_BATCH)
            put_lag(x, i, !(e->flags & RP_IN_DATA)                ? interval
                          : m->range_start[e->ref] == e->from ? residue
                                                              : 0);
        else if (rp_is_host(e) && (e->flags & RP_IN_DATA))
            set_lag(x, i, 0);
    }
    x->change->host_after += residue * (gs_ns)n;
    return 0;
}

/* ---- pinned memory ----------------------------------------------------------------------- */

static double pinned_bandwidth(const tx *x)
{
    double best = 0;
    for (size_t i = 0; i < x->t->memops.n; i++) {
        const gs_memop *c = &x->t->memops.v[i];
        bool pinned = c->src == GS_LOC_PINNED || c->dst == GS_LOC_PINNED;
        if (pinned && c->bytes >= RP_PINNED_MEASURE_BYTES && c->end > c->start) {
            double bw = (double)c->bytes / (double)(c->end - c->start);
            best = bw > best ? bw : best;
        }
    }
    if (best > 0)
        return best;
    int32_t major = x->m->vendor == GS_VENDOR_NVIDIA ? x->m->compute_major : 0;
    return major >= 9 ? RP_PCIE5_BW : major >= 1 && major <= 7 ? RP_PCIE3_BW : RP_PCIE4_BW;
}

/* Copies with a pageable side run at the pinned bandwidth; the host-to-device ones no longer
 * block their call, which then costs a launch's. */
static int pinned_memory(tx *x)
{
    const gs_replay *m = x->m;
    double bw = pinned_bandwidth(x);
    for (size_t i = 0; i < m->nedges; i++) {
        const rp_edge *e = &x->e[i];
        if (e->kind == RP_GPU && m->ops[e->ref].is_memop) {
            const gs_memop *c = &x->t->memops.v[m->ops[e->ref].index];
            if (c->src != GS_LOC_PAGEABLE && c->dst != GS_LOC_PAGEABLE)
                continue;
            gs_ns fast = (gs_ns)((double)c->bytes / bw);
            if (fast < lag_at(x, i))
                set_lag(x, i, fast);
        } else if (e->kind == RP_WAIT && m->call_edge[e->ref] != GS_NONE) {
            const rp_edge *call = &x->e[m->call_edge[e->ref]];
            if (!(call->flags & RP_HTOD) || !(call->flags & RP_BLOCKS))
                continue;
            set_lag(x, i, RP_OFF);
            if (lag_at(x, m->call_edge[e->ref]) > RP_ASYNC_CALL_NS)
                set_lag(x, m->call_edge[e->ref], RP_ASYNC_CALL_NS);
        }
    }
    return 0;
}

/* ---- host synchronization ---------------------------------------------------------------- */

/* Blocking calls stop waiting for the GPU; their own cost after the GPU finished stays. Host-to-
 * device copies are the pinned-memory action's. */
static int remove_syncs(tx *x)
{
    const gs_replay *m = x->m;
    for (size_t i = 0; i < m->nedges; i++) {
        const rp_edge *e = &x->e[i];
        if (e->kind == RP_WAIT && lag_at(x, i) != RP_OFF &&
            (m->call_edge[e->ref] == GS_NONE || !(x->e[m->call_edge[e->ref]].flags & RP_HTOD)))
            set_lag(x, i, RP_OFF);
    }
    return 0;
}

/* ---- the profiler's cost ----------------------------------------------------------------- */

/* Each recorded range gives its unit cost back from the host time before it, each traced GPU
 * activity from its launch call (trace_facts.h's unit costs): the model's cuts, applied. */
static int no_profiler(tx *x)
{
    /* set_lag's count, without reading the edges: every cut is a host edge's (replay_profiler.c),
     * which no action turns off. */
    for (size_t i = 0; i < x->m->nprofiler_cuts; i++) {
        const rp_cut *c = &x->m->profiler_cuts[i];
        gs_ns lag = lag_at(x, c->edge), cost = (gs_ns)c->cost;
        gs_ns cut = lag > cost ? lag - cost : 0;
        if (cut == lag)
            continue;
        x->change->host_before += lag;
        x->change->host_after += cut;
        x->change->items++;
        put_lag(x, c->edge, cut);
    }
    return 0;
}

/* ---- all of them ------------------------------------------------------------------------- */

static int (*const transforms[GS_REPLAY__COUNT])(tx *) = {
    [GS_REPLAY_CUDA_GRAPHS] = cuda_graphs,
    [GS_REPLAY_COMPILE] = compile_fusion,
    [GS_REPLAY_DATALOADER_WORKERS] = dataloader_workers,
    [GS_REPLAY_PINNED_MEMORY] = pinned_memory,
    [GS_REPLAY_REMOVE_SYNCS] = remove_syncs,
    [GS_REPLAY_MIXED_PRECISION] = rp_tx_mixed_precision,
    [GS_REPLAY_FUSED_OPTIMIZER] = rp_tx_fused_optimizer,
    [GS_REPLAY_OVERLAP_COMM] = rp_tx_overlap_comm,
    [GS_REPLAY_ROOF_TARGET] = rp_tx_roof_target,
    [GS_REPLAY_NO_PROFILER] = no_profiler,
};

int rp_transform(const gs_replay *m, gs_replay_set actions, const gs_replay_params *p,
                 rp_lags *lag, uint32_t *launch_from, gs_replay_change change[GS_REPLAY__COUNT],
                 bool *touched, gs_error *err)
{
    tx x = {.m = m, .t = m->ctx->trace, .e = m->edges, .lag = lag, .launch_from = launch_from,
            .p = p};
    for (int a = GS_REPLAY_NONE + 1; a < GS_REPLAY__COUNT; a++) {
        if (!(actions & GS_REPLAY_BIT(a)))
            continue;
        x.change = &change[a];
        if (transforms[a](&x) != 0 || x.failed)
            return gs_fail_oom(err);
        if (x.kept_off)
            return gs_fail(err, GS_EXIT_INPUT,
                           "replay: the action %s turned off an edge that stays on",
                           gs_replay_action_get(a)->name);
    }
    *touched |= x.touched;
    return 0;
}
