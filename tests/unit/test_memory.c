/* Memory on a hand-made trace of five 1 ms steps (times in µs); expected numbers are worked out
 * in the comments. Device 0 has 990 bytes.
 *
 *   step i = 1..5 [1000 i, 1000 i + 1000): aten::zeros > aten::empty, which allocates 100 bytes at
 *       1000 i + 120 that are never freed: allocated at step end 100, 200, 300, 400, 500
 *       (slope 100 per step, R² 1: growth, but far below GS_TH_MEM_LEAK_MIN_GROWTH, so no leak);
 *       reserved 200, 300, 400, 900, 900.
 *   step 3 also: aten::mm [3300, 3400) allocates 500 at 3310 (allocated 800, reserved 900: the
 *       peak), freed at 3500 outside any operator (the free still counts for aten::mm).
 *   host: one 64-byte allocation at 1130 (device type 0, device -1, reserved unknown). */
#include "analysis/trace/memory.h"
#include "analysis/base/thresholds.h"
#include "check.h"
#include "trace_builder.h"

#define US 1000

static void mem(gs_trace *t, int8_t type, int32_t device, gs_ns ts, uint64_t addr, int64_t bytes,
                int64_t allocated, int64_t reserved)
{
    gs_mem_event *m = GS_VEC_PUSH(&t->mem_events);
    *m = (gs_mem_event){.ts = ts * US, .pid = TB_PID, .tid = TB_TID, .device_type = type,
                        .device = device, .addr = addr, .bytes = bytes,
                        .total_allocated = allocated, .total_reserved = reserved};
}

static gs_trace *build(void)
{
    gs_trace *t = tb_new("memory.json", 0);
    tb_device(t, 0, "GPU", 990, 100, 9, 0);
    static const char *const steps[] = {"ProfilerStep#1", "ProfilerStep#2", "ProfilerStep#3",
                                        "ProfilerStep#4", "ProfilerStep#5"};
    static const int64_t reserved[] = {200, 300, 400, 900, 900};
    for (gs_ns i = 1; i <= 5; i++) {
        gs_ns s0 = 1000 * i;
        tb_range(t, GS_RANGE_ANNOTATION, steps[i - 1], s0 * US, (s0 + 1000) * US, NULL);
        tb_api(t, "cudaLaunchKernel", (s0 + 10) * US, (s0 + 15) * US, (uint64_t)i);
        tb_kernel(t, "k", (s0 + 20) * US, (s0 + 30) * US, (uint64_t)i);
        tb_range(t, GS_RANGE_OP, "aten::zeros", (s0 + 100) * US, (s0 + 200) * US, NULL);
        tb_range(t, GS_RANGE_OP, "aten::empty", (s0 + 110) * US, (s0 + 150) * US, NULL);
        mem(t, 1, 0, s0 + 120, (uint64_t)i, 100, 100 * i, reserved[i - 1]);
    }
    tb_range(t, GS_RANGE_OP, "aten::mm", 3300 * US, 3400 * US, NULL);
    mem(t, 1, 0, 3310, 100, 500, 800, 900);
    mem(t, 1, 0, 3500, 100, -500, 300, 900);
    mem(t, 0, -1, 1130, 7, 64, 64, -1);
    return t;
}

/* The memory summary of t (indexed) over its whole trace, with the steps `steps` finds. */
static int summarise(const gs_trace *t, const gs_step_opts *steps, gs_memory_summary *s,
                     gs_error *err)
{
    gs_trace_ctx c = tb_ctx(t, &(gs_ctx_opts){.steps = *steps});
    int rc = gs_memory_build(&c, s, err);
    gs_trace_ctx_free(&c);
    return rc;
}

