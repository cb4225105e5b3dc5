/* Step breakdown and GPU metrics on one hand-made step; the answers are worked out below.
 *
 *   time        0    5   10   20 25 30   38 40 45 48 50 55 60   70   80        120
 *   step        [ProfilerStep#1 host 0..100, extended to the NCCL kernel's end: 0..120      )
 *   DataLoader  [0,5)
 *   aten::mm        [5 ............................. 50)                      CPU Exec
 *   runtime             [10,20)[20,25)      [40,45)                           launches
 *   nccl:all_reduce                      [38 ..... 48)                        host comm op
 *   kernel A                        [30 .................... 60)              bps 0.5, occ 40
 *   kernel B                                [40 .. 50)                        bps 0.75, occ 60
 *   memcpy                                            [55 ...... 70)
 *   NCCL kernel                                                     [80 ...... 120)  bps 1, occ 20
 *   GPU 1 kernel                    [30,40)                           unknown bps and occ
 *
 * Attribution over [0,120): Kernel [30,60) = 30; Memcpy [60,70) = 10; Communication [80,120) = 40
 * (the host op lies under kernel A); Runtime [10,25) = 15; DataLoader [0,5) = 5; CPU Exec [5,10)
 * and [25,30) = 10; Other [70,80) = 10. Sum 120. */
#include <math.h>

#include "analysis/trace/breakdown.h"
#include "check.h"
#include "trace_builder.h"

static gs_kernel *kernel(gs_trace *t, const char *name, gs_ns start, gs_ns end, uint64_t corr,
                         float bps, float occ)
{
    tb_kernel(t, name, start, end, corr);
    gs_kernel *k = &t->kernels.v[t->kernels.n - 1];
    k->blocks_per_sm = bps;
    k->occupancy_pct = occ;
    return k;
}

static gs_trace *build(void)
{
    gs_trace *t = tb_new("bd", 0);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#1", 0, 100, NULL);
    tb_range(t, GS_RANGE_OP, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 0, 5,
             NULL);
    tb_range(t, GS_RANGE_OP, "aten::mm", 5, 50, NULL);
    tb_range(t, GS_RANGE_OP, "nccl:all_reduce", 38, 48, NULL);
    t->ranges.v[t->ranges.n - 1].external_id = 7;
    tb_range(t, GS_RANGE_PYTHON, "train.py(12): main", 0, 100, NULL); /* takes no role */
    tb_api(t, "cudaLaunchKernel", 10, 20, 1);
    tb_api(t, "cudaMemcpyAsync", 20, 25, 2);
    tb_api(t, "cudaLaunchKernel", 40, 45, 3);
    kernel(t, "A", 30, 60, 1, 0.5f, 40);
    kernel(t, "B", 40, 50, 0, 0.75f, 60);
    kernel(t, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 80, 120, 3, 1.0f, 20)->external_id = 99;
    kernel(t, "other_gpu", 30, 40, 0, -1, -1)->device = 1;
    tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PINNED, GS_LOC_DEVICE, 1024, 55, 70, 2);
    gs_error err;
    if (gs_trace_index(t, &err) != 0)
        abort();
    return t;
}

/* The breakdown of t over its default steps (ProfilerStep#N, warm-up left out). */
static int breakdown(const gs_trace *t, bool tb_compat, gs_breakdown *b, gs_error *err)
{
    gs_trace_ctx c = tb_ctx(t, NULL);
    int rc = gs_breakdown_build(&c, tb_compat, b, err);
    gs_trace_ctx_free(&c);
    return rc;
}

static void check_ns(const gs_bd_step *s, const gs_ns want[GS_BD__COUNT])
{
    gs_ns sum = 0;
    for (int c = 0; c < GS_BD__COUNT; c++) {
        CHECK_INT(s->ns[c], want[c]);
        sum += s->ns[c];
    }
    CHECK_INT(sum, s->end - s->start);
}

