/* The replay of a trace's kept steps (replay.h): choosing the window and the lanes, gathering the
 * GPU ops, building and ordering the graph, then evaluating it unchanged and transformed and
 * measuring the steps on the replayed times. */
#include "analysis/replay/replay.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/gpu_caps.h"
#include "analysis/base/sync_calls.h"
#include "analysis/replay/replay_build.h"
#include "common/vec.h"

/* Whether the call launched GPU work or blocks the host: what makes its thread a lane. */
static bool call_matters(const gs_trace_ctx *c, const gs_api *a)
{
    return a->gpu != GS_NONE || gs_sync_kind_blocks(gs_sync_call_kind(c->trace, &c->names, a));
}

static int lane_find(rp_builder *b, int64_t pid, int64_t tid, bool add)
{
    for (size_t l = 0; l < b->nlanes; l++)
        if (b->lanes[l].pid == pid && b->lanes[l].tid == tid)
            return (int)l;
    if (!add || b->nlanes == RP_MAX_LANES)
        return -1;
    b->lanes[b->nlanes] = (rp_lane){.id = (uint32_t)b->nlanes, .pid = pid, .tid = tid};
    return (int)b->nlanes++;
}

/* Lane 0: the steps' thread (their ranges'), else the thread of the first step's first launch (the
 * forward pass's, which also fetches the batch); then every other thread of its process that
 * launched or waited in the window. */
static void choose_lanes(rp_builder *b)
{
    const gs_trace *t = b->t;
    const gs_step *first = b->steps.v[0].step;
    int64_t pid = 0, tid = 0;
    if (first->range != GS_NONE) {
        pid = t->ranges.v[first->range].pid;
        tid = t->ranges.v[first->range].tid;
    } else {
        for (size_t i = 0; i < t->apis.n; i++) { /* the first launch: the forward's thread */
            const gs_api *a = &t->apis.v[i];
            if (a->start >= first->host_start && a->gpu != GS_NONE) {
                pid = a->pid;
                tid = a->tid;
                break;
            }
        }
    }
    lane_find(b, pid, tid, true);
    for (size_t i = 0; i < t->apis.n; i++) {
        const gs_api *a = &t->apis.v[i];
        if (a->pid == pid && a->end > b->w0 && a->start < b->w1 && call_matters(b->c, a))
            lane_find(b, a->pid, a->tid, true);
    }
    b->inputs.host_lanes = b->nlanes;
}

/* The kept step whose host range holds the launching call wholly (the TensorBoard plugin's
 * rule, as steps.c), or -1. */
static int32_t step_of_call(const rp_builder *b, const gs_api *a)
{
    size_t lo = 0, hi = b->steps.n; /* the first step starting after the call: steps are in order */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->steps.v[mid].step->host_start <= a->start)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    const gs_step *st = b->steps.v[lo - 1].step;
    return a->start < st->host_end && a->end <= st->host_end ? (int32_t)(lo - 1) : -1;
}

/* Where a launch by `inner` (inside top-level call `call`, or the call itself) leaves from: the
 * last point of the call's lane at or before the inner call's start, no earlier than the call's. */
static uint32_t launch_point(rp_builder *b, uint32_t call, const gs_api *inner)
{
    rp_lane *lane = &b->lanes[b->call_lane[call]];
    size_t n = rp_lane_before(b, lane, inner->start, true);
    uint32_t p = n ? lane->first + (uint32_t)(n - 1) : b->call_start[call];
    return b->time.v[p] >= b->time.v[b->call_start[call]] ? p : b->call_start[call];
}

