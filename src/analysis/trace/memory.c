#include "analysis/trace/memory.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/thresholds.h"
#include "common/log.h"
#include "common/util.h"
#include "common/vec.h"
#include "model/time_sort.h"

/* ---- finding the operator at a time on a thread ------------------------------------------- */

/* The innermost of the range that started last at or before ts and its parents that holds ts:
 * any range holding ts that began earlier also holds that range's start, so encloses it. */
static uint32_t innermost_holding(const gs_range *rv, uint32_t last_started, gs_ns ts)
{
    for (uint32_t r = last_started; r != GS_NONE; r = rv[r].parent)
        if (rv[r].start <= ts && ts < rv[r].end)
            return r;
    return GS_NONE;
}

/* The innermost operator-tree range on (pid, tid) whose [start, end) holds ts, or GS_NONE,
 * by binary search in the model's per-thread order. */
static uint32_t op_at(const gs_trace *t, int64_t pid, int64_t tid, gs_ns ts)
{
    const uint32_t *ix = t->thread_ranges.v;
    const gs_range *rv = t->ranges.v;
    size_t lo = 0, hi = t->thread_ranges.n; /* first position whose key > (pid, tid, ts) */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const gs_range *k = &rv[ix[mid]];
        bool le = k->pid < pid ||
                  (k->pid == pid && (k->tid < tid || (k->tid == tid && k->start <= ts)));
        if (le)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || rv[ix[lo - 1]].pid != pid || rv[ix[lo - 1]].tid != tid)
        return GS_NONE;
    return innermost_holding(rv, ix[lo - 1], ts);
}

/* The innermost operator-tree range holding each allocator record's time on its thread, what
 * op_at says of it, for every record at once: the records are in time order, so one cursor per
 * thread walks that thread's ranges forward, rather than a binary search per record (a third of
 * the analysis on a 521 MB trace). A record out of time order is searched. */
typedef struct thread_span {
    int64_t pid, tid;
    size_t end, at; /* the thread's ranges end before `end` in the per-thread order; `at` is the
                     * cursor: the ranges before it start at or before the last time seen */
} thread_span;

static int cmp_thread_span(const void *key, const void *elem)
{
    const thread_span *a = key, *b = elem;
    if (a->pid != b->pid)
        return a->pid < b->pid ? -1 : 1;
    return (a->tid > b->tid) - (a->tid < b->tid);
}

static int ops_of_records(const gs_trace *t, uint32_t *op_of)
{
    const uint32_t *ix = t->thread_ranges.v;
    const gs_range *rv = t->ranges.v;
    GS_VEC(thread_span) threads = {0};
    for (size_t i = 0; i < t->thread_ranges.n; i++) {
        const gs_range *r = &rv[ix[i]];
        if (i == 0 || r->pid != rv[ix[i - 1]].pid || r->tid != rv[ix[i - 1]].tid) {
            thread_span *th = GS_VEC_PUSH(&threads);
            if (!th) {
                GS_VEC_FREE(&threads);
                return -1;
            }
            *th = (thread_span){r->pid, r->tid, 0, i};
        }
        threads.v[threads.n - 1].end = i + 1;
    }
    gs_ns *seen = gs_array_new(threads.n, sizeof *seen);
    if (!seen) {
        GS_VEC_FREE(&threads);
        return -1;
    }
    for (size_t k = 0; k < threads.n; k++)
        seen[k] = INT64_MIN;
    for (size_t i = 0; i < t->mem_events.n; i++) {
        const gs_mem_event *m = &t->mem_events.v[i];
        const thread_span key = {m->pid, m->tid, 0, 0};
        thread_span *th = threads.n ? bsearch(&key, threads.v, threads.n, sizeof key,
                                              cmp_thread_span)
                                    : NULL;
        op_of[i] = GS_NONE;
        if (!th)
            continue;
        size_t k = (size_t)(th - threads.v), first = k ? threads.v[k - 1].end : 0;
        if (m->ts < seen[k]) {
            op_of[i] = op_at(t, m->pid, m->tid, m->ts);
            continue;
        }
        seen[k] = m->ts;
        while (th->at < th->end && rv[ix[th->at]].start <= m->ts)
            th->at++;
        if (th->at > first)
            op_of[i] = innermost_holding(rv, ix[th->at - 1], m->ts);
    }
    free(seen);
    GS_VEC_FREE(&threads);
    return 0;
}

