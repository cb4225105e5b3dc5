/* Known answers of the replay's host-side actions (analysis/replay/replay_transform.c): CUDA
 * graphs, DataLoader workers, host syncs removed, the profiler's cost, and two actions together,
 * each on a trace built by hand whose replayed step is counted in the comment above it. Each trace
 * also checks that the unchanged replay gives back the measured steps (replay_fixture.h). */
#include "replay_fixture.h"

#define BIT(a) GS_REPLAY_BIT(GS_REPLAY_##a)

/* ---- CUDA graphs ----------------------------------------------------------------------------- */

/* Step k at k ms, 160 us: 10 us of Python, three operators A (each [t0, t0 + 12] holding a 5 us
 * launch from t0 + 4 whose kernel starts 3 us after it; t0 = 10, 30, 50; 8 us of Python after
 * each), the last one's kernel 30 us long [57, 87]; a cudaStreamSynchronize [70, 90] that waits
 * for it (3 us after it ended), 10 us of Python, three operators B as A (t0 = 100, 120, 140,
 * kernels 2 us), 8 us of Python: the step ends at 160. */
static gs_trace *graphs_with_sync(void)
{
    gs_trace *t = tb_new("graphs_sync.json", 0);
    uint64_t corr = 1;
    for (int k = 1; k <= 2; k++) {
        gs_ns b = (gs_ns)k * 1000 * US;
        fx_step(t, k, b, 160);
        for (int i = 0; i < 3; i++) {
            gs_ns t0 = 10 + 20 * i;
            corr = fx_launch(t, b, "aten::add", t0, t0 + 12, t0 + 4, t0 + 9, EW_KERNEL, t0 + 7,
                             i == 2 ? 87 : t0 + 9, corr);
        }
        tb_api(t, "cudaStreamSynchronize", b + 70 * US, b + 90 * US, corr++);
        for (int i = 0; i < 3; i++) {
            gs_ns t0 = 100 + 20 * i;
            corr = fx_launch(t, b, "aten::add", t0, t0 + 12, t0 + 4, t0 + 9, EW_KERNEL, t0 + 7,
                             t0 + 9, corr);
        }
    }
    return t;
}

/* The sync ends each graph: two graphs per step, each launched by its run's first call (5 us).
 * Launch latency 3 us (every kernel), stream gap 1 us (none measured: the default).
 * Host: 10 (Python) + 5 (graph A) + 8 + 8 (Python after A1, A2) = 31, + 8 after A3: the sync
 * starts at 39. Kernels A from the graph launch at 10: A1 [13, 15], A2 [16, 18], A3 [19, 49]; the
 * sync ends 3 us after A3 (its measured tail): 52; + 10 of Python: graph B launched at 62 (5 us),
 * + 8 + 8 + 8 of Python: the step ends at 91 us; kernels B end at 73. */
static void test_graphs_two_per_step(void)
{
    replay_fx f;
    fx_open(&f, graphs_with_sync());
    gs_replay_result r = fx_run(&f, BIT(CUDA_GRAPHS), NULL, 160 * US);
    CHECK_INT(r.inputs.launch_latency_ns, 3 * US);
    CHECK_INT(r.inputs.blocking_waits, 2);
    CHECK_INT(r.changed_mean_ns, 91 * US);
    for (size_t s = 0; s < r.nsteps; s++)
        CHECK_INT(r.steps[s].changed_ns, 91 * US);
    /* Per step: each of the 6 operators' dispatch (4 + 3 us), the 4 calls that are not a graph
     * launch (5 us each). */
    CHECK_INT(r.change[GS_REPLAY_CUDA_GRAPHS].host_before, 6 * 7 * US + 4 * 5 * US);
    CHECK_INT(r.change[GS_REPLAY_CUDA_GRAPHS].host_after, 0);
    gs_replay_result_free(&r);
    fx_close(&f);
}

/* A training step on two threads, steps at k ms, 150 us. Main thread: 10 us of Python, forward
 * operators A at t0 = 10, 30, 50 (as above, kernels 2 us), then no operator from 62 to 130 while
 * autograd's thread runs backward operators B at t0 = 70, 90, 110 (the same shape, 8 us apart);
 * then the optimizer's operator C at 130 (its launch at 134), 8 us of Python: 150. */