/* One GPU op: launched by a call of a lane, or running in the window (then fixed in time). */
static int add_op(rp_builder *b, uint32_t index, bool is_memop)
{
    const gs_trace *t = b->t;
    gs_ns start = is_memop ? t->memops.v[index].start : t->kernels.v[index].start;
    gs_ns end = is_memop ? t->memops.v[index].end : t->kernels.v[index].end;
    uint32_t api = is_memop ? t->memops.v[index].api : t->kernels.v[index].api;
    uint32_t call = api != GS_NONE && b->call_start[api] != GS_NONE ? b->call_top[api] : GS_NONE;
    if (call == GS_NONE && (end <= b->w0 || start >= b->w1))
        return 0;
    rp_op *o = GS_VEC_PUSH(&b->ops);
    if (!o)
        return -1;
    o->index = index;
    o->is_memop = is_memop;
    o->call = call;
    o->launch = call != GS_NONE ? launch_point(b, call, &t->apis.v[api]) : GS_NONE;
    o->dur = end - start;
    o->step = call != GS_NONE && t->apis.v[api].pid == b->lanes[0].pid
                  ? step_of_call(b, &t->apis.v[api]) : -1;
    if (call != GS_NONE && b->call_edge[call] != GS_NONE)
        b->edges.v[b->call_edge[call]].flags |=
            RP_LAUNCHES | (is_memop && t->memops.v[index].kind == GS_MEMOP_HTOD ? RP_HTOD : 0);
    return rp_point(b, start, &o->start) != 0 || rp_point(b, end, &o->end) != 0 ? -1 : 0;
}

static int add_ops(rp_builder *b)
{
    for (uint32_t i = 0; i < b->t->kernels.n; i++)
        if (add_op(b, i, false) != 0)
            return -1;
    for (uint32_t i = 0; i < b->t->memops.n; i++)
        if (add_op(b, i, true) != 0)
            return -1;
    b->inputs.gpu_ops = b->ops.n;
    return 0;
}

/* Each top-level DataLoader fetch of the main lane gets a batch point just before its end, joined
 * to the previous fetch's (off until the workers' action sets the time between batches). */
static int add_batches(rp_builder *b)
{
    const gs_trace *t = b->t;
    uint32_t prev = GS_NONE;
    for (uint32_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (b->range_start[i] == GS_NONE || b->range_end[i] == GS_NONE ||
            rp_point_lane(b, b->range_start[i]) != 0 || r->kind == GS_RANGE_NVTX ||
            !gs_ctx_name(b->c, r->name, GS_NAME_DATALOADER))
            continue;
        bool nested = false;
        for (uint32_t p = r->parent; p != GS_NONE && !nested; p = t->ranges.v[p].parent)
            nested = gs_ctx_name(b->c, t->ranges.v[p].name, GS_NAME_DATALOADER);
        uint32_t v;
        if (nested || rp_point(b, b->time.v[b->range_end[i]], &v) != 0)
            continue;
        if (rp_edge_add(b, b->range_start[i], v, RP_OFF, RP_BATCH, RP_IN_DATA, i) != 0 ||
            rp_edge_add(b, v, b->range_end[i], RP_OFF, RP_BATCH, RP_IN_DATA, i) != 0 ||
            (prev != GS_NONE && rp_edge_add(b, prev, v, RP_OFF, RP_BATCH, 0, i) != 0))
            return -1;
        prev = v;
    }
    return 0;
}

/* Ranges outside the operator tree (Python functions, with_stack) get no point of their own; what
 * recording them cost the host lands on the segment they start in: each is given the lane's first
 * point at or after its start (the end of that segment), for the profiler's action. */
static void anchor_other_ranges(rp_builder *b)
{
    const gs_trace *t = b->t;
    for (uint32_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (gs_range_in_op_tree(r) || r->start < b->w0 || r->start >= b->w1)
            continue;
        int l = lane_find(b, r->pid, r->tid, false);
        if (l < 0)
            continue;
        rp_lane *lane = &b->lanes[l];
        size_t n = rp_lane_before(b, lane, r->start, false);
        if (n < lane->npoints)
            b->range_start[i] = lane->first + (uint32_t)n;
    }
}