static void check_op(const gs_mem_op *op, const char *name, uint64_t allocs, uint64_t self_allocs,
                     int64_t bytes, int64_t self_bytes, int64_t increase, int64_t self_increase)
{
    CHECK_STR(op->name, name);
    CHECK_INT(op->alloc_count, allocs);
    CHECK_INT(op->self_alloc_count, self_allocs);
    CHECK_INT(op->alloc_bytes, bytes);
    CHECK_INT(op->self_alloc_bytes, self_bytes);
    CHECK_INT(op->increase, increase);
    CHECK_INT(op->self_increase, self_increase);
}

static void test_cuda(const gs_mem_device *d)
{
    CHECK_INT(d->device_type, GS_MEM_DEVICE_CUDA);
    CHECK_INT(d->device, 0);
    CHECK_INT(d->records, 7);
    CHECK_INT(d->allocs, 6);
    CHECK_INT(d->frees, 1);
    CHECK_INT(d->nseries, 7);
    CHECK_INT(d->npoints, 7); /* fewer than GS_MEM_SERIES_POINTS: all kept */
    CHECK_INT(d->peak_allocated, 800);
    CHECK_INT(d->peak_ts, 3310 * US);
    CHECK_INT(d->reserved_at_peak, 900);
    CHECK_INT(d->peak_reserved, 900);
    CHECK_INT(d->peak_step, 3);
    CHECK_STR(d->peak_op, "aten::mm");
    CHECK(d->fragmentation == 900.0 / 800.0);
    CHECK(!d->fragmented); /* 1.125 <= 1.5 */
    CHECK_INT(d->nsteps, 5);
    if (d->nsteps == 5) {
        CHECK_INT(d->steps[2].allocated, 300); /* after the free at 3500 */
        CHECK_INT(d->steps[2].reserved, 900);
        CHECK_INT(d->steps[4].allocated, 500);
    }
    CHECK_INT(d->fit_steps, 5);
    CHECK(d->slope > 99.999 && d->slope < 100.001);
    CHECK(d->r2 > 0.99999);
    CHECK(!d->leak); /* 100 bytes per step is not worth a word */
    CHECK_INT(d->device_memory, 990);
    CHECK_INT(d->headroom, 90);
    CHECK(d->peak_pct > 90.909 && d->peak_pct < 90.910); /* 900 / 990 */
    CHECK(d->near_limit);
    /* alloc_bytes desc, then self_alloc_bytes desc, then name: three rows of 500 bytes */
    CHECK_INT(d->nops, 3);
    if (d->nops == 3) {
        check_op(&d->ops[0], "aten::empty", 5, 5, 500, 500, 500, 500);
        check_op(&d->ops[1], "aten::mm", 1, 1, 500, 500, 0, 0);
        check_op(&d->ops[2], "aten::zeros", 5, 0, 500, 0, 500, 0);
    }
}

static void test_host(const gs_mem_device *d)
{
    CHECK_INT(d->device_type, GS_MEM_DEVICE_CPU);
    CHECK_INT(d->device, -1);
    CHECK_INT(d->peak_allocated, 64);
    CHECK_INT(d->peak_reserved, 0);
    CHECK_INT(d->device_memory, 0);
    CHECK(!d->near_limit);
    CHECK(!d->leak); /* allocated 64 at every step end: no growth */
    CHECK_STR(d->peak_op, "aten::empty");
}

/* 1000 records rising by 1 with a spike of 5000 at record 537: 200 points, the spike among them. */
static void test_downsample(void)
{
    gs_trace *t = tb_new("many.json", 1);
    for (gs_ns i = 0; i < 1000; i++)
        mem(t, 1, 0, i, (uint64_t)i + 1, 1, i == 537 ? 5000 : i, 10000);
    gs_profile p = {0};
    tb_add(&p, t);
    gs_memory_summary s;
    gs_error err;
    gs_step_opts opts = {0};
    CHECK_INT(summarise(p.traces.v[0], &opts, &s, &err), 0);
    CHECK_INT(s.ndevices, 1);
    if (s.ndevices == 1) {
        const gs_mem_device *d = &s.devices[0];
        CHECK_INT(d->npoints, 200);
        bool peak = false;
        for (size_t i = 0; i < d->npoints; i++)
            peak |= d->points[i].allocated == 5000 && d->points[i].ts == 537 * US;
        CHECK(peak);
        CHECK_INT(d->peak_allocated, 5000);
        CHECK_INT(d->fit_steps, 1); /* the whole trace is one window */
        CHECK(!d->leak);
    }
    gs_memory_summary_free(&s);
    gs_profile_free(&p);
}

