#include "analysis/idle.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/kernel_class.h"

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
    size_t trace;
    int64_t pid; /* of the launch call after the gap; 0 when unknown (all threads) */
} candidate;

typedef struct idle_build {
    const gs_idle_opts *opts;
    GS_VEC(gs_idle_scope) streams;
    GS_VEC(gs_idle_scope) devices;
    GS_VEC(candidate) cands;
    GS_VEC(gs_idle_step) steps;
    gs_activities acts, by_stream;
} idle_build;

static double pct(gs_ns part, gs_ns whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* DESIGN §3: host-wait when the next activity's launch call began after the GPU (or stream) had
 * drained; otherwise a short gap is launch latency between back-to-back work. */
static enum gs_gap_class classify(const gs_activity *next, gs_ns prev_end, gs_ns gap)
{
    if (next->api != GS_NONE && next->launch > prev_end)
        return GS_GAP_HOST_WAIT;
    return gap < GS_KERNEL_WAIT_MAX_NS ? GS_GAP_KERNEL_WAIT : GS_GAP_OTHER;
}

static void totals_add(gs_gap_totals *g, enum gs_gap_class c, gs_ns len)
{
    g->count[c]++;
    g->total[c] += len;
}

static void totals_finish(gs_gap_totals *g)
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
        *s = (gs_idle_scope){.rank = t->rank, .device = first->device,
                             .stream = device_wide ? GS_IDLE_ALL_STREAMS : first->stream,
                             .window_start = first->start, .window_end = first->end};
    return s;
}

/* ---- per stream ------------------------------------------------------------------------------ */

static int cmp_stream_order(const void *pa, const void *pb)
{
    const gs_activity *a = pa, *b = pb;
    if (a->device != b->device)
        return a->device < b->device ? -1 : 1;
    if (a->stream != b->stream)
        return a->stream < b->stream ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end < b->end ? -1 : 1;
    if (a->gpu_class != b->gpu_class)
        return a->gpu_class < b->gpu_class ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* One stream's gaps. gpuscope: gaps in the stream's busy time (running latest end), so work
 * that overlaps on one stream never makes a negative gap. HTA (A4): every consecutive pair,
 * gap = start − the previous activity's end, negative ones included, as it sums them. */
static void stream_gaps(gs_idle_scope *s, const gs_activity *v, size_t n, bool hta)
{
    gs_ns run_end = v[0].end;
    for (size_t i = 1; i < n; i++) {
        const gs_activity *a = &v[i];
        gs_ns prev_end = hta ? v[i - 1].end : run_end;
        gs_ns gap = a->start - prev_end;
        if (hta || gap > 0)
            totals_add(&s->gaps, classify(a, prev_end, gap), gap);
        if (a->end > run_end)
            run_end = a->end;
    }
    s->activities = n;
    s->window_end = run_end;
    totals_finish(&s->gaps);
}

static int stream_scopes(idle_build *b, const gs_trace *t)
{
    gs_activities *v = &b->by_stream;
    v->n = 0;
    for (size_t i = 0; i < b->acts.n; i++) {
        gs_activity *a = GS_VEC_PUSH(v);
        if (!a)
            return -1;
        *a = b->acts.v[i];
    }
    if (v->n > 1)
        qsort(v->v, v->n, sizeof *v->v, cmp_stream_order);
    for (size_t i = 0, j; i < v->n; i = j) {
        for (j = i + 1; j < v->n && v->v[j].device == v->v[i].device &&
                        v->v[j].stream == v->v[i].stream;
             j++)
            ;
        gs_idle_scope *s = new_scope(b, false, t, &v->v[i]);
        if (!s)
            return -1;
        stream_gaps(s, &v->v[i], j - i, b->opts->hta_compat);
    }
    return 0;
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

static void add_to_steps(idle_build *b, size_t step_base, const gs_steps *st, gs_ns start,
                         gs_ns end, enum gs_gap_class c)
{
    for (size_t k = first_step_ending_after(st, start); k < st->n && st->v[k].start < end; k++) {
        gs_ns lo = start > st->v[k].start ? start : st->v[k].start;
        gs_ns hi = end < st->v[k].end ? end : st->v[k].end;
        if (hi > lo) {
            b->steps.v[step_base + k].idle[c] += hi - lo;
            b->steps.v[step_base + k].idle_total += hi - lo;
        }
    }
}

typedef struct device_ctx {
    const gs_trace *t;
    size_t trace;
    const gs_steps *steps;
    size_t step_base;
    gs_idle_scope *scope;
} device_ctx;

static int one_gap(idle_build *b, const device_ctx *d, const gs_activity *before,
                   const gs_activity *after, gs_ns start)
{
    gs_ns len = after->start - start;
    enum gs_gap_class c = classify(after, start, len);
    totals_add(&d->scope->gaps, c, len);
    add_to_steps(b, d->step_base, d->steps, start, after->start, c);
    long k = gs_steps_at(d->steps, start);
    double step_pct = k >= 0 ? pct(len, d->steps->v[k].end - d->steps->v[k].start) : 0.0;
    if (len < GS_GAP_LIST_MIN_NS && step_pct < GS_GAP_LIST_MIN_STEP_PCT)
        return 0;
    candidate *cd = GS_VEC_PUSH(&b->cands);
    if (!cd)
        return -1;
    const gs_trace *t = d->t;
    cd->trace = d->trace;
    cd->pid = after->api != GS_NONE ? t->apis.v[after->api].pid : t->pid;
    cd->gap = (gs_gap){
        .rank = t->rank, .device = after->device, .start = start, .end = after->start,
        .offset = start - d->scope->window_start,
        .cls = (uint8_t)c, .before = gs_activity_name(t, before),
        .after = gs_activity_name(t, after), .after_stream = after->stream,
        .launch_start = after->api != GS_NONE ? after->launch : -1, .step = k,
        .step_number = k >= 0 ? d->steps->v[k].number : -1, .step_pct = step_pct};
    return 0;
}

/* Gaps in the union of one device's activity: a gap opens when an activity starts after the
 * latest end so far; `before` is the activity that reached that end. */
static int device_gaps(idle_build *b, device_ctx *d, int32_t device)
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
        } else if (a->start > run_end && one_gap(b, d, before, a, run_end) != 0) {
            return -1;
        }
        d->scope->activities++;
        if (!before || a->end > run_end) {
            run_end = a->end;
            before = a;
        }
    }
    d->scope->window_end = run_end;
    totals_finish(&d->scope->gaps);
    return 0;
}