static int add_steps(rp_builder *b)
{
    const gs_steps *s = &b->c->steps;
    b->w0 = INT64_MAX;
    b->w1 = INT64_MIN;
    for (size_t i = 0; i < s->n; i++) {
        if (!gs_step_kept(s, i))
            continue;
        rp_step *st = GS_VEC_PUSH(&b->steps);
        if (!st)
            return -1;
        bool follows = i > 0 && gs_step_kept(s, i - 1);
        *st = (rp_step){&s->v[i], GS_NONE, GS_NONE, follows ? INT64_MIN : s->v[i].start};
        b->w0 = s->v[i].host_start < b->w0 ? s->v[i].host_start : b->w0;
        b->w1 = s->v[i].end > b->w1 ? s->v[i].end : b->w1;
    }
    return 0;
}

static uint32_t *nones(size_t n)
{
    uint32_t *v = gs_array_new(n, sizeof *v);
    if (v)
        memset(v, 0xff, (n ? n : 1) * sizeof *v);
    return v;
}

static void builder_free(rp_builder *b)
{
    GS_VEC_FREE(&b->time);
    GS_VEC_FREE(&b->edges);
    GS_VEC_FREE(&b->edge_to);
    rp_lags_free(&b->lags);
    GS_VEC_FREE(&b->ops);
    GS_VEC_FREE(&b->steps);
    free(b->lanes);
    free(b->call_start);
    free(b->call_end);
    free(b->call_top);
    free(b->call_edge);
    free(b->call_lane);
    free(b->range_start);
    free(b->range_end);
    free(b->ends);
}

static int build_graph(rp_builder *b)
{
    const gs_trace *t = b->t;
    b->lanes = gs_array_zeroed(RP_MAX_LANES, sizeof *b->lanes);
    b->call_start = nones(t->apis.n);
    b->call_end = nones(t->apis.n);
    b->call_top = nones(t->apis.n);
    b->call_edge = nones(t->apis.n);
    b->call_lane = nones(t->apis.n);
    b->range_start = nones(t->ranges.n);
    b->range_end = nones(t->ranges.n);
    if (!b->lanes || !b->call_start || !b->call_end || !b->call_top || !b->call_edge ||
        !b->call_lane || !b->range_start || !b->range_end || rp_lags_init(&b->lags, 0) != 0)
        return -1;
    choose_lanes(b);
    if (rp_build_host(b) != 0)
        return -1;
    b->nhost = b->edges.n;
    anchor_other_ranges(b);
    if (add_ops(b) != 0 || rp_build_gpu(b) != 0 ||
        rp_build_waits(b) != 0 || rp_build_wakes(b) != 0 || add_batches(b) != 0)
        return -1;
    return 0;
}

/* Moves what the builder made into the model, but for the edges, which rp_finish takes. */
static void take(gs_replay *m, rp_builder *b)
{
    m->npoints = b->time.n;
    m->time = b->time.v;
    b->time.v = NULL;
    m->ops = b->ops.v;
    m->nops = b->ops.n;
    b->ops.v = NULL;
    m->steps = b->steps.v;
    m->nsteps = b->steps.n;
    b->steps.v = NULL;
    m->call_edge = b->call_edge;
    b->call_edge = NULL;
    m->range_start = b->range_start;
    b->range_start = NULL;
    m->inputs = b->inputs;
}

static int replay_unchanged(gs_replay *m); /* below, beside the runs */

static void run_arrays_free(rp_run_arrays *r)
{
    if (!r)
        return;
    free(r->at);
    rp_lags_free(&r->lag);
    free(r->launch_from);
    free(r->ends);
    free(r->len);
    free(r);
}

static rp_run_arrays *run_arrays_new(const gs_replay *m)
{
    rp_run_arrays *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->at = gs_array_new(m->npoints, sizeof *r->at);
    r->launch_from = gs_array_new(m->nops, sizeof *r->launch_from);
    r->ends = gs_array_new(m->nsteps, sizeof *r->ends);
    r->len = gs_array_new(m->nsteps, sizeof *r->len);
    r->edges_changed = true;
    if (r->at && rp_lags_init(&r->lag, m->nedges) == 0 && r->launch_from && r->ends && r->len)
        return r;
    run_arrays_free(r);
    return NULL;
}

