#include "analysis/trace/op_summary.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/names.h"
#include "analysis/trace/compute.h"
#include "common/hashtab.h"
#include "common/log.h"
#include "common/vec.h"

/* A row's name and shapes, in the summary's string table. */
typedef struct op_key {
    gs_str name, dims;
} op_key;

/* Where a (name, shapes) row is: keyed by a fold of the two ids. */
typedef struct op_slot {
    uint32_t key;
    uint32_t row;
} op_slot;

/* Held by the summary between _add and _finish: one row per (name, shapes), each call's numbers
 * added to its row as the call comes, in the traces' order (so the FLOPs of a row are summed in
 * the order of its calls). */
struct gs_op_groups {
    gs_hashtab slots; /* op_slot */
    GS_VEC(gs_op_row) rows;
    GS_VEC(op_key) keys; /* per row */
};

/* CUDA total or CPU total descending, then name and shapes ascending. */
static int cmp_rows_by(const gs_op_row *a, const gs_op_row *b, bool by_cuda)
{
    gs_ns x = by_cuda ? a->cuda_total : a->cpu_total, y = by_cuda ? b->cuda_total : b->cpu_total;
    if (x != y)
        return x > y ? -1 : 1;
    int c = strcmp(a->name, b->name);
    if (c || !a->input_dims || !b->input_dims)
        return c;
    return strcmp(a->input_dims, b->input_dims);
}

static int cmp_row_cuda(const void *a, const void *b)
{
    return cmp_rows_by(a, b, true);
}

static int cmp_row_cpu(const void *a, const void *b)
{
    return cmp_rows_by(a, b, false);
}

/* Adds a GPU activity's time to the range that launched it (self and, for now, total). */
static void charge_gpu(uint32_t op, gs_ns dur, gs_ns *self_cuda, gs_ns *cuda_total)
{
    if (op == GS_NONE)
        return;
    self_cuda[op] += dur;
    cuda_total[op] += dur;
}

/* Each range's total: its own GPU time and its children's totals, so every range enclosing an
 * activity counts it once. Only op-tree ranges have parents, and the model's per-thread order
 * lists each before its children: read backwards, a child's total is whole before its parent
 * takes it (one pass, where walking every activity's ancestors took one per nesting level). */
static void sum_totals(const gs_trace *t, gs_ns *cuda_total)
{
    for (size_t i = t->thread_ranges.n; i-- > 0;) {
        uint32_t r = t->thread_ranges.v[i], p = t->ranges.v[r].parent;
        if (p != GS_NONE)
            cuda_total[p] += cuda_total[r];
    }
}

