#include "analysis/trace/idle.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/trace/host_during.h"
#include "analysis/base/kernel_class.h"
#include "analysis/base/thresholds.h"
#include "common/log.h"
#include "common/util.h"
#include "common/vec.h"
#include "model/time_sort.h"

const char *gs_gap_class_name(enum gs_gap_class c)
{
    static const char *const names[GS_GAP__COUNT] = {
        [GS_GAP_HOST_WAIT] = "host_wait",
        [GS_GAP_KERNEL_WAIT] = "kernel_wait",
        [GS_GAP_OTHER] = "other",
    };
    return (unsigned)c < GS_GAP__COUNT ? names[c] : "?";
}

/* A gap worth listing, with what the host analysis needs to find the launching process. */
typedef struct candidate {
    gs_gap gap;
    size_t trace; /* the order its trace was added in */
    int64_t pid;  /* of the launch call after the gap; 0 when unknown (all threads) */
} candidate;

/* What the traces added: their rows, and each one's longest gaps with their names interned in
 * the result's table (its trace is gone by _finish). */
typedef struct gs_idle_building {
    gs_idle_opts opts;
    GS_VEC(gs_idle_scope) streams;
    GS_VEC(gs_idle_scope) devices;
    GS_VEC(candidate) cands;
    GS_VEC(gs_idle_step) steps;
    gs_activities acts;
    size_t ntraces;
    const gs_window *window; /* the trace's at hand */
} idle_build;

/* Whether the gap between two activities lies in one part of the window: a gap across a part
 * left out (between two ranges of --range) is not idle time of the window. */
static bool in_one_part(const gs_window *w, const gs_activity *before, const gs_activity *after)
{
    gs_ns a = before->api != GS_NONE ? before->launch : before->start;
    gs_ns b = after->api != GS_NONE ? after->launch : after->start;
    return gs_window_part_at(w, a) == gs_window_part_at(w, b);
}

static double pct(gs_ns part, gs_ns whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* doc/design.md §15: host-wait when the next activity's launch call began after the GPU (or
 * stream) had drained; otherwise a short gap is launch latency between back-to-back work. */
static enum gs_gap_class classify(const gs_activity *next, gs_ns prev_end, gs_ns gap)
{
    if (next->api != GS_NONE && next->launch > prev_end)
        return GS_GAP_HOST_WAIT;
    return gap < GS_TH_KERNEL_WAIT_NS ? GS_GAP_KERNEL_WAIT : GS_GAP_OTHER;
}

static void add_to_totals(gs_gap_totals *g, enum gs_gap_class c, gs_ns len)
{
    g->count[c]++;
    g->total[c] += len;
}

static void finish_totals(gs_gap_totals *g)
{
    g->idle = 0;
    for (int c = 0; c < GS_GAP__COUNT; c++)
        g->idle += g->total[c];
    for (int c = 0; c < GS_GAP__COUNT; c++)
        g->share_pct[c] = pct(g->total[c], g->idle);
}

static gs_idle_scope *new_scope(idle_build *b, bool device_wide, const gs_trace *t,
                                const gs_activity *first)
{
    gs_idle_scope *s = device_wide ? GS_VEC_PUSH(&b->devices) : GS_VEC_PUSH(&b->streams);
    if (s)
        *s = (gs_idle_scope){.rank = t->id.rank, .device = first->device,
                             .stream = device_wide ? GS_IDLE_ALL_STREAMS : first->stream,
                             .window_start = first->start, .window_end = first->end};
    return s;
}

/* ---- per stream ------------------------------------------------------------------------------ */

/* One stream's gaps. gpuscope: gaps in the stream's busy time (running latest end), so work
 * that overlaps on one stream never makes a negative gap. HTA's idle breakdown: every
 * consecutive pair, gap = start − the previous activity's end, negative ones included, as it sums
 * them. */
static void find_stream_gaps(gs_idle_scope *s, const gs_window *w, const gs_activity *acts,
                             const uint32_t *order, size_t n, bool hta)
{
    gs_ns run_end = acts[order[0]].end;
    for (size_t i = 1; i < n; i++) {
        const gs_activity *a = &acts[order[i]], *before = &acts[order[i - 1]];
        gs_ns prev_end = hta ? before->end : run_end;
        gs_ns gap = a->start - prev_end;
        if ((hta || gap > 0) && in_one_part(w, before, a))
            add_to_totals(&s->gaps, classify(a, prev_end, gap), gap);
        if (a->end > run_end)
            run_end = a->end;
    }
    s->activities = n;
    s->window_end = run_end;
    finish_totals(&s->gaps);
}

