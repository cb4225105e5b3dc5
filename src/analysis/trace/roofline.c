/* One pass over the trace's GPU work charges each activity to the call that launched it; the
 * calls are then priced (once per distinct name, shapes, types and Concrete Inputs: the cost
 * depends on nothing else) and added to their row, found in a hash table by (GPU, name, shapes,
 * types). The roofs are applied to the rows' sums at the end. */
#include "analysis/trace/roofline.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/names.h"
#include "analysis/trace/compute.h"
#include "analysis/trace/kernel_costs.h"
#include "analysis/trace/op_summary.h"
#include "common/hashtab.h"
#include "common/log.h"
#include "common/vec.h"

/* A kernel's fixed costs (the launch reaching the GPU, the first wave's start and the last
 * wave's tail) are a few µs on current GPUs: a call whose work would take less than this at the
 * roof cannot get near it, and one that reached less than half its roof is latency bound. */
#define LATENCY_IDEAL_NS 5000.0
#define LATENCY_SHARE 0.5

/* The sums of one row, until the roofs are applied. */
typedef struct roof_sum {
    gs_str name, op, dims, types; /* op: by kernel, the launching operator's name */
    const gs_gpu_peaks *gpu;
    enum gs_op_class cls;
    uint64_t calls, kernels, modelled_calls;
    gs_ns gpu_ns, tc_ns, modelled_ns;
    double flops, bytes;
    gs_ns dtype_ns[GS_DTYPE__COUNT]; /* the modelled calls' time by the type they ran in */
} roof_sum;

/* Held by the roofline between _add and _finish. */
struct gs_roof_calls {
    roof_sum *v;
    size_t n, cap;
    gs_hashtab rows; /* row_entry: (gpu, name, dims, types) -> index in v */
};

typedef struct row_entry {
    uint32_t key;
    uint32_t row;
} row_entry;

/* A distinct call's cost, by its trace's string ids. */
typedef struct cost_entry {
    uint32_t key;
    gs_str ids[4]; /* name, dims, types, concrete */
    gs_op_cost cost;
} cost_entry;

static bool on_roofline(const gs_memop *m)
{
    /* copies to or from the host are limited by the link, not by the GPU's memory */
    return m->kind == GS_MEMOP_MEMSET || m->kind == GS_MEMOP_DTOD;
}

static const gs_op_cost *cost_of(const gs_trace *t, const gs_range *r, gs_hashtab *memo)
{
    gs_str ids[4] = {r->name, r->input_dims, r->input_types, r->concrete_inputs};
    uint32_t key = gs_hash_bytes(ids, sizeof ids);
    gs_hashpos pos;
    for (cost_entry *e = gs_hashtab_find(memo, key, &pos); e; e = gs_hashtab_next(memo, &pos))
        if (!memcmp(e->ids, ids, sizeof ids))
            return &e->cost;
    cost_entry *e = gs_hashtab_add(memo, key);
    if (!e)
        return NULL;
    memcpy(e->ids, ids, sizeof ids);
    gs_range_cost(t, r, &e->cost);
    return &e->cost;
}

static roof_sum *row_for(struct gs_roof_calls *calls, const roof_sum *key)
{
    struct {
        const void *gpu;
        gs_str ids[4];
    } k = {key->gpu, {key->name, key->op, key->dims, key->types}};
    uint32_t h = gs_hash_bytes(&k, sizeof k);
    gs_hashpos pos;
    for (row_entry *e = gs_hashtab_find(&calls->rows, h, &pos); e;
         e = gs_hashtab_next(&calls->rows, &pos)) {
        roof_sum *s = &calls->v[e->row];
        if (s->gpu == key->gpu && s->name == key->name && s->op == key->op &&
            s->dims == key->dims && s->types == key->types)
            return s;
    }
    row_entry *e = gs_hashtab_add(&calls->rows, h);
    if (!e)
        return NULL;
    e->row = (uint32_t)calls->n;
    roof_sum *s = GS_VEC_PUSH(calls);
    if (s)
        *s = (roof_sum){.name = key->name, .op = key->op, .dims = key->dims, .types = key->types,
                        .gpu = key->gpu};
    return s;
}

/* A call that launched GPU work in the window: what it launched. */
typedef struct launched {
    uint32_t source;     /* the range that launched its first activity: its shapes */
    uint32_t count;      /* activities launched */
    uint32_t kernels;    /* of them, kernels */
    gs_str longest;      /* its longest kernel's name */
    gs_ns ns, tc_ns;
    gs_ns kernel_ns;     /* its kernels' time */
    gs_ns longest_ns;    /* its longest kernel's time */
} launched;