static gs_trace *two_threads(void)
{
    gs_trace *t = tb_new("two_threads.json", 0);
    uint64_t corr = 1;
    for (int k = 1; k <= 2; k++) {
        gs_ns b = (gs_ns)k * 1000 * US;
        fx_step(t, k, b, 150);
        for (int i = 0; i < 3; i++) {
            gs_ns t0 = 10 + 20 * i;
            corr = fx_launch(t, b, "aten::mul", t0, t0 + 12, t0 + 4, t0 + 9, EW_KERNEL, t0 + 7,
                             t0 + 9, corr);
        }
        for (int i = 0; i < 3; i++) {
            gs_ns t0 = 70 + 20 * i;
            corr = fx_launch(t, b, "autograd::engine::evaluate_function: MulBackward0", t0,
                             t0 + 12, t0 + 4, t0 + 9, EW_KERNEL, t0 + 7, t0 + 9, corr);
            fx_on_thread(t, FX_TID2);
        }
        corr = fx_launch(t, b, "aten::add_", 130, 142, 134, 139, EW_KERNEL, 137, 139, corr);
    }
    return t;
}

/* The main thread's 68 us without an operator waits for the backward thread: it keeps its own
 * 8 us before the backward thread's first point and 8 us after its last, and follows the backward
 * thread's end; the backward thread starts 8 us after the main thread's last forward operator, in
 * the first step too. A hand-off between threads ends a graph as a blocking call does: three
 * graphs a step. Main: 10 + 5 (graph A) + 8 + 8 = 31 at A3's end. The backward thread: 31 + 8 =
 * 39, its graph's launch 5 us, 8 + 8 of idle: its last operator ends at 60. The main thread goes
 * on at 60 + 8 = 68, graph C's launch 5 us, 8 of Python: 81. Kernels (3 us from their graph's
 * launch, 1 us apart): A [13, 21], B [42, 50], C [71, 73]. */
static void test_graphs_two_threads(void)
{
    replay_fx f;
    fx_open(&f, two_threads());
    gs_replay_result r = fx_run(&f, BIT(CUDA_GRAPHS), NULL, 150 * US);
    CHECK_INT(r.inputs.host_lanes, 2);
    CHECK_INT(r.inputs.thread_waits, 4); /* the main thread and the backward thread twice each */
    for (size_t s = 0; s < r.nsteps; s++)
        CHECK_INT(r.steps[s].changed_ns, 81 * US);
    CHECK_INT(r.changed_mean_ns, 81 * US);
    gs_replay_result_free(&r);
    fx_close(&f);
}

/* Step k at k ms, 90 us of host: 10 us of Python, four operators (each [t0, t0 + 12] holding a
 * 5 us launch from t0 + 4; t0 = 10, 30, 50, 70; 8 us of Python after each) whose 40 us kernels
 * each start 2 us before the previous one ended (programmatic dependent launch): [17, 57],
 * [55, 95], [93, 133], [131, 171]: the step ends with the last kernel at 171. */
static gs_trace *overlapping_kernels(void)
{
    gs_trace *t = tb_new("graphs_overlap.json", 0);
    uint64_t corr = 1;
    for (int k = 1; k <= 2; k++) {
        gs_ns b = (gs_ns)k * 1000 * US;
        fx_step(t, k, b, 90);
        for (int i = 0; i < 4; i++) {
            gs_ns t0 = 10 + 20 * i, k0 = 17 + 38 * i;
            corr = fx_launch(t, b, "aten::mm", t0, t0 + 12, t0 + 4, t0 + 9, EW_KERNEL, k0,
                             k0 + 40, corr);
        }
    }
    return t;
}

/* A kernel that starts before the previous one of its stream ended still follows it: the graph
 * launched at 10 (the dispatch before the first call goes) starts the first kernel 3 us later,
 * [13, 53], and each next one 2 us before the previous one ends, as measured: the last ends at
 * 53 + 3 * 38 = 167 us, later than the host (10 + 5 + 4 * 8 = 47). The step can be no shorter
 * than its kernels: 160 us of them, less the 6 us they overlap. */
