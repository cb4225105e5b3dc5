/* The replay (analysis/replay/replay.h) on a launch-bound trace built by hand, whose answer is
 * counted below: the unchanged replay gives back the measured steps, and CUDA graphs leave each
 * step its Python time and one launch call. */
#include "analysis/replay/replay.h"
#include "check.h"
#include "trace_builder.h"

#define US 1000

enum { STEPS = 2, OPS = 10 };

/* Step k at k ms: ProfilerStep#k over 210 us; 10 us of Python, then 10 operators 20 us apart,
 * each aten::add [t0, t0 + 12 us] holding a 5 us cudaLaunchKernel from t0 + 4 us whose 2 us
 * kernel starts 3 us after the call; 8 us of Python after each operator. The GPU is idle most of
 * the time: the step is its host time, 210 us. */
static gs_trace *launch_bound(void)
{
    gs_trace *t = tb_new("launch_bound.json", 0);
    uint64_t corr = 1;
    for (int k = 0; k < STEPS; k++) {
        gs_ns b = (gs_ns)(k + 1) * 1000 * US;
        char name[32];
        snprintf(name, sizeof name, "ProfilerStep#%d", k + 1);
        tb_range(t, GS_RANGE_ANNOTATION, name, b, b + 210 * US, NULL);
        for (int i = 0; i < OPS; i++, corr++) {
            gs_ns t0 = b + 10 * US + i * 20 * US;
            tb_range(t, GS_RANGE_OP, "aten::add", t0, t0 + 12 * US, NULL);
            tb_api(t, "cudaLaunchKernel", t0 + 4 * US, t0 + 9 * US, corr);
            tb_kernel(t, "void at::native::vectorized_elementwise_kernel<4, add>(int)",
                      t0 + 7 * US, t0 + 9 * US, corr);
        }
    }
    gs_error err;
    if (gs_trace_index(t, &err) != 0)
        abort();
    return t;
}

static void test_unchanged_and_graphs(void)
{
    gs_trace *t = launch_bound();
    gs_trace_ctx c = tb_ctx(t, NULL);
    gs_trace_facts facts;
    gs_error err;
    CHECK(gs_trace_facts_build(&c, &facts, &err) == 0);
    gs_replay *m = NULL;
    const char *why = NULL;
    CHECK(gs_replay_build(&c, &facts, &m, &why, &err) == 0);
    CHECK(m != NULL);
    gs_replay_result r;
    CHECK(gs_replay_run(m, 0, NULL, &r, &err) == 0);
    CHECK_INT(r.nsteps, STEPS);
    CHECK_INT(r.measured_mean_ns, 210 * US);
    CHECK_INT(r.replayed_mean_ns, 210 * US);
    CHECK_INT(r.changed_mean_ns, 210 * US);
    CHECK_INT(r.inputs.host_calls, STEPS * OPS);
    CHECK_INT(r.inputs.gpu_ops, STEPS * OPS);
    CHECK_INT(r.inputs.launch_latency_ns, 3 * US);
    gs_replay_result_free(&r);
    /* Graphs: per step 10 us of Python before the first operator, its launch call (5 us: the
     * graph launch), then 8 us of Python after each of the 10 operators; dispatch and the other
     * calls go. 10 + 5 + 10 * 8 = 95 us; the kernels (from the graph launch, 3 us each) end
     * long before. */
    CHECK(gs_replay_run(m, GS_REPLAY_BIT(GS_REPLAY_CUDA_GRAPHS), NULL, &r, &err) == 0);
    CHECK_INT(r.changed_mean_ns, 95 * US);
    CHECK(r.speedup > 2.21 && r.speedup < 2.211);
    CHECK_INT(r.expected_step_ns, 95 * US);
    CHECK_INT(r.change[GS_REPLAY_CUDA_GRAPHS].host_before, OPS * (4 + 3) * US + (OPS - 1) * 5 * US);
    CHECK_INT(r.change[GS_REPLAY_CUDA_GRAPHS].host_after, 0);
    gs_replay_result_free(&r);
    /* Runs share their arrays: each starts from the model's lags whatever ran before it, one
     * that changed nothing (no copies here to pin) leaving them for the next. torch.compile
     * takes the operators' dispatch between the fused kernels away, as graphs do here. */
    const gs_replay_set compile = GS_REPLAY_BIT(GS_REPLAY_COMPILE);
    CHECK(gs_replay_run(m, compile, NULL, &r, &err) == 0);
    gs_ns compiled = r.changed_mean_ns;
    CHECK_INT(compiled, 95 * US);
    gs_replay_result_free(&r);
    static const gs_replay_set before[] = {GS_REPLAY_BIT(GS_REPLAY_CUDA_GRAPHS),
                                           GS_REPLAY_BIT(GS_REPLAY_PINNED_MEMORY),
                                           GS_REPLAY_BIT(GS_REPLAY_CUDA_GRAPHS)};
    for (size_t k = 0; k < sizeof before / sizeof *before; k++) {
        CHECK(gs_replay_run(m, before[k], NULL, &r, &err) == 0);
        gs_replay_result_free(&r);
        CHECK(gs_replay_run(m, compile, NULL, &r, &err) == 0);
        CHECK_INT(r.changed_mean_ns, compiled);
        gs_replay_result_free(&r);
    }
    gs_replay_free(m);
    gs_trace_ctx_free(&c);
    gs_trace_delete(t);
}

int main(void)
{
    test_unchanged_and_graphs();
    return check_done("test_replay");
}