/* ---- one device's records ---------------------------------------------------------------- */

/* Keeps at most GS_MEM_SERIES_POINTS: the series is cut into that many runs of consecutive
 * records and each run gives its highest allocated point, so the peak is always kept. */
static int downsample(gs_mem_device *d)
{
    size_t n = d->nseries;
    size_t per = n > GS_MEM_SERIES_POINTS ? (n + GS_MEM_SERIES_POINTS - 1) / GS_MEM_SERIES_POINTS
                                          : 1;
    d->points = gs_array_new(GS_MEM_SERIES_POINTS, sizeof *d->points);
    if (!d->points)
        return -1;
    for (size_t i = 0; i < n; i += per) {
        size_t best = i;
        for (size_t j = i; j < n && j < i + per; j++)
            if (d->series[j].allocated > d->series[best].allocated)
                best = j;
        d->points[d->npoints++] = d->series[best];
    }
    return 0;
}

/* Least squares of y on x: slope and R² (0 when either is constant). */
static void fit(const double *x, const double *y, size_t n, double *slope, double *r2)
{
    *slope = *r2 = 0;
    if (n < 2)
        return;
    double mx = 0, my = 0, sxx = 0, syy = 0, sxy = 0;
    for (size_t i = 0; i < n; i++)
        mx += x[i], my += y[i];
    mx /= (double)n, my /= (double)n;
    for (size_t i = 0; i < n; i++) {
        sxx += (x[i] - mx) * (x[i] - mx);
        syy += (y[i] - my) * (y[i] - my);
        sxy += (x[i] - mx) * (y[i] - my);
    }
    if (sxx > 0)
        *slope = sxy / sxx;
    if (sxx > 0 && syy > 0)
        *r2 = sxy * sxy / (sxx * syy);
}

/* Allocated and reserved at each step's end, and the growth fit over the kept steps. */
static int fit_growth(gs_mem_device *d, const gs_steps *steps)
{
    d->steps = gs_array_zeroed(steps->n, sizeof *d->steps);
    double *x = gs_array_new(steps->n, sizeof *x);
    double *y = gs_array_new(steps->n, sizeof *y);
    if (!d->steps || !x || !y) {
        free(x), free(y);
        return -1;
    }
    d->nsteps = steps->n;
    size_t p = 0; /* series points before the current step's end */
    for (size_t s = 0; s < steps->n; s++) {
        const gs_step *st = &steps->v[s];
        while (p < d->nseries && d->series[p].ts < st->end)
            p++;
        gs_mem_step *m = &d->steps[s];
        *m = (gs_mem_step){.number = st->number, .warmup = st->warmup, .allocated = -1,
                           .reserved = -1};
        if (p == 0)
            continue;
        m->allocated = d->series[p - 1].allocated;
        m->reserved = d->series[p - 1].reserved;
        if (gs_step_kept(steps, s)) {
            x[d->fit_steps] = (double)st->number;
            y[d->fit_steps++] = (double)m->allocated;
        }
    }
    fit(x, y, d->fit_steps, &d->slope, &d->r2);
    d->leak = d->slope >= (double)GS_TH_MEM_LEAK_MIN_GROWTH && d->r2 >= GS_TH_MEM_LEAK_R2 &&
              d->fit_steps >= GS_TH_MEM_LEAK_MIN_STEPS;
    free(x), free(y);
    return 0;
}

