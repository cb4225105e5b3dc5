#include "analysis/base/collectives.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/name_rules.h"
#include "common/util.h"
#include "common/vec.h"

/* ---- the kind of a collective ---------------------------------------------------------------- */

/* A kernel's name says its collective (the name rules' KERNEL_COLLECTIVE) unless the name is
 * generic: NCCL runs an all-to-all, a scatter or a gather as grouped sends and receives, in the
 * same SendRecv kernel as a pipeline's send (ncclDevKernel_SendRecv), and some kernels name no
 * collective at all (ncclDevKernel_Generic). For those, what PyTorch says of the call wins:
 * its "Collective name" argument (ARG_COLLECTIVE), else the operators that launched the kernel
 * ("c10d::alltoall_base_", "nccl:all_to_all": OP_COLLECTIVE). */
static bool generic(gs_coll_kind k)
{
    return k == GS_COLL_SEND_RECV || k == GS_COLL_OTHER;
}

const char *gs_coll_kind_key(gs_coll_kind k)
{
    static const char *const keys[GS_COLL__COUNT] = {
        [GS_COLL_ALL_REDUCE] = "all_reduce",         [GS_COLL_ALL_GATHER] = "all_gather",
        [GS_COLL_REDUCE_SCATTER] = "reduce_scatter", [GS_COLL_BROADCAST] = "broadcast",
        [GS_COLL_REDUCE] = "reduce",                 [GS_COLL_ALL_TO_ALL] = "all_to_all",
        [GS_COLL_SEND_RECV] = "send_recv",           [GS_COLL_OTHER] = "other",
    };
    return (unsigned)k < GS_COLL__COUNT ? keys[k] : "other";
}

/* ---- message size ---------------------------------------------------------------------------- */

/* Bytes per element of PyTorch's "dtype" arg (c10::ScalarType names). */
static const struct {
    const char *name;
    int size;
} dtype_sizes[] = {
    {"Float", 4},         {"Double", 8},        {"Half", 2},          {"BFloat16", 2},
    {"Int", 4},           {"Long", 8},          {"Short", 2},         {"Char", 1},
    {"Byte", 1},          {"Bool", 1},          {"ComplexHalf", 4},   {"ComplexFloat", 8},
    {"ComplexDouble", 16}, {"UInt16", 2},       {"UInt32", 4},        {"UInt64", 8},
    {"Float8_e4m3fn", 1}, {"Float8_e5m2", 1},   {"Float8_e4m3fnuz", 1}, {"Float8_e5m2fnuz", 1},
};

static int dtype_size(const char *name)
{
    for (size_t i = 0; i < COUNT_OF(dtype_sizes); i++)
        if (!strcmp(name, dtype_sizes[i].name))
            return dtype_sizes[i].size;
    return 0;
}

/* The message size nccl-tests reports for a collective: the larger of the input and output
 * buffers (all-reduce: either; all-gather: the gathered output; reduce-scatter: the input;
 * all-to-all, broadcast, send/recv: the buffer). -1 when the args do not say. */
static int64_t message_bytes(const gs_trace *t, const gs_coll_args *a)
{
    int64_t nelems = a->in_nelems > a->out_nelems ? a->in_nelems : a->out_nelems;
    int size = a->dtype == GS_STR_EMPTY ? 0 : dtype_size(gs_trace_str(t, a->dtype));
    if (nelems < 0 || size == 0 || nelems > INT64_MAX / size)
        return -1;
    return nelems * size;
}

/* ---- joining args to kernels ----------------------------------------------------------------- */

typedef struct keyed {
    int64_t key;
    uint32_t args; /* index into t->coll_args */
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->args < y->args ? -1 : x->args > y->args;
}

/* The args sorted by the id that joins them to kernels: a kernel's own by correlation, an
 * operator's by External id (the NCCL kernel carries its record_param_comms op's External id). */
static int index_args(const gs_trace *t, enum gs_coll_args_on on, keyed **out, size_t *n)
{
    *n = 0;
    *out = gs_array_new(t->coll_args.n, sizeof **out);
    if (!*out)
        return -1;
    for (size_t i = 0; i < t->coll_args.n; i++) {
        const gs_coll_args *a = &t->coll_args.v[i];
        int64_t key = on == GS_COLL_ARGS_ON_KERNEL ? (int64_t)a->correlation : a->external_id;
        if (a->on == on && key != 0)
            (*out)[(*n)++] = (keyed){key, (uint32_t)i};
    }
    qsort(*out, *n, sizeof **out, keyed_cmp);
    return 0;
}

static const gs_coll_args *find_args(const gs_trace *t, const keyed *v, size_t n, int64_t key)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return key != 0 && lo < n && v[lo].key == key ? &t->coll_args.v[v[lo].args] : NULL;
}

/* An operator's args for kernel k. PyTorch gives an NCCL kernel the External id of its
 * record_param_comms operator; a writer that gives it the innermost annotation's instead
 * (nccl:all_reduce, nested inside record_param_comms) is covered by walking up from the range
 * that launched the kernel, a few levels at most: the collective's operator is close. */
enum { MAX_ARGS_DEPTH = 4 };