/* The calls that launched GPU work, found by their outermost range. Most ranges launch nothing,
 * so a range holds only its call's place in v: the sums of every range would be 13 times the
 * memory, all of it touched once and freed. */
typedef struct launches {
    uint32_t *slot; /* range -> its index in v, GS_NONE */
    GS_VEC(launched) calls;
} launches;

static int charge(const gs_trace_ctx *c, launches *l, uint32_t op, gs_ns dur, bool tc,
                  const gs_kernel *k)
{
    if (op == GS_NONE)
        return 0;
    const gs_trace *t = c->trace;
    uint32_t top = gs_op_call_of(t, op);
    if (!gs_window_holds(&c->window, t->ranges.v[top].start))
        return 0;
    if (l->slot[top] == GS_NONE) {
        launched *first = GS_VEC_PUSH(&l->calls);
        if (!first)
            return -1;
        *first = (launched){.source = op};
        l->slot[top] = (uint32_t)(l->calls.n - 1);
    }
    launched *s = &l->calls.v[l->slot[top]];
    s->count++;
    s->ns += dur;
    s->tc_ns += tc ? dur : 0;
    if (k) {
        s->kernels++;
        s->kernel_ns += dur;
        if (dur > s->longest_ns || s->kernels == 1) {
            s->longest_ns = dur;
            s->longest = k->name;
        }
    }
    return 0;
}

static int find_launches(const gs_trace_ctx *c, launches *l)
{
    const gs_trace *t = c->trace;
    l->slot = gs_array_new(t->ranges.n, sizeof *l->slot);
    if (!l->slot)
        return -1;
    memset(l->slot, 0xff, t->ranges.n * sizeof *l->slot);
    int rc = 0;
    for (size_t i = 0; i < t->kernels.n && rc == 0; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        /* collectives are limited by the interconnect, not by the roofs (gpuscope comm) */
        if (!gs_ctx_name(c, k->name, GS_NAME_COMM_KERNEL))
            rc = charge(c, l, k->op, k->end - k->start,
                        gs_ctx_name(c, k->name, GS_NAME_TENSOR_CORE), k);
    }
    for (size_t i = 0; i < t->memops.n && rc == 0; i++) {
        const gs_memop *m = &t->memops.v[i];
        if (on_roofline(m))
            rc = charge(c, l, m->op, m->end - m->start, false, NULL);
    }
    return rc;
}

static void free_launches(launches *l)
{
    free(l->slot);
    GS_VEC_FREE(&l->calls);
}

static void add_call(gs_roofline *r, roof_sum *s, const gs_op_cost *cost, gs_ns ns, gs_ns tc_ns,
                     uint32_t count)
{
    s->calls++;
    s->kernels += count;
    s->gpu_ns += ns;
    s->tc_ns += tc_ns;
    r->gpu_ns += ns;
    if (cost->cls == GS_OPC_NONE) {
        r->no_model_ns += ns;
        return;
    }
    s->cls = cost->cls;
    if (cost->bytes <= 0 && cost->flops <= 0) {
        r->no_shapes_ns += ns;
        r->no_shapes_calls++;
        return;
    }
    r->modelled_ns += ns;
    s->modelled_calls++;
    s->modelled_ns += ns;
    s->flops += cost->flops;
    s->bytes += cost->bytes;
    s->dtype_ns[(unsigned)cost->dtype < GS_DTYPE__COUNT ? cost->dtype : GS_DTYPE_UNKNOWN] += ns;
}