static void find_peak_and_headroom(gs_mem_device *d, const gs_trace *t, const gs_steps *steps,
                                   const gs_mem_event *peak_rec, const uint32_t *op_of)
{
    if (d->peak_allocated > 0 && d->reserved_known)
        d->fragmentation = (double)d->reserved_at_peak / (double)d->peak_allocated;
    d->fragmented = d->fragmentation > GS_TH_MEM_FRAGMENTATION;
    d->peak_step = -1;
    if (peak_rec) {
        long s = steps->n ? gs_steps_at(steps, peak_rec->ts) : -1;
        d->peak_step = s >= 0 ? steps->v[s].number : -1;
        uint32_t r = op_of[peak_rec - t->mem_events.v];
        d->peak_op = r != GS_NONE ? gs_trace_str(t, t->ranges.v[r].name) : NULL;
    }
    d->peak_held = d->reserved_known ? d->peak_reserved : d->peak_allocated;
    const gs_device *dev =
        d->device_type == GS_MEM_DEVICE_CUDA ? gs_trace_device(t, d->device) : NULL;
    if (!dev || !dev->total_memory)
        return;
    d->device_memory = dev->total_memory;
    d->headroom = (int64_t)dev->total_memory - d->peak_held;
    d->peak_pct = 100.0 * (double)d->peak_held / (double)dev->total_memory;
    d->peak_allocated_pct = 100.0 * (double)d->peak_allocated / (double)dev->total_memory;
    d->near_limit = (double)d->peak_held > GS_TH_MEM_PEAK_SHARE * (double)dev->total_memory;
}

/* CUDA's allocations (GS_MEM_CUDA): the bytes allocated after each record rec[i], summed from the
 * sizes. A free takes back what was allocated at its address; one whose allocation the trace
 * does not hold (made before the capture began) changes nothing. */
static int64_t *sum_allocations(const gs_trace *t, const uint32_t *rec, size_t n)
{
    uint64_t *addr = gs_array_new(n, sizeof *addr);
    uint32_t *by_addr = gs_array_new(n, sizeof *by_addr);
    int64_t *delta = gs_array_zeroed(n, sizeof *delta);
    for (size_t i = 0; addr && by_addr && i < n; i++) {
        addr[i] = t->mem_events.v[rec[i]].addr;
        by_addr[i] = (uint32_t)i;
    }
    /* By (address, time): rec[] is in time order, and the sort keeps ties in theirs. */
    if (!addr || !by_addr || !delta || gs_radix_order(addr, n, by_addr) != 0) {
        free(addr), free(by_addr), free(delta);
        return NULL;
    }
    int64_t live = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t i = by_addr[k];
        if (k == 0 || addr[i] != addr[by_addr[k - 1]])
            live = 0;
        int64_t bytes = t->mem_events.v[rec[i]].bytes;
        delta[i] = bytes > 0 ? bytes - live : -live;
        live = bytes > 0 ? bytes : 0;
    }
    free(addr);
    free(by_addr);
    for (size_t i = 1; i < n; i++)
        delta[i] += delta[i - 1];
    return delta;
}

/* PyTorch's records without totals (PyTorch 1.9 and earlier wrote only Bytes: no
 * address, no Total Allocated): the bytes allocated after each record rec[i] since the trace
 * began, the running sum of the sizes (a free is the negative of its allocation's size). */
static int64_t *sum_sizes(const gs_trace *t, const uint32_t *rec, size_t n)
{
    int64_t *sum = gs_array_new(n, sizeof *sum);
    for (size_t i = 0; sum && i < n; i++)
        sum[i] = (i ? sum[i - 1] : 0) + t->mem_events.v[rec[i]].bytes;
    return sum;
}

/* Whose records a trace holds: CUDA's, recorded by CUPTI (a .gst trace, or a chrome export of
 * one), else PyTorch's allocators'. */
static bool cuda_records(const gs_trace *t)
{
    gs_str who = t->recorded_by != GS_STR_EMPTY ? t->recorded_by : t->format;
    return strcmp(gs_trace_str(t, who), "gst") == 0;
}

/* The curve, the peak and the counts from the records rec[0..n) of one device. Allocated comes
 * from the records' totals when they carry them; else it is summed from their sizes: CUDA's by
 * address (a free's size is not recorded), PyTorch's as a running sum. */