int gs_replay_graph(const gs_trace_ctx *c, gs_replay **out, const char **why, gs_error *err)
{
    *out = NULL;
    *why = NULL;
    bool launched = false;
    for (size_t i = 0; i < c->steps.n; i++)
        launched = launched || (gs_step_kept(&c->steps, i) && c->steps.v[i].gpu_ops > 0);
    if (!launched) {
        *why = "no kept step launched GPU work";
        return 0;
    }
    gs_replay *m = calloc(1, sizeof *m);
    rp_builder b = {.c = c, .t = c->trace};
    if (!m || add_steps(&b) != 0 || build_graph(&b) != 0)
        goto oom;
    take(m, &b);
    rp_edge *edges = b.edges.v;
    uint32_t *to = b.edge_to.v;
    rp_lags lags = b.lags;
    b.edges.v = NULL;
    b.edge_to.v = NULL;
    b.lags = (rp_lags){0};
    builder_free(&b);
    m->ctx = c;
    const gs_trace *t = c->trace;
    if (t->devices.n) {
        m->compute_major = t->devices.v[0].compute_major;
        m->compute_minor = t->devices.v[0].compute_minor;
        m->vendor = gs_gpu_vendor_of(gs_trace_str(t, t->devices.v[0].name));
    }
    if (rp_finish(m, edges, to, &lags, b.nhost) != 0 ||
        !(m->step_mark = gs_array_zeroed(m->npoints, 1)))
        goto oom;
    for (size_t s = 0; s < m->nsteps; s++) {
        m->step_mark[m->steps[s].host_start] = 1;
        m->step_mark[m->steps[s].host_end] = 1;
    }
    *out = m;
    return 0;
oom:
    builder_free(&b);
    gs_replay_free(m);
    return gs_fail_oom(err);
}

int gs_replay_finish(gs_replay *m, const gs_trace_facts *facts, gs_error *err)
{
    m->facts = *facts;
    if (rp_profiler_cuts(m) != 0 || !(m->run = run_arrays_new(m)) || replay_unchanged(m) != 0) {
        gs_replay_free(m);
        return gs_fail_oom(err);
    }
    return 0;
}

int gs_replay_build(const gs_trace_ctx *c, const gs_trace_facts *facts, gs_replay **out,
                    const char **why, gs_error *err)
{
    if (gs_replay_graph(c, out, why, err) != 0)
        return -1;
    if (*out && gs_replay_finish(*out, facts, err) != 0) {
        *out = NULL;
        return -1;
    }
    return 0;
}

void gs_replay_free(gs_replay *m)
{
    if (!m)
        return;
    free(m->time);
    free(m->anchors);
    free(m->edges);
    free(m->first_in);
    rp_lags_free(&m->lags);
    free(m->ops);
    free(m->steps);
    free(m->call_edge);
    free(m->range_start);
    free(m->range_seg);
    free(m->chain_first);
    free(m->replayed);
    free(m->without_profiler);
    free(m->step_mark);
    free(m->profiler_cuts);
    run_arrays_free(m->run);
    free(m);
}

/* The kept steps on the replayed times `at`, as steps.c measures them: from the host start (or
 * the previous step's end) to the last end of the GPU work launched inside. */
static void measure_steps(const gs_replay *m, const gs_ns *at, gs_ns *ends, gs_ns *len)
{
    for (size_t s = 0; s < m->nsteps; s++)
        ends[s] = at[m->steps[s].host_end];
    for (size_t i = 0; i < m->nops; i++)
        if (m->ops[i].step >= 0 && at[m->ops[i].end] > ends[m->ops[i].step])
            ends[m->ops[i].step] = at[m->ops[i].end];
    gs_ns prev_end = INT64_MIN;
    for (size_t s = 0; s < m->nsteps; s++) {
        gs_ns start = at[m->steps[s].host_start];
        gs_ns floor = m->steps[s].floor != INT64_MIN ? m->steps[s].floor : prev_end;
        start = floor > start ? floor : start;
        gs_ns end = ends[s] > start ? ends[s] : start;
        len[s] = end - start;
        prev_end = end;
    }
}

