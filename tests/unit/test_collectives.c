/* Collectives of one trace (analysis/base/collectives.h) on traces built by hand: the kind from the
 * kernel name and from the collective args, sequence numbers per kind in start order, message
 * size and group size from args joined by correlation, by External id and through the ranges
 * that launched the kernel. */
#include "analysis/base/collectives.h"

#include <pthread.h>
#include <string.h>

#include "check.h"
#include "common/util.h"
#include "ingest/load.h"
#include "trace_builder.h"

#define US 1000

static gs_coll_args *add_args(gs_trace *t, enum gs_coll_args_on on, uint64_t corr, int64_t ext,
                              const char *coll, const char *dtype, int64_t in, int64_t out,
                              int32_t group)
{
    gs_coll_args *a = GS_VEC_PUSH(&t->coll_args);
    *a = (gs_coll_args){.on = (uint8_t)on, .correlation = corr, .external_id = ext,
                        .collective = tb_str(t, coll), .dtype = dtype ? tb_str(t, dtype) : 0,
                        .in_nelems = in, .out_nelems = out, .group_size = group};
    return a;
}

/* The collectives of t (indexed), found through its context. */
static int collectives_of(const gs_trace *t, gs_collectives *out, gs_error *err)
{
    gs_trace_ctx c = tb_ctx(t, NULL);
    int rc = gs_collectives_find(&c, out, err);
    gs_trace_ctx_free(&c);
    return rc;
}

static void test_kinds_and_seq(void)
{
    gs_trace *t = tb_new("kinds.json", 0);
    /* added out of order: indexing sorts kernels by start, seq follows start */
    tb_kernel(t, "ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
              50 * US, 60 * US, 2);
    tb_kernel(t, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)", 0, 10 * US, 1);
    tb_kernel(t, "gemm", 5 * US, 70 * US, 3);
    tb_kernel(t, "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(ncclDevComm*)", 80 * US, 90 * US, 4);
    tb_kernel(t, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*)", 100 * US, 120 * US, 5);
    tb_kernel(t, "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", 130 * US, 140 * US, 6);
    tb_kernel(t, "ncclDevKernel_Broadcast_RING_LL", 150 * US, 151 * US, 7);
    tb_kernel(t, "ncclDevKernel_Reduce_Sum_f32_RING_LL", 160 * US, 161 * US, 8);
    tb_kernel(t, "ncclDevKernel_AllToAll_RING_LL", 170 * US, 171 * US, 9);
    /* "Reduce" only in the parameter list: not the collective */
    tb_kernel(t, "ncclDevKernel_Generic(ReduceArgs*)", 180 * US, 181 * US, 10);
    /* C++-mangled, as CUPTI names it */
    tb_kernel(t, "_Z29ncclDevKernel_AllReduce_Sum_f32_RING_LLP11ncclDevCommmP8ncclWork", 190 * US,
              191 * US, 11);
    gs_profile p = {0};
    tb_add(&p, t);
    gs_collectives c;
    gs_error err;
    CHECK_INT(collectives_of(t, &c, &err), 0);
    CHECK_INT(c.n, 10); /* gemm is not communication */
    static const struct {
        gs_coll_kind kind;
        uint32_t seq;
        gs_ns start;
    } want[] = {
        {GS_COLL_ALL_REDUCE, 0, 0},           {GS_COLL_ALL_GATHER, 0, 50 * US},
        {GS_COLL_REDUCE_SCATTER, 0, 80 * US}, {GS_COLL_ALL_REDUCE, 1, 100 * US},
        {GS_COLL_SEND_RECV, 0, 130 * US},     {GS_COLL_BROADCAST, 0, 150 * US},
        {GS_COLL_REDUCE, 0, 160 * US},        {GS_COLL_ALL_TO_ALL, 0, 170 * US},
        {GS_COLL_OTHER, 0, 180 * US},         {GS_COLL_ALL_REDUCE, 2, 190 * US},
    };
    for (size_t i = 0; i < c.n && i < sizeof want / sizeof want[0]; i++) {
        CHECK_INT(c.v[i].kind, want[i].kind);
        CHECK_INT(c.v[i].seq, want[i].seq);
        CHECK_INT(c.v[i].start, want[i].start);
        CHECK_INT(c.v[i].bytes, -1); /* no args anywhere */
        CHECK_INT(c.v[i].group_size, -1);
        CHECK_INT(t->kernels.v[c.v[i].kernel].start, want[i].start);
    }
    CHECK_STR(gs_coll_kind_key(GS_COLL_REDUCE_SCATTER), "reduce_scatter");
    CHECK_STR(gs_coll_kind_key(GS_COLL_SEND_RECV), "send_recv");
    CHECK_STR(gs_coll_kind_key(GS_COLL_OTHER), "other");
    gs_collectives_free(&c);
    gs_profile_free(&p);
}

