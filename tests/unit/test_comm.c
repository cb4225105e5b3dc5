/* Communication per rank (analysis/trace/comm.h) on traces built by hand: compute and communication
 * time, their overlap and the exposed communication to the ns, per rank and per step; the
 * collectives per kind with bytes, algbw and busbw; the --hta mode's classes and cut. */
#include <math.h>

#include "analysis/trace/comm.h"
#include "check.h"
#include "profile_fold.h"
#include "trace_builder.h"

#define US 1000

static void add_args(gs_trace *t, uint64_t corr, const char *coll, int64_t nelems, int32_t group)
{
    gs_coll_args *a = GS_VEC_PUSH(&t->coll_args);
    *a = (gs_coll_args){.on = GS_COLL_ARGS_ON_KERNEL, .correlation = corr,
                        .collective = tb_str(t, coll), .dtype = tb_str(t, "Float"),
                        .in_nelems = nelems, .out_nelems = nelems, .group_size = group};
}

static void nccl(gs_trace *t, const char *name, gs_ns start, gs_ns end, uint64_t corr)
{
    tb_kernel(t, name, start, end, corr);
    t->kernels.v[t->kernels.n - 1].stream = 20;
}

/* Two steps of 200 µs.
 *   step 1 [0,200):   gemm [0,100), gemm [80,120) (overlapping compute: union [0,120));
 *                     all-reduce [100,160) — 20 µs under compute, 40 exposed
 *   step 2 [200,400): gemm [200,300); all-reduce [250,350) 50 under compute, 50 exposed;
 *                     all-gather [350,380) 30 exposed; a copy [380,390) is neither
 * compute 220, communication 190, overlap 70, exposed 120. */
static gs_trace *build(int32_t rank)
{
    gs_trace *t = tb_new(rank ? "r1.json" : "r0.json", rank);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#1", 0, 200 * US, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#2", 200 * US, 400 * US, NULL);
    tb_kernel(t, "gemm", 0, 100 * US, 0);
    tb_kernel(t, "gemm", 80 * US, 120 * US, 0);
    nccl(t, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 100 * US, 160 * US, 11);
    add_args(t, 11, "allreduce", 1000000, 4); /* 4 MB in 60 µs */
    tb_kernel(t, "gemm", 200 * US, 300 * US, 0);
    nccl(t, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 250 * US, 350 * US, 12);
    add_args(t, 12, "allreduce", 2000000, 4); /* 8 MB in 100 µs */
    nccl(t, "ncclDevKernel_AllGather_RING_LL", 350 * US, 380 * US, 13);
    tb_memop(t, GS_MEMOP_DTOH, GS_LOC_DEVICE, GS_LOC_PINNED, 64, 380 * US, 390 * US, 0);
    return t;
}

static void test_rank(void)
{
    gs_profile p = {0};
    tb_add(&p, build(0));
    gs_comm c;
    gs_error err;
    CHECK_INT(fold_comm(&p, NULL, false, &c, &err), 0);
    CHECK_INT(c.nranks, 1);
    const gs_comm_rank *r = &c.ranks[0];
    CHECK_INT(r->compute, 220 * US);
    CHECK_INT(r->communication, 190 * US);
    CHECK_INT(r->overlap, 70 * US);
    CHECK_INT(r->exposed, 120 * US);
    CHECK(fabs(r->overlap_pct - 100.0 * 70 / 190) < 1e-9);
    CHECK_INT(r->window, 390 * US);
    CHECK_INT(r->idle, 40 * US); /* [160,200): nothing runs */
    CHECK(fabs(r->exposed_pct - 100.0 * 120 / 390) < 1e-9);
    CHECK_INT(r->collectives, 3);
    CHECK_INT(r->steps, 2);
    CHECK_INT(r->exposed_per_step, 60 * US); /* (40 + 80) / 2 */
    CHECK_INT(c.nsteps, 2);
    if (c.nsteps == 2) {
        CHECK_INT(c.steps[0].number, 1);
        CHECK_INT(c.steps[0].compute, 120 * US);
        CHECK_INT(c.steps[0].communication, 60 * US);
        CHECK_INT(c.steps[0].overlap, 20 * US);
        CHECK_INT(c.steps[0].exposed, 40 * US);
        CHECK(fabs(c.steps[0].exposed_pct - 20.0) < 1e-9);
        CHECK_INT(c.steps[1].communication, 130 * US);
        CHECK_INT(c.steps[1].overlap, 50 * US);
        CHECK_INT(c.steps[1].exposed, 80 * US);
    }
    /* per kind: all-reduce 2 × (4 MB + 8 MB in 160 µs), all-gather without size */
    CHECK_INT(c.nkinds, 2);
    if (c.nkinds == 2) {
        const gs_comm_kind *ar = &c.kinds[0], *ag = &c.kinds[1];
        CHECK_INT(ar->kind, GS_COLL_ALL_REDUCE);
        CHECK_INT(ar->count, 2);
        CHECK_INT(ar->total, 160 * US);
        CHECK_INT(ar->mean, 80 * US);
        CHECK_INT(ar->min, 60 * US);
        CHECK_INT(ar->max, 100 * US);
        CHECK_INT(ar->sized, 2);
        CHECK_INT(ar->bytes, 12000000);
        CHECK(fabs(ar->algbw_gbps - 12e6 / 160e3) < 1e-9); /* 75 GB/s */
        CHECK(fabs(ar->busbw_gbps - 75.0 * 2 * 3 / 4) < 1e-9);
        CHECK_INT(ar->group_size, 4);
        CHECK_INT(ag->kind, GS_COLL_ALL_GATHER);
        CHECK_INT(ag->count, 1);
        CHECK_INT(ag->sized, 0);
        CHECK(ag->algbw_gbps < 0);
        CHECK(ag->busbw_gbps < 0);
        CHECK_INT(ag->group_size, -1);
    }
    gs_comm_free(&c);
    gs_profile_free(&p);
}