/* Forty GPUs, each with 40 - device records, then a second trace of three more added to the same
 * summary: one device each, CUDA devices by id, each with its own records, the second trace's
 * after the first's. The room for devices grows past its first 16 on the way. */
static void test_many_devices(void)
{
    gs_profile p = {0};
    for (int k = 0; k < 2; k++) {
        gs_trace *t = tb_new(k ? "more.json" : "many_gpus.json", k);
        int32_t ndev = k ? 3 : 40;
        for (int32_t dev = ndev - 1; dev >= 0; dev--)
            for (int32_t r = 0; r < 40 - dev; r++)
                mem(t, 1, dev, 10 * r + dev, (uint64_t)(1000 * dev + r + 1), 8, 8 * (r + 1), -1);
        tb_add(&p, t);
    }
    gs_memory_summary s;
    gs_error err;
    CHECK_INT(gs_memory_init(&s, &err), 0);
    for (size_t k = 0; k < p.traces.n; k++) {
        gs_trace_ctx c = tb_ctx(p.traces.v[k], &(gs_ctx_opts){0});
        CHECK_INT(gs_memory_add(&s, &c, &err), 0);
        gs_trace_ctx_free(&c);
    }
    CHECK_INT(s.ndevices, 43);
    for (size_t i = 0; i < s.ndevices && s.ndevices == 43; i++) {
        int32_t dev = i < 40 ? (int32_t)i : (int32_t)i - 40;
        CHECK_INT(s.devices[i].rank, i < 40 ? 0 : 1);
        CHECK_INT(s.devices[i].device, dev);
        CHECK_INT(s.devices[i].records, 40 - dev);
        CHECK_INT(s.devices[i].peak_allocated, 8 * (40 - dev));
    }
    gs_memory_summary_free(&s);
    gs_profile_free(&p);
}

/* The same shape at a size that matters: 32 MiB kept every step is a leak; one step fewer than
 * GS_TH_MEM_LEAK_MIN_STEPS is not enough to say so. */
static void test_leak(size_t nsteps, bool want)
{
    gs_trace *t = tb_new("leak.json", 0);
    tb_device(t, 0, "GPU", 80LL << 30, 100, 9, 0);
    for (gs_ns i = 1; i <= (gs_ns)nsteps; i++) {
        gs_ns s0 = 1000 * i;
        char name[32];
        snprintf(name, sizeof name, "ProfilerStep#%d", (int)i);
        tb_range(t, GS_RANGE_ANNOTATION, name, s0 * US, (s0 + 1000) * US, NULL);
        mem(t, 1, 0, s0 + 120, (uint64_t)i, 32LL << 20, (32LL << 20) * i, (64LL << 20) * i);
    }
    gs_profile p = {0};
    tb_add(&p, t);
    gs_memory_summary s;
    gs_error err;
    gs_step_opts opts = {.keep_warmup = true};
    CHECK_INT(summarise(p.traces.v[0], &opts, &s, &err), 0);
    CHECK_INT(s.ndevices, 1);
    if (s.ndevices == 1) {
        CHECK(s.devices[0].slope > (double)(32LL << 20) - 1 &&
              s.devices[0].slope < (double)(32LL << 20) + 1);
        CHECK_INT(s.devices[0].leak, want);
    }
    gs_memory_summary_free(&s);
    gs_profile_free(&p);
}

