/* The graph's storage: adding points and edges while building, then ordering the points so that
 * every edge goes forward (by time, and by dependency where times tie) and grouping the edges by
 * the point they end at, which is all the evaluation needs. */
#include "analysis/replay/replay_build.h"

#include <stdlib.h>
#include <string.h>

int rp_point(rp_builder *b, gs_ns ts, uint32_t *out)
{
    gs_ns *t = GS_VEC_PUSH(&b->time);
    uint32_t *l = GS_VEC_PUSH(&b->point_lane);
    if (!t || !l)
        return -1;
    *t = ts;
    *l = GS_NONE;
    *out = (uint32_t)(b->time.n - 1);
    return 0;
}

int rp_edge_add(rp_builder *b, uint32_t from, uint32_t to, gs_ns lag, uint8_t kind,
                uint8_t flags, uint32_t ref)
{
    rp_built_edge *e = GS_VEC_PUSH(&b->edges);
    if (!e)
        return -1;
    if (lag < 0 && lag != RP_OFF && kind != RP_STREAM) {
        lag = 0; /* the trace's times contradict the dependency (a stream's overlap does not:
                  * start_edges) */
        b->inputs.clipped++;
    }
    *e = (rp_built_edge){.from = from, .to = to, .lag = lag, .kind = kind, .flags = flags,
                         .ref = ref};
    return 0;
}

int rp_lane_point(rp_builder *b, rp_lane *lane, uint32_t p)
{
    if (lane->npoints == lane->cap) {
        size_t cap = lane->cap ? 2 * lane->cap : 64;
        uint32_t *v = realloc(lane->points, cap * sizeof *v);
        if (!v)
            return -1;
        lane->points = v;
        lane->cap = cap;
    }
    lane->points[lane->npoints++] = p;
    lane->last = p;
    b->point_lane.v[p] = lane->id;
    return 0;
}

/* A min-heap of points by (time, id): Kahn's order takes the earliest ready point first. */
typedef struct heap {
    uint32_t *v;
    size_t n;
    const gs_ns *time;
} heap;

static bool before(const heap *h, uint32_t a, uint32_t b)
{
    return h->time[a] != h->time[b] ? h->time[a] < h->time[b] : a < b;
}

static void heap_push(heap *h, uint32_t p)
{
    size_t i = h->n++;
    while (i > 0 && before(h, p, h->v[(i - 1) / 2])) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = p;
}

static uint32_t heap_pop(heap *h)
{
    uint32_t top = h->v[0], last = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && before(h, h->v[c + 1], h->v[c]))
            c++;
        if (!before(h, h->v[c], last))
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n)
        h->v[i] = last;
    return top;
}

/* Kahn's algorithm: pos[p] is point p's place in the order. Points left in a cycle (times that
 * tie both ways) follow in time order. */
static int order_points(gs_replay *m, const rp_built_edge *edges, size_t ne,
                        const uint32_t *out_first, const uint32_t *out_to, uint32_t *pos)
{
    size_t n = m->npoints;
    uint32_t *indeg = calloc(n ? n : 1, sizeof *indeg);
    heap h = {malloc((n ? n : 1) * sizeof *h.v), 0, m->time};
    if (!indeg || !h.v) {
        free(indeg);
        free(h.v);
        return -1;
    }
    for (size_t e = 0; e < ne; e++)
        indeg[edges[e].to]++;
    for (uint32_t p = 0; p < n; p++)
        if (!indeg[p])
            heap_push(&h, p);
    size_t k = 0;
    while (k < n) {
        if (!h.n) { /* a cycle: release its earliest point */
            uint32_t best = GS_NONE;
            for (uint32_t p = 0; p < n; p++)
                if (indeg[p] && (best == GS_NONE || before(&h, p, best)))
                    best = p;
            indeg[best] = 0;
            heap_push(&h, best);
            m->inputs.clipped++;
        }
        uint32_t p = heap_pop(&h);
        pos[p] = (uint32_t)k++;
        for (uint32_t i = out_first[p]; i < out_first[p + 1]; i++)
            if (indeg[out_to[i]] && --indeg[out_to[i]] == 0)
                heap_push(&h, out_to[i]);
    }
    free(indeg);
    free(h.v);
    return 0;
}

/* The order of the points, found with the edges grouped by the point they leave from (a counting
 * sort). 0, or -1 out of memory. */
