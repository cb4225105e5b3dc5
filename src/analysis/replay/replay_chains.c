/* Chains of segments (replay_build.h): most of a lane's points are the bounds of operators that
 * launch nothing and wait for nothing, joined to the lane's points before and after by the CPU
 * time between them and to nothing else. A run of such segments is one edge of the graph, its lag
 * their sum (on the 521 MB trace of doc/performance.md, 1,291,509 of 2,714,402 points are inside
 * chains), so the graph's ordering and each run's evaluation pass over it once. The segments stay
 * edges, after the graph's, for the actions to change one by one (put_lag carries each change
 * into the chain's lag). */
#include "analysis/replay/replay_build.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

/* Holds point p, when there is one. */
static void hold(uint64_t *held, uint32_t p)
{
    if (p != GS_NONE)
        rp_point_bit_set(held, p);
}

/* The points an edge other than a lane's own, an op or a step holds: no chain goes through them. */
static uint64_t *held_points(const gs_replay *m, const uint32_t *to, size_t nhost)
{
    uint64_t *held = gs_array_zeroed(m->npoints / 64 + 1, sizeof *held);
    if (!held)
        return NULL;
    for (size_t e = nhost; e < m->nedges; e++) {
        hold(held, m->edges[e].from);
        hold(held, to[e]);
    }
    for (size_t i = 0; i < m->nops; i++) {
        hold(held, m->ops[i].start);
        hold(held, m->ops[i].end);
        hold(held, m->ops[i].launch);
    }
    for (size_t s = 0; s < m->nsteps; s++) {
        hold(held, m->steps[s].host_start);
        hold(held, m->steps[s].host_end);
    }
    return held;
}

/* The chains' inner points, a bit each: the end of a lane's segment whose next edge on the lane is
 * a segment out of it, held by nothing else. Counts them and the chains. NULL out of memory. */
static uint64_t *inner_points(const gs_replay *m, const uint32_t *to, size_t nhost, size_t *ninner,
                              size_t *nchains)
{
    uint64_t *held = held_points(m, to, nhost);
    uint64_t *inner = held ? gs_array_zeroed(m->npoints / 64 + 1, sizeof *inner) : NULL;
    for (size_t k = 0; inner && k + 1 < nhost; k++) {
        uint32_t p = to[k];
        if (m->edges[k].kind != RP_SEGMENT || m->edges[k + 1].kind != RP_SEGMENT ||
            m->edges[k + 1].from != p || rp_point_bit(held, p))
            continue;
        *nchains += !rp_point_bit(inner, m->edges[k].from); /* a lane's points come in order */
        rp_point_bit_set(inner, p);
        ++*ninner;
    }
    free(held);
    return inner;
}

/* x's bits set, counted without POPCNT, which the x86-64 baseline lacks. */
static uint32_t bits_set(uint64_t x)
{
    x -= (x >> 1) & UINT64_C(0x5555555555555555);
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (uint32_t)((x * UINT64_C(0x0101010101010101)) >> 56);
}

typedef struct split {
    gs_replay *m;
    uint32_t *to;
    const uint64_t *inner;
    uint32_t *before;       /* per 64 points as built: the inner points before them */
    uint32_t *first_point;  /* per chain: its first inner point (as built) */
    rp_final *final;
    rp_lags graph;          /* m's lags as the graph's edges get them: the same array, a new
                             * table of long lags, keyed by the new places */
} split;

/* Point p's number once the inner points are gone: p less the inner points before it. */
static uint32_t renumbered(const split *s, uint32_t p)
{
    if (p == GS_NONE)
        return p;
    uint64_t below = s->inner[p / 64] & ((UINT64_C(1) << (p % 64)) - 1);
    return p - s->before[p / 64] - bits_set(below);
}

/* Built edge e (not a chain's) into the graph's place w, its points renumbered. 0, or -1 out of
 * memory. */