int main(void)
{
    gs_trace *t = build();
    gs_profile p = {0};
    gs_trace **slot = GS_VEC_PUSH(&p.traces);
    *slot = t;
    gs_error err;
    gs_breakdown b;
    CHECK_INT(breakdown(t, false, &b, &err), 0);
    CHECK_INT(b.n, 1);
    const gs_bd_trace *bt = &b.v[0];
    CHECK_STR(bt->id.path, "bd");
    CHECK(bt->id.path != t->id.path); /* the breakdown's own copy */
    CHECK_INT(bt->steps.n, 1);
    CHECK_INT(bt->step[0].start, 0);
    CHECK_INT(bt->step[0].end, 120);
    CHECK_INT(bt->steps.v[0].gpu_ops, 3);
    const gs_ns want[GS_BD__COUNT] = {30, 10, 0, 40, 15, 5, 10, 10};
    check_ns(&bt->step[0], want);
    CHECK_INT(bt->nkept, 1);
    CHECK(fabs(bt->avg_total_ns - 120) < 1e-9);
    CHECK(fabs(bt->avg_pct[GS_BD_COMM] - 100.0 * 40 / 120) < 1e-9);

    /* GPU 0: busy [30,60) and [80,120) = 70 of 120. SM efficiency: [30,40) 0.5, [40,50)
     * min(1.25, 1), [50,60) 0.5, [80,120) 1: (5 + 10 + 5 + 40) / 120 = 0.5. Occupancy:
     * (40×30 + 60×10 + 20×40) / 80 = 32.5. GPU 1: 10 of 120, nothing known of its kernel. */
    CHECK_INT(bt->gpu.window_start, 0);
    CHECK_INT(bt->gpu.window_end, 120);
    CHECK_INT(bt->gpu.n, 2);
    const gs_gpu_device_metrics *g0 = &bt->gpu.v[0], *g1 = &bt->gpu.v[1];
    CHECK_INT(g0->device, 0);
    CHECK_INT(g0->busy_ns, 70);
    CHECK(fabs(g0->utilization - 70.0 / 120) < 1e-9);
    CHECK(g0->has_sm_efficiency && fabs(g0->sm_efficiency - 0.5) < 1e-9);
    CHECK(g0->has_occupancy && fabs(g0->occupancy_pct - 32.5) < 1e-6);
    CHECK_INT(g1->device, 1);
    CHECK(fabs(g1->utilization - 10.0 / 120) < 1e-9);
    CHECK(!g1->has_sm_efficiency && !g1->has_occupancy);
    gs_breakdown_free(&b);

    /* The plugin's detection: the NCCL kernel's External id (99) is not the nccl:all_reduce op's
     * (7), so it is a Kernel: Kernel [30,60) + [80,120) = 70, Communication 0. */
    CHECK_INT(breakdown(t, true, &b, &err), 0);
    const gs_ns want_tb[GS_BD__COUNT] = {70, 10, 0, 0, 15, 5, 10, 10};
    check_ns(&b.v[0].step[0], want_tb);
    gs_breakdown_free(&b);

    /* ... and when the ids match, it is Communication again. */
    for (size_t i = 0; i < t->kernels.n; i++) { /* indexing sorted the kernels by start */
        if (t->kernels.v[i].external_id == 99)
            t->kernels.v[i].external_id = 7;
    }
    CHECK_INT(breakdown(t, true, &b, &err), 0);
    check_ns(&b.v[0].step[0], want);
    gs_breakdown_free(&b);

    /* Clipped to [35, 90): GPU 0 busy [35,60) + [80,90) = 35 of 55; SM efficiency
     * (5×0.5 + 10×1 + 10×0.5 + 10×1) / 55 = 0.5; occupancy (25×40 + 10×60 + 10×20) / 45 = 40. */
    gs_gpu_metrics m;
    CHECK_INT(gs_gpu_metrics_compute(t, 35, 90, &m, &err), 0);
    CHECK_INT(m.n, 2);
    CHECK_INT(m.v[0].busy_ns, 35);
    CHECK(fabs(m.v[0].sm_efficiency - 0.5) < 1e-9);
    CHECK(fabs(m.v[0].occupancy_pct - 40) < 1e-6);
    CHECK_INT(m.v[1].busy_ns, 5);
    gs_gpu_metrics_free(&m);

    CHECK_STR(gs_bd_cat_key(GS_BD_CPU_EXEC), "cpu_exec");
    CHECK_STR(gs_bd_cat_title(GS_BD_CPU_EXEC), "CPU Exec");
    gs_profile_free(&p);
    return check_done("test_breakdown");
}