/* CUDA's allocations, as a .gst trace has them (sizes only, no totals: allocator GS_MEM_CUDA):
 *
 *   step 1 [1000, 2000): alloc A 300 at 1100, alloc B 200 at 1200, free A at 1300
 *   step 2 [2000, 3000): alloc C 600 at 2100 (the peak: 200 + 600 = 800), free B at 2200,
 *                        free of D at 2300 (allocated before the capture: changes nothing)
 *   step 3 [3000, 4000): free C at 3100
 *
 * allocated after each record: 300, 500, 200, 800, 600, 600, 0; at the steps' ends 200, 600, 0.
 * Reserved is not recorded; the memory held from the device of 990 is the peak allocated. */
static void test_cuda_allocations(void)
{
    gs_trace *t = tb_new("cuda.gst", 0);
    t->format = tb_str(t, "gst"); /* CUPTI's records */
    tb_device(t, 0, "GPU", 990, 100, 9, 0);
    for (gs_ns i = 1; i <= 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "ProfilerStep#%d", (int)i);
        tb_range(t, GS_RANGE_NVTX, name, 1000 * i * US, (1000 * i + 1000) * US, NULL);
    }
    mem(t, 1, 0, 1100, 0xa, 300, -1, -1);
    mem(t, 1, 0, 1200, 0xb, 200, -1, -1);
    mem(t, 1, 0, 1300, 0xa, -300, -1, -1);
    mem(t, 1, 0, 2100, 0xc, 600, -1, -1);
    mem(t, 1, 0, 2200, 0xb, -200, -1, -1);
    mem(t, 1, 0, 2300, 0xd, -50, -1, -1);
    mem(t, 1, 0, 3100, 0xc, -600, -1, -1);
    gs_profile p = {0};
    tb_add(&p, t);
    gs_memory_summary s;
    gs_error err;
    gs_step_opts opts = {.keep_warmup = true};
    CHECK_INT(summarise(p.traces.v[0], &opts, &s, &err), 0);
    CHECK_INT(s.ndevices, 1);
    if (s.ndevices == 1) {
        const gs_mem_device *d = &s.devices[0];
        CHECK_INT(d->allocator, GS_MEM_CUDA);
        CHECK(!d->reserved_known);
        CHECK_INT(d->nseries, 7);
        static const int64_t after[] = {300, 500, 200, 800, 600, 600, 0};
        for (size_t i = 0; i < d->nseries && i < 7; i++) {
            CHECK_INT(d->series[i].allocated, after[i]);
            CHECK_INT(d->series[i].reserved, -1);
        }
        CHECK_INT(d->peak_allocated, 800);
        CHECK_INT(d->peak_ts, 2100 * US);
        CHECK_INT(d->peak_step, 2);
        CHECK_INT(d->peak_reserved, 0);
        CHECK_INT(d->peak_held, 800);
        CHECK_INT(d->headroom, 190);
        CHECK_INT(d->fragmented, false);
        CHECK_INT(d->nsteps, 3);
        if (d->nsteps == 3) {
            CHECK_INT(d->steps[0].allocated, 200);
            CHECK_INT(d->steps[1].allocated, 600);
            CHECK_INT(d->steps[2].allocated, 0);
        }
        CHECK_INT(d->allocs, 3);
        CHECK_INT(d->frees, 4);
    }
    gs_memory_summary_free(&s);
    gs_profile_free(&p);
}

/* PyTorch's records with only Bytes (no address, no totals; PyTorch 1.9 and earlier wrote
 * them): allocated is the running sum of the sizes per device from the trace's start, whatever
 * the addresses (all 0 here). Device 0 (990 bytes), steps 1 [1000, 2000) and 2 [2000, 3000):
 *
 *   step 1: aten::empty [1100, 1200) allocates 300 at 1110, aten::mm [1300, 1400) 400 at 1310;
 *           aten::add [1500, 1600) frees 300 at 1510
 *   step 2: aten::mm [2100, 2200) allocates 500 at 2110, frees 400 at 2120
 *
 * allocated after each record: 300, 700, 400, 900, 500: peak 900 at 2110 in step 2, in aten::mm
 * (summed by address, as CUDA's records are, every record is at address 0 and the peak would be
 * 500). The allocator is PyTorch's, reserved unknown; the memory held is the peak allocated.
 * A free goes to the operator that frees: aten::add's increase is -300, aten::mm's 400 + 500 -
 * 400 = 500. */