static int keep_edge(split *s, size_t e, size_t w)
{
    gs_replay *m = s->m;
    gs_ns lag = rp_lag(&m->lags, (uint32_t)e);
    m->edges[w] = m->edges[e];
    m->edges[w].from = renumbered(s, m->edges[w].from);
    s->to[w] = renumbered(s, s->to[e]);
    return rp_lag_set(&s->graph, (uint32_t)w, lag);
}

/* The lane's segments k .. last into their final place, as chain c, and its edge into place w. 0,
 * or -1 out of memory. */
static int chain_edge(split *s, size_t c, size_t k, size_t last, size_t w)
{
    gs_replay *m = s->m;
    rp_final *f = s->final;
    m->chain_first[c] = (uint32_t)(f->ngraph + f->nsegs);
    s->first_point[c] = s->to[k];
    gs_ns sum = 0;
    for (size_t i = k; i <= last; i++) {
        gs_ns lag = rp_lag(&m->lags, (uint32_t)i);
        sum += lag;
        size_t at = f->ngraph + f->nsegs++;
        f->edges[at] = m->edges[i];
        f->edges[at].from = GS_NONE;
        if (rp_lag_set(&f->lags, (uint32_t)at, lag) != 0)
            return -1;
    }
    rp_edge chain = {.from = renumbered(s, m->edges[k].from), .ref = (uint32_t)c,
                     .kind = RP_CHAIN, .lane = m->edges[k].lane};
    m->edges[w] = chain;
    s->to[w] = renumbered(s, s->to[last]);
    return rp_lag_set(&s->graph, (uint32_t)w, sum);
}

/* The chain whose inner points (numbered one after another, as a lane's are) hold p; `finger`
 * is the last answer, where the search starts (ranges come in about their points' order). */
static size_t chain_holding(const split *s, uint32_t p, size_t *finger)
{
    const uint32_t *first = s->first_point;
    size_t n = s->m->nchains, c = *finger;
    if (!(first[c] <= p && (c + 1 == n || p < first[c + 1]))) {
        size_t lo = 0, hi = n; /* the first chain starting after p */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (first[mid] <= p)
                lo = mid + 1;
            else
                hi = mid;
        }
        c = lo - 1;
    }
    *finger = c;
    return c;
}

/* The points the ops, steps and ranges hold, renumbered; a range starting inside a chain gets the
 * segment into its start (m->range_seg) instead of its point. 0, or -1 out of memory. */
static int renumber_holders(split *s)
{
    gs_replay *m = s->m;
    for (size_t i = 0; i < m->nops; i++) {
        m->ops[i].start = renumbered(s, m->ops[i].start);
        m->ops[i].end = renumbered(s, m->ops[i].end);
        m->ops[i].launch = renumbered(s, m->ops[i].launch);
    }
    for (size_t i = 0; i < m->nsteps; i++) {
        m->steps[i].host_start = renumbered(s, m->steps[i].host_start);
        m->steps[i].host_end = renumbered(s, m->steps[i].host_end);
    }
    const gs_trace *t = m->ctx->trace;
    size_t finger = 0;
    for (size_t r = 0; r < t->ranges.n; r++) {
        uint32_t p = m->range_start[r];
        if (p == GS_NONE || !rp_point_bit(s->inner, p)) {
            m->range_start[r] = renumbered(s, p);
            continue;
        }
        if (!m->range_seg) {
            if (!(m->range_seg = gs_array_new(t->ranges.n, sizeof *m->range_seg)))
                return -1;
            memset(m->range_seg, 0xff, t->ranges.n * sizeof *m->range_seg);
        }
        size_t c = chain_holding(s, p, &finger);
        m->range_seg[r] = m->chain_first[c] + (p - s->first_point[c]);
        m->range_start[r] = GS_NONE;
    }
    return 0;
}

/* Every built edge in order: a chain's segments into *final and its edge into the graph, the
 * others into the graph as they were, each moved down to its place. 0, or -1 out of memory. */