/* The step whose host range holds ts (steps are disjoint and in time order), or -1. */
static long step_holding(const gs_steps *st, gs_ns ts)
{
    size_t lo = 0, hi = st->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (st->v[mid].host_start <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > 0 && ts < st->v[lo - 1].host_end ? (long)lo - 1 : -1;
}

/* A step's CUDA total is the GPU work launched while its range is open by any thread of its
 * process (backward runs on autograd's own threads), as the step breakdown counts it; the GPU
 * work keeps its own launching range everywhere else. */
static void charge_steps(const gs_trace *t, const gs_steps *st, gs_ns *cuda_total)
{
    for (size_t i = 0; i < st->n; i++)
        if (st->v[i].range != GS_NONE)
            cuda_total[st->v[i].range] = 0;
    for (size_t i = 0; i < t->kernels.n + t->memops.n; i++) {
        bool kernel = i < t->kernels.n;
        const gs_kernel *k = kernel ? &t->kernels.v[i] : NULL;
        const gs_memop *m = kernel ? NULL : &t->memops.v[i - t->kernels.n];
        uint32_t api = kernel ? k->api : m->api;
        if (api == GS_NONE)
            continue;
        const gs_api *a = &t->apis.v[api];
        long s = step_holding(st, a->start);
        uint32_t r = s >= 0 ? st->v[s].range : GS_NONE;
        if (r != GS_NONE && t->ranges.v[r].pid == a->pid)
            cuda_total[r] += kernel ? k->end - k->start : m->end - m->start;
    }
}

/* An operator directly inside an operator of the same name is part of that call, not a call of
 * its own: autocast records aten::addmm (fp32 inputs) around aten::to casts and the aten::addmm
 * that runs in bf16, and the TensorBoard plugin (remove_dup_nodes in torch_tb_profiler's
 * op_tree.py) merges an only child of the same name. Counting the inner one again would count the
 * same GEMM's FLOPs twice and add its kernels to the row's CUDA total a second time. The same
 * holds for an annotation directly inside an annotation of its name, and an NVTX range inside an
 * NVTX range of its name (a benchmark's record_function("...|warmup|forward") entered twice): the
 * row would count the inner one's CPU time again, over 100 % of the profiled time. */
bool gs_op_call_absorbed(const gs_trace *t, uint32_t r)
{
    const gs_range *x = &t->ranges.v[r];
    uint32_t p = x->parent;
    return p != GS_NONE && gs_range_in_op_tree(x) && t->ranges.v[p].kind == x->kind &&
           t->ranges.v[p].name == x->name;
}

uint32_t gs_op_call_of(const gs_trace *t, uint32_t r)
{
    while (gs_op_call_absorbed(t, r))
        r = t->ranges.v[r].parent;
    return r;
}

/* Per call (indexed by its outermost range): the self times and FLOPs of every range merged into
 * it. Self CPU and Self CUDA add up (each range's own time is the call's own); FLOPs are the
 * largest of the ranges' (the same GEMM, recorded with or without shapes at each level). */
typedef struct call_sums {
    gs_ns *self_cpu, *self_cuda;
    double *flops;
    bool *has_flops;
    uint32_t *call; /* range -> the outermost range of its call */
} call_sums;

/* In the model's per-thread order (parents before children), so that each range finds its call
 * through its parent's: linear however deep a name nests in itself. */
static int sum_calls(const gs_trace_ctx *c, const gs_ns *self_cuda, call_sums *cs)
{
    const gs_trace *t = c->trace;
    size_t n = t->ranges.n ? t->ranges.n : 1;
    cs->self_cpu = gs_array_zeroed(n, sizeof *cs->self_cpu);
    cs->self_cuda = gs_array_zeroed(n, sizeof *cs->self_cuda);
    cs->flops = gs_array_zeroed(n, sizeof *cs->flops);
    cs->has_flops = gs_array_zeroed(n, sizeof *cs->has_flops);
    cs->call = gs_array_new(n, sizeof *cs->call);
    if (!cs->self_cpu || !cs->self_cuda || !cs->flops || !cs->has_flops || !cs->call)
        return -1;
    for (size_t o = 0; o < t->thread_ranges.n; o++) {
        uint32_t i = t->thread_ranges.v[o];
        const gs_range *r = &t->ranges.v[i];
        uint32_t top = cs->call[i] = gs_op_call_absorbed(t, i) ? cs->call[r->parent] : i;
        cs->self_cpu[top] += r->self_ns;
        cs->self_cuda[top] += self_cuda[i];
        gs_op_flops f; /* a name without a formula has none: judged once, in the context */
        if (gs_ctx_name(c, r->name, GS_NAME_FLOP_KIND) != GS_FLOP_NONE &&
            gs_range_flops(t, r, &f) != GS_FLOP_NONE && f.flops > 0) {
            cs->has_flops[top] = true;
            if (f.flops > cs->flops[top])
                cs->flops[top] = f.flops;
        }
    }
    return 0;
}

static void free_call_sums(call_sums *cs)
{
    free(cs->self_cpu), free(cs->self_cuda), free(cs->flops), free(cs->has_flops), free(cs->call);
}

/* The trace's profiled CPU time in the window (gs_op_summary.cpu_base): each counted range (an
 * op-tree range starting in the window) that no counted range holds, whole, and each CUDA call
 * that starts in the window outside every range. A range's CPU total is inside its outermost
 * counted range's, so no row is over 100 %. Which ranges count is judged once into a byte per
 * range: the parents' questions then read that small array, not the ranges again. 0, or -1 out
 * of memory. */
static int profiled_cpu(const gs_trace_ctx *c, gs_ns *out)
{
    const gs_trace *t = c->trace;
    uint8_t *counted = gs_array_new(t->ranges.n, 1);
    if (!counted)
        return -1;
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        counted[i] = gs_range_in_op_tree(r) && gs_window_holds(&c->window, r->start);
    }
    gs_ns sum = 0;
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (counted[i] && !(r->parent != GS_NONE && counted[r->parent]))
            sum += r->end - r->start;
    }
    for (size_t i = 0; i < t->apis.n; i++) {
        const gs_api *a = &t->apis.v[i];
        if (gs_window_holds(&c->window, a->start) && !(a->parent != GS_NONE && counted[a->parent]))
            sum += a->end - a->start;
    }
    free(counted);
    *out += sum;
    return 0;
}

