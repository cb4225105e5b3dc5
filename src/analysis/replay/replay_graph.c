/* The graph's storage: adding points and edges while building, then ordering the points so that
 * every edge goes forward (by time, and by dependency where times tie) and grouping the edges by
 * the point they end at, which is all the evaluation needs (the chains' segments, which
 * replay_chains.c takes out of the graph, follow them in the final arrays). */
#include "analysis/replay/replay_build.h"
#include "common/vec.h"

#include <stdlib.h>
#include <string.h>

int rp_point(rp_builder *b, gs_ns ts, uint32_t *out)
{
    gs_ns *t = GS_VEC_PUSH(&b->time);
    if (!t)
        return -1;
    *t = ts;
    *out = (uint32_t)(b->time.n - 1);
    return 0;
}

int rp_edge_add(rp_builder *b, uint32_t from, uint32_t to, gs_ns lag, uint8_t kind,
                uint8_t flags, uint32_t ref)
{
    if (lag < 0 && lag != RP_OFF && kind != RP_STREAM) {
        lag = 0; /* the trace's times contradict the dependency (a stream's overlap does not:
                  * start_edges) */
        b->inputs.clipped++;
    }
    rp_edge *e = GS_VEC_PUSH(&b->edges);
    uint32_t *end = GS_VEC_PUSH(&b->edge_to);
    if (!e || !end || rp_lags_push(&b->lags, lag) != 0)
        return -1;
    *e = (rp_edge){.from = from, .ref = ref, .kind = kind, .flags = flags};
    *end = to;
    return 0;
}

void rp_lane_point(rp_lane *lane, uint32_t p)
{
    if (!lane->npoints)
        lane->first = p;
    lane->npoints++;
    lane->last = p;
}

uint32_t rp_point_lane(const rp_builder *b, uint32_t p)
{
    for (size_t l = 0; l < b->nlanes; l++)
        if (b->lanes[l].npoints && p >= b->lanes[l].first && p <= b->lanes[l].last)
            return (uint32_t)l;
    return GS_NONE;
}

/* A min-heap of points by (time, id): Kahn's order takes the earliest ready point first. It holds
 * the points ready at once, a few per lane, so it grows as it needs to. */
typedef struct heap {
    GS_VEC(uint32_t) v;
    const gs_ns *time;
} heap;

static bool before(const heap *h, uint32_t a, uint32_t b)
{
    return h->time[a] != h->time[b] ? h->time[a] < h->time[b] : a < b;
}

static int heap_push(heap *h, uint32_t p)
{
    if (!GS_VEC_PUSH(&h->v))
        return -1;
    size_t i = h->v.n - 1;
    while (i > 0 && before(h, p, h->v.v[(i - 1) / 2])) {
        h->v.v[i] = h->v.v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v.v[i] = p;
    return 0;
}

static uint32_t heap_pop(heap *h)
{
    uint32_t *v = h->v.v, top = v[0], last = v[--h->v.n];
    size_t i = 0, n = h->v.n;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(h, v[c + 1], v[c]))
            c++;
        if (!before(h, v[c], last))
            break;
        v[i] = v[c];
        i = c;
    }
    if (n)
        v[i] = last;
    return top;
}

/* Marks p queued and puts it in the heap. */
static int enqueue(heap *h, uint64_t *queued, uint32_t p)
{
    rp_point_bit_set(queued, p);
    return heap_push(h, p);
}

/* Kahn's algorithm over the edges grouped by the point they leave from (out_first, out_to): pos[p]
 * is point p's place in the order. Points left in a cycle (times that tie both ways) follow in
 * time order. pos[p] counts p's in-edges not yet placed until p is queued (its bit in `queued`)
 * and holds its place once taken: one array for both. 0, or -1 out of memory. */
static int order_points(gs_replay *m, const uint32_t *out_first, const uint32_t *out_to,
                        uint32_t *pos)
{
    size_t n = m->npoints;
    uint64_t *queued = calloc(n / 64 + 1, sizeof *queued);
    heap h = {{0}, m->time};
    int rc = queued ? 0 : -1;
    memset(pos, 0, n * sizeof *pos);
    for (size_t i = 0; rc == 0 && i < m->nedges; i++)
        pos[out_to[i]]++;
    for (uint32_t p = 0; rc == 0 && p < n; p++)
        if (!pos[p])
            rc = enqueue(&h, queued, p);
    for (size_t k = 0; rc == 0 && k < n; k++) {
        if (!h.v.n) { /* a cycle: release its earliest point */
            uint32_t best = GS_NONE;
            for (uint32_t p = 0; p < n; p++)
                if (!rp_point_bit(queued, p) && (best == GS_NONE || before(&h, p, best)))
                    best = p;
            m->inputs.clipped++;
            if ((rc = enqueue(&h, queued, best)) != 0)
                break;
        }
        uint32_t p = heap_pop(&h);
        pos[p] = (uint32_t)k;
        for (uint32_t i = out_first[p]; rc == 0 && i < out_first[p + 1]; i++)
            if (!rp_point_bit(queued, out_to[i]) && --pos[out_to[i]] == 0)
                rc = enqueue(&h, queued, out_to[i]);
    }
    free(queued);
    GS_VEC_FREE(&h.v);
    return rc;
}