static void test_args(void)
{
    gs_trace *t = tb_new("args.json", 1);
    /* 0: args on the kernel itself (PyTorch >= 2.3), joined by correlation */
    tb_kernel(t, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 0, 10 * US, 101);
    add_args(t, GS_COLL_ARGS_ON_KERNEL, 101, 55, "allreduce", "Float", 100, 100, 2);
    /* 1: args on the record_param_comms op, joined by the kernel's External id; all-gather's
     * size is the gathered output */
    tb_kernel(t, "ncclDevKernel_AllGather_RING_LL", 20 * US, 30 * US, 102);
    t->kernels.v[1].external_id = 77;
    add_args(t, GS_COLL_ARGS_ON_OP, 0, 77, "_allgather_base", "BFloat16", 1024, 4096, 4);
    /* 2: the name does not tell; the args do (reduce-scatter: the input is the larger) */
    tb_kernel(t, "ncclDevKernel_Generic", 40 * US, 50 * US, 103);
    add_args(t, GS_COLL_ARGS_ON_KERNEL, 103, 0, "reduce_scatter_tensor_coalesced", "Half", 8192,
             2048, 4);
    /* 3: "wait" args say nothing about a kernel; unknown dtype leaves the size unknown */
    tb_kernel(t, "ncclDevKernel_SendRecv", 60 * US, 70 * US, 104);
    add_args(t, GS_COLL_ARGS_ON_KERNEL, 104, 0, "wait", "Byte", 0, 0, 1);
    tb_kernel(t, "ncclDevKernel_Broadcast_RING_LL", 80 * US, 90 * US, 105);
    add_args(t, GS_COLL_ARGS_ON_KERNEL, 105, 0, "broadcast", "Quaternion", 10, 10, -1);
    /* 5: the kernel carries the annotation's External id; the args are on its parent op */
    tb_api(t, "cudaLaunchKernel", 95 * US, 96 * US, 106);
    tb_range(t, GS_RANGE_OP, "record_param_comms", 90 * US, 99 * US, NULL);
    t->ranges.v[0].external_id = 300;
    tb_range(t, GS_RANGE_ANNOTATION, "nccl:all_to_all", 91 * US, 98 * US, NULL);
    t->ranges.v[1].external_id = 301;
    add_args(t, GS_COLL_ARGS_ON_OP, 0, 300, "all_to_all", "Long", 64, 64, 8);
    tb_kernel(t, "ncclDevKernel_SendRecv", 100 * US, 110 * US, 106);
    t->kernels.v[5].external_id = 301;
    gs_profile p = {0};
    tb_add(&p, t);
    gs_collectives c;
    gs_error err;
    CHECK_INT(collectives_of(t, &c, &err), 0);
    CHECK_INT(c.n, 6);
    if (c.n == 6) {
        CHECK_INT(c.v[0].kind, GS_COLL_ALL_REDUCE);
        CHECK_INT(c.v[0].bytes, 400);
        CHECK_INT(c.v[0].group_size, 2);
        CHECK_INT(c.v[1].kind, GS_COLL_ALL_GATHER);
        CHECK_INT(c.v[1].bytes, 4096 * 2);
        CHECK_INT(c.v[1].group_size, 4);
        CHECK_INT(c.v[2].kind, GS_COLL_REDUCE_SCATTER);
        CHECK_INT(c.v[2].bytes, 8192 * 2);
        CHECK_INT(c.v[3].kind, GS_COLL_SEND_RECV);
        CHECK_INT(c.v[3].bytes, -1);
        CHECK_INT(c.v[3].group_size, -1);
        CHECK_INT(c.v[4].kind, GS_COLL_BROADCAST);
        CHECK_INT(c.v[4].bytes, -1);
        CHECK_INT(c.v[4].group_size, -1);
        /* SendRecv is generic (NCCL runs an all-to-all as grouped sends and receives): the
         * args win, the kernel ran an all-to-all */
        CHECK_INT(c.v[5].kind, GS_COLL_ALL_TO_ALL);
        CHECK_INT(c.v[5].bytes, 64 * 8);
        CHECK_INT(c.v[5].group_size, 8);
        CHECK_INT(c.v[5].seq, 0);
    }
    gs_collectives_free(&c);
    gs_profile_free(&p);
}