static void test_graphs_overlapping_kernels(void)
{
    replay_fx f;
    fx_open(&f, overlapping_kernels());
    gs_replay_result r = fx_run(&f, BIT(CUDA_GRAPHS), NULL, 171 * US);
    CHECK_INT(r.inputs.launch_latency_ns, 3 * US);
    for (size_t s = 0; s < r.nsteps; s++)
        CHECK_INT(r.steps[s].changed_ns, 167 * US);
    CHECK_INT(r.changed_mean_ns, 167 * US);
    gs_replay_result_free(&r);
    fx_close(&f);
}

/* ---- DataLoader workers ---------------------------------------------------------------------- */

/* Three steps back to back, 110 us each from b = 110 us * k: 5 us of Python, the DataLoader's
 * fetch [5, 5 + fetch], 5 us of Python, an operator of 10 us (its 5 us launch at + 2, kernel
 * 10 us from 3 us after it), 10 us of Python. `fetch` per step. */
static gs_trace *loader(const char *iter, const gs_ns fetch[3])
{
    gs_trace *t = tb_new("loader.json", 0);
    char name[96];
    snprintf(name, sizeof name, "enumerate(DataLoader)#%s.__next__", iter);
    uint64_t corr = 1;
    gs_ns b = 1000 * US;
    for (int k = 1; k <= 3; k++) {
        gs_ns d = fetch[k - 1], len = 5 + d + 5 + 10 + 10;
        fx_step(t, k, b, len);
        tb_range(t, GS_RANGE_ANNOTATION, name, b + 5 * US, b + (5 + d) * US, NULL);
        gs_ns o = 5 + d + 5;
        corr = fx_launch(t, b, "aten::add", o, o + 10, o + 2, o + 7, EW_KERNEL, o + 5, o + 15,
                         corr);
        b += len * US;
    }
    return t;
}

static const gs_ns fetch80[3] = {80, 80, 80};

/* Single process, k = 4 workers: the mean fetch is 80 us, batches arrive 20 us apart and the main
 * process keeps 8 us of each. Step 1: the fetch ends 8 us after it started, + 5 + 10 + 10: the
 * step is 5 + 8 + 25 = 38 us; the next steps start 38 us apart, their batches every 20: 38 us
 * each. With k = 2, batches come every 40 us: step 1 38 us; step 2 starts at 38, its fetch at 43,
 * its batch at 13 + 40 = 53 (later than 43 + 8), so it ends at 53 + 25 = 78: 40 us; step 3 the
 * same (93 + 25 - 78); the mean (38 + 40 + 40) / 3 = 39.333 us. */
static void test_loader_single_process(void)
{
    replay_fx f;
    fx_open(&f, loader("_SingleProcessDataLoaderIter", fetch80));
    gs_replay_result r = fx_run(&f, BIT(DATALOADER_WORKERS), NULL, 110 * US);
    CHECK_INT(r.nsteps, 3);
    CHECK_INT(r.changed_mean_ns, 38 * US);
    CHECK_INT(r.change[GS_REPLAY_DATALOADER_WORKERS].host_before, 80 * US);
    CHECK_INT(r.change[GS_REPLAY_DATALOADER_WORKERS].host_after, 8 * US);
    gs_replay_result_free(&r);
    gs_replay_params two = {.dataloader_workers = 2};
    r = fx_run(&f, BIT(DATALOADER_WORKERS), &two, 110 * US);
    CHECK_INT(r.steps[0].changed_ns, 38 * US);
    CHECK_INT(r.steps[1].changed_ns, 40 * US);
    CHECK_INT(r.steps[2].changed_ns, 40 * US);
    CHECK_INT(r.changed_mean_ns, 118 * US / 3);
    gs_replay_result_free(&r);
    fx_close(&f);
}

/* Workers already, fetches of 20, 80 and 50 us: steps of 50, 110 and 80 us, their mean 80 (none
 * is warm-up: 50 and 110 are under 1.5 times the median of the later ones). Twice the workers:
 * a batch every 80 / 2 = 40 us, the main process keeping the shortest fetch, 20 us. Step 1: its
 * fetch [5, 25], then 25: 50 us. Step 2 at 50: fetch from 55, batch at max(55 + 20, 25 + 40) =
 * 75: ends at 100, 50 us. Step 3 at 100: batch at max(125, 115): 50 us. */
