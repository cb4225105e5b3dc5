/* The window a view looks at (analysis/base/window.h): by default the kept steps, else a time
 * window or the ranges of one name, on a trace built by hand, through the views' analyses. */
#include "analysis/base/window.h"
#include "analysis/trace/idle.h"
#include "analysis/trace/kernel_summary.h"
#include "analysis/trace/memcpy_summary.h"
#include "analysis/trace/op_summary.h"
#include "analysis/trace/temporal.h"
#include "check.h"
#include "trace_builder.h"

#define US 1000

/* A launch call at `at` and the kernel it launched. */
static void launch(gs_trace *t, const char *name, gs_ns at, gs_ns start, gs_ns end, uint64_t corr)
{
    tb_api(t, "cudaLaunchKernel", at, at + 10 * US, corr);
    tb_kernel(t, name, start, end, corr);
}

/* Loading: a pageable copy at 0-200 us. Step 0 (warm-up) [1000, 11000) us: a kernel, and one
 * launched at its end that runs into step 1 (11050-11500). Steps 1-4, 2 ms each from 11000 us:
 * a range "fwd" [+50, +1000), a gemm launched at +100 that runs [+200, +1200). */
static gs_trace *build(void)
{
    gs_trace *t = tb_new("window.json", 0);
    tb_api(t, "cudaMemcpyAsync", 0, 10 * US, 1);
    tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PAGEABLE, GS_LOC_DEVICE, 1 << 20, 100 * US, 200 * US, 1);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#0", 1000 * US, 11000 * US, NULL);
    launch(t, "warm", 1500 * US, 1600 * US, 1700 * US, 2);
    launch(t, "late", 10900 * US, 11050 * US, 11500 * US, 3);
    for (int k = 1; k <= 4; k++) {
        gs_ns s = (11000 + (k - 1) * 2000) * US;
        char name[32];
        snprintf(name, sizeof name, "ProfilerStep#%d", k);
        tb_range(t, GS_RANGE_ANNOTATION, name, s, s + 2000 * US, NULL);
        tb_range(t, GS_RANGE_ANNOTATION, "fwd", s + 50 * US, s + 1000 * US, NULL);
        launch(t, "gemm", s + 100 * US, s + 200 * US, s + 1200 * US, (uint64_t)(10 + k));
    }
    return t;
}

/* The context a view builds for the window `spec` asks for (default steps). */
static gs_trace_ctx ctx_over(const gs_trace *t, gs_window_spec spec)
{
    return tb_ctx(t, &(gs_ctx_opts){.window = spec});
}

static void test_default_steps(const gs_profile *p)
{
    gs_trace_ctx c = ctx_over(p->traces.v[0], (gs_window_spec){.on = true});
    const gs_window w = c.window;
    gs_error err;
    CHECK_INT(w.kind, GS_WINDOW_STEPS);
    CHECK_INT(w.nsteps, 5);
    CHECK_INT(w.nkept, 4);
    CHECK_INT(w.nwarmup_out, 1);
    CHECK_INT(w.first_step, 1);
    CHECK_INT(w.last_step, 4);
    CHECK_INT(w.spans.n, 1); /* the kept steps follow one another: one part */
    CHECK_INT(w.from, 11000 * US);
    CHECK(!gs_window_holds(&w, 10900 * US));
    CHECK(gs_window_holds(&w, 11000 * US));
    char buf[256];
    CHECK_STR(gs_window_describe(&w, buf, sizeof buf),
              "over steps 1-4 of 5 (ProfilerStep#N); warm-up step 0 and the time outside the "
              "steps left out (--all-steps for the whole trace)");

    /* kernels: the gemms; not the warm-up's, nor the one it launched that ran into step 1 */
    gs_kernel_summary ks;
    CHECK_INT(gs_kernel_summary_build(&c, false, &ks, &err), 0);
    CHECK_INT(ks.nrows, 1);
    CHECK_STR(ks.rows[0].name, "gemm");
    CHECK_INT(ks.rows[0].time.count, 4);
    gs_kernel_summary_free(&ks);

    /* memcpy: the loading copy is outside every step */
    gs_memcpy_summary ms;
    CHECK_INT(gs_memcpy_summary_build(&c, &ms, &err), 0);
    CHECK_INT(ms.nrows, 0);
    gs_memcpy_summary_free(&ms);

    /* idle: the three 1 ms gaps between the gemms, none from the warm-up */
    gs_idle idle;
    const gs_idle_opts io = {.max_gaps = 10};
    CHECK_INT(gs_idle_build(&c, &io, &idle, &err), 0);
    CHECK_INT(idle.ndevices, 1);
    CHECK_INT(idle.devices[0].gaps.idle, 3000 * US);
    CHECK_INT(idle.nsteps, 4); /* the warm-up step has no row */
    CHECK_INT(idle.steps[0].number, 1);
    for (size_t i = 0; i < idle.ngaps; i++)
        CHECK(idle.gaps[i].step_number != 0);
    gs_idle_free(&idle);

    /* the GPU's time over the same window */
    gs_temporal tp;
    CHECK_INT(gs_temporal_build(&c, false, &tp, &err), 0);
    CHECK_INT(tp.rows[0].activities, 4);
    CHECK_INT(tp.rows[0].busy, 4000 * US);
    CHECK_INT(tp.rows[0].idle, 3000 * US);
    gs_temporal_free(&tp);

    /* operators: the steps kept, not ProfilerStep#0 */
    gs_op_summary os;
    CHECK_INT(gs_op_summary_build(&c, false, &os, &err), 0);
    bool step0 = false;
    for (size_t i = 0; i < os.nrows; i++)
        step0 |= !strcmp(os.rows[i].name, "ProfilerStep#0");
    CHECK(!step0);
    CHECK_INT(os.nrows, 5); /* ProfilerStep#1-4 and fwd */
    gs_op_summary_free(&os);
    gs_trace_ctx_free(&c);
}

