/* Launch statistics on a hand-made trace of two steps; every expected number is worked out in
 * the comments from the timeline below (times in µs).
 *
 *   step 1 [0, 1000):    A1 cudaLaunchKernel [10,15)  -> K1 [20,22)    short, delay 5
 *                        A2 cudaLaunchKernel [30,36)  -> K2 [40,140)   delay 4
 *                        A3 cuLaunchKernel   [200,260)-> K3 [400,401)  call > 50 µs, delay 140
 *   step 2 [1000, 2000): A4 cudaGraphLaunch  [1010,1020) -> K4 [1030,1040), K5 [1040,1045)
 *                                                       (graph 5; delay 10 for K4 only)
 *                        A5 cudaLaunchKernel [1100,1103) -> K6 [1103,1105) short, delay 0
 *                        K7 [1500,1510) with no launch call */
#include "analysis/trace/launch.h"
#include "check.h"
#include "trace_builder.h"

#define US 1000

static void launch(gs_trace *t, const char *api, gs_ns a0, gs_ns a1, const char *kernel, gs_ns k0,
                   gs_ns k1, uint64_t corr)
{
    tb_api(t, api, a0 * US, a1 * US, corr);
    tb_kernel(t, kernel, k0 * US, k1 * US, corr);
}

static gs_trace *build(void)
{
    gs_trace *t = tb_new("launch.json", 0);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#1", 0, 1000 * US, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#2", 1000 * US, 2000 * US, NULL);
    launch(t, "cudaLaunchKernel", 10, 15, "k1", 20, 22, 1);
    launch(t, "cudaLaunchKernel", 30, 36, "k2", 40, 140, 2);
    launch(t, "cuLaunchKernel", 200, 260, "triton_k3", 400, 401, 3);
    launch(t, "cudaGraphLaunch", 1010, 1020, "k4", 1030, 1040, 4);
    t->kernels.v[t->kernels.n - 1].graph_id = 5;
    tb_kernel(t, "k5", 1040 * US, 1045 * US, 4);
    t->kernels.v[t->kernels.n - 1].graph_id = 5;
    launch(t, "cudaLaunchKernel", 1100, 1103, "k6", 1103, 1105, 6);
    tb_kernel(t, "k7", 1500 * US, 1510 * US, 0);
    return t;
}

/* The launch summary of the ranks `sel` selects (default steps, the whole trace), in rank
 * order. */
static int summarise(const gs_profile *p, const gs_select *sel, gs_launch_summary *out,
                     gs_error *err)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < p->traces.n; i++) {
        if (!gs_selected(sel, &p->traces.v[i]->id))
            continue;
        gs_trace_ctx c = tb_ctx(p->traces.v[i], NULL);
        int rc = gs_launch_add(out, &c, err);
        gs_trace_ctx_free(&c);
        if (rc != 0)
            return -1;
    }
    gs_launch_finish(out);
    return 0;
}