/* A generic kernel (SendRecv, Generic) without args takes the kind of the operators that
 * launched it: an all-to-all under c10d::alltoall_base_, a send under nccl:send; a kernel whose
 * name says its collective keeps it whatever the operators say. */
static void test_kind_from_ops(void)
{
    gs_trace *t = tb_new("ops.json", 0);
    static const struct {
        const char *outer, *inner, *kernel;
        gs_coll_kind want;
    } cases[] = {
        {"c10d::alltoall_base_", "nccl:all_to_all", "ncclDevKernel_SendRecv(ncclDevKernelArgs)",
         GS_COLL_ALL_TO_ALL},
        {"c10d::send", "nccl:send", "ncclDevKernel_SendRecv(ncclDevKernelArgs)", GS_COLL_SEND_RECV},
        {"c10d::allreduce_", "nccl:all_reduce", "ncclDevKernel_Generic(ncclDevKernelArgs)",
         GS_COLL_ALL_REDUCE},
        {"c10d::alltoall_base_", "nccl:all_to_all", "ncclDevKernel_AllGather_RING_LL",
         GS_COLL_ALL_GATHER},
        {"aten::mm", "record_param_comms", "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t",
         GS_COLL_SEND_RECV},
    };
    for (size_t i = 0; i < COUNT_OF(cases); i++) {
        gs_ns at = (gs_ns)i * 100 * US;
        tb_range(t, GS_RANGE_OP, cases[i].outer, at, at + 50 * US, NULL);
        tb_range(t, GS_RANGE_ANNOTATION, cases[i].inner, at + 1 * US, at + 40 * US, NULL);
        tb_api(t, "cudaLaunchKernel", at + 2 * US, at + 3 * US, 500 + i);
        tb_kernel(t, cases[i].kernel, at + 10 * US, at + 20 * US, 500 + i);
    }
    gs_profile p = {0};
    tb_add(&p, t);
    gs_collectives c;
    gs_error err;
    CHECK_INT(collectives_of(t, &c, &err), 0);
    CHECK_INT(c.n, COUNT_OF(cases));
    for (size_t i = 0; i < c.n && i < COUNT_OF(cases); i++)
        CHECK_INT(c.v[i].kind, cases[i].want);
    gs_collectives_free(&c);
    gs_profile_free(&p);
}

static void test_empty(void)
{
    gs_trace *t = tb_new("none.json", 0);
    tb_kernel(t, "gemm", 0, 10, 1);
    gs_profile p = {0};
    tb_add(&p, t);
    gs_collectives c;
    gs_error err;
    CHECK_INT(collectives_of(t, &c, &err), 0);
    CHECK_INT(c.n, 0);
    gs_collectives_free(&c);
    gs_profile_free(&p);
}

/* The Kineto reader keeps the collective args of kernels and record_param_comms ops (the shape
 * of PyTorch 2.4's, tokenomics/trace0.json) and nothing for other events. */
