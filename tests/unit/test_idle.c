/* Idle gaps: classification per stream and GPU-wide, HTA's per-stream sums, the largest gaps
 * with the host activity during them, and idle per step, on traces built by hand. */
#include <math.h>

#include "analysis/trace/idle.h"
#include "check.h"
#include "trace_builder.h"

#define US 1000
#define MS 1000000

static void launch(gs_trace *t, const char *name, gs_ns api_start, gs_ns start, gs_ns end,
                   int32_t stream, uint64_t corr)
{
    tb_api(t, "cudaLaunchKernel", api_start, api_start + 1 * US, corr);
    tb_kernel(t, name, start, end, corr);
    t->kernels.v[t->kernels.n - 1].stream = stream;
}

/* Stream 7: k1 [0,10) | k2 [15,20) launched at 2 (kernel-wait 5) | k3 [100,110) launched at 50
 * (host-wait 80) | k4 [200,210) launched at 90 (other 90). Stream 8: k5 [150,160) launched at
 * 140. GPU-wide: 10-15 kernel-wait, 20-100 host-wait, 110-150 host-wait (k5 launched at 140),
 * 160-200 other (k4 launched at 90). Times in µs. */
static gs_trace *build_streams(void)
{
    gs_trace *t = tb_new("r0.json", 0);
    launch(t, "k1", -5 * US, 0, 10 * US, 7, 1);
    launch(t, "k2", 2 * US, 15 * US, 20 * US, 7, 2);
    launch(t, "k3", 50 * US, 100 * US, 110 * US, 7, 3);
    launch(t, "k4", 90 * US, 200 * US, 210 * US, 7, 4);
    launch(t, "k5", 140 * US, 150 * US, 160 * US, 8, 5);
    /* a host range that overlaps no gap: the host analysis finds nothing on this thread */
    tb_range(t, GS_RANGE_OP, "aten::early", -100 * US, -50 * US, NULL);
    return t;
}

/* The idle analysis of t over its whole trace and default steps. */
static int idle(const gs_trace *t, const gs_idle_opts *opts, gs_idle *out, gs_error *err)
{
    gs_trace_ctx c = tb_ctx(t, NULL);
    int rc = gs_idle_build(&c, opts, out, err);
    gs_trace_ctx_free(&c);
    return rc;
}

static void check_totals(const gs_gap_totals *g, gs_ns hw, gs_ns kw, gs_ns other)
{
    CHECK_INT(g->total[GS_GAP_HOST_WAIT], hw);
    CHECK_INT(g->total[GS_GAP_KERNEL_WAIT], kw);
    CHECK_INT(g->total[GS_GAP_OTHER], other);
    CHECK_INT(g->idle, hw + kw + other);
    if (g->idle > 0)
        CHECK(fabs(g->share_pct[GS_GAP_HOST_WAIT] - 100.0 * (double)hw / (double)g->idle) < 1e-9);
}

static void test_classification(void)
{
    gs_profile p = {0};
    tb_add(&p, build_streams());
    gs_idle r;
    gs_error err;
    CHECK_INT(idle(p.traces.v[0], &(gs_idle_opts){.max_gaps = 10}, &r, &err), 0);
    CHECK_INT(r.nstreams, 2);
    CHECK_INT(r.streams[0].stream, 7);
    CHECK_INT(r.streams[0].activities, 4);
    check_totals(&r.streams[0].gaps, 80 * US, 5 * US, 90 * US);
    CHECK_INT(r.streams[0].gaps.count[GS_GAP_OTHER], 1);
    check_totals(&r.streams[1].gaps, 0, 0, 0);
    CHECK_INT(r.ndevices, 1);
    CHECK_INT(r.devices[0].stream, GS_IDLE_ALL_STREAMS);
    check_totals(&r.devices[0].gaps, 120 * US, 5 * US, 40 * US);
    CHECK_INT(r.devices[0].gaps.count[GS_GAP_HOST_WAIT], 2);
    /* One window step (no ProfilerStep) of 215 µs: every gap but the 5 µs one is >= 5 % of it. */
    CHECK_INT(r.gaps_worth_listing, 3);
    CHECK_INT(r.ngaps, 3);
    CHECK_INT(r.gaps[0].end - r.gaps[0].start, 80 * US);
    CHECK_INT(r.gaps[0].cls, GS_GAP_HOST_WAIT);
    CHECK_STR(r.gaps[0].before, "k2");
    CHECK_STR(r.gaps[0].after, "k3");
    CHECK_INT(r.gaps[0].launch_start, 50 * US);
    CHECK_INT(r.gaps[0].offset, 20 * US);
    CHECK(r.gaps[0].host.op == NULL);
    CHECK_STR(r.gaps[0].host.api, "cudaLaunchKernel"); /* k3's launch [50,51) µs */
    CHECK_INT(r.gaps[0].host.api_ns, 1 * US);
    CHECK_INT(r.gaps[1].start, 110 * US); /* ties: earlier first */
    CHECK_INT(r.nsteps, 1);
    CHECK_INT(r.steps[0].idle_total, 165 * US);
    gs_idle_free(&r);

    CHECK_INT(idle(p.traces.v[0], &(gs_idle_opts){.max_gaps = 1}, &r, &err), 0);
    CHECK_INT(r.ngaps, 1);
    CHECK_INT(r.gaps_worth_listing, 3);
    gs_idle_free(&r);
    gs_profile_free(&p);
}

