/* Building the replay's graph from a trace context (replay.h says what the graph holds): after
 * the host lanes (replay_host.c), GPU lanes from each stream's ops, and the edges between them,
 * each with the measured gap when it decided its point's time and the physical least otherwise
 * (the profiler's cost on them: replay_profiler.c); then the host's waits for the GPU and for
 * other threads. */
#include "analysis/replay/replay_model.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/stats.h"
#include "analysis/base/sync_calls.h"
#include "analysis/replay/replay_build.h"
#include "common/vec.h"
#include "model/time_sort.h"

/* Launch latency and stream gap when the trace shows none to measure them by: about what a
 * kernel launch takes to reach an idle GPU, and two kernels' gap on a busy stream, on current
 * NVIDIA GPUs (NVIDIA's CUDA Graphs post, 2019: ~2-3 us per launch; the gaps seen on H100). */
#define RP_DEFAULT_LAUNCH_NS 4000
#define RP_DEFAULT_STREAM_GAP_NS 1000
/* A segment this long where a thread ran no operator is taken as a wait for another thread when
 * the other thread ran in it (autograd's backward thread, the main thread waiting for it). */
#define RP_IDLE_MIN_NS 10000
/* A GPU op that started this much later than its launch and its stream allowed waited for
 * another stream (an event, a collective's stream), when an op of another stream ended then. */
#define RP_STREAM_WAIT_MIN_NS 5000

/* ---- GPU lanes ------------------------------------------------------------------------------ */

/* The ops' ids ordered by stream (device, then stream) and start (by_stream), or by end alone;
 * ties by id. Stable radix passes: by the time, then by the stream. */
static int sort_ops(const rp_builder *b, bool by_stream, uint32_t *out)
{
    size_t n = b->ops.n;
    uint64_t *key = gs_array_zeroed(n, sizeof *key); /* calloc: gcc cannot see the loop fill it */
    if (!key)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const rp_op *o = &b->ops.v[i];
        key[i] = gs_radix_key(b->time.v[by_stream ? o->start : o->end]);
        out[i] = (uint32_t)i;
    }
    int rc = gs_radix_order(key, n, out);
    for (size_t i = 0; by_stream && i < n; i++) {
        const rp_op *o = &b->ops.v[i];
        key[i] = gs_radix_key_pair(rp_op_device(b, o), rp_op_stream(b, o));
    }
    if (rc == 0 && by_stream)
        rc = gs_radix_order(key, n, out);
    free(key);
    return rc;
}

/* The op whose end is the latest at or before `ts`, on `device` but not `stream` (stream -1: any),
 * and no earlier than `floor`, launched no later than `launched_by`; GS_NONE when none. */
static uint32_t latest_end(const rp_builder *b, gs_ns ts, gs_ns floor, int32_t device,
                           int32_t stream, gs_ns launched_by)
{
    size_t lo = 0, hi = b->nends;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->time.v[b->ops.v[b->ends[mid]].end] <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo, looked = 0; k-- > 0 && looked < 64; looked++) {
        const rp_op *o = &b->ops.v[b->ends[k]];
        if (b->time.v[o->end] < floor)
            break;
        if ((device >= 0 && rp_op_device(b, o) != device) ||
            (stream >= 0 && rp_op_stream(b, o) == stream))
            continue;
        if (o->call != GS_NONE && b->t->apis.v[o->call].start > launched_by)
            continue;
        return b->ends[k];
    }
    return GS_NONE;
}

/* The least gaps and their usual most: the 10th and 90th percentiles of the gaps that decided a
 * start, by kind. */
static void least_gaps(rp_builder *b, const uint32_t *by_stream)
{
    GS_VEC(gs_ns) launch = {0}, stream = {0};
    bool oom = false;
    for (size_t i = 0; i < b->ops.n && !oom; i++) {
        const rp_op *o = &b->ops.v[by_stream[i]];
        const rp_op *prev = i && rp_same_stream(b, &b->ops.v[by_stream[i - 1]], o)
                                ? &b->ops.v[by_stream[i - 1]] : NULL;
        gs_ns s = b->time.v[o->start];
        gs_ns tc = o->launch != GS_NONE ? b->time.v[o->launch] : INT64_MIN;
        gs_ns tp = prev ? b->time.v[prev->end] : INT64_MIN;
        gs_ns *g = NULL;
        if (tc != INT64_MIN && tc >= tp && s >= tc)
            g = GS_VEC_PUSH(&launch), g ? *g = s - tc : 0;
        else if (tp != INT64_MIN && tp > tc && s >= tp)
            g = GS_VEC_PUSH(&stream), g ? *g = s - tp : 0;
        else
            continue;
        oom = g == NULL;
    }
    bool l = launch.n && !oom, g = stream.n && !oom;
    b->inputs.launch_latency_ns = l ? gs_percentile_select(launch.v, launch.n, 10)
                                    : RP_DEFAULT_LAUNCH_NS;
    b->inputs.launch_latency_max_ns = l ? gs_percentile_select(launch.v, launch.n, 90)
                                        : RP_DEFAULT_LAUNCH_NS;
    b->inputs.stream_gap_ns = g ? gs_percentile_select(stream.v, stream.n, 10)
                                : RP_DEFAULT_STREAM_GAP_NS;
    b->inputs.stream_gap_max_ns = g ? gs_percentile_select(stream.v, stream.n, 90)
                                    : RP_DEFAULT_STREAM_GAP_NS;
    GS_VEC_FREE(&launch);
    GS_VEC_FREE(&stream);
}