static int cmp_int32(const void *pa, const void *pb)
{
    int32_t a = *(const int32_t *)pa, b = *(const int32_t *)pb;
    return a < b ? -1 : a > b;
}

static int device_scopes(idle_build *b, device_ctx *d)
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
        qsort(devs.v, devs.n, sizeof *devs.v, cmp_int32);
    for (size_t k = 0; k < devs.n && rc == 0; k++)
        rc = device_gaps(b, d, devs.v[k]);
    free(devs.v);
    return rc;
}

static int step_rows(idle_build *b, const gs_trace *t, const gs_steps *st)
{
    for (size_t k = 0; k < st->n; k++) {
        gs_idle_step *row = GS_VEC_PUSH(&b->steps);
        if (!row)
            return -1;
        *row = (gs_idle_step){.rank = t->rank, .number = st->v[k].number,
                              .start = st->v[k].start, .end = st->v[k].end,
                              .warmup = st->v[k].warmup};
    }
    return 0;
}

static int one_trace(idle_build *b, const gs_trace *t, size_t ti, gs_error *err)
{
    const gs_activity_opts ao = {.hta_compat = b->opts->hta_compat, .with_syncs = false};
    const gs_step_opts no_opts = {0};
    gs_steps st;
    if (gs_steps_find(t, b->opts->steps ? b->opts->steps : &no_opts, &st, err) != 0)
        return -1;
    device_ctx d = {.t = t, .trace = ti, .steps = &st, .step_base = b->steps.n};
    int rc = step_rows(b, t, &st);
    if (rc == 0)
        rc = gs_activities_collect(t, &ao, &b->acts);
    if (rc == 0)
        rc = stream_scopes(b, t);
    if (rc == 0)
        rc = device_scopes(b, &d);
    gs_steps_free(&st);
    if (rc != 0)
        gs_fail_oom(err);
    return rc;
}

/* ---- what the host was doing during the listed gaps ------------------------------------------ */

/* Calls that block the host until the GPU catches up (DESIGN §3 "Sync points"). */
static const char *const sync_calls[] = {
    "cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize", "cudaMemcpy",
    "cudaMemcpy2D",          "cudaMemcpy3D",          "cuStreamSynchronize",  "cuCtxSynchronize",
    "cuEventSynchronize",    "hipStreamSynchronize",  "hipDeviceSynchronize", "hipEventSynchronize",
    "hipMemcpy",             "aten::item",            "aten::_local_scalar_dense",
};