static int find_order(gs_replay *m, const rp_built_edge *edges, size_t ne, uint32_t *pos)
{
    size_t n = m->npoints;
    uint32_t *out_first = calloc(n + 1, sizeof *out_first);
    uint32_t *out_to = malloc((ne ? ne : 1) * sizeof *out_to);
    int rc = -1;
    if (out_first && out_to) {
        for (size_t e = 0; e < ne; e++)
            out_first[edges[e].from + 1]++;
        for (size_t p = 0; p < n; p++)
            out_first[p + 1] += out_first[p];
        memset(pos, 0, n * sizeof *pos); /* until ordered: each point's edges placed so far */
        for (size_t e = 0; e < ne; e++) {
            uint32_t f = edges[e].from;
            out_to[out_first[f] + pos[f]++] = edges[e].to;
        }
        rc = order_points(m, edges, ne, out_first, out_to, pos);
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

/* Gives each point its place in the order as its number: the order is then 0, 1, 2, ... and a
 * run's times are written one after another. Every array of points follows but the edges. */
static int renumber_points(gs_replay *m, const uint32_t *pos)
{
    const gs_trace *t = m->ctx->trace;
    gs_ns *time = malloc((m->npoints ? m->npoints : 1) * sizeof *time);
    if (!time)
        return -1;
    for (size_t p = 0; p < m->npoints; p++)
        time[pos[p]] = m->time[p];
    free(m->time);
    m->time = time;
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
    return 0;
}

/* The built edges, renumbered, grouped by the point they end at (a stable counting sort: a
 * point's edges keep the order they were built in); each call's duration edge found again. */
static int group_edges(gs_replay *m, const rp_built_edge *built, size_t ne, const uint32_t *pos)
{
    size_t n = m->npoints;
    const gs_trace *t = m->ctx->trace;
    m->first_in = calloc(n + 1, sizeof *m->first_in);
    m->edges = malloc((ne ? ne : 1) * sizeof *m->edges);
    if (!m->first_in || !m->edges || rp_lags_init(&m->lags, ne) != 0)
        return -1;
    m->nedges = ne;
    for (size_t e = 0; e < ne; e++)
        m->first_in[pos[built[e].to] + 1]++;
    for (size_t p = 0; p < n; p++)
        m->first_in[p + 1] += m->first_in[p];
    /* first_in[p + 1] counts the edges placed into p up to where p + 1's begin */
    for (size_t e = 0; e < ne; e++) {
        const rp_built_edge *b = &built[e];
        uint32_t i = m->first_in[pos[b->to]]++;
        m->edges[i] = (rp_edge){.from = pos[b->from], .ref = b->ref, .kind = b->kind,
                                .flags = b->flags, .lane = b->lane};
        if (rp_lag_set(&m->lags, i, b->lag) != 0)
            return -1;
    }
    for (size_t p = n; p > 0; p--)
        m->first_in[p] = m->first_in[p - 1];
    m->first_in[0] = 0;
    /* a top-level call's duration is its one RP_CALL edge (rp_build_host) */
    memset(m->call_edge, 0xff, (t->apis.n ? t->apis.n : 1) * sizeof *m->call_edge);
    for (size_t e = 0; e < ne; e++)
        if (m->edges[e].kind == RP_CALL)
            m->call_edge[m->edges[e].ref] = (uint32_t)e;
    return 0;
}

int rp_finish(gs_replay *m, rp_built_edge *built, size_t nbuilt)
{
    uint32_t *pos = malloc((m->npoints ? m->npoints : 1) * sizeof *pos);
    int rc = pos && find_order(m, built, nbuilt, pos) == 0 && renumber_points(m, pos) == 0 &&
                     group_edges(m, built, nbuilt, pos) == 0
                 ? 0 : -1;
    free(pos);
    free(built);
    return rc;
}

int rp_copy_edges(const gs_replay *m, rp_lags *lag, uint32_t *launch_from)
{
    for (size_t i = 0; i < m->nops; i++)
        launch_from[i] = m->ops[i].launch;
    return rp_lags_copy(lag, &m->lags, m->nedges);
}

void rp_evaluate(const gs_replay *m, const rp_lags *lag, const uint32_t *launch_from, gs_ns *at)
{
    for (size_t p = 0; p < m->npoints; p++) {
        gs_ns best = INT64_MIN;
        for (uint32_t e = m->first_in[p]; e < m->first_in[p + 1]; e++) {
            const rp_edge *ed = &m->edges[e];
            gs_ns l = rp_lag(lag, e);
            if (l == RP_OFF)
                continue;
            uint32_t from = launch_from && ed->kind == RP_LAUNCH ? launch_from[ed->ref] : ed->from;
            gs_ns v = (from < p ? at[from] : m->time[from]) + l;
            best = v > best ? v : best;
        }
        at[p] = best == INT64_MIN ? m->time[p] : best;
    }
}