static gs_ns at_most(gs_ns v, gs_ns cap)
{
    return v < cap ? v : cap;
}

/* The edges into one op's start: its launch, its stream, a wait on another stream; the one that
 * decided the measured start keeps the measured gap, the others their least. An op that started
 * before the previous one of its stream ended (programmatic dependent launch lets a kernel start
 * while the one before it finishes) still follows it: its stream edge keeps the measured overlap
 * as a negative gap, so that no change moves it off the stream's order and ahead of the work
 * before it. */
static int start_edges(rp_builder *b, uint32_t i, const rp_op *prev)
{
    const rp_op *o = &b->ops.v[i];
    gs_ns s = b->time.v[o->start];
    uint32_t cp = o->launch;
    gs_ns tc = cp != GS_NONE ? b->time.v[cp] : INT64_MIN;
    gs_ns tp = prev ? b->time.v[prev->end] : INT64_MIN;
    gs_ns ready = tc > tp ? tc : tp;
    uint32_t other = GS_NONE;
    if (ready != INT64_MIN && s - ready > RP_STREAM_WAIT_MIN_NS)
        other = latest_end(b, s, ready, rp_op_device(b, o), rp_op_stream(b, o), s);
    bool by_other = other != GS_NONE;
    if (cp != GS_NONE) {
        bool binding = !by_other && tc >= tp;
        gs_ns lag = binding ? s - tc : at_most(s - tc, b->inputs.launch_latency_ns);
        if (rp_edge_add(b, cp, o->start, lag, RP_LAUNCH, 0, i) != 0)
            return -1;
    }
    if (prev) {
        bool binding = !by_other && tp > tc;
        gs_ns lag = binding ? s - tp : at_most(s - tp, b->inputs.stream_gap_ns);
        if (rp_edge_add(b, prev->end, o->start, lag, RP_STREAM, 0, i) != 0)
            return -1;
    }
    if (by_other) {
        const rp_op *w = &b->ops.v[other];
        if (rp_edge_add(b, w->end, o->start, s - b->time.v[w->end], RP_XSTREAM, 0, i) != 0)
            return -1;
        b->inputs.stream_waits++;
    }
    return 0;
}

/* The ops' edges: durations, launches, stream order, waits between streams; and the index of
 * their ends that blocking calls look up. */
int rp_build_gpu(rp_builder *b)
{
    size_t n = b->ops.n;
    uint32_t *by_stream = gs_array_new(n, sizeof *by_stream);
    b->ends = gs_array_new(n, sizeof *b->ends);
    if (!by_stream || !b->ends) {
        free(by_stream);
        return -1;
    }
    b->nends = n;
    if (sort_ops(b, true, by_stream) != 0 || sort_ops(b, false, b->ends) != 0) {
        free(by_stream);
        return -1;
    }
    least_gaps(b, by_stream);
    int rc = 0;
    for (size_t k = 0; k < n && rc == 0; k++) {
        uint32_t i = by_stream[k];
        rp_op *o = &b->ops.v[i];
        const rp_op *prev = NULL;
        if (k && rp_same_stream(b, &b->ops.v[by_stream[k - 1]], o)) {
            prev = &b->ops.v[by_stream[k - 1]]; /* it may end after o starts: start_edges */
        } else {
            b->inputs.gpu_lanes++;
        }
        rc = rp_edge_add(b, o->start, o->end, o->dur, RP_GPU, 0, i);
        if (rc == 0)
            rc = start_edges(b, i, prev);
    }
    free(by_stream);
    return rc;
}

/* ---- waits ---------------------------------------------------------------------------------- */