/* The mean step with every gap that decided a GPU op's start cut to the usual most of its kind
 * (replay.h: the structural replay), into *mean; lag holds the model's lags and is changed. 0, or
 * -1 out of memory. */
static int structural_mean(const gs_replay *m, rp_lags *lag, gs_ns *at, gs_ns *ends, gs_ns *len,
                           gs_ns *mean)
{
    for (uint32_t i = 0; i < m->nedges; i++) {
        uint8_t kind = m->edges[i].kind;
        gs_ns most = kind == RP_LAUNCH ? m->inputs.launch_latency_max_ns
                     : kind == RP_STREAM || kind == RP_XSTREAM ? m->inputs.stream_gap_max_ns
                                                               : INT64_MAX;
        gs_ns l = rp_lag(lag, i);
        if (l != RP_OFF && l > most && rp_lag_set(lag, i, most) != 0)
            return -1;
    }
    rp_evaluate(m, lag, NULL, at);
    measure_steps(m, at, ends, len);
    gs_ns sum = 0;
    for (size_t s = 0; s < m->nsteps; s++)
        sum += len[s];
    *mean = m->nsteps ? sum / (gs_ns)m->nsteps : 0;
    return 0;
}

int gs_replay_structural(const gs_replay *m, gs_replay_result *r, gs_error *err)
{
    rp_run_arrays *run = m->run;
    run->edges_changed = true;
    if (rp_copy_edges(m, &run->lag, run->launch_from) != 0 ||
        structural_mean(m, &run->lag, run->at, run->ends, run->len, &r->structural_mean_ns) != 0)
        return gs_fail_oom(err);
    r->structural_error = r->measured_mean_ns ? (double)r->structural_mean_ns /
                                                    (double)r->measured_mean_ns - 1.0
                                              : 0.0;
    return 0;
}

/* The unchanged replay, once per model: every run reports it; and the one without the
 * profiler's cost, which runs of actions that change nothing come back to. 0, or -1 out of
 * memory. */
static int replay_unchanged(gs_replay *m)
{
    rp_run_arrays *r = m->run;
    m->replayed = gs_array_new(m->nsteps, sizeof *m->replayed);
    m->without_profiler = gs_array_new(m->nsteps, sizeof *m->without_profiler);
    if (!m->replayed || !m->without_profiler)
        return -1;
    rp_evaluate(m, &m->lags, NULL, r->at);
    measure_steps(m, r->at, r->ends, m->replayed);
    if (rp_copy_edges(m, &r->lag, r->launch_from) != 0)
        return -1;
    gs_replay_change change[GS_REPLAY__COUNT] = {0};
    static const gs_replay_params defaults = {0};
    gs_error err;
    bool touched = false;
    if (rp_transform(m, GS_REPLAY_BIT(GS_REPLAY_NO_PROFILER), &defaults, &r->lag, r->launch_from,
                     change, &touched, &err) != 0)
        return -1;
    m->no_profiler_change = change[GS_REPLAY_NO_PROFILER];
    r->edges_changed = true;
    rp_evaluate(m, &r->lag, r->launch_from, r->at);
    measure_steps(m, r->at, r->ends, m->without_profiler);
    return 0;
}