static int collect(gs_roofline *r, const gs_trace_ctx *c, const launches *l)
{
    const gs_trace *t = c->trace;
    const gs_device *dev = gs_trace_main_device(t);
    const gs_gpu_peaks *gpu =
        dev && dev->name != GS_STR_EMPTY ? gs_gpu_peaks_find(gs_trace_str(t, dev->name)) : NULL;
    gs_hashtab memo = GS_HASHTAB_EMPTY(cost_entry);
    gs_name_map map;
    if (gs_name_map_init(&map, &r->names, t, NULL) != 0)
        return -1;
    int rc = 0;
    /* in the order of the ranges, as the rows and their sums have always been made */
    for (size_t i = 0; i < t->ranges.n && rc == 0; i++) {
        if (l->slot[i] == GS_NONE)
            continue;
        const launched *call = &l->calls.v[l->slot[i]];
        gs_ns ns = call->ns;
        if (r->key == GS_ROOF_BY_KERNEL) {
            /* the call under its main kernel, with its memsets; its other kernels apart */
            gs_ns others = call->kernels ? call->kernel_ns - call->longest_ns : 0;
            bool main = call->kernels &&
                        gs_kernel_is_main(call->kernels, call->kernel_ns, call->longest_ns);
            gs_ns apart = main ? others : ns;
            r->gpu_ns += apart;
            r->several_kernels_ns += apart;
            if (!main)
                continue;
            ns -= apart;
        }
        const gs_range *src = &t->ranges.v[call->source];
        const gs_op_cost *cost = cost_of(t, src, &memo);
        gs_str op = gs_name_map_get(&map, t->ranges.v[i].name);
        roof_sum key = {.name = op, .gpu = gpu};
        if (r->key == GS_ROOF_BY_SHAPE) {
            key.dims = gs_name_map_get(&map, src->input_dims);
            key.types = gs_name_map_get(&map, src->input_types);
        } else if (r->key == GS_ROOF_BY_KERNEL) {
            key.name = gs_name_map_get(&map, call->longest);
            key.op = op;
        }
        roof_sum *s = cost && key.name != GS_STR_ERROR && key.op != GS_STR_ERROR &&
                              key.dims != GS_STR_ERROR && key.types != GS_STR_ERROR
                          ? row_for(r->calls, &key)
                          : NULL;
        if (!s)
            rc = -1;
        else
            add_call(r, s, cost, ns, call->tc_ns < ns ? call->tc_ns : ns,
                     r->key == GS_ROOF_BY_KERNEL ? call->count - call->kernels + 1 : call->count);
    }
    gs_name_map_free(&map);
    gs_hashtab_free(&memo);
    return rc;
}

int gs_roofline_init(gs_roofline *r, enum gs_roof_key key, gs_error *err)
{
    memset(r, 0, sizeof *r);
    r->key = key;
    r->calls = calloc(1, sizeof *r->calls);
    if (!r->calls || gs_strtab_init(&r->names) != 0) {
        gs_roofline_free(r);
        return gs_fail_oom(err);
    }
    gs_hashtab_init(&r->calls->rows, sizeof(row_entry));
    return 0;
}

int gs_roofline_add(gs_roofline *r, const gs_trace_ctx *c, gs_error *err)
{
    launches l = {0};
    int rc = find_launches(c, &l) == 0 ? collect(r, c, &l) : -1;
    free_launches(&l);
    if (rc != 0) {
        gs_roofline_free(r);
        return gs_fail_oom(err);
    }
    return 0;
}

/* The type most of the row's modelled time ran in; tf32 for fp32 matrix work whose kernels ran
 * mostly on Tensor Cores (the trace records the tensors' type, not allow_tf32). */
static enum gs_dtype row_dtype(const roof_sum *s)
{
    enum gs_dtype best = GS_DTYPE_UNKNOWN;
    gs_ns best_ns = 0;
    for (int d = 1; d < GS_DTYPE__COUNT; d++)
        if (s->dtype_ns[d] > best_ns) {
            best = (enum gs_dtype)d;
            best_ns = s->dtype_ns[d];
        }
    if (best == GS_DTYPE_FP32 && gs_op_class_is_matrix(s->cls) && s->tc_ns * 2 > s->gpu_ns)
        best = GS_DTYPE_TF32;
    return best;
}

/* The compute roof: the Tensor Cores' dense peak for matrix work in its type, the CUDA cores'
 * fp32 (or fp64) peak for the rest, whose low precisions run at most at that rate too. */
static double compute_peak(const gs_gpu_peaks *g, enum gs_op_class cls, enum gs_dtype d)
{
    if (gs_op_class_is_matrix(cls))
        return gs_gpu_peak_tflops(g, d);
    return gs_gpu_peak_tflops(g, d == GS_DTYPE_FP64 ? GS_DTYPE_FP64 : GS_DTYPE_FP32);
}