/* Ranges a DataLoader iteration records (TB plugin: enumerate(DataLoader)# / enumerate(DataPipe)#). */
static const char *const dataloader_prefixes[] = {"enumerate(DataLoader)#", "enumerate(DataPipe)#"};

/* API calls nest at most runtime-over-driver deep, so the open calls at a time are among the
 * last few that started before it. */
#define API_NEST_LOOKBACK 4

static bool is_sync_call(const char *name)
{
    for (size_t i = 0; i < sizeof sync_calls / sizeof sync_calls[0]; i++)
        if (strcmp(name, sync_calls[i]) == 0)
            return true;
    return false;
}

static bool is_dataloader(const char *name)
{
    for (size_t i = 0; i < sizeof dataloader_prefixes / sizeof dataloader_prefixes[0]; i++)
        if (strncmp(name, dataloader_prefixes[i], strlen(dataloader_prefixes[i])) == 0)
            return true;
    return false;
}

static gs_ns overlap(gs_ns a0, gs_ns a1, gs_ns b0, gs_ns b1)
{
    gs_ns lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
    return hi > lo ? hi - lo : 0;
}

/* Host events of one trace grouped by thread, each thread's in start order. */
typedef struct thread_index {
    uint32_t *idx; /* indices into the ranges (op tree only) or apis */
    size_t n;
} thread_index;

static const gs_trace *sort_trace; /* qsort has no context argument in C11 */