static void test_pytorch_sizes_only(void)
{
    gs_trace *t = tb_new("old_torch.json", 0);
    tb_device(t, 0, "GPU", 990, 100, 9, 0);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#1", 1000 * US, 2000 * US, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#2", 2000 * US, 3000 * US, NULL);
    tb_range(t, GS_RANGE_OP, "aten::empty", 1100 * US, 1200 * US, NULL);
    tb_range(t, GS_RANGE_OP, "aten::mm", 1300 * US, 1400 * US, NULL);
    tb_range(t, GS_RANGE_OP, "aten::add", 1500 * US, 1600 * US, NULL);
    tb_range(t, GS_RANGE_OP, "aten::mm", 2100 * US, 2200 * US, NULL);
    mem(t, 1, 0, 1110, 0, 300, -1, -1);
    mem(t, 1, 0, 1310, 0, 400, -1, -1);
    mem(t, 1, 0, 1510, 0, -300, -1, -1);
    mem(t, 1, 0, 2110, 0, 500, -1, -1);
    mem(t, 1, 0, 2120, 0, -400, -1, -1);
    gs_profile p = {0};
    tb_add(&p, t);
    gs_memory_summary s;
    gs_error err;
    gs_step_opts opts = {.keep_warmup = true};
    CHECK_INT(summarise(p.traces.v[0], &opts, &s, &err), 0);
    CHECK_INT(s.ndevices, 1);
    if (s.ndevices == 1) {
        const gs_mem_device *d = &s.devices[0];
        CHECK_INT(d->allocator, GS_MEM_PYTORCH);
        CHECK(!d->reserved_known);
        CHECK_INT(d->nseries, 5);
        static const int64_t after[] = {300, 700, 400, 900, 500};
        for (size_t i = 0; i < d->nseries && i < 5; i++)
            CHECK_INT(d->series[i].allocated, after[i]);
        CHECK_INT(d->peak_allocated, 900);
        CHECK_INT(d->peak_ts, 2110 * US);
        CHECK_INT(d->peak_step, 2);
        CHECK(d->peak_op && !strcmp(d->peak_op, "aten::mm"));
        CHECK_INT(d->peak_held, 900);
        CHECK_INT(d->headroom, 90);
        for (size_t k = 0; k < d->nops; k++) {
            if (!strcmp(d->ops[k].name, "aten::add"))
                CHECK_INT(d->ops[k].increase, -300);
            if (!strcmp(d->ops[k].name, "aten::mm"))
                CHECK_INT(d->ops[k].increase, 500);
        }
    }
    gs_memory_summary_free(&s);
    gs_profile_free(&p);
}

int main(void)
{
    test_cuda_allocations();
    test_pytorch_sizes_only();
    test_leak(GS_TH_MEM_LEAK_MIN_STEPS, true);
    test_leak(GS_TH_MEM_LEAK_MIN_STEPS - 1, false);
    gs_profile p = {0};
    tb_add(&p, build());
    gs_memory_summary s;
    gs_error err;
    gs_step_opts opts = {0};
    CHECK_INT(summarise(p.traces.v[0], &opts, &s, &err), 0);
    CHECK_INT(s.ndevices, 2); /* CUDA first, then the host */
    if (s.ndevices == 2) {
        test_cuda(&s.devices[0]);
        test_host(&s.devices[1]);
    }
    gs_memory_summary_free(&s);
    gs_profile_free(&p);
    test_downsample();
    test_many_devices();
    return check_done("test_memory");
}