static uint32_t fold_key(op_key k)
{
    uint32_t h = (uint32_t)k.name * 2654435761u ^ (uint32_t)k.dims;
    return h ? h : 1;
}

/* The row of (name, shapes), made when new; NULL out of memory. */
static gs_op_row *row_of(struct gs_op_groups *g, op_key k)
{
    gs_hashpos pos;
    uint32_t key = fold_key(k);
    for (op_slot *e = gs_hashtab_find(&g->slots, key, &pos); e;
         e = gs_hashtab_next(&g->slots, &pos))
        if (g->keys.v[e->row].name == k.name && g->keys.v[e->row].dims == k.dims)
            return &g->rows.v[e->row];
    op_key *kept = GS_VEC_PUSH(&g->keys);
    gs_op_row *row = kept ? GS_VEC_PUSH(&g->rows) : NULL;
    op_slot *slot = row ? gs_hashtab_add(&g->slots, key) : NULL;
    if (!slot)
        return NULL;
    *kept = k;
    slot->row = (uint32_t)(g->rows.n - 1);
    return row;
}

static int collect_trace(const gs_trace_ctx *c, bool by_shape, gs_strtab *names,
                         struct gs_op_groups *groups)
{
    const gs_trace *t = c->trace;
    gs_ns *self_cuda = gs_array_zeroed(t->ranges.n + 1, sizeof *self_cuda);
    gs_ns *cuda_total = gs_array_zeroed(t->ranges.n + 1, sizeof *cuda_total);
    call_sums cs = {0};
    gs_name_map map;
    int rc = self_cuda && cuda_total ? 0 : -1;
    size_t merged = 0;
    if (rc == 0) {
        for (size_t i = 0; i < t->kernels.n; i++)
            charge_gpu(t->kernels.v[i].op, t->kernels.v[i].end - t->kernels.v[i].start,
                       self_cuda, cuda_total);
        for (size_t i = 0; i < t->memops.n; i++)
            charge_gpu(t->memops.v[i].op, t->memops.v[i].end - t->memops.v[i].start, self_cuda,
                       cuda_total);
        sum_totals(t, cuda_total);
        charge_steps(t, &c->steps, cuda_total);
        rc = sum_calls(c, self_cuda, &cs) == 0 ? gs_name_map_init(&map, names, t, NULL) : -1;
    }
    if (rc == 0) {
        for (size_t i = 0; i < t->ranges.n && rc == 0; i++) {
            const gs_range *r = &t->ranges.v[i];
            if (!gs_range_in_op_tree(r) || !gs_window_holds(&c->window, r->start))
                continue;
            if (cs.call[i] != i) { /* absorbed into its parent's call (sum_calls) */
                merged++;
                continue;
            }
            op_key k = {gs_name_map_get(&map, r->name),
                         by_shape ? gs_name_map_get(&map, r->input_dims) : GS_STR_EMPTY};
            gs_op_row *row = k.name != GS_STR_ERROR && k.dims != GS_STR_ERROR
                                 ? row_of(groups, k) : NULL;
            if (!row) {
                rc = -1;
                break;
            }
            row->calls++;
            row->cpu_total += r->end - r->start;
            row->self_cpu += cs.self_cpu[i];
            row->self_cuda += cs.self_cuda[i];
            row->cuda_total += cuda_total[i];
            row->has_flops |= cs.has_flops[i];
            row->flops += cs.flops[i];
        }
        gs_name_map_free(&map);
    }
    if (merged)
        GS_LOG(GS_LOG_INFO,
               "%s: ops: %zu range(s) directly inside a range of the same name and kind (autocast's "
               "redispatch, an annotation entered twice) counted as part of it: their FLOPs, CPU "
               "and GPU time once",
               t->id.path, merged);
    free(self_cuda);
    free(cuda_total);
    free_call_sums(&cs);
    return rc;
}