static int cmp_range_thread(const void *pa, const void *pb)
{
    const gs_range *a = &sort_trace->ranges.v[*(const uint32_t *)pa];
    const gs_range *b = &sort_trace->ranges.v[*(const uint32_t *)pb];
    if (a->pid != b->pid)
        return a->pid < b->pid ? -1 : 1;
    if (a->tid != b->tid)
        return a->tid < b->tid ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

static int cmp_api_thread(const void *pa, const void *pb)
{
    const gs_api *a = &sort_trace->apis.v[*(const uint32_t *)pa];
    const gs_api *b = &sort_trace->apis.v[*(const uint32_t *)pb];
    if (a->pid != b->pid)
        return a->pid < b->pid ? -1 : 1;
    if (a->tid != b->tid)
        return a->tid < b->tid ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    return *(const uint32_t *)pa < *(const uint32_t *)pb ? -1 : 1;
}

static int build_index(const gs_trace *t, thread_index *ranges, thread_index *apis)
{
    ranges->idx = malloc((t->ranges.n ? t->ranges.n : 1) * sizeof *ranges->idx);
    apis->idx = malloc((t->apis.n ? t->apis.n : 1) * sizeof *apis->idx);
    if (!ranges->idx || !apis->idx)
        return -1;
    ranges->n = apis->n = 0;
    for (size_t i = 0; i < t->ranges.n; i++)
        if (gs_range_in_op_tree(&t->ranges.v[i]))
            ranges->idx[ranges->n++] = (uint32_t)i;
    for (size_t i = 0; i < t->apis.n; i++)
        apis->idx[apis->n++] = (uint32_t)i;
    sort_trace = t;
    qsort(ranges->idx, ranges->n, sizeof *ranges->idx, cmp_range_thread);
    qsort(apis->idx, apis->n, sizeof *apis->idx, cmp_api_thread);
    return 0;
}

/* In [lo, hi) of a thread run, the first position whose start is > ts. */
#define UPPER_BOUND(arr, idx, lo, hi, ts, out)                                                     \
    do {                                                                                           \
        size_t lo_ = (lo), hi_ = (hi);                                                             \
        while (lo_ < hi_) {                                                                        \
            size_t mid_ = lo_ + (hi_ - lo_) / 2;                                                   \
            if ((arr)[(idx)[mid_]].start <= (ts))                                                  \
                lo_ = mid_ + 1;                                                                    \
            else                                                                                   \
                hi_ = mid_;                                                                        \
        }                                                                                          \
        (out) = lo_;                                                                               \
    } while (0)

typedef struct hit {
    uint32_t range;
    gs_ns ov, self;
} hit;

typedef GS_VEC(hit) hit_vec;

static int cmp_hit(const void *pa, const void *pb)
{
    uint32_t a = ((const hit *)pa)->range, b = ((const hit *)pb)->range;
    return a < b ? -1 : a > b;
}

static void note_sync(gs_gap_host *h, const char *name, gs_ns ov)
{
    if (ov > h->sync_ns && is_sync_call(name)) {
        h->sync_ns = ov;
        h->sync_api = name;
    }
}

/* One thread's op-tree ranges in the gap: those open at its start (the deepest open range and
 * its ancestors) and those starting inside it. Each gets its overlap minus its children's, so
 * the op with the most such time is where the thread really was. */
static int thread_ranges(const gs_trace *t, const uint32_t *idx, size_t lo, size_t hi,
                         const gs_gap *g, hit_vec *hits, gs_gap_host *h)
{
    const gs_range *rv = t->ranges.v;
    size_t pos;
    UPPER_BOUND(rv, idx, lo, hi, g->start, pos);
    hits->n = 0;
    uint32_t x = pos > lo ? idx[pos - 1] : GS_NONE;
    while (x != GS_NONE && rv[x].end <= g->start)
        x = rv[x].parent;
    for (; x != GS_NONE; x = rv[x].parent) {
        hit *e = GS_VEC_PUSH(hits);
        if (!e)
            return -1;
        *e = (hit){x, overlap(rv[x].start, rv[x].end, g->start, g->end), 0};
    }
    for (size_t p = pos; p < hi && rv[idx[p]].start < g->end; p++) {
        hit *e = GS_VEC_PUSH(hits);
        if (!e)
            return -1;
        *e = (hit){idx[p], overlap(rv[idx[p]].start, rv[idx[p]].end, g->start, g->end), 0};
    }
    qsort(hits->v, hits->n, sizeof *hits->v, cmp_hit);
    for (size_t i = 0; i < hits->n; i++)
        hits->v[i].self += hits->v[i].ov;
    for (size_t i = 0; i < hits->n; i++) {
        hit key = {rv[hits->v[i].range].parent, 0, 0};
        hit *p = key.range == GS_NONE ? NULL
                                      : bsearch(&key, hits->v, hits->n, sizeof key, cmp_hit);
        if (p)
            p->self -= hits->v[i].ov;
        const char *name = gs_trace_str(t, rv[hits->v[i].range].name);
        /* Nested DataLoader ranges count once: only the outermost adds. */
        if (is_dataloader(name) && !(p && is_dataloader(gs_trace_str(t, rv[p->range].name))))
            h->dataloader_ns += hits->v[i].ov;
        note_sync(h, name, hits->v[i].ov);
    }
    for (size_t i = 0; i < hits->n; i++) {
        const gs_range *r = &rv[hits->v[i].range];
        if (hits->v[i].self > h->op_ns) {
            h->op_ns = hits->v[i].self;
            h->op = gs_trace_str(t, r->name);
        }
    }
    return 0;
}

static void thread_apis(const gs_trace *t, const uint32_t *idx, size_t lo, size_t hi,
                        const gs_gap *g, gs_gap_host *h)
{
    const gs_api *av = t->apis.v;
    size_t pos;
    UPPER_BOUND(av, idx, lo, hi, g->start, pos);
    size_t from = pos - lo > API_NEST_LOOKBACK ? pos - API_NEST_LOOKBACK : lo;
    for (size_t p = from; p < hi && av[idx[p]].start < g->end; p++) {
        const gs_api *a = &av[idx[p]];
        gs_ns ov = overlap(a->start, a->end, g->start, g->end);
        const char *name = gs_trace_str(t, a->name);
        if (ov > h->api_ns) {
            h->api_ns = ov;
            h->api = name;
        }
        note_sync(h, name, ov);
    }
}

/* Runs of one thread in an index sorted by (pid, tid, start); calls fn for each run of pid. */
static bool same_thread_range(const gs_range *a, const gs_range *b)
{
    return a->pid == b->pid && a->tid == b->tid;
}

static bool same_thread_api(const gs_api *a, const gs_api *b)
{
    return a->pid == b->pid && a->tid == b->tid;
}

static int host_activity(const gs_trace *t, const thread_index *ri, const thread_index *ai,
                         const candidate *c, gs_gap_host *h, hit_vec *hits)
{
    memset(h, 0, sizeof *h);
    for (size_t i = 0, j; i < ri->n; i = j) {
        const gs_range *r = &t->ranges.v[ri->idx[i]];
        for (j = i + 1; j < ri->n && same_thread_range(&t->ranges.v[ri->idx[j]], r); j++)
            ;
        if ((c->pid == 0 || r->pid == c->pid) &&
            thread_ranges(t, ri->idx, i, j, &c->gap, hits, h) != 0)
            return -1;
    }
    for (size_t i = 0, j; i < ai->n; i = j) {
        const gs_api *a = &t->apis.v[ai->idx[i]];
        for (j = i + 1; j < ai->n && same_thread_api(&t->apis.v[ai->idx[j]], a); j++)
            ;
        if (c->pid == 0 || a->pid == c->pid)
            thread_apis(t, ai->idx, i, j, &c->gap, h);
    }
    gs_ns len = c->gap.end - c->gap.start;
    if (h->dataloader_ns > len) /* DataLoader ranges on several threads at once */
        h->dataloader_ns = len;
    return 0;
}

static int cmp_candidate(const void *pa, const void *pb)
{
    const candidate *a = pa, *b = pb;
    gs_ns la = a->gap.end - a->gap.start, lb = b->gap.end - b->gap.start;
    if (la != lb)
        return la > lb ? -1 : 1;
    if (a->trace != b->trace)
        return a->trace < b->trace ? -1 : 1;
    return a->gap.start < b->gap.start ? -1 : a->gap.start > b->gap.start;
}

/* The longest candidates, each with its host activity; the index is built once per trace. */
static int list_gaps(idle_build *b, const gs_profile *p, gs_idle *out)
{
    if (b->cands.n > 1)
        qsort(b->cands.v, b->cands.n, sizeof *b->cands.v, cmp_candidate);
    size_t n = b->cands.n < b->opts->max_gaps ? b->cands.n : b->opts->max_gaps;
    out->gaps_worth_listing = b->cands.n;
    out->gaps = calloc(n ? n : 1, sizeof *out->gaps);
    if (!out->gaps)
        return -1;
    hit_vec hits = {0};
    int rc = 0;
    for (size_t ti = 0; ti < p->traces.n && rc == 0; ti++) {
        thread_index ri = {0}, ai = {0};
        bool built = false;
        for (size_t i = 0; i < n && rc == 0; i++) {
            if (b->cands.v[i].trace != ti)
                continue;
            if (!built && (rc = build_index(p->traces.v[ti], &ri, &ai)) != 0)
                break;
            built = true;
            out->gaps[i] = b->cands.v[i].gap;
            rc = host_activity(p->traces.v[ti], &ri, &ai, &b->cands.v[i], &out->gaps[i].host,
                               &hits);
        }
        free(ri.idx);
        free(ai.idx);
    }
    free(hits.v);
    out->ngaps = n;
    return rc;
}

/* ---- the whole analysis --------------------------------------------------------------------- */

static void free_build(idle_build *b)
{
    free(b->streams.v);
    free(b->devices.v);
    free(b->cands.v);
    free(b->steps.v);
    free(b->acts.v);
    free(b->by_stream.v);
}

int gs_idle_build(const gs_profile *p, const gs_select *sel, const gs_idle_opts *opts,
                  gs_idle *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    idle_build b = {.opts = opts};
    int rc = 0;
    for (size_t i = 0; i < p->traces.n && rc == 0; i++)
        if (gs_selected(sel, p->traces.v[i]))
            rc = one_trace(&b, p->traces.v[i], i, err);
    if (rc == 0 && list_gaps(&b, p, out) != 0)
        rc = gs_fail_oom(err);
    for (size_t k = 0; k < b.steps.n; k++)
        b.steps.v[k].idle_pct = pct(b.steps.v[k].idle_total, b.steps.v[k].end - b.steps.v[k].start);
    out->streams = b.streams.v;
    out->nstreams = b.streams.n;
    out->devices = b.devices.v;
    out->ndevices = b.devices.n;
    out->steps = b.steps.v;
    out->nsteps = b.steps.n;
    b.streams.v = b.devices.v = NULL;
    b.steps.v = NULL;
    free_build(&b);
    if (rc != 0)
        gs_idle_free(out);
    return rc;
}

void gs_idle_free(gs_idle *r)
{
    free(r->streams);
    free(r->devices);
    free(r->gaps);
    free(r->steps);
    memset(r, 0, sizeof *r);
}