static void test_loader_multi_process(void)
{
    static const gs_ns fetch[3] = {20, 80, 50};
    replay_fx f;
    fx_open(&f, loader("_MultiProcessingDataLoaderIter", fetch));
    gs_replay_result r = fx_run(&f, BIT(DATALOADER_WORKERS), NULL, 80 * US);
    CHECK_INT(r.nsteps, 3);
    for (size_t s = 0; s < r.nsteps; s++)
        CHECK_INT(r.steps[s].changed_ns, 50 * US);
    CHECK_INT(r.change[GS_REPLAY_DATALOADER_WORKERS].host_before, (20 + 80 + 50) * US / 3);
    CHECK_INT(r.change[GS_REPLAY_DATALOADER_WORKERS].host_after, 20 * US);
    gs_replay_result_free(&r);
    fx_close(&f);
}

/* ---- host syncs ------------------------------------------------------------------------------ */

/* Steps at k ms, 170 us: 10 us of Python, an operator [10, 20] launching (call [12, 17]) a
 * 100 us kernel [15, 115]; 5 us of Python; cudaStreamSynchronize [25, 118], 3 us after the kernel
 * ended; 2 us of Python; an operator [120, 160] (its call [125, 130], kernel [128, 138]); 10 us
 * of Python. Without the wait the sync costs its 3 us tail: the host reaches 28, the second
 * operator runs [30, 70] while the first kernel runs, its kernel waits for the stream:
 * [116, 126], and the host ends at 80: the step is 126 us. */
static gs_trace *sync_in_middle(void)
{
    gs_trace *t = tb_new("sync.json", 0);
    uint64_t corr = 1;
    for (int k = 1; k <= 2; k++) {
        gs_ns b = (gs_ns)k * 1000 * US;
        fx_step(t, k, b, 170);
        corr = fx_launch(t, b, "aten::mm", 10, 20, 12, 17, EW_KERNEL, 15, 115, corr);
        tb_api(t, "cudaStreamSynchronize", b + 25 * US, b + 118 * US, corr++);
        corr = fx_launch(t, b, "aten::add", 120, 160, 125, 130, EW_KERNEL, 128, 138, corr);
    }
    return t;
}

static void test_remove_syncs(void)
{
    replay_fx f;
    fx_open(&f, sync_in_middle());
    gs_replay_result r = fx_run(&f, BIT(REMOVE_SYNCS), NULL, 170 * US);
    CHECK_INT(r.inputs.blocking_waits, 2);
    CHECK_INT(r.changed_mean_ns, 126 * US);
    CHECK_INT(r.change[GS_REPLAY_REMOVE_SYNCS].items, 2);
    gs_replay_result_free(&r);
    /* No DataLoader fetch and no copy here: nothing for their actions to change. */
    CHECK_INT(fx_changed(&f, BIT(DATALOADER_WORKERS), NULL, 170 * US), 170 * US);
    CHECK_INT(fx_changed(&f, BIT(PINNED_MEMORY), NULL, 170 * US), 170 * US);
    /* No blocking call in the DataLoader's trace: nothing to remove. */
    fx_close(&f);
    fx_open(&f, loader("_SingleProcessDataLoaderIter", fetch80));
    CHECK_INT(fx_changed(&f, BIT(REMOVE_SYNCS), NULL, 110 * US), 110 * US);
    fx_close(&f);
}

/* ---- the profiler's cost --------------------------------------------------------------------- */

/* Steps at k ms, 96 us: 10 us of Python, two operators of 12 us with a 5 us launch call (t0 = 10,
 * 30), then two of 15 us with an 8 us one (t0 = 50, 73), 8 us of Python after each. */
static gs_trace *profiled(const char *format)
{
    gs_trace *t = tb_new("profiled.json", 0);
    t->format = tb_str(t, format);
    uint64_t corr = 1;
    for (int k = 1; k <= 2; k++) {
        gs_ns b = (gs_ns)k * 1000 * US;
        fx_step(t, k, b, 96);
        static const gs_ns t0s[4] = {10, 30, 50, 73}, calls[4] = {5, 5, 8, 8};
        for (int i = 0; i < 4; i++) {
            gs_ns t0 = t0s[i], c = calls[i];
            corr = fx_launch(t, b, "aten::add", t0, t0 + 7 + c, t0 + 4, t0 + 4 + c, EW_KERNEL,
                             t0 + 7, t0 + 9, corr);
        }
    }
    return t;
}

