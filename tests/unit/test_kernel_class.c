/* Kernel classes by name (gpuscope's and HTA 0.5.0's rules) and the GPU activity selection,
 * HTA's last-step cut and µs rounding included. */
#include "analysis/base/kernel_class.h"
#include "analysis/base/name_rules.h"
#include "common/util.h"
#include "check.h"
#include "trace_builder.h"

typedef struct name_case {
    const char *name;
    enum gs_kclass ours, hta;
} name_case;

static const name_case names[] = {
    {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
     GS_KCLASS_COMMUNICATION, GS_KCLASS_COMMUNICATION},
    {"ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)", GS_KCLASS_COMMUNICATION,
     GS_KCLASS_COMMUNICATION},
    /* a collective named only by what it does: gpuscope's `nccl` prefix, HTA wants "Kernel" */
    {"ncclAllReduce", GS_KCLASS_COMMUNICATION, GS_KCLASS_COMPUTE},
    {"void wrapper<ncclDevKernel_Generic>(int)", GS_KCLASS_COMMUNICATION, GS_KCLASS_COMPUTE},
    {"hcclAllReduce", GS_KCLASS_COMMUNICATION, GS_KCLASS_COMPUTE},
    /* ROCm compute kernels named hip*: compute for gpuscope (HTA's later `^hip` rule is wrong) */
    {"hipLaunchKernel_gemm_like", GS_KCLASS_COMPUTE, GS_KCLASS_COMPUTE},
    {"hipcub::DeviceRadixSortOnesweepKernel", GS_KCLASS_COMPUTE, GS_KCLASS_COMPUTE},
    {"Cijk_Ailk_Bljk_SB_MT64x64x16", GS_KCLASS_COMPUTE, GS_KCLASS_COMPUTE},
    {"Memcpy HtoD (Pageable -> Device)", GS_KCLASS_COMPUTE, GS_KCLASS_MEMORY},
    {"Memset (Device)", GS_KCLASS_COMPUTE, GS_KCLASS_MEMORY},
    {"dma_copy", GS_KCLASS_COMPUTE, GS_KCLASS_MEMORY},
    {"void at::native::unrolled_elementwise_Memcpy_kernel", GS_KCLASS_COMPUTE, GS_KCLASS_OTHER},
    {"Event Sync", GS_KCLASS_COMPUTE, GS_KCLASS_OTHER},
    /* HTA 0.5.0 has no `Stream Wait Event` rule: it is COMPUTATION there */
    {"Stream Wait Event", GS_KCLASS_COMPUTE, GS_KCLASS_COMPUTE},
    {"", GS_KCLASS_COMPUTE, GS_KCLASS_COMPUTE},
};

/* A kernel's class by the name rules (analysis/base/name_rule_table.c), as the activities take it. */
static enum gs_kclass kclass_of(const char *name, bool hta)
{
    if (hta)
        return (enum gs_kclass)gs_name_judge(GS_NAME_HTA_CLASS, name);
    return gs_name_judge(GS_NAME_COMM_KERNEL, name) ? GS_KCLASS_COMMUNICATION : GS_KCLASS_COMPUTE;
}

static void test_names(void)
{
    for (size_t i = 0; i < COUNT_OF(names); i++) {
        CHECK_INT(kclass_of(names[i].name, false), names[i].ours);
        CHECK_INT(kclass_of(names[i].name, true), names[i].hta);
    }
    CHECK_INT(kclass_of(NULL, false), GS_KCLASS_COMPUTE);
    CHECK_INT(kclass_of(NULL, true), GS_KCLASS_COMPUTE);
}

static void add_sync(gs_trace *t, const char *name, int32_t stream, gs_ns start, gs_ns end)
{
    gs_gpu_sync *s = GS_VEC_PUSH(&t->syncs);
    s->name = tb_str(t, name);
    s->stream = stream;
    s->start = start;
    s->end = end;
    s->api = GS_NONE;
}

static void test_collect_classes(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("r0.json", 0);
    tb_kernel(t, "ncclDevKernel_AllReduce", 300, 400, 0);
    tb_kernel(t, "gemm", 0, 100, 0);
    tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PINNED, GS_LOC_DEVICE, 64, 150, 200, 0);
    add_sync(t, "Stream Wait Event", 7, 500, 510);
    add_sync(t, "Context Sync", -1, 600, 700);
    tb_add(&p, t);
    gs_trace_ctx c = tb_ctx(t, NULL);

    gs_activities a = {0};
    CHECK_INT(gs_activities_collect(&c, &(gs_activity_opts){.with_syncs = true}, &a), 0);
    CHECK_INT(a.n, 4); /* Context Sync has no stream */
    CHECK_INT(a.v[0].start, 0);
    CHECK_INT(a.v[0].kclass, GS_KCLASS_COMPUTE);
    CHECK_INT(a.v[1].kclass, GS_KCLASS_MEMORY);
    CHECK_INT(a.v[2].kclass, GS_KCLASS_COMMUNICATION);
    CHECK_INT(a.v[3].kclass, GS_KCLASS_OTHER);
    CHECK_STR(gs_activity_name(t, &a.v[2]), "ncclDevKernel_AllReduce");
    CHECK_INT(gs_activities_collect(&c, &(gs_activity_opts){0}, &a), 0);
    CHECK_INT(a.n, 3);
    free(a.v);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
}