int gs_replay_run(const gs_replay *m, gs_replay_set actions, const gs_replay_params *p,
                  gs_replay_result *out, gs_error *err)
{
    static const gs_replay_params defaults = {0};
    memset(out, 0, sizeof *out);
    out->actions = actions;
    out->inputs = m->inputs;
    rp_run_arrays *run = m->run;
    gs_ns *at = run->at, *ends = run->ends, *len = run->len;
    rp_lags *lag = &run->lag;
    uint32_t *launch_from = run->launch_from;
    out->steps = gs_array_zeroed(m->nsteps, sizeof *out->steps);
    int rc = -1;
    if (!out->steps)
        goto done;
    out->nsteps = m->nsteps;
    for (size_t s = 0; s < m->nsteps; s++) {
        out->steps[s].number = m->steps[s].step->number;
        out->steps[s].measured_ns = m->steps[s].step->end - m->steps[s].step->start;
        out->steps[s].replayed_ns = out->steps[s].changed_ns = m->replayed[s];
    }
    if (actions) {
        if (run->edges_changed && rp_copy_edges(m, lag, launch_from) != 0)
            goto done;
        run->edges_changed = true; /* until the actions are known to have changed nothing */
        /* The profiler's cost comes off last (rp_transform's order). After actions that changed
         * nothing, what it takes is what it took from the model's lags. */
        const gs_replay_set profiler = GS_REPLAY_BIT(GS_REPLAY_NO_PROFILER);
        const gs_replay_params *params = p ? p : &defaults;
        bool touched = false;
        if (rp_transform(m, actions & ~profiler, params, lag, launch_from, out->change, &touched,
                         err) != 0 ||
            ((actions & profiler) && touched &&
             rp_transform(m, profiler, params, lag, launch_from, out->change, &touched, err) != 0)) {
            rc = -2;
            goto done;
        }
        run->edges_changed = touched;
        if ((actions & profiler) && !touched)
            out->change[GS_REPLAY_NO_PROFILER] = m->no_profiler_change;
        /* Actions that found nothing to change leave the replay as it was: the unchanged one,
         * or the one without the profiler's cost, known from the build (the verdict asks for
         * every action with that one). */
        uint64_t changed = 0;
        for (int a = GS_REPLAY_NONE + 1; a < GS_REPLAY__COUNT; a++)
            changed += a != GS_REPLAY_NO_PROFILER ? out->change[a].items : 0;
        const gs_ns *known = NULL;
        if (!changed)
            known = actions & GS_REPLAY_BIT(GS_REPLAY_NO_PROFILER) ? m->without_profiler
                                                                   : m->replayed;
        if (!known) {
            rp_evaluate(m, lag, launch_from, at);
            measure_steps(m, at, ends, len);
            known = len;
        }
        for (size_t s = 0; s < m->nsteps; s++)
            out->steps[s].changed_ns = known[s];
    }
    for (int a = 0; a < GS_REPLAY__COUNT; a++) {
        gs_replay_change *c = &out->change[a];
        gs_ns k = (gs_ns)(m->nsteps ? m->nsteps : 1);
        c->host_before /= k;
        c->host_after /= k;
        c->gpu_before /= k;
        c->gpu_after /= k;
    }
    for (size_t s = 0; s < m->nsteps; s++) {
        out->measured_mean_ns += out->steps[s].measured_ns;
        out->replayed_mean_ns += out->steps[s].replayed_ns;
        out->changed_mean_ns += out->steps[s].changed_ns;
    }
    gs_ns nsteps = (gs_ns)(m->nsteps ? m->nsteps : 1);
    out->measured_mean_ns /= nsteps;
    out->replayed_mean_ns /= nsteps;
    out->changed_mean_ns /= nsteps;
    out->error = out->measured_mean_ns
                     ? (double)out->replayed_mean_ns / (double)out->measured_mean_ns - 1.0 : 0.0;
    out->speedup = out->changed_mean_ns
                       ? (double)out->replayed_mean_ns / (double)out->changed_mean_ns : 1.0;
    out->expected_step_ns = out->replayed_mean_ns
                                ? (gs_ns)llround((double)out->measured_mean_ns *
                                                 (double)out->changed_mean_ns /
                                                 (double)out->replayed_mean_ns)
                                : out->measured_mean_ns;
    rc = 0;
done:
    if (rc != 0) {
        gs_replay_result_free(out);
        return rc == -1 ? gs_fail_oom(err) : -1;
    }
    return 0;
}

void gs_replay_result_free(gs_replay_result *r)
{
    free(r->steps);
    memset(r, 0, sizeof *r);
}