/* Work that overlaps on one stream: no gap for gpuscope; HTA subtracts each activity's start
 * from the previous one's end and sums the negative result (get_idle_time_breakdown). */
static void test_overlap_on_a_stream(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("r0.json", 0);
    launch(t, "a", 0, 0, 100 * US, 7, 1);
    launch(t, "b", 1 * US, 50 * US, 60 * US, 7, 2);
    launch(t, "c", 2 * US, 70 * US, 80 * US, 7, 3);
    tb_add(&p, t);
    gs_idle r;
    gs_error err;
    CHECK_INT(idle(p.traces.v[0], &(gs_idle_opts){0}, &r, &err), 0);
    check_totals(&r.streams[0].gaps, 0, 0, 0);
    gs_idle_free(&r);
    CHECK_INT(idle(p.traces.v[0], &(gs_idle_opts){.hta_compat = true}, &r, &err), 0);
    check_totals(&r.streams[0].gaps, 0, -40 * US, 0);
    gs_idle_free(&r);
    gs_profile_free(&p);
}

/* ProfilerStep#1 [0,10 ms): kA [0.6,1) launched in aten::linear; a DataLoader range [1,4);
 * aten::item [4,6) around cudaStreamSynchronize [4.1,5.9); aten::mm [6,7) launches kB at 6.2,
 * which runs [6.3,7). The gap [1,6.3) ms is host-wait, 53 % of the step. */
static void test_host_activity(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("r0.json", 0);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#1", 0, 10 * MS, NULL);
    tb_range(t, GS_RANGE_OP, "aten::linear", 0, 1 * MS, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
             1 * MS, 4 * MS, NULL);
    tb_range(t, GS_RANGE_OP, "aten::item", 4 * MS, 6 * MS, NULL);
    tb_range(t, GS_RANGE_OP, "aten::mm", 6 * MS, 7 * MS, NULL);
    tb_api(t, "cudaStreamSynchronize", 4100 * US, 5900 * US, 0);
    launch(t, "kA", 500 * US, 600 * US, 1 * MS, 7, 1);
    launch(t, "kB", 6200 * US, 6300 * US, 7 * MS, 7, 2);
    tb_add(&p, t);
    gs_idle r;
    gs_error err;
    CHECK_INT(idle(p.traces.v[0], &(gs_idle_opts){.max_gaps = 10}, &r, &err), 0);
    CHECK_INT(r.ngaps, 1);
    const gs_gap *g = &r.gaps[0];
    CHECK_INT(g->start, 1 * MS);
    CHECK_INT(g->end, 6300 * US);
    CHECK_INT(g->cls, GS_GAP_HOST_WAIT);
    CHECK_INT(g->step_number, 1);
    CHECK(fabs(g->step_pct - 53.0) < 1e-9);
    CHECK_STR(g->host.op, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__");
    CHECK_INT(g->host.op_ns, 3 * MS);
    CHECK_INT(g->host.dataloader_ns, 3 * MS);
    CHECK_STR(g->host.api, "cudaStreamSynchronize");
    CHECK_INT(g->host.api_ns, 1800 * US);
    /* the blocking call, in every trace a CUDA call: the operator that made it is host.op's */
    CHECK_STR(g->host.sync_api, "cudaStreamSynchronize");
    CHECK_INT(g->host.sync_ns, 1800 * US);
    CHECK_INT(r.nsteps, 1);
    CHECK_INT(r.steps[0].idle[GS_GAP_HOST_WAIT], 5300 * US);
    CHECK(fabs(r.steps[0].idle_pct - 53.0) < 1e-9);
    gs_idle_free(&r);
    gs_profile_free(&p);
}

/* The host's activity during a gap looked up across many threads (no step range: the window is
 * the step): 40 threads with an operator each after the gap [1,6.3) ms, and the 41st's
 * aten::busy [1.5,5.5) inside it. */
static void test_host_activity_many_threads(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("r0.json", 0);
    launch(t, "kA", 500 * US, 600 * US, 1 * MS, 7, 1);
    launch(t, "kB", 6200 * US, 6300 * US, 7 * MS, 7, 2);
    for (int k = 1; k <= 41; k++) {
        bool busy = k == 41;
        tb_range(t, GS_RANGE_OP, busy ? "aten::busy" : "aten::later", busy ? 1500 * US : 8 * MS,
                 busy ? 5500 * US : 9 * MS, NULL);
        t->ranges.v[t->ranges.n - 1].tid = TB_TID + k;
    }
    tb_add(&p, t);
    gs_idle r;
    gs_error err;
    CHECK_INT(idle(p.traces.v[0], &(gs_idle_opts){.max_gaps = 10}, &r, &err), 0);
    CHECK_INT(r.ngaps, 1);
    CHECK_INT(r.gaps[0].start, 1 * MS);
    CHECK_STR(r.gaps[0].host.op, "aten::busy");
    CHECK_INT(r.gaps[0].host.op_ns, 4 * MS);
    gs_idle_free(&r);
    gs_profile_free(&p);
}

int main(void)
{
    test_classification();
    test_host_activity();
    test_host_activity_many_threads();
    test_overlap_on_a_stream();
    return check_done("test_idle");
}