/* Group cursors for a stable scatter of edges by a point, in c[] (npoints + 2) which holds each
 * point's count of edges at c[p + 2]: c[p + 1] becomes p's start, the cursor the scatter moves
 * along (c[key + 1]++), after which c[0 .. npoints] are the groups' starts and c[npoints] their
 * end. */
static void group_cursors(uint32_t *c, size_t n)
{
    c[0] = c[1] = 0;
    for (size_t p = 0; p < n; p++)
        c[p + 2] += c[p + 1];
}

/* The order of the points, found with the edges grouped by the point they leave from (their ends
 * copied into that grouping; `to` is kept as it is, which costs less than a second array of fresh
 * memory to put it back from the copy). 0, or -1 out of memory. */
static int find_order(gs_replay *m, const uint32_t *to, uint32_t *pos)
{
    size_t n = m->npoints, ne = m->nedges;
    uint32_t *out_first = gs_array_zeroed(n + 2, sizeof *out_first);
    uint32_t *out_to = gs_array_new(ne, sizeof *out_to);
    int rc = out_first && out_to ? 0 : -1;
    if (rc == 0) {
        for (size_t e = 0; e < ne; e++)
            out_first[m->edges[e].from + 2]++;
        group_cursors(out_first, n);
        for (size_t e = 0; e < ne; e++)
            out_to[out_first[m->edges[e].from + 1]++] = to[e];
        rc = order_points(m, out_first, out_to, pos);
    }
    free(out_first);
    free(out_to);
    return rc;
}

static void renumber(uint32_t *p, const uint32_t *pos)
{
    if (*p != GS_NONE)
        *p = pos[*p];
}

/* What find_anchors asks of a point (by its place in the order): */
enum {
    HELD = 1,    /* an edge that stays on ends at it */
    ANCHORED = 2 /* an edge against the order leaves from it */
};

/* Gives each point its place in the order as its number: the order is then 0, 1, 2, ... and a
 * run's times are written one after another. Every array of points follows. The pass over the
 * edges also sets the flags the anchors are found by (flag[], by the new numbers), which would
 * otherwise take a pass of its own. */
static void renumber_points(gs_replay *m, const uint32_t *pos, uint32_t *to, uint8_t *flag)
{
    const gs_trace *t = m->ctx->trace;
    for (size_t e = 0; e < m->nedges; e++) {
        rp_edge *ed = &m->edges[e];
        ed->from = pos[ed->from];
        to[e] = pos[to[e]];
        if (!rp_kind_may_go_off(ed->kind) && rp_lag(&m->lags, (uint32_t)e) != RP_OFF)
            flag[to[e]] |= HELD;
        if (ed->from >= to[e])
            flag[ed->from] |= ANCHORED;
    }
    for (size_t i = 0; i < m->nops; i++) {
        renumber(&m->ops[i].start, pos);
        renumber(&m->ops[i].end, pos);
        renumber(&m->ops[i].launch, pos);
    }
    for (size_t s = 0; s < m->nsteps; s++) {
        renumber(&m->steps[s].host_start, pos);
        renumber(&m->steps[s].host_end, pos);
    }
    for (size_t r = 0; r < t->ranges.n; r++)
        renumber(&m->range_start[r], pos);
}

/* m's edges and lags grouped by the point they end at (to[], renumbered), keeping the order they
 * were built in within each point's group: scattered into the final arrays, before the chains'
 * segments there, the lags first, then the edges, each old array freed once its copy is made and
 * the final ones then m's. `cursor` (npoints) holds the lags' scatter cursors: order_and_group's
 * positions, whose memory is in use already (fresh pages cost more than the scatter), freed before
 * the edges' scatter, where the peak of the replay's memory is. 0, or -1 out of memory. */
static int group_by_end(gs_replay *m, const uint32_t *to, uint32_t *cursor, rp_final *final)
{
    size_t n = m->npoints, ne = m->nedges;
    uint32_t *first = gs_array_zeroed(n + 2, sizeof *first);
    if (!first) {
        free(cursor);
        return -1;
    }
    m->first_in = first;
    for (size_t e = 0; e < ne; e++)
        first[to[e] + 2]++;
    group_cursors(first, n);
    /* first[p + 1] is now p's start, where its cursor begins */
    if (n)
        memcpy(cursor, first + 1, n * sizeof *cursor);
    int rc = 0;
    rp_lags *lags = &final->lags;
    for (size_t e = 0; rc == 0 && e < ne; e++) {
        uint32_t d = cursor[to[e]]++;
        lags->v[d] = m->lags.v[e];
        if (lags->v[d] == RP_LAG_LONG)
            rc = rp_lag_set(lags, d, rp_lag(&m->lags, (uint32_t)e));
    }
    free(cursor);
    rp_lags_free(&m->lags);
    m->lags = *lags;
    *lags = (rp_lags){0};
    if (rc != 0)
        return -1;
    for (size_t e = 0; e < ne; e++)
        final->edges[first[to[e] + 1]++] = m->edges[e];
    free(m->edges);
    m->edges = final->edges;
    final->edges = NULL;
    m->ngraph = ne;
    m->nedges = ne + final->nsegs;
    return 0;
}