static void test_other_windows(const gs_profile *p)
{
    const gs_trace *t = p->traces.v[0];
    gs_error err;
    gs_kernel_summary ks;
    gs_memcpy_summary ms;

    gs_trace_ctx all = ctx_over(t, (gs_window_spec){.on = true, .all_steps = true});
    CHECK_INT(gs_kernel_summary_build(&all, false, &ks, &err), 0);
    CHECK_INT(ks.nrows, 3);
    gs_kernel_summary_free(&ks);
    CHECK_INT(gs_memcpy_summary_build(&all, &ms, &err), 0);
    CHECK_INT(ms.nrows, 1);
    gs_memcpy_summary_free(&ms);
    gs_trace_ctx_free(&all);

    /* 13 to 15 ms from the first event: step 2's gemm */
    gs_trace_ctx time = ctx_over(t, (gs_window_spec){.on = true, .has_from = true,
                                                     .from = 13000 * US, .has_to = true,
                                                     .to = 15000 * US});
    CHECK_INT(gs_kernel_summary_build(&time, false, &ks, &err), 0);
    CHECK_INT(ks.nrows, 1);
    CHECK_INT(ks.rows[0].time.count, 1);
    gs_kernel_summary_free(&ks);
    gs_trace_ctx_free(&time);

    /* the four "fwd" ranges: their gemms (and no idle gap across the time between them,
     * test_no_idle_across_ranges) */
    gs_trace_ctx range = ctx_over(t, (gs_window_spec){.on = true, .range = "fwd"});
    CHECK_INT(range.window.kind, GS_WINDOW_RANGE);
    CHECK_INT(range.window.nranges, 4);
    CHECK_INT(range.window.spans.n, 4);
    CHECK_INT(gs_kernel_summary_build(&range, false, &ks, &err), 0);
    CHECK_INT(ks.rows[0].time.count, 4);
    gs_kernel_summary_free(&ks);

    /* a name no range has is an error, said with the name: from the window, and so from the
     * context a view would build */
    gs_window w;
    const gs_window_spec none = {.on = true, .range = "nope"};
    CHECK_INT(gs_window_build(t, range.first, range.last, &range.steps, &none, &w, &err), -1);
    CHECK(strstr(err.msg, "'nope'") != NULL);
    gs_trace_ctx failed;
    err = (gs_error){0};
    CHECK_INT(gs_trace_ctx_build(t, &(gs_ctx_opts){.window = none}, &failed, &err), -1);
    CHECK(strstr(err.msg, "'nope'") != NULL);

    /* off: the whole trace, as before */
    CHECK_INT(gs_window_build(t, range.first, range.last, &range.steps, NULL, &w, &err), 0);
    CHECK(!gs_window_restricts(&w));
    CHECK(gs_window_holds(&w, 0));
    gs_window_free(&w);
    gs_trace_ctx_free(&range);
}

/* Over the four "fwd" ranges the GPU has no idle gap: the time between them is outside. */
static void test_no_idle_across_ranges(const gs_profile *p)
{
    gs_trace_ctx range = ctx_over(p->traces.v[0], (gs_window_spec){.on = true, .range = "fwd"});
    gs_idle idle;
    gs_error err;
    const gs_idle_opts io = {.max_gaps = 10};
    CHECK_INT(gs_idle_build(&range, &io, &idle, &err), 0);
    CHECK_INT(idle.devices[0].gaps.idle, 0);
    gs_idle_free(&idle);
    gs_trace_ctx_free(&range);
}

static void test_parse_time(void)
{
    gs_ns v = 0;
    CHECK(gs_window_parse_time("200", &v) && v == 200000000);
    CHECK(gs_window_parse_time("1.5s", &v) && v == 1500000000);
    CHECK(gs_window_parse_time("50us", &v) && v == 50000);
    CHECK(gs_window_parse_time("10ns", &v) && v == 10);
    CHECK(gs_window_parse_time("0.25ms", &v) && v == 250000);
    CHECK(!gs_window_parse_time("ten", &v));
    CHECK(!gs_window_parse_time("5 min", &v));
    CHECK(!gs_window_parse_time("-1", &v));
}

int main(void)
{
    gs_profile p = {0};
    tb_add(&p, build());
    test_default_steps(&p);
    test_other_windows(&p);
    test_parse_time();
    test_no_idle_across_ranges(&p);
    gs_profile_free(&p);
    return check_done("test_window");
}