/* Kernels, copies and stream syncs come merged by (start, end), each source in time order. In
 * HTA's rounding two kernels can swap (the later start has the earlier rounded end): the
 * activities are then sorted, and come in the same order. */
static void test_collect_order(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("r0.json", 0);
    tb_kernel(t, "k0", 1000200, 1006100, 0);
    tb_kernel(t, "k1", 1000700, 1005500, 0);
    tb_kernel(t, "k2", 1003000, 1004000, 0);
    tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PINNED, GS_LOC_DEVICE, 64, 1000500, 1000600, 0);
    tb_memop(t, GS_MEMOP_DTOD, GS_LOC_DEVICE, GS_LOC_DEVICE, 64, 1003000, 1003500, 0);
    add_sync(t, "Stream Wait Event", 7, 1000100, 1000150);
    tb_add(&p, t);
    gs_trace_ctx c = tb_ctx(t, NULL);

    gs_activities a = {0};
    CHECK_INT(gs_activities_collect(&c, &(gs_activity_opts){.with_syncs = true}, &a), 0);
    static const gs_ns starts[] = {1000100, 1000200, 1000500, 1000700, 1003000, 1003000};
    static const gs_ns ends[] = {1000150, 1006100, 1000600, 1005500, 1003500, 1004000};
    CHECK_INT(a.n, 6);
    for (size_t i = 0; i < a.n && i < 6; i++) {
        CHECK_INT(a.v[i].start, starts[i]);
        CHECK_INT(a.v[i].end, ends[i]);
    }
    CHECK_INT(a.v[4].gpu_class, GS_GPU_MEMOP); /* ends first at the same start */

    CHECK_INT(gs_activities_collect(&c, &(gs_activity_opts){.hta_compat = true}, &a), 0);
    CHECK_INT(a.n, 5); /* no sync records; no step, so no cut */
    static const char *const kernel_order[] = {"k1", "k0", "k2"};
    for (size_t i = 0, k = 0; i < a.n; i++) {
        if (a.v[i].gpu_class != GS_GPU_KERNEL)
            continue;
        CHECK_STR(gs_activity_name(t, &a.v[i]), kernel_order[k++]);
    }
    CHECK_INT(a.v[1].start, 1001000); /* k1: 1001 to 1005 µs, k0: 1001 to 1006 */
    CHECK_INT(a.v[1].end, 1005000);
    CHECK_INT(a.v[2].end, 1006000);
    free(a.v);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
}

/* Two ProfilerSteps: HTA keeps only work launched before the last step's start; times are
 * rounded to whole µs (start up, end down). */
static void test_hta_cut_and_rounding(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("r0.json", 0);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#1", 0, 100000, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#2", 100000, 200000, NULL);
    tb_api(t, "cudaLaunchKernel", 10000, 12000, 1);
    tb_kernel(t, "a", 20500, 30700, 1);
    tb_api(t, "cudaLaunchKernel", 110000, 112000, 2);
    tb_kernel(t, "b", 120000, 130000, 2);
    tb_kernel(t, "no_launch", 40000, 50000, 0);
    tb_add(&p, t);
    gs_trace_ctx c = tb_ctx(t, NULL);

    gs_activities a = {0};
    CHECK_INT(gs_activities_collect(&c, &(gs_activity_opts){.hta_compat = true}, &a), 0);
    CHECK_INT(a.n, 1);
    CHECK_INT(a.v[0].start, 21000);
    CHECK_INT(a.v[0].end, 30000);
    CHECK_INT(a.v[0].launch, 10000);
    CHECK_INT(gs_activities_collect(&c, &(gs_activity_opts){0}, &a), 0);
    CHECK_INT(a.n, 3); /* gpuscope keeps the whole trace */
    CHECK_INT(a.v[0].start, 20500);
    free(a.v);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
}

/* HTA computes end = floor(ts + dur) in float64 µs: at epoch-based times a double resolves 0.25 µs,
 * so 1712195495505583 + 4.928 becomes ...588.0 and the end is ...588, not ...587. */
static void test_hta_float_rounding(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("r0.json", 0);
    const gs_ns ts = 1712195495505583000;
    tb_kernel(t, "a", ts, ts + 4928, 0);
    tb_kernel(t, "b", ts + 10500, ts + 12000, 0);
    tb_add(&p, t);
    gs_trace_ctx c = tb_ctx(t, NULL);
    gs_activities a = {0};
    CHECK_INT(gs_activities_collect(&c, &(gs_activity_opts){.hta_compat = true}, &a), 0);
    CHECK_INT(a.n, 2);
    CHECK_INT(a.v[0].start, ts);
    CHECK_INT(a.v[0].end, ts + 5000);
    CHECK_INT(a.v[1].start, ts + 11000);
    CHECK_INT(a.v[1].end, ts + 12000);
    free(a.v);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
}

int main(void)
{
    test_names();
    test_collect_classes();
    test_collect_order();
    test_hta_cut_and_rounding();
    test_hta_float_rounding();
    return check_done("test_kernel_class");
}