/* The activities' places in acts by (device, stream), each stream's in time order (the order of
 * acts: gs_activities_collect), into *out (n entries): a stable radix sort of the places by
 * their stream, and the activities read through the order rather than copied into it. 0, or -1
 * out of memory. */
static int order_by_stream(const idle_build *b, uint32_t **out)
{
    size_t n = b->acts.n;
    uint64_t *key = gs_array_new(n, sizeof *key);
    *out = gs_array_new(n, sizeof **out);
    int rc = key && *out ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const gs_activity *a = &b->acts.v[i];
        key[i] = gs_radix_key_pair(a->device, a->stream);
        (*out)[i] = (uint32_t)i;
    }
    if (rc == 0)
        rc = gs_radix_order(key, n, *out);
    free(key);
    if (rc != 0) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

static int build_stream_scopes(idle_build *b, const gs_trace *t)
{
    const gs_activity *acts = b->acts.v;
    uint32_t *order;
    if (order_by_stream(b, &order) != 0)
        return -1;
    int rc = 0;
    for (size_t i = 0, j; i < b->acts.n && rc == 0; i = j) {
        const gs_activity *first = &acts[order[i]];
        for (j = i + 1; j < b->acts.n && acts[order[j]].device == first->device &&
                        acts[order[j]].stream == first->stream;
             j++)
            ;
        gs_idle_scope *s = new_scope(b, false, t, first);
        if (s)
            find_stream_gaps(s, b->window, acts, order + i, j - i, b->opts.hta_compat);
        else
            rc = -1;
    }
    free(order);
    return rc;
}

/* ---- GPU-wide per device, steps, gaps worth listing ------------------------------------------ */