static void free_groups(struct gs_op_groups *g)
{
    if (!g)
        return;
    gs_hashtab_free(&g->slots);
    GS_VEC_FREE(&g->rows);
    GS_VEC_FREE(&g->keys);
    free(g);
}

/* The rows, named, in the summary's order. */
static void make_rows(gs_op_summary *s, struct gs_op_groups *g)
{
    for (size_t i = 0; i < g->rows.n; i++) {
        g->rows.v[i].name = gs_str_get(&s->names, g->keys.v[i].name);
        g->rows.v[i].input_dims = s->by_shape ? gs_str_get(&s->names, g->keys.v[i].dims) : NULL;
    }
    s->rows = g->rows.v;
    s->nrows = g->rows.n;
    g->rows.v = NULL;
    g->rows.n = 0;
    if (s->nrows) /* none: rows is NULL */
        qsort(s->rows, s->nrows, sizeof *s->rows, s->has_gpu ? cmp_row_cuda : cmp_row_cpu);
}

int gs_op_summary_init(gs_op_summary *s, bool by_shape, gs_error *err)
{
    memset(s, 0, sizeof *s);
    s->by_shape = by_shape;
    s->with_flops = true;
    s->groups = calloc(1, sizeof *s->groups);
    if (s->groups)
        gs_hashtab_init(&s->groups->slots, sizeof(op_slot));
    if (!s->groups || gs_strtab_init(&s->names) != 0) {
        gs_op_summary_free(s);
        return gs_fail_oom(err);
    }
    return 0;
}

int gs_op_summary_add(gs_op_summary *s, const gs_trace_ctx *c, gs_error *err)
{
    const gs_trace *t = c->trace;
    s->has_gpu |= t->kernels.n + t->memops.n > 0;
    if (profiled_cpu(c, &s->cpu_base) != 0 ||
        collect_trace(c, s->by_shape, &s->names, s->groups) != 0) {
        gs_op_summary_free(s);
        return gs_fail_oom(err);
    }
    return 0;
}

void gs_op_summary_finish(gs_op_summary *s)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    make_rows(s, s->groups);
    free_groups(s->groups);
    s->groups = NULL;
    GS_LOG_TOOK(logged_at, "operator summary");
}

int gs_op_summary_build(const gs_trace_ctx *c, bool by_shape, gs_op_summary *out,
                        gs_error *err)
{
    if (gs_op_summary_init(out, by_shape, err) != 0 || gs_op_summary_add(out, c, err) != 0)
        return -1;
    gs_op_summary_finish(out);
    return 0;
}

void gs_op_summary_free(gs_op_summary *s)
{
    free(s->rows);
    gs_strtab_free(&s->names);
    free_groups(s->groups);
    memset(s, 0, sizeof *s);
}