/* torch.profiler's trace: each operator gives back 2.05 us from the Python before it, each kernel
 * min(6.15 us, its call) from its call: 96 - 4 * 2.05 - 2 * 5 - 2 * 6.15 = 65.5 us. The legacy
 * autograd export records no GPU activity: only the operators' 8.2 us: 87.8 us. */
static void test_no_profiler(void)
{
    replay_fx f;
    fx_open(&f, profiled("kineto"));
    gs_replay_result r = fx_run(&f, BIT(NO_PROFILER), NULL, 96 * US);
    CHECK_INT(r.changed_mean_ns, 96 * US - 4 * 2050 - 2 * 5000 - 2 * 6150);
    /* Changed per step: the Python before the operators (10 + 3 * 8 us) and the calls (26 us). */
    CHECK_INT(r.change[GS_REPLAY_NO_PROFILER].host_before, (34 + 26) * US);
    CHECK_INT(r.change[GS_REPLAY_NO_PROFILER].host_after, (34 + 26) * US - 4 * 2050 - 22300);
    gs_replay_result_free(&r);
    fx_close(&f);
    fx_open(&f, profiled("legacy"));
    CHECK_INT(fx_changed(&f, BIT(NO_PROFILER), NULL, 96 * US), 96 * US - 4 * 2050);
    fx_close(&f);
}

/* Operators 1 us apart, the first 1 us into the step: [1, 13], [14, 26], [27, 39], [40, 52], each
 * with a 5 us launch call 4 us in. A 2.05 us cost finds 1 us before each operator and takes no
 * more (replay_profiler.c says why): 96 - 4 * 1 - 4 * 5 = 72 us; legacy, no activity: 92 us. */
static gs_trace *crowded(const char *format)
{
    gs_trace *t = tb_new("crowded.json", 0);
    t->format = tb_str(t, format);
    uint64_t corr = 1;
    for (int k = 1; k <= 2; k++) {
        gs_ns b = (gs_ns)k * 1000 * US;
        fx_step(t, k, b, 96);
        for (gs_ns t0 = 1; t0 <= 40; t0 += 13)
            corr = fx_launch(t, b, "aten::add", t0, t0 + 12, t0 + 4, t0 + 9, EW_KERNEL, t0 + 7,
                             t0 + 9, corr);
    }
    return t;
}

static void test_no_profiler_crowded(void)
{
    replay_fx f;
    fx_open(&f, crowded("kineto"));
    CHECK_INT(fx_changed(&f, BIT(NO_PROFILER), NULL, 96 * US), 96 * US - 4 * 1000 - 4 * 5000);
    fx_close(&f);
    fx_open(&f, crowded("legacy"));
    CHECK_INT(fx_changed(&f, BIT(NO_PROFILER), NULL, 96 * US), 96 * US - 4 * 1000);
    fx_close(&f);
}

/* ---- two actions together -------------------------------------------------------------------- */

/* The DataLoader's trace. Graphs alone: the operator's dispatch (2 + 3 us) goes: 105 us a step.
 * Workers alone: 38 us (above). Both: 5 + 8 + 5 + 5 + 10 = 33 us, the batches (every 20 us) still
 * in time: a speedup of 110 / 33 = 3.33, not (110 / 105) * (110 / 38) = 3.03. */
static void test_graphs_and_workers(void)
{
    replay_fx f;
    fx_open(&f, loader("_SingleProcessDataLoaderIter", fetch80));
    CHECK_INT(fx_changed(&f, BIT(CUDA_GRAPHS), NULL, 110 * US), 105 * US);
    gs_replay_result r = fx_run(&f, BIT(CUDA_GRAPHS) | BIT(DATALOADER_WORKERS), NULL, 110 * US);
    CHECK_INT(r.changed_mean_ns, 33 * US);
    CHECK(r.speedup > 3.333 && r.speedup < 3.334);
    CHECK_INT(r.expected_step_ns, 33 * US);
    CHECK(r.change[GS_REPLAY_CUDA_GRAPHS].host_before > 0);
    CHECK(r.change[GS_REPLAY_DATALOADER_WORKERS].host_before > 0);
    gs_replay_result_free(&r);
    fx_close(&f);
}