static int split_edges(split *s, size_t nhost)
{
    gs_replay *m = s->m;
    size_t w = 0, c = 0;
    for (size_t e = 0; e < m->nedges; e++, w++) {
        if (e >= nhost || !rp_point_bit(s->inner, s->to[e])) {
            if (keep_edge(s, e, w) != 0)
                return -1;
            continue;
        }
        size_t last = e; /* e starts a chain: it ends with the first segment out of it */
        while (rp_point_bit(s->inner, s->to[last]))
            last++;
        if (chain_edge(s, c++, e, last, w) != 0)
            return -1;
        e = last;
    }
    m->chain_first[c] = (uint32_t)(s->final->ngraph + s->final->nsegs);
    m->nedges = w;
    return 0;
}

/* The times of the points left, moved down to their new numbers. */
static void drop_inner_points(split *s, size_t ninner)
{
    gs_replay *m = s->m;
    size_t next = 0;
    for (uint32_t p = 0; p < m->npoints; p++)
        if (!rp_point_bit(s->inner, p))
            m->time[next++] = m->time[p];
    m->npoints -= ninner;
}

/* Array p of n elements of `size` bytes, given back what lies past them. */
static void *shrunk(void *p, size_t n, size_t size)
{
    void *q = realloc(p, (n ? n : 1) * size);
    return q ? q : p;
}

/* rp_chains_split once the ninner inner points are known. 0, or -1 out of memory. */
static int split_with(split *s, size_t nhost, size_t ninner)
{
    gs_replay *m = s->m;
    /* each inner point takes an edge from the graph: its chain's segments for its chain's edge */
    size_t all = m->nedges + m->nchains, nblocks = m->npoints / 64 + 1;
    s->final->ngraph = m->nedges - ninner;
    s->before = gs_array_new(nblocks, sizeof *s->before);
    s->first_point = gs_array_new(m->nchains, sizeof *s->first_point);
    m->chain_first = gs_array_new(m->nchains + 1, sizeof *m->chain_first);
    s->final->edges = gs_array_new(all, sizeof *s->final->edges);
    if (!s->before || !s->first_point || !m->chain_first || !s->final->edges ||
        rp_lags_init(&s->final->lags, all) != 0)
        return -1;
    uint32_t count = 0;
    for (size_t b = 0; b < nblocks; b++) {
        s->before[b] = count;
        count += bits_set(s->inner[b]);
    }
    /* the lags move down in place; their long ones into a table of the new places */
    s->graph = (rp_lags){.v = m->lags.v, .n = m->lags.n, .cap = m->lags.cap};
    gs_hashtab_init(&s->graph.longs, sizeof(rp_long_lag));
    int rc = split_edges(s, nhost);
    gs_hashtab_free(&m->lags.longs);
    m->lags = s->graph;
    m->lags.n = m->lags.cap = m->nedges;
    /* what the chains' edges and segments took from the graph goes back before it is ordered */
    m->lags.v = shrunk(m->lags.v, m->nedges, sizeof *m->lags.v);
    m->edges = shrunk(m->edges, m->nedges, sizeof *m->edges);
    s->to = shrunk(s->to, m->nedges, sizeof *s->to);
    if (rc != 0 || renumber_holders(s) != 0)
        return -1;
    drop_inner_points(s, ninner);
    m->time = shrunk(m->time, m->npoints, sizeof *m->time);
    return 0;
}

int rp_chains_split(gs_replay *m, uint32_t **to, size_t nhost, rp_final *final)
{
    *final = (rp_final){0};
    size_t ninner = 0, nchains = 0;
    uint64_t *inner = inner_points(m, *to, nhost, &ninner, &nchains);
    if (inner && !ninner) { /* no chain: the graph's edges alone */
        free(inner);
        final->ngraph = m->nedges;
        final->edges = gs_array_new(m->nedges, sizeof *final->edges);
        return final->edges && rp_lags_init(&final->lags, m->nedges) == 0 ? 0 : -1;
    }
    if (!inner)
        return -1;
    m->nchains = nchains;
    split s = {.m = m, .to = *to, .inner = inner, .final = final};
    int rc = split_with(&s, nhost, ninner);
    *to = s.to;
    free(s.before);
    free(s.first_point);
    free(inner);
    return rc;
}