static int build_curve(gs_mem_device *d, const gs_trace *t, const uint32_t *rec, size_t n,
                       const gs_mem_event **peak_rec)
{
    d->series = gs_array_new(n, sizeof *d->series);
    if (!d->series)
        return -1;
    bool totals = false;
    for (size_t i = 0; i < n && !totals; i++)
        totals = t->mem_events.v[rec[i]].total_allocated >= 0;
    d->allocator = !totals && cuda_records(t) ? GS_MEM_CUDA : GS_MEM_PYTORCH;
    d->reserved_known = totals;
    int64_t *summed = totals                         ? NULL
                      : d->allocator == GS_MEM_CUDA ? sum_allocations(t, rec, n)
                                                    : sum_sizes(t, rec, n);
    if (!totals && !summed)
        return -1;
    *peak_rec = NULL;
    for (size_t i = 0; i < n; i++) {
        const gs_mem_event *m = &t->mem_events.v[rec[i]];
        d->records++;
        d->allocs += m->bytes > 0;
        d->frees += m->bytes < 0;
        if (totals && m->total_allocated < 0)
            continue; /* no totals: not a point of the curve (the plugin skips NaN) */
        gs_mem_point pt = {m->ts, totals ? m->total_allocated : summed[i],
                           totals ? (m->total_reserved < 0 ? 0 : m->total_reserved) : -1};
        d->series[d->nseries++] = pt;
        if (!*peak_rec || pt.allocated > d->peak_allocated) {
            d->peak_allocated = pt.allocated;
            d->peak_ts = pt.ts;
            d->reserved_at_peak = totals ? pt.reserved : 0;
            *peak_rec = m;
        }
        if (pt.reserved > d->peak_reserved)
            d->peak_reserved = pt.reserved;
    }
    free(summed);
    return 0;
}

/* ---- operator attribution (the plugin's memory view) -------------------------------------- */

/* A range as the walk up from a record's operator reads it: 8 bytes where the range is over
 * a hundred, so the walks, which jump about, stay in the cache. */
typedef struct tree_node {
    uint32_t parent; /* the range's parent, GS_NONE */
    gs_str name;     /* STEP_NAME for a step: a step is not an operator */
} tree_node;

#define STEP_NAME UINT32_MAX

typedef struct attrib {
    const gs_trace_ctx *ctx;
    tree_node *node;       /* range -> its parent and name (fill_nodes) */
    const uint32_t *op_of; /* record -> the operator at its time on its thread (ops_of_records) */
    uint32_t *row_of;  /* trace string id -> row + 1, 0 when the name has none yet */
    gs_str *name_of;   /* row -> trace string id */
} attrib;

static gs_mem_op *row_for(gs_mem_device *d, attrib *a, const gs_trace *t, gs_str name)
{
    if (!a->row_of[name]) {
        gs_mem_op *row = &d->ops[d->nops++];
        *row = (gs_mem_op){.name = gs_trace_str(t, name)};
        a->name_of[d->nops - 1] = name;
        a->row_of[name] = (uint32_t)d->nops;
    }
    return &d->ops[a->row_of[name] - 1];
}

static void fill_nodes(attrib *a, const gs_trace *t)
{
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        bool step = gs_ctx_name(a->ctx, r->name, GS_NAME_PROFILER_STEP) != 0;
        a->node[i] = (tree_node){r->parent, step ? STEP_NAME : r->name};
    }
}

/* Adds one record to its operator (self) and to every distinct name enclosing it (total). */
static void add_record(gs_mem_device *d, attrib *a, const gs_trace *t, uint32_t op, int64_t bytes)
{
    enum { MAX_DEPTH = 64 };
    gs_str seen[MAX_DEPTH];
    size_t nseen = 0;
    for (uint32_t r = op; r != GS_NONE && nseen < MAX_DEPTH; r = a->node[r].parent) {
        gs_str name = a->node[r].name;
        if (name == STEP_NAME)
            continue; /* a step is not an operator: one row per step number would bury them */
        bool dup = false;
        for (size_t k = 0; k < nseen && !dup; k++)
            dup = seen[k] == name;
        if (dup)
            continue; /* aten::to inside aten::to counts once in the total */
        seen[nseen++] = name;
        gs_mem_op *row = row_for(d, a, t, name);
        bool self = r == op;
        row->increase += bytes;
        row->self_increase += self ? bytes : 0;
        if (bytes > 0) {
            row->alloc_count++;
            row->alloc_bytes += bytes;
            row->self_alloc_count += self;
            row->self_alloc_bytes += self ? bytes : 0;
        }
    }
}