static void test_reader(void)
{
    static const char json[] =
        "{\"traceEvents\": ["
        "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"record_param_comms\", \"pid\": 1, "
        "\"tid\": 1, \"ts\": 1.0, \"dur\": 5.0, \"args\": {\"External id\": 169, "
        "\"Process Group Name\": \"0\", \"Out msg nelems\": 100, \"Group size\": 2, "
        "\"In msg nelems\": 100, \"dtype\": \"Float\", \"Collective name\": \"allreduce\"}},"
        "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"nccl:all_reduce\", \"pid\": 1, "
        "\"tid\": 1, \"ts\": 2.0, \"dur\": 1.0, \"args\": {\"External id\": 170, \"dtype\": \"x\"}},"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclDevKernel_Generic\", \"pid\": 0, "
        "\"tid\": 17, \"ts\": 10.0, \"dur\": 7.5, \"args\": {\"External id\": 169, "
        "\"stream\": 17, \"correlation\": 1409, \"Collective name\": \"_allgather_base\", "
        "\"In msg nelems\": 25, \"Out msg nelems\": 100, \"Group size\": 99999999999, "
        "\"dtype\": \"BFloat16\", \"pg name\": \"tp\"}}"
        "]}";
    gs_trace *t = NULL;
    gs_error err;
    CHECK_INT(gs_load_trace_buffer(json, strlen(json), "coll.json", NULL, &t, &err), 0);
    if (!t)
        return;
    CHECK_INT(t->coll_args.n, 2);
    if (t->coll_args.n == 2) {
        const gs_coll_args *op = &t->coll_args.v[0], *k = &t->coll_args.v[1];
        CHECK_INT(op->on, GS_COLL_ARGS_ON_OP);
        CHECK_INT(op->external_id, 169);
        CHECK_STR(gs_trace_str(t, op->collective), "allreduce");
        CHECK_STR(gs_trace_str(t, op->dtype), "Float");
        CHECK_STR(gs_trace_str(t, op->group), "0");
        CHECK_INT(op->in_nelems, 100);
        CHECK_INT(op->group_size, 2);
        CHECK_INT(k->on, GS_COLL_ARGS_ON_KERNEL);
        CHECK_INT(k->correlation, 1409);
        CHECK_STR(gs_trace_str(t, k->group), "tp");
        CHECK_INT(k->out_nelems, 100);
        CHECK_INT(k->group_size, -1); /* out of range: unknown, not truncated */
    }
    /* the kernel's own args win over its op's */
    gs_collectives c;
    CHECK_INT(collectives_of(t, &c, &err), 0);
    CHECK_INT(c.n, 1);
    if (c.n == 1) {
        CHECK_INT(c.v[0].kind, GS_COLL_ALL_GATHER);
        CHECK_INT(c.v[0].bytes, 200);
        CHECK_INT(c.v[0].group_size, -1);
    }
    gs_collectives_free(&c);
    gs_trace_delete(t);
}

static void *ask(void *ctx)
{
    gs_error err;
    return (void *)gs_ctx_collectives(ctx, &err);
}

/* A context's collectives are found once, by whichever of several threads asks first, and kept
 * for it and its views: every caller gets the same, which gs_collectives_find gives. */
static void test_found_once(void)
{
    gs_trace *t = tb_new("once.json", 0);
    for (int i = 0; i < 50; i++)
        tb_kernel(t, i % 5 ? "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*)" : "gemm",
                  i * 10 * US, (i * 10 + 5) * US, (uint64_t)i + 1);
    gs_profile p = {0};
    tb_add(&p, t);
    gs_trace_ctx c = tb_ctx(t, NULL);
    pthread_t threads[4];
    void *got[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&threads[i], NULL, ask, &c);
    for (int i = 0; i < 4; i++)
        pthread_join(threads[i], &got[i]);
    gs_error err;
    const gs_collective *found = got[0] ? ((const gs_collectives *)got[0])->v : NULL;
    const gs_trace_ctx kept = gs_trace_ctx_over(&c, &c.kept);
    const gs_collectives *mine = gs_ctx_collectives(&kept, &err);
    CHECK(mine != NULL && mine->v == found); /* not found again */
    for (int i = 0; i < 4; i++)
        CHECK(got[i] == mine);
    gs_collectives fresh;
    CHECK_INT(gs_collectives_find(&c, &fresh, &err), 0);
    CHECK_INT(fresh.n, 40);
    bool same = mine && mine->n == fresh.n;
    for (size_t i = 0; same && i < fresh.n; i++) {
        const gs_collective *a = &mine->v[i], *b = &fresh.v[i];
        same = a->kernel == b->kernel && a->kind == b->kind && a->seq == b->seq &&
               a->start == b->start && a->end == b->end && a->bytes == b->bytes &&
               a->group_size == b->group_size;
    }
    CHECK(same);
    gs_collectives_free(&fresh);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
}

int main(void)
{
    test_reader();
    test_kinds_and_seq();
    test_args();
    test_kind_from_ops();
    test_empty();
    test_found_once();
    return check_done("test_collectives");
}