static void test_steps(const gs_launch_rank *r)
{
    CHECK_INT(r->nsteps, 2);
    CHECK_INT(r->nkept, 2);
    const gs_launch_stats *s1 = &r->steps[0].s, *s2 = &r->steps[1].s;
    /* step 1: kernels 2, 100, 1 µs; calls 5, 6, 60 µs; delays 5, 4, 140 µs */
    CHECK_INT(s1->kernels, 3);
    CHECK_INT(s1->launched, 3);
    CHECK_INT(s1->launch_calls, 3);
    CHECK_INT(s1->short_kernels, 1);           /* K1: 2 < 5; K3's call is over 50 µs */
    CHECK_INT(s1->short_kernel_time, 2 * US);
    CHECK_INT(s1->kernel_time, 103 * US);
    CHECK(s1->short_time_pct > 1.9417 && s1->short_time_pct < 1.9418); /* 2 / 103 */
    CHECK_INT(s1->med_kernel, 2 * US);         /* [1, 2, 100]: rank ceil(1.5) = 2 */
    CHECK_INT(s1->med_launch_cost, 6 * US);    /* [5, 6, 60] */
    CHECK_INT(s1->launch_cost, 71 * US);
    CHECK_INT(s1->cost_outliers, 1);
    CHECK_INT(s1->delay_med, 5 * US);          /* [4, 5, 140] */
    CHECK_INT(s1->delay_p95, 140 * US);        /* rank ceil(2.85) = 3 */
    CHECK_INT(s1->delay_max, 140 * US);
    CHECK_INT(s1->delay_outliers, 1);
    CHECK_INT(s1->driver_launches, 1);
    CHECK_INT(s1->graph_kernels, 0);
    /* step 2: kernels 10, 5, 2, 10 µs; calls 10 (graph), 3 µs; delays 10, 0 µs */
    CHECK_INT(s2->kernels, 4);
    CHECK_INT(s2->launched, 3);
    CHECK_INT(s2->launch_calls, 2);            /* the graph launch counts once */
    CHECK_INT(s2->short_kernels, 1);           /* K6; graph kernels never count */
    CHECK_INT(s2->med_kernel, 5 * US);         /* [2, 5, 10, 10]: rank 2 */
    CHECK_INT(s2->med_launch_cost, 3 * US);    /* [3, 10]: rank 1 */
    CHECK_INT(s2->delay_med, 0);
    CHECK_INT(s2->delay_p95, 10 * US);
    CHECK_INT(s2->graph_kernels, 2);
    CHECK_INT(s2->graph_launches, 1);
    CHECK_INT(s2->delay_outliers, 0);
    gs_ns d2 = r->steps[1].end - r->steps[1].start;
    CHECK(r->steps[1].launches_per_s > 2e9 / (double)d2 - 1e-6 &&
          r->steps[1].launches_per_s < 2e9 / (double)d2 + 1e-6);
}

static void test_totals(const gs_launch_rank *r)
{
    CHECK_INT(r->total.kernels, 7);
    CHECK_INT(r->total.launched, 6);
    CHECK_INT(r->total.launch_calls, 5);
    CHECK_INT(r->total.short_kernels, 2);
    CHECK_INT(r->total.med_kernel, 5 * US);    /* [1,2,2,5,10,10,100]: rank 4 */
    CHECK_INT(r->total.graph_launches, 1);
    CHECK_INT(r->kept.kernels, 7);
    CHECK(r->kernels_per_step == 3.5);
}

/* ROCm writes no graph id: the kernels of a hipGraphLaunch are graph kernels all the same (never
 * short), and hipExtModuleLaunchKernel is a driver launch. */
static void test_rocm_graph(void)
{
    gs_trace *t = tb_new("rocm.json", 0);
    launch(t, "hipGraphLaunch", 10, 20, "g1", 21, 22, 1);
    tb_kernel(t, "g2", 22 * US, 23 * US, 1);
    launch(t, "hipExtModuleLaunchKernel", 30, 35, "m", 36, 37, 2);
    gs_profile p = {0};
    tb_add(&p, t);
    gs_trace_ctx c = tb_ctx(t, NULL);
    gs_launch_summary s;
    gs_error err;
    CHECK_INT(gs_launch_build(&c, &s, &err), 0);
    CHECK_INT(s.nranks, 1);
    if (s.nranks == 1) {
        CHECK_INT(s.ranks[0].total.graph_kernels, 2);
        CHECK_INT(s.ranks[0].total.short_kernels, 1); /* only m: 1 µs < 5 µs */
        CHECK_INT(s.ranks[0].total.driver_launches, 1);
        CHECK_INT(s.ranks[0].total.launch_calls, 2);
    }
    gs_launch_summary_free(&s);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
}

int main(void)
{
    gs_profile p = {0};
    tb_add(&p, build());
    gs_launch_summary s;
    gs_error err;
    CHECK_INT(summarise(&p, NULL, &s, &err), 0);
    CHECK_INT(s.nranks, 1);
    if (s.nranks == 1) {
        test_steps(&s.ranks[0]);
        test_totals(&s.ranks[0]);
    }
    gs_launch_summary_free(&s);

    test_rocm_graph();

    /* --rank selecting nothing gives no rows, not an error */
    gs_select sel = {.by_rank = true, .rank = 3};
    CHECK_INT(summarise(&p, &sel, &s, &err), 0);
    CHECK_INT(s.nranks, 0);
    gs_launch_summary_free(&s);
    gs_profile_free(&p);
    return check_done("test_launch");
}