static int cmp_op_row(const void *pa, const void *pb)
{
    const gs_mem_op *a = pa, *b = pb;
    if (a->alloc_bytes != b->alloc_bytes)
        return a->alloc_bytes > b->alloc_bytes ? -1 : 1;
    /* equal totals: the operator that allocates itself before the ones that enclose it */
    if (a->self_alloc_bytes != b->self_alloc_bytes)
        return a->self_alloc_bytes > b->self_alloc_bytes ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* Allocations go to the innermost operator on their thread; a free goes to the operator of the
 * allocation at its address before it, so walking the records by (address, time) is enough (a
 * record without address, from PyTorch 1.9 or earlier, goes where it happened). */
static int attribute(gs_mem_device *d, const gs_trace *t, const uint32_t *rec,
                     size_t n, attrib *a)
{
    /* What the walk by address reads, gathered in record order, where reading the records is
     * sequential; by address, it is read from these few MB rather than the records. */
    uint64_t *addr = gs_array_new(n, sizeof *addr);
    int64_t *bytes = gs_array_new(n, sizeof *bytes);
    uint32_t *by_addr = gs_array_new(n, sizeof *by_addr);
    d->ops = gs_array_new(t->strings.n, sizeof *d->ops);
    int rc = addr && bytes && by_addr && d->ops ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        addr[i] = t->mem_events.v[rec[i]].addr;
        bytes[i] = t->mem_events.v[rec[i]].bytes;
        by_addr[i] = (uint32_t)i;
    }
    /* By (address, time): rec[] is in time order, and the sort keeps ties in theirs. */
    if (rc == 0)
        rc = gs_radix_order(addr, n, by_addr);
    /* Each record's operator is found by address, then the records are added in time order,
     * where their operators, and the trees above them, are read about in the order they are
     * stored rather than at random. The sums do not depend on the order; the rows are sorted
     * after. */
    uint32_t *op = rc == 0 ? gs_array_new(n, sizeof *op) : NULL;
    rc = op ? rc : -1;
    uint32_t owner = GS_NONE;
    for (size_t k = 0; rc == 0 && k < n; k++) {
        uint32_t i = by_addr[k];
        if (k == 0 || addr[i] != addr[by_addr[k - 1]])
            owner = GS_NONE;
        if (bytes[i] > 0)
            owner = op[i] = a->op_of[rec[i]];
        else /* a free without its address: the operator that frees */
            op[i] = addr[i] ? owner : a->op_of[rec[i]];
    }
    for (size_t i = 0; rc == 0 && i < n; i++)
        if (op[i] != GS_NONE)
            add_record(d, a, t, op[i], bytes[i]);
    free(op);
    for (size_t k = 0; k < d->nops; k++)
        a->row_of[a->name_of[k]] = 0; /* ready for the next device */
    if (rc == 0)
        qsort(d->ops, d->nops, sizeof *d->ops, cmp_op_row);
    free(addr);
    free(bytes);
    free(by_addr);
    return rc;
}

/* ---- putting it together ----------------------------------------------------------------- */

/* The device's names in the summary's own table: its trace is dropped before the summary. */
static int own_names(gs_memory_summary *s, gs_mem_device *d, const char *path)
{
    d->path = strdup(path);
    if (!d->path)
        return -1;
    for (size_t k = 0; k < d->nops; k++)
        if (gs_strtab_keep(&s->names, &d->ops[k].name) != 0)
            return -1;
    return gs_strtab_keep(&s->names, &d->peak_op);
}