/* ---- nothing to replay, and the actions' table ----------------------------------------------- */

static void test_no_gpu_work(void)
{
    gs_trace *t = tb_new("cpu_only.json", 0);
    for (int k = 1; k <= 2; k++) {
        gs_ns b = (gs_ns)k * 1000 * US;
        fx_step(t, k, b, 100);
        tb_range(t, GS_RANGE_OP, "aten::add", b + 10 * US, b + 50 * US, NULL);
    }
    gs_error err;
    if (gs_trace_index(t, &err) != 0)
        abort();
    gs_trace_ctx c = tb_ctx(t, NULL);
    gs_trace_facts facts;
    CHECK(gs_trace_facts_build(&c, &facts, &err) == 0);
    gs_replay *m = NULL;
    const char *why = NULL;
    CHECK(gs_replay_build(&c, &facts, &m, &why, &err) == 0);
    CHECK(m == NULL);
    CHECK_STR(why, "no kept step launched GPU work");
    gs_trace_ctx_free(&c);
    gs_trace_delete(t);
}

static void test_action_table(void)
{
    static const char *const names[GS_REPLAY__COUNT] = {
        [GS_REPLAY_CUDA_GRAPHS] = "cuda_graphs",
        [GS_REPLAY_COMPILE] = "compile",
        [GS_REPLAY_DATALOADER_WORKERS] = "dataloader_workers",
        [GS_REPLAY_PINNED_MEMORY] = "pinned_memory",
        [GS_REPLAY_REMOVE_SYNCS] = "remove_syncs",
        [GS_REPLAY_MIXED_PRECISION] = "mixed_precision",
        [GS_REPLAY_FUSED_OPTIMIZER] = "fused_optimizer",
        [GS_REPLAY_OVERLAP_COMM] = "overlap_comm",
        [GS_REPLAY_ROOF_TARGET] = "roof_target",
        [GS_REPLAY_NO_PROFILER] = "no_profiler",
    };
    for (int a = GS_REPLAY_NONE + 1; a < GS_REPLAY__COUNT; a++) {
        const gs_replay_action_info *info = gs_replay_action_get((enum gs_replay_action)a);
        CHECK(info != NULL);
        if (!info)
            continue;
        CHECK_STR(info->name, names[a]);
        CHECK(info->title && *info->title && info->models && *info->models && info->assumes &&
              *info->assumes);
        CHECK_INT(gs_replay_action_find(names[a], strlen(names[a])), a);
        /* a prefix, and the name with one more byte, name no action */
        CHECK_INT(gs_replay_action_find(names[a], strlen(names[a]) - 1), GS_REPLAY_NONE);
        char longer[32];
        snprintf(longer, sizeof longer, "%ss", names[a]);
        CHECK_INT(gs_replay_action_find(longer, strlen(longer)), GS_REPLAY_NONE);
    }
    CHECK(gs_replay_action_get(GS_REPLAY_NONE) == NULL);
    CHECK(gs_replay_action_get(GS_REPLAY__COUNT) == NULL);
    CHECK(gs_replay_action_get((enum gs_replay_action)-1) == NULL);
    CHECK_INT(gs_replay_action_find("", 0), GS_REPLAY_NONE);
    CHECK_INT(gs_replay_action_find("CUDA_GRAPHS", 11), GS_REPLAY_NONE);
    CHECK_INT(gs_replay_action_find("graphs", 6), GS_REPLAY_NONE);
    /* the length is what counts: "compile" out of a longer buffer */
    CHECK_INT(gs_replay_action_find("compile,cuda_graphs", 7), GS_REPLAY_COMPILE);
}

int main(void)
{
    test_graphs_two_per_step();
    test_graphs_two_threads();
    test_graphs_overlapping_kernels();
    test_loader_single_process();
    test_loader_multi_process();
    test_remove_syncs();
    test_no_profiler();
    test_no_profiler_crowded();
    test_graphs_and_workers();
    test_no_gpu_work();
    test_action_table();
    return check_done("test_replay_host");
}