/* Each blocking call waits for the GPU op that ended last before it returned among those
 * launched before: the call then ends at the latest of its own cost and that op's end plus the
 * measured tail. */
int rp_build_waits(rp_builder *b)
{
    const gs_trace *t = b->t;
    for (size_t a = 0; a < t->apis.n; a++) {
        if (b->call_start[a] == GS_NONE || b->call_top[a] != a || b->call_end[a] == GS_NONE)
            continue;
        int kind = gs_sync_call_kind(t, &b->c->names, &t->apis.v[a]);
        if (!gs_sync_kind_blocks(kind))
            continue;
        uint32_t call = b->call_edge[a];
        b->edges.v[call].flags |= RP_BLOCKS;
        gs_ns cs = b->time.v[b->call_start[a]], ce = b->time.v[b->call_end[a]];
        uint32_t w = latest_end(b, ce, cs, -1, -1, ce);
        if (w == GS_NONE)
            continue;
        gs_ns tail = ce - b->time.v[b->ops.v[w].end];
        if (rp_lag_set(&b->lags, call, at_most(rp_lag(&b->lags, call), tail)) != 0 ||
            rp_edge_add(b, b->ops.v[w].end, b->call_end[a], tail, RP_WAIT, 0, (uint32_t)a) != 0)
            return -1;
        b->inputs.blocking_waits++;
    }
    return 0;
}

/* The last point of `lane` in (from, to]; GS_NONE when none. */
static uint32_t last_point_in(const rp_builder *b, rp_lane *lane, gs_ns from, gs_ns to,
                              bool first)
{
    size_t lo = rp_lane_before(b, lane, from, true), hi = rp_lane_before(b, lane, to, true);
    if (lo >= hi)
        return GS_NONE;
    return lane->first + (uint32_t)(first ? lo : hi - 1);
}

/* A thread idle for a while (no operator) while another thread ran waited for it: the main
 * thread for autograd's backward thread, a worker thread for the main thread's hand-off. */
int rp_build_wakes(rp_builder *b)
{
    size_t nedges = b->edges.n;
    for (size_t e = 0; e < nedges; e++) {
        const rp_edge *seg = &b->edges.v[e];
        if (seg->kind != RP_SEGMENT || (seg->flags & RP_IN_OP) ||
            rp_lag(&b->lags, (uint32_t)e) < RP_IDLE_MIN_NS)
            continue;
        uint32_t end = b->edge_to.v[e];
        gs_ns from = b->time.v[seg->from], to = b->time.v[end];
        uint32_t lane = rp_point_lane(b, seg->from);
        uint32_t first = GS_NONE, last = GS_NONE;
        for (size_t l = 0; l < b->nlanes; l++) {
            if (l == lane || (lane != 0 && l != 0))
                continue; /* the main lane waits for any, the others for the main lane */
            uint32_t f = last_point_in(b, &b->lanes[l], from, to - 1, true);
            uint32_t z = last_point_in(b, &b->lanes[l], from, to - 1, false);
            if (f == GS_NONE)
                continue;
            if (first == GS_NONE || b->time.v[f] < b->time.v[first])
                first = f;
            if (last == GS_NONE || b->time.v[z] > b->time.v[last])
                last = z;
        }
        if (last == GS_NONE)
            continue;
        gs_ns own = lane == 0 ? (b->time.v[first] - from) + (to - b->time.v[last]) : 0;
        b->edges.v[e].flags |= RP_IDLE;
        if (rp_lag_set(&b->lags, (uint32_t)e, own) != 0 ||
            rp_edge_add(b, last, end, to - b->time.v[last], RP_WAKE, 0, GS_NONE) != 0)
            return -1;
        b->inputs.thread_waits++;
    }
    /* A thread's first point in the window has no segment before it: it waits for the main lane
     * as its idle segments do (autograd's thread starts the first step's backward pass when the
     * main thread hands it the loss), else it would keep its measured time whatever the main
     * thread's replay. */
    for (size_t l = 1; l < b->nlanes; l++) {
        const rp_lane *lane = &b->lanes[l];
        uint32_t p = lane->npoints ? lane->first : GS_NONE;
        uint32_t from = p != GS_NONE
                            ? last_point_in(b, &b->lanes[0], INT64_MIN, b->time.v[p] - 1, false)
                            : GS_NONE;
        if (from == GS_NONE)
            continue;
        if (rp_edge_add(b, from, p, b->time.v[p] - b->time.v[from], RP_WAKE, 0, GS_NONE) != 0)
            return -1;
        b->inputs.thread_waits++;
    }
    return 0;
}