/* First step whose end lies after ts (steps are in time order and disjoint). */
static size_t first_step_ending_after(const gs_steps *st, gs_ns ts)
{
    size_t lo = 0, hi = st->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (st->v[mid].end <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void add_to_steps(idle_build *b, const uint32_t *step_row, const gs_steps *st,
                         gs_ns start, gs_ns end, enum gs_gap_class c)
{
    for (size_t k = first_step_ending_after(st, start); k < st->n && st->v[k].start < end; k++) {
        gs_ns lo = start > st->v[k].start ? start : st->v[k].start;
        gs_ns hi = end < st->v[k].end ? end : st->v[k].end;
        if (hi > lo && step_row[k] != GS_NONE) {
            b->steps.v[step_row[k]].idle[c] += hi - lo;
            b->steps.v[step_row[k]].idle_total += hi - lo;
        }
    }
}

typedef struct device_ctx {
    const gs_trace *t;
    size_t trace;
    const gs_steps *steps;
    const uint32_t *step_row; /* build_step_rows' */
    gs_idle_scope *scope;
} device_ctx;

static int add_gap(idle_build *b, const device_ctx *d, const gs_activity *before,
                   const gs_activity *after, gs_ns start)
{
    gs_ns len = after->start - start;
    enum gs_gap_class c = classify(after, start, len);
    add_to_totals(&d->scope->gaps, c, len);
    add_to_steps(b, d->step_row, d->steps, start, after->start, c);
    long k = gs_steps_at(d->steps, start);
    double step_pct = k >= 0 ? pct(len, d->steps->v[k].end - d->steps->v[k].start) : 0.0;
    if (len < GS_TH_GAP_LIST_NS && step_pct < GS_TH_GAP_LIST_STEP_PCT)
        return 0;
    candidate *cd = GS_VEC_PUSH(&b->cands);
    if (!cd)
        return -1;
    const gs_trace *t = d->t;
    cd->trace = d->trace;
    cd->pid = after->api != GS_NONE ? t->apis.v[after->api].pid : t->pid;
    cd->gap = (gs_gap){
        .rank = t->id.rank, .device = after->device, .start = start, .end = after->start,
        .offset = start - d->scope->window_start,
        .cls = (uint8_t)c, .before = gs_activity_name(t, before),
        .after = gs_activity_name(t, after), .after_stream = after->stream,
        .launch_start = after->api != GS_NONE ? after->launch : -1, .step = k,
        .step_number = k >= 0 ? d->steps->v[k].number : -1, .step_pct = step_pct};
    return 0;
}

/* Gaps in the union of one device's activity: a gap opens when an activity starts after the
 * latest end so far; `before` is the activity that reached that end. */
static int find_device_gaps(idle_build *b, device_ctx *d, int32_t device)
{
    const gs_activity *before = NULL;
    gs_ns run_end = 0;
    for (size_t i = 0; i < b->acts.n; i++) {
        const gs_activity *a = &b->acts.v[i];
        if (a->device != device)
            continue;
        if (!before) {
            if (!(d->scope = new_scope(b, true, d->t, a)))
                return -1;
        } else if (a->start > run_end && in_one_part(b->window, before, a) &&
                   add_gap(b, d, before, a, run_end) != 0) {
            return -1;
        }
        d->scope->activities++;
        if (!before || a->end > run_end) {
            run_end = a->end;
            before = a;
        }
    }
    d->scope->window_end = run_end;
    finish_totals(&d->scope->gaps);
    return 0;
}

static int build_device_scopes(idle_build *b, device_ctx *d)
{
    GS_VEC(int32_t) devs = {0};
    int rc = 0;
    for (size_t i = 0; i < b->acts.n && rc == 0; i++) {
        size_t k = 0;
        while (k < devs.n && devs.v[k] != b->acts.v[i].device)
            k++;
        int32_t *slot = k == devs.n ? GS_VEC_PUSH(&devs) : NULL;
        if (k == devs.n && !slot)
            rc = -1;
        else if (slot)
            *slot = b->acts.v[i].device;
    }
    if (devs.n > 1)
        qsort(devs.v, devs.n, sizeof *devs.v, gs_cmp_i32);
    for (size_t k = 0; k < devs.n && rc == 0; k++)
        rc = find_device_gaps(b, d, devs.v[k]);
    free(devs.v);
    return rc;
}

/* A row per step; a step outside the window gets none (its activities were left out), and
 * step_row[k] says where step k's row is (GS_NONE: none). */
static int build_step_rows(idle_build *b, const gs_trace *t, const gs_steps *st,
                           uint32_t *step_row)
{
    for (size_t k = 0; k < st->n; k++) {
        step_row[k] = GS_NONE;
        if (!gs_window_holds(b->window, st->v[k].start) &&
            !gs_window_holds(b->window, st->v[k].host_start))
            continue;
        step_row[k] = (uint32_t)b->steps.n;
        gs_idle_step *row = GS_VEC_PUSH(&b->steps);
        if (!row)
            return -1;
        *row = (gs_idle_step){.rank = t->id.rank, .number = st->v[k].number,
                              .start = st->v[k].start, .end = st->v[k].end,
                              .warmup = st->v[k].warmup};
    }
    return 0;
}

static int analyse_trace(idle_build *b, const gs_trace_ctx *c)
{
    const gs_trace *t = c->trace;
    const gs_steps *st = &c->steps;
    b->window = &c->window;
    const gs_activity_opts ao = {.hta_compat = b->opts.hta_compat, .with_syncs = false,
                                 .window = &c->window};
    uint32_t *step_row = gs_array_new(st->n, sizeof *step_row);
    device_ctx d = {.t = t, .trace = b->ntraces, .steps = st, .step_row = step_row};
    int rc = step_row ? build_step_rows(b, t, st, step_row) : -1;
    if (rc == 0)
        rc = gs_activities_collect(c, &ao, &b->acts);
    if (rc == 0)
        rc = build_stream_scopes(b, t);
    if (rc == 0)
        rc = build_device_scopes(b, &d);
    free(step_row);
    b->window = NULL;
    return rc;
}

/* Longest first; ties by rank, then the order the traces came in, then time. */
static int cmp_candidate(const void *pa, const void *pb)
{
    const candidate *a = pa, *b = pb;
    gs_ns la = a->gap.end - a->gap.start, lb = b->gap.end - b->gap.start;
    if (la != lb)
        return la > lb ? -1 : 1;
    if (a->gap.rank != b->gap.rank)
        return a->gap.rank < b->gap.rank ? -1 : 1;
    if (a->trace != b->trace)
        return a->trace < b->trace ? -1 : 1;
    return a->gap.start < b->gap.start ? -1 : a->gap.start > b->gap.start;
}

int gs_gap_keep_names(gs_gap *g, gs_strtab *names)
{
    const char **name[] = {&g->before, &g->after, &g->host.op, &g->host.api, &g->host.sync_api};
    for (size_t k = 0; k < COUNT_OF(name); k++)
        if (gs_strtab_keep(names, name[k]) != 0)
            return -1;
    return 0;
}

/* The trace's candidates from `first` on: the longest max_gaps of them are kept (the longest of
 * all traces are among them), each with what the host was doing and its names owned. */
static int keep_longest(idle_build *b, gs_idle *out, const gs_trace_ctx *c, size_t first)
{
    size_t n = b->cands.n - first;
    if (n == 0)
        return 0; /* and cands.v may be NULL */
    candidate *v = b->cands.v + first;
    out->gaps_worth_listing += n;
    if (n > 1)
        qsort(v, n, sizeof *v, cmp_candidate);
    if (n > b->opts.max_gaps)
        n = b->opts.max_gaps;
    b->cands.n = first + n;
    gs_host_index *ix = NULL;
    int rc = n ? gs_host_index_build(c, &ix) : 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        gs_gap *g = &v[i].gap;
        rc = gs_host_during(ix, v[i].pid, g->start, g->end, &g->host);
        if (rc == 0)
            rc = gs_gap_keep_names(g, &out->names);
    }
    gs_host_index_free(ix);
    return rc;
}

/* ---- the whole analysis --------------------------------------------------------------------- */

static void free_build(idle_build *b)
{
    if (!b)
        return;
    free(b->streams.v);
    free(b->devices.v);
    free(b->cands.v);
    free(b->steps.v);
    free(b->acts.v);
    free(b);
}

int gs_idle_init(gs_idle *r, const gs_idle_opts *opts, gs_error *err)
{
    memset(r, 0, sizeof *r);
    r->building = calloc(1, sizeof *r->building);
    if (!r->building || gs_strtab_init(&r->names) != 0) {
        gs_idle_free(r);
        return gs_fail_oom(err);
    }
    r->building->opts = *opts;
    return 0;
}

int gs_idle_add(gs_idle *r, const gs_trace_ctx *c, gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    idle_build *b = r->building;
    size_t first = b->cands.n;
    if (analyse_trace(b, c) != 0 || keep_longest(b, r, c, first) != 0) {
        gs_idle_free(r);
        return gs_fail_oom(err);
    }
    b->ntraces++;
    GS_LOG_TOOK(logged_at, "idle");
    return 0;
}

int gs_idle_finish(gs_idle *r, gs_error *err)
{
    idle_build *b = r->building;
    if (b->cands.n > 1)
        qsort(b->cands.v, b->cands.n, sizeof *b->cands.v, cmp_candidate);
    size_t n = b->cands.n < b->opts.max_gaps ? b->cands.n : b->opts.max_gaps;
    r->gaps = gs_array_zeroed(n, sizeof *r->gaps);
    if (!r->gaps) {
        gs_idle_free(r);
        return gs_fail_oom(err);
    }
    for (size_t i = 0; i < n; i++)
        r->gaps[i] = b->cands.v[i].gap;
    r->ngaps = n;
    for (size_t k = 0; k < b->steps.n; k++) {
        gs_idle_step *st = &b->steps.v[k];
        st->idle_pct = pct(st->idle_total, st->end - st->start);
    }
    gs_stable_sort_by_i32(b->streams.v, b->streams.n, sizeof *b->streams.v,
                          offsetof(gs_idle_scope, rank));
    gs_stable_sort_by_i32(b->devices.v, b->devices.n, sizeof *b->devices.v,
                          offsetof(gs_idle_scope, rank));
    gs_stable_sort_by_i32(b->steps.v, b->steps.n, sizeof *b->steps.v,
                          offsetof(gs_idle_step, rank));
    r->streams = b->streams.v;
    r->nstreams = b->streams.n;
    r->devices = b->devices.v;
    r->ndevices = b->devices.n;
    r->steps = b->steps.v;
    r->nsteps = b->steps.n;
    b->streams.v = b->devices.v = NULL;
    b->steps.v = NULL;
    free_build(b);
    r->building = NULL;
    return 0;
}

int gs_idle_build(const gs_trace_ctx *c, const gs_idle_opts *opts, gs_idle *out, gs_error *err)
{
    return gs_idle_init(out, opts, err) != 0 || gs_idle_add(out, c, err) != 0
               ? -1
               : gs_idle_finish(out, err);
}

void gs_idle_free(gs_idle *r)
{
    free(r->streams);
    free(r->devices);
    free(r->gaps);
    free(r->steps);
    gs_strtab_free(&r->names);
    free_build(r->building);
    memset(r, 0, sizeof *r);
}