static void test_bus_factors(void)
{
    CHECK(fabs(gs_comm_bus_factor(GS_COLL_ALL_REDUCE, 8) - 1.75) < 1e-12);
    CHECK(fabs(gs_comm_bus_factor(GS_COLL_ALL_GATHER, 8) - 0.875) < 1e-12);
    CHECK(fabs(gs_comm_bus_factor(GS_COLL_REDUCE_SCATTER, 2) - 0.5) < 1e-12);
    CHECK(fabs(gs_comm_bus_factor(GS_COLL_ALL_TO_ALL, 4) - 0.75) < 1e-12);
    CHECK(gs_comm_bus_factor(GS_COLL_BROADCAST, 4) == 1.0);
    CHECK(gs_comm_bus_factor(GS_COLL_REDUCE, 4) == 1.0);
    CHECK(gs_comm_bus_factor(GS_COLL_SEND_RECV, 2) == 1.0);
    CHECK(gs_comm_bus_factor(GS_COLL_OTHER, 2) == 0.0);
    CHECK(gs_comm_bus_factor(GS_COLL_ALL_REDUCE, 0) == 0.0);
    CHECK(gs_comm_bus_factor(GS_COLL_ALL_REDUCE, 1) == 0.0); /* one rank moves nothing */
}

/* Ranks selected by --rank; a rank without communication has an unknown overlap, not 0 %. */
static void test_select_and_none(void)
{
    gs_profile p = {0};
    tb_add(&p, build(0));
    gs_trace *t = tb_new("quiet.json", 1);
    tb_kernel(t, "gemm", 0, 10 * US, 0);
    tb_add(&p, t);
    gs_comm c;
    gs_error err;
    CHECK_INT(fold_comm(&p, &(gs_select){.by_rank = true, .rank = 1}, false, &c, &err), 0);
    CHECK_INT(c.nranks, 1);
    CHECK_INT(c.ranks[0].rank, 1);
    CHECK_INT(c.ranks[0].communication, 0);
    CHECK(c.ranks[0].overlap_pct < 0);
    CHECK_INT(c.ranks[0].collectives, 0);
    CHECK_INT(c.nkinds, 0);
    CHECK_INT(c.nsteps, 1); /* the whole trace as one window */
    gs_comm_free(&c);
    gs_profile_free(&p);
}

/* Rows by rank whatever order the traces come in; each rank's path is the result's own. */
static void test_rank_order(void)
{
    gs_profile p = {0};
    tb_add(&p, build(1));
    tb_add(&p, build(0));
    gs_comm c;
    gs_error err;
    CHECK_INT(fold_comm(&p, NULL, false, &c, &err), 0);
    gs_profile_free(&p);
    CHECK_INT(c.nranks, 2);
    CHECK_INT(c.ranks[0].rank, 0);
    CHECK_STR(c.ranks[0].path, "r0.json");
    CHECK_INT(c.ranks[1].rank, 1);
    CHECK_STR(c.ranks[1].path, "r1.json");
    CHECK_INT(c.nkinds, 4);
    CHECK_INT(c.kinds[0].rank, 0);
    CHECK_INT(c.kinds[0].kind, GS_COLL_ALL_REDUCE);
    CHECK_INT(c.kinds[1].rank, 0);
    CHECK_INT(c.kinds[1].kind, GS_COLL_ALL_GATHER);
    CHECK_INT(c.kinds[2].rank, 1);
    CHECK_INT(c.nsteps, 4);
    CHECK_INT(c.steps[0].rank, 0);
    CHECK_INT(c.steps[0].number, 1);
    CHECK_INT(c.steps[1].rank, 0);
    CHECK_INT(c.steps[1].number, 2);
    CHECK_INT(c.steps[2].rank, 1);
    CHECK_INT(c.steps[2].number, 1);
    gs_comm_free(&c);
}

/* --hta: HTA 0.5.0 classes (Stream Wait Event counts as computation) and µs rounding. */
static void test_hta(void)
{
    gs_trace *t = tb_new("hta.json", 0);
    nccl(t, "ncclKernel_AllReduce_RING_LL_Sum_float", 1000, 11000, 1); /* 1 µs .. 11 µs */
    tb_kernel(t, "gemm", 9400, 20000, 0);
    gs_gpu_sync *s = GS_VEC_PUSH(&t->syncs);
    s->name = tb_str(t, "Stream Wait Event");
    s->stream = 20;
    s->start = 0;
    s->end = 3000;
    s->api = GS_NONE;
    gs_profile p = {0};
    tb_add(&p, t);
    gs_comm c;
    gs_error err;
    CHECK_INT(fold_comm(&p, NULL, false, &c, &err), 0);
    CHECK_INT(c.ranks[0].overlap, 1600); /* [9400, 11000) */
    gs_comm_free(&c);
    CHECK_INT(fold_comm(&p, NULL, true, &c, &err), 0);
    /* the gemm starts at 10 µs once rounded up; the wait [0,3) µs overlaps [1,3) */
    CHECK_INT(c.ranks[0].communication, 10000);
    CHECK_INT(c.ranks[0].overlap, 1000 + 2000);
    CHECK_INT(c.ranks[0].exposed, 7000);
    CHECK(fabs(c.ranks[0].overlap_pct - 30.0) < 1e-9);
    gs_comm_free(&c);
    gs_profile_free(&p);
}

int main(void)
{
    test_rank();
    test_bus_factors();
    test_select_and_none();
    test_rank_order();
    test_hta();
    return check_done("test_comm");
}