static const gs_coll_args *op_args(const gs_trace *t, const keyed *v, size_t n, const gs_kernel *k)
{
    const gs_coll_args *a = find_args(t, v, n, k->external_id);
    uint32_t r = k->op;
    for (int depth = 0; !a && r != GS_NONE && r < t->ranges.n && depth < MAX_ARGS_DEPTH; depth++) {
        a = find_args(t, v, n, t->ranges.v[r].external_id);
        r = t->ranges.v[r].parent;
    }
    return a;
}

/* The collective the operators above kernel k name, nearest first, a few levels at most (the
 * collective's operator is close: record_param_comms, nccl:all_to_all, c10d::alltoall_base_). */
enum { MAX_OP_DEPTH = 8 };

static gs_coll_kind kind_of_ops(const gs_trace_ctx *ctx, const gs_kernel *k)
{
    const gs_trace *t = ctx->trace;
    uint32_t op = k->op;
    for (int depth = 0; op != GS_NONE && op < t->ranges.n && depth < MAX_OP_DEPTH; depth++) {
        gs_coll_kind kind =
            (gs_coll_kind)gs_ctx_name(ctx, t->ranges.v[op].name, GS_NAME_OP_COLLECTIVE);
        if (kind != GS_COLL_OTHER)
            return kind;
        op = t->ranges.v[op].parent;
    }
    return GS_COLL_OTHER;
}

/* ---- the collectives ------------------------------------------------------------------------- */

static void describe(const gs_trace_ctx *ctx, const gs_coll_args *a, gs_collective *c)
{
    const gs_trace *t = ctx->trace;
    unsigned args_kind = gs_ctx_name(ctx, a->collective, GS_NAME_ARG_COLLECTIVE);
    if (args_kind == GS_COLL_ARG_IGNORED)
        return;
    if (generic(c->kind) && args_kind != GS_COLL_OTHER)
        c->kind = (gs_coll_kind)args_kind;
    c->bytes = message_bytes(t, a);
    c->group_size = a->group_size > 0 ? a->group_size : -1;
}

int gs_collectives_find(const gs_trace_ctx *ctx, gs_collectives *out, gs_error *err)
{
    const gs_trace *t = ctx->trace;
    memset(out, 0, sizeof *out);
    keyed *by_corr = NULL, *by_ext = NULL;
    size_t ncorr = 0, next = 0;
    uint32_t seq[GS_COLL__COUNT] = {0};
    size_t cap = 0;
    for (size_t i = 0; i < t->kernels.n; i++)
        cap += gs_ctx_name(ctx, t->kernels.v[i].name, GS_NAME_COMM_KERNEL);
    if (cap == 0)
        return 0;
    out->v = gs_array_new(cap, sizeof *out->v);
    if (!out->v || index_args(t, GS_COLL_ARGS_ON_KERNEL, &by_corr, &ncorr) != 0 ||
        index_args(t, GS_COLL_ARGS_ON_OP, &by_ext, &next) != 0) {
        free(by_corr);
        gs_collectives_free(out);
        return gs_fail_oom(err);
    }
    /* Kernels are sorted by start once the trace is indexed: seq follows start order. */
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        if (!gs_ctx_name(ctx, k->name, GS_NAME_COMM_KERNEL))
            continue;
        gs_collective *c = &out->v[out->n++];
        *c = (gs_collective){.kernel = (uint32_t)i,
                             .kind = (gs_coll_kind)gs_ctx_name(ctx, k->name,
                                                               GS_NAME_KERNEL_COLLECTIVE),
                             .start = k->start, .end = k->end, .bytes = -1, .group_size = -1};
        const gs_coll_args *a = find_args(t, by_corr, ncorr, (int64_t)k->correlation);
        if (!a)
            a = op_args(t, by_ext, next, k);
        if (a)
            describe(ctx, a, c);
        if (generic(c->kind)) {
            gs_coll_kind by_ops = kind_of_ops(ctx, k);
            if (by_ops != GS_COLL_OTHER)
                c->kind = by_ops;
        }
        c->seq = seq[c->kind]++;
    }
    free(by_corr);
    free(by_ext);
    return 0;
}

void gs_collectives_free(gs_collectives *c)
{
    free(c->v);
    memset(c, 0, sizeof *c);
}

/* ---- found once per context ------------------------------------------------------------------ */

struct gs_coll_once {
    pthread_mutex_t mu;
    bool tried, failed;
    gs_collectives coll;
};

gs_coll_once *gs_coll_once_new(void)
{
    gs_coll_once *o = calloc(1, sizeof *o);
    if (o)
        pthread_mutex_init(&o->mu, NULL);
    return o;
}

void gs_coll_once_free(gs_coll_once *o)
{
    if (!o)
        return;
    gs_collectives_free(&o->coll);
    pthread_mutex_destroy(&o->mu);
    free(o);
}

const gs_collectives *gs_ctx_collectives(const gs_trace_ctx *c, gs_error *err)
{
    gs_coll_once *o = c->collectives;
    pthread_mutex_lock(&o->mu);
    if (!o->tried) {
        gs_error lost; /* out of memory: each caller says so below */
        o->failed = gs_collectives_find(c, &o->coll, &lost) != 0;
        o->tried = true;
    }
    bool failed = o->failed;
    pthread_mutex_unlock(&o->mu);
    if (failed) {
        gs_fail_oom(err);
        return NULL;
    }
    return &o->coll;
}