static void apply_roofs(gs_roof_row *row, const roof_sum *s)
{
    row->intensity = row->bytes > 0 ? row->flops / row->bytes : -1;
    row->tflops = row->modelled_ns > 0 ? row->flops / (double)row->modelled_ns / 1e3 : -1;
    row->tbps = row->modelled_ns > 0 ? row->bytes / (double)row->modelled_ns / 1e3 : -1;
    row->peak_tflops = compute_peak(s->gpu, s->cls, row->dtype);
    row->peak_tbps = gs_gpu_peak_tbps(s->gpu);
    row->ridge = row->peak_tflops > 0 && row->peak_tbps > 0 ? row->peak_tflops / row->peak_tbps
                                                             : -1;
    row->roof_tflops = row->ideal_ns = row->roof_share = -1;
    row->bound = GS_BOUND_UNKNOWN;
    bool flops_roof = row->flops <= 0 || row->peak_tflops > 0;
    if (row->modelled_ns <= 0 || row->peak_tbps <= 0 || !flops_roof)
        return;
    double compute_ns = row->flops > 0 ? row->flops / row->peak_tflops / 1e3 : 0;
    double memory_ns = row->bytes / row->peak_tbps / 1e3;
    row->ideal_ns = compute_ns > memory_ns ? compute_ns : memory_ns;
    row->roof_share = row->ideal_ns / (double)row->modelled_ns;
    if (row->intensity >= 0 && row->ridge > 0)
        row->roof_tflops = row->intensity < row->ridge ? row->intensity * row->peak_tbps
                                                       : row->peak_tflops;
    double ideal_per_call = row->ideal_ns / (double)row->modelled_calls;
    if (ideal_per_call < LATENCY_IDEAL_NS && row->roof_share < LATENCY_SHARE)
        row->bound = GS_BOUND_LATENCY;
    else
        row->bound = compute_ns > memory_ns ? GS_BOUND_COMPUTE : GS_BOUND_MEMORY;
}

static int cmp_rows(const void *pa, const void *pb)
{
    const gs_roof_row *a = pa, *b = pb;
    if (a->gpu_ns != b->gpu_ns)
        return a->gpu_ns > b->gpu_ns ? -1 : 1;
    int c = strcmp(a->name, b->name);
    if (!c && a->op_name && b->op_name)
        return strcmp(a->op_name, b->op_name);
    if (c || !a->input_dims || !b->input_dims)
        return c;
    c = strcmp(a->input_dims, b->input_dims);
    return c ? c : strcmp(a->input_types, b->input_types);
}

int gs_roofline_finish(gs_roofline *r, gs_error *err)
{
    struct gs_roof_calls *calls = r->calls;
    r->rows = gs_array_zeroed(calls->n, sizeof *r->rows);
    if (!r->rows) {
        gs_roofline_free(r);
        return gs_fail_oom(err);
    }
    for (size_t i = 0; i < calls->n; i++) {
        const roof_sum *s = &calls->v[i];
        gs_roof_row *row = &r->rows[r->nrows++];
        *row = (gs_roof_row){
            .name = gs_str_get(&r->names, s->name),
            .op_name = r->key == GS_ROOF_BY_KERNEL ? gs_str_get(&r->names, s->op) : NULL,
            .input_dims = r->key == GS_ROOF_BY_SHAPE ? gs_str_get(&r->names, s->dims) : NULL,
            .input_types = r->key == GS_ROOF_BY_SHAPE ? gs_str_get(&r->names, s->types) : NULL,
            .cls = s->cls,
            .dtype = row_dtype(s),
            .gpu_model = s->gpu ? s->gpu->model : NULL,
            .calls = s->calls,
            .kernels = s->kernels,
            .gpu_ns = s->gpu_ns,
            .modelled_calls = s->modelled_calls,
            .flops = s->flops,
            .bytes = s->bytes,
            .modelled_ns = s->modelled_ns,
        };
        apply_roofs(row, s);
    }
    qsort(r->rows, r->nrows, sizeof *r->rows, cmp_rows);
    gs_hashtab_free(&calls->rows);
    GS_VEC_FREE(calls);
    free(calls);
    r->calls = NULL;
    return 0;
}

int gs_roofline_build(const gs_trace_ctx *c, enum gs_roof_key key, gs_roofline *out,
                      gs_error *err)
{
    return gs_roofline_init(out, key, err) != 0 || gs_roofline_add(out, c, err) != 0
               ? -1
               : gs_roofline_finish(out, err);
}

void gs_roofline_free(gs_roofline *r)
{
    free(r->rows);
    gs_strtab_free(&r->names);
    if (r->calls) {
        gs_hashtab_free(&r->calls->rows);
        GS_VEC_FREE(r->calls);
        free(r->calls);
    }
    memset(r, 0, sizeof *r);
}

const char *gs_roof_bound_name(enum gs_roof_bound b)
{
    static const char *const names[GS_BOUND__COUNT] = {
        [GS_BOUND_UNKNOWN] = "unknown",
        [GS_BOUND_MEMORY] = "memory",
        [GS_BOUND_COMPUTE] = "compute",
        [GS_BOUND_LATENCY] = "latency",
    };
    return (unsigned)b < GS_BOUND__COUNT ? names[b] : "unknown";
}