static int anchor_cmp(const void *pa, const void *pb)
{
    const rp_anchor *a = pa, *b = pb;
    return (a->point > b->point) - (a->point < b->point);
}

static bool is_anchor(uint8_t flag)
{
    return !(flag & HELD) || (flag & ANCHORED);
}

/* The anchors (rp_anchor) from the points' flags (renumber_points), the order (pos) and the
 * measured times, which then go. 0, or -1 out of memory. */
static int find_anchors(gs_replay *m, const uint32_t *pos, const uint8_t *flag)
{
    size_t n = m->npoints, count = 0;
    for (size_t p = 0; p < n; p++)
        count += is_anchor(flag[p]);
    m->anchors = gs_array_new(count, sizeof *m->anchors);
    if (!m->anchors)
        return -1;
    for (uint32_t q = 0; q < n; q++) /* q as built, pos[q] its place */
        if (is_anchor(flag[pos[q]]))
            m->anchors[m->nanchors++] = (rp_anchor){pos[q], m->time[q]};
    qsort(m->anchors, m->nanchors, sizeof *m->anchors, anchor_cmp);
    free(m->time);
    m->time = NULL;
    return 0;
}

/* Renumbers the points in an order every edge goes forward in, then groups the edges by their
 * end into the final arrays. */
static int order_and_group(gs_replay *m, uint32_t *to, rp_final *final)
{
    uint32_t *pos = gs_array_new(m->npoints, sizeof *pos);
    uint8_t *flag = gs_array_zeroed(m->npoints, 1);
    int rc = pos && flag && find_order(m, to, pos) == 0 ? 0 : -1;
    if (rc == 0) {
        renumber_points(m, pos, to, flag);
        rc = find_anchors(m, pos, flag);
    }
    free(flag);
    if (rc == 0)
        rc = group_by_end(m, to, pos, final); /* which frees pos */
    else
        free(pos);
    free(to);
    return rc;
}

int rp_finish(gs_replay *m, rp_edge *edges, uint32_t *to, rp_lags *lags, size_t nhost)
{
    const gs_trace *t = m->ctx->trace;
    m->edges = edges;
    m->lags = *lags;
    m->nedges = lags->n;
    *lags = (rp_lags){0};
    rp_final final;
    int rc = rp_chains_split(m, &to, nhost, &final);
    if (rc == 0)
        rc = order_and_group(m, to, &final);
    else
        free(to);
    free(final.edges);
    rp_lags_free(&final.lags);
    if (rc != 0)
        return -1;
    /* a top-level call's duration is its one RP_CALL edge (rp_build_host); a chain's segments
     * point at its edge */
    memset(m->call_edge, 0xff, (t->apis.n ? t->apis.n : 1) * sizeof *m->call_edge);
    for (size_t e = 0; e < m->ngraph; e++) {
        const rp_edge *ed = &m->edges[e];
        if (ed->kind == RP_CALL)
            m->call_edge[ed->ref] = (uint32_t)e;
        else if (ed->kind == RP_CHAIN)
            for (uint32_t s = m->chain_first[ed->ref]; s < m->chain_first[ed->ref + 1]; s++)
                m->edges[s].from = (uint32_t)e;
    }
    return 0;
}

int rp_copy_edges(const gs_replay *m, rp_lags *lag, uint32_t *launch_from)
{
    for (size_t i = 0; i < m->nops; i++)
        launch_from[i] = m->ops[i].launch;
    return rp_lags_copy(lag, &m->lags);
}

/* An anchor's measured time (it must be one). */
static gs_ns anchor_time(const gs_replay *m, uint32_t p)
{
    size_t lo = 0, hi = m->nanchors;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->anchors[mid].point <= p)
            lo = mid;
        else
            hi = mid;
    }
    return m->anchors[lo].time;
}

void rp_evaluate(const gs_replay *m, const rp_lags *lag, const uint32_t *launch_from, gs_ns *at)
{
    size_t a = 0; /* the next anchor, as p goes */
    for (uint32_t p = 0; p < m->npoints; p++) {
        gs_ns best = INT64_MIN;
        for (uint32_t e = m->first_in[p]; e < m->first_in[p + 1]; e++) {
            const rp_edge *ed = &m->edges[e];
            gs_ns l = rp_lag(lag, e);
            if (l == RP_OFF)
                continue;
            uint32_t from = launch_from && ed->kind == RP_LAUNCH ? launch_from[ed->ref] : ed->from;
            gs_ns v = (from < p ? at[from] : anchor_time(m, from)) + l;
            best = v > best ? v : best;
        }
        if (best == INT64_MIN) { /* an anchor: the points before it are done with */
            while (a + 1 < m->nanchors && m->anchors[a].point < p)
                a++;
            best = m->anchors[a].time;
        }
        at[p] = best;
    }
}