static int build_device(gs_memory_summary *s, const gs_trace_ctx *c, const uint32_t *rec,
                        size_t n, attrib *a)
{
    const gs_trace *t = c->trace;
    const gs_mem_event *first = &t->mem_events.v[rec[0]];
    gs_mem_device *d = &s->devices[s->ndevices++];
    *d = (gs_mem_device){.rank = t->id.rank, .device_type = first->device_type,
                         .device = first->device};
    d->origin = c->has_span ? c->first : first->ts;
    const gs_mem_event *peak_rec;
    if (build_curve(d, t, rec, n, &peak_rec) != 0 || downsample(d) != 0 ||
        fit_growth(d, &c->steps) != 0 || attribute(d, t, rec, n, a) != 0)
        return -1;
    find_peak_and_headroom(d, t, &c->steps, peak_rec, a->op_of);
    return own_names(s, d, t->id.path);
}

static int build_trace(gs_memory_summary *s, const gs_trace_ctx *c)
{
    const gs_trace *t = c->trace;
    size_t n = t->mem_events.n;
    if (n == 0)
        return 0;
    uint64_t *keys = gs_array_new(n, sizeof *keys);
    uint32_t *rec = gs_array_new(n, sizeof *rec);
    size_t nstr = t->strings.n ? t->strings.n : 1;
    uint32_t *op_of = gs_array_new(n, sizeof *op_of);
    attrib a = {.ctx = c, .op_of = op_of, .row_of = gs_array_zeroed(nstr, sizeof *a.row_of),
                .name_of = gs_array_new(nstr, sizeof(gs_str)),
                .node = gs_array_new(t->ranges.n, sizeof *a.node)};
    int rc = keys && rec && op_of && a.row_of && a.name_of && a.node ? 0 : -1;
    if (rc == 0)
        rc = ops_of_records(t, op_of);
    if (rc == 0)
        fill_nodes(&a, t);
    /* The records by device type (CUDA first: it is what the view is about; then the host, then
     * other types), then device, each device's in time order (the model's). */
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const gs_mem_event *m = &t->mem_events.v[i];
        int32_t order = m->device_type == GS_MEM_DEVICE_CUDA ? -1 : m->device_type;
        keys[i] = gs_radix_key_pair(order, m->device);
        rec[i] = (uint32_t)i;
    }
    if (rc == 0)
        rc = gs_radix_order(keys, n, rec);
    size_t cap = s->ndevices; /* at least: a trace's devices are added to those of the last */
    for (size_t i = 0; rc == 0 && i < n;) {
        const gs_mem_event *m = &t->mem_events.v[rec[i]];
        size_t j = i + 1;
        while (j < n && t->mem_events.v[rec[j]].device_type == m->device_type &&
               t->mem_events.v[rec[j]].device == m->device)
            j++;
        rc = gs_grow((void **)&s->devices, &cap, s->ndevices + 1, sizeof *s->devices) == 0
                 ? build_device(s, c, rec + i, j - i, &a) : -1;
        i = j;
    }
    free(keys);
    free(rec);
    free(op_of);
    free(a.row_of);
    free(a.name_of);
    free(a.node);
    return rc;
}

int gs_memory_init(gs_memory_summary *s, gs_error *err)
{
    memset(s, 0, sizeof *s);
    return gs_strtab_init(&s->names) == 0 ? 0 : gs_fail_oom(err);
}

int gs_memory_add(gs_memory_summary *s, const gs_trace_ctx *c, gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    if (build_trace(s, c) != 0) {
        gs_memory_summary_free(s);
        return gs_fail_oom(err);
    }
    GS_LOG_TOOK(logged_at, "memory");
    return 0;
}

void gs_memory_finish(gs_memory_summary *s)
{
    gs_stable_sort_by_i32(s->devices, s->ndevices, sizeof *s->devices,
                          offsetof(gs_mem_device, rank));
}

int gs_memory_build(const gs_trace_ctx *c, gs_memory_summary *out, gs_error *err)
{
    return gs_memory_init(out, err) != 0 ? -1 : gs_memory_add(out, c, err);
}

void gs_memory_summary_free(gs_memory_summary *s)
{
    for (size_t i = 0; i < s->ndevices; i++) {
        gs_mem_device *d = &s->devices[i];
        free(d->path);
        free(d->series);
        free(d->points);
        free(d->steps);
        free(d->ops);
    }
    free(s->devices);
    gs_strtab_free(&s->names);
    memset(s, 0, sizeof *s);
}
