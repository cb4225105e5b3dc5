/* Steps detected from the repeating launch sequence, on generated launch streams with known
 * iterations: a clean loop, a first iteration with extra set-up work after a start-up phase,
 * extra kernels every third iteration, a loop with no synchronization, and streams with no
 * period at all; then the start-up phase's accounting. */
#include <stdio.h>
#include <stdlib.h>

#include "analysis/base/step_detect.h"
#include "analysis/base/steps.h"
#include "analysis/trace/startup.h"
#include "check.h"
#include "common/log.h"
#include "trace_builder.h"

#define US 1000
/* One iteration's kernels: some names recur inside it, as elementwise kernels do. */
static const char *const body[] = {"copy", "gemm", "relu", "gemm", "relu", "softmax",
                                   "gemm", "relu", "loss", "bwd_gemm", "bwd_relu", "adam"};
#define BODY (sizeof body / sizeof body[0])

typedef struct gen {
    gs_trace *t;
    gs_ns now; /* the host's clock */
    uint64_t corr;
} gen;

/* A launch call of 5 us; its kernel runs 10 us, right after the call. */
static void launch(gen *g, const char *kernel)
{
    g->corr++;
    tb_api(g->t, "cudaLaunchKernel", g->now, g->now + 5 * US, g->corr);
    tb_kernel(g->t, kernel, g->now + 5 * US, g->now + 15 * US, g->corr);
    g->now += 6 * US;
}

/* The host blocks until the GPU is done (a .item()), then runs Python for `pause`. */
static void sync_and_pause(gen *g, gs_ns pause)
{
    g->corr++;
    tb_api(g->t, "cudaStreamSynchronize", g->now, g->now + 20 * US, g->corr);
    g->now += 20 * US + pause;
}

typedef struct loop_opts {
    size_t iterations;
    size_t startup_ops;    /* distinct set-up kernels before the loop */
    size_t first_extra;    /* extra kernels inside the first iteration */
    size_t every_k;        /* an extra kernel after every k-th iteration (0: none) */
    bool sync;             /* each iteration ends with a blocking call */
    gs_ns t0;              /* when the first launch starts (default 1000 us) */
} loop_opts;

/* Builds the loop, not yet indexed; iteration_start[i] gets the host time the iteration's step
 * should start at. */
static gs_trace *make_loop(const loop_opts *o, gs_ns *iteration_start)
{
    gen g = {.t = tb_new("loop.json", 0), .now = o->t0 ? o->t0 : 1000 * US};
    char name[32];
    for (size_t i = 0; i < o->startup_ops; i++) {
        snprintf(name, sizeof name, "setup_%zu", i);
        launch(&g, name);
    }
    if (o->startup_ops)
        sync_and_pause(&g, 200 * US);
    for (size_t it = 0; it < o->iterations; it++) {
        /* Where the host came back: the end of the last call before the iteration's first
         * launch (the sync, or the previous launch), or the first launch itself. */
        iteration_start[it] = g.corr ? g.t->apis.v[g.t->apis.n - 1].end : g.now;
        for (size_t k = 0; k < BODY; k++) {
            launch(&g, body[k]);
            if (it == 0 && k == 5) {
                for (size_t e = 0; e < o->first_extra; e++) {
                    snprintf(name, sizeof name, "autotune_%zu", e);
                    launch(&g, name);
                }
            }
        }
        if (o->every_k && it % o->every_k == o->every_k - 1)
            launch(&g, "log_norm");
        if (o->sync)
            sync_and_pause(&g, 200 * US);
        else
            g.now += 300 * US; /* the host's Python between iterations, no wait */
    }
    return g.t;
}

static gs_trace *make_indexed_loop(const loop_opts *o, gs_ns *iteration_start)
{
    gs_trace *t = make_loop(o, iteration_start);
    gs_error err;
    if (gs_trace_index(t, &err) != 0)
        abort();
    return t;
}

/* gs_steps_detect with the trace's names, as gs_steps_find calls it. */
static int detect(const gs_trace *t, gs_detected_steps *d, gs_error *err)
{
    gs_names names;
    if (gs_names_classify(t, &names, err) != 0)
        return -1;
    int rc = gs_steps_detect(t, &names, d, err);
    gs_names_free(&names);
    return rc;
}

static void check_detected(const loop_opts *o, size_t want_steps, const char *what)
{
    gs_ns starts[64];
    gs_trace *t = make_indexed_loop(o, starts);
    gs_detected_steps d;
    gs_error err;
    CHECK_INT(detect(t, &d, &err), 0);
    if (d.n != want_steps)
        fprintf(stderr, "%s: %zu steps, want %zu\n", what, d.n, want_steps);
    CHECK_INT(d.n, want_steps);
    CHECK_INT(d.period, BODY);
    CHECK(d.confidence > 0.5 && d.confidence <= 1.0);
    for (size_t i = 0; i < d.n && i < want_steps; i++)
        CHECK_INT(d.v[i].host_start, starts[i]);
    for (size_t i = 0; i + 1 < d.n; i++)
        CHECK_INT(d.v[i].host_end, d.v[i + 1].host_start);
    gs_detected_steps_free(&d);
    gs_trace_delete(t);
}

static void test_clean_loop(void)
{
    loop_opts o = {.iterations = 10, .sync = true};
    check_detected(&o, 10, "clean loop");
}

/* A start-up phase of 40 set-up kernels and a first iteration with 5 more kernels in it still
 * give 10 steps, the first starting at the first iteration. */
static void test_noisy_first_iteration(void)
{
    loop_opts o = {.iterations = 10, .startup_ops = 40, .first_extra = 5, .sync = true};
    check_detected(&o, 10, "noisy first iteration");
}

static void test_extra_every_k(void)
{
    loop_opts o = {.iterations = 12, .every_k = 3, .sync = true};
    check_detected(&o, 12, "extra kernel every 3 iterations");
}

/* No blocking call: the iteration starts after the host's longest pause. */
static void test_no_sync(void)
{
    loop_opts o = {.iterations = 8};
    check_detected(&o, 8, "no sync");
}

/* An iteration that starts with two pageable copies of its batch, each followed by the stream
 * sync PyTorch makes, and the host preparing the second batch part between them (so the GPU is
 * idle longest before the second copy): the step starts at the first copy all the same. */
static void test_batch_copies(void)
{
    gen g = {.t = tb_new("copies.json", 0), .now = 1000 * US};
    gs_ns starts[8];
    for (int it = 0; it < 6; it++) {
        starts[it] = it ? g.t->apis.v[g.t->apis.n - 1].end : g.now;
        for (int c = 0; c < 2; c++) {
            g.corr++;
            tb_api(g.t, "cudaMemcpyAsync", g.now, g.now + 5 * US, g.corr);
            tb_memop(g.t, GS_MEMOP_HTOD, GS_LOC_PAGEABLE, GS_LOC_DEVICE, 4096, g.now + 5 * US,
                     g.now + 8 * US, g.corr);
            g.now += 6 * US;
            sync_and_pause(&g, c == 0 ? 300 * US : 10 * US);
        }
        for (size_t k = 1; k < BODY; k++)
            launch(&g, body[k]);
        sync_and_pause(&g, 50 * US);
    }
    gs_error err;
    CHECK_INT(gs_trace_index(g.t, &err), 0);
    gs_detected_steps d;
    CHECK_INT(detect(g.t, &d, &err), 0);
    CHECK_INT(d.n, 6);
    CHECK_INT(d.period, BODY + 1);
    for (size_t i = 0; i < d.n && i < 6; i++)
        CHECK_INT(d.v[i].host_start, starts[i]);
    gs_detected_steps_free(&d);
    gs_trace_delete(g.t);
}

/* A decode loop replaying a CUDA graph: each iteration is one cudaGraphLaunch of 4 layers of the
 * same 5 kernels, then a copy of the token back and a sync. The layers repeat every 5 kernels
 * inside one call; the steps are the host's iterations, 2 launching calls each. */
static void test_graph_replay(void)
{
    gen g = {.t = tb_new("graph.json", 0), .now = 1000 * US};
    static const char *const layer[] = {"norm", "qkv", "attn", "proj", "mlp"};
    gs_ns starts[8];
    for (int it = 0; it < 8; it++) {
        starts[it] = it ? g.t->apis.v[g.t->apis.n - 1].end : g.now;
        g.corr++;
        tb_api(g.t, "cudaGraphLaunch", g.now, g.now + 10 * US, g.corr);
        for (int k = 0; k < 20; k++) {
            tb_kernel(g.t, layer[k % 5], g.now + (12 + 3 * k) * US, g.now + (14 + 3 * k) * US,
                      g.corr);
            g.t->kernels.v[g.t->kernels.n - 1].graph_id = 1;
        }
        g.now += 80 * US;
        g.corr++;
        tb_api(g.t, "cudaMemcpyAsync", g.now, g.now + 5 * US, g.corr);
        tb_memop(g.t, GS_MEMOP_DTOH, GS_LOC_DEVICE, GS_LOC_PINNED, 8, g.now + 5 * US,
                 g.now + 6 * US, g.corr);
        g.now += 6 * US;
        sync_and_pause(&g, 40 * US);
    }
    gs_error err;
    CHECK_INT(gs_trace_index(g.t, &err), 0);
    gs_detected_steps d;
    CHECK_INT(detect(g.t, &d, &err), 0);
    CHECK_INT(d.n, 8);
    CHECK_INT(d.period, 2);
    for (size_t i = 0; i < d.n && i < 8; i++)
        CHECK_INT(d.v[i].host_start, starts[i]);
    for (size_t i = 1; i < d.n; i++)
        CHECK(d.v[i].host_start > d.v[i - 1].host_start);
    gs_detected_steps_free(&d);
    gs_trace_delete(g.t);
}

/* Random names: nothing repeats, so no steps, and gs_steps_find falls back to the window. */
static void test_no_period(void)
{
    gen g = {.t = tb_new("random.json", 0), .now = 1000 * US};
    uint32_t x = 12345;
    char name[32];
    for (int i = 0; i < 300; i++) {
        x = x * 1103515245u + 12345u;
        snprintf(name, sizeof name, "k%u", (x >> 16) % 97);
        launch(&g, name);
    }
    gs_error err;
    CHECK_INT(gs_trace_index(g.t, &err), 0);
    gs_detected_steps d;
    CHECK_INT(detect(g.t, &d, &err), 0);
    CHECK_INT(d.n, 0);
    gs_trace_ctx c = tb_ctx(g.t, NULL); /* the default steps */
    CHECK_INT(c.steps.source, GS_STEPS_WINDOW);
    CHECK_INT(c.steps.n, 1);
    gs_trace_ctx_free(&c);
    gs_trace_delete(g.t);

    /* One kernel over and over matches itself at every lag: that is no loop either. */
    g = (gen){.t = tb_new("same.json", 0), .now = 1000 * US};
    for (int i = 0; i < 100; i++)
        launch(&g, "k");
    CHECK_INT(gs_trace_index(g.t, &err), 0);
    CHECK_INT(detect(g.t, &d, &err), 0);
    CHECK_INT(d.n, 0);
    gs_trace_delete(g.t);
}

/* With ProfilerStep ranges the ranges win, unless detection is asked for; detected steps are
 * numbered from 0, start-up before them. */
static void test_find_and_startup(void)
{
    gs_ns starts[64];
    loop_opts o = {.iterations = 6, .startup_ops = 10, .sync = true};
    gs_trace *t = make_indexed_loop(&o, starts);
    gs_error err;
    gs_trace_ctx c = tb_ctx(t, NULL); /* the default steps */
    const gs_steps s = c.steps;
    CHECK_INT(s.source, GS_STEPS_DETECTED);
    CHECK_INT(s.n, 6);
    CHECK_INT(s.period, BODY);
    CHECK_INT(s.v[0].number, 0);
    CHECK_INT(s.v[0].host_start, starts[0]);
    CHECK_INT(s.v[0].gpu_ops, BODY);

    /* Start-up: from the first event (the first set-up launch at 1000 us) to step 0's start;
     * 10 launches of 5 us each plus one 20 us sync, no warm-up step (all steps alike). */
    gs_startup su;
    CHECK_INT(gs_startup_build(&c, &su, &err), 0);
    CHECK(su.found);
    CHECK_INT(su.start, 1000 * US);
    CHECK_INT(su.end, s.v[0].start);
    CHECK_INT(su.warmup_steps, 0);
    CHECK_INT(su.calls[GS_STARTUP_LAUNCHES], 10 * 5 * US);
    CHECK_INT(su.calls[GS_STARTUP_SYNC], 20 * US);
    CHECK_INT(su.gpu_busy, 10 * 10 * US);
    gs_trace_ctx_free(&c);
    gs_trace_delete(t);
}

/* A module load inside a launch is module loading, the launch keeps its own time; the first
 * long call of no class is the context being created. */
static void test_startup_classes(void)
{
    gs_ns starts[64];
    loop_opts o = {.iterations = 4, .sync = true, .t0 = 60000 * US};
    gs_trace *t = make_loop(&o, starts);
    /* Before the loop (which starts at 60 ms): a 50 ms first call, then a 400 us launch holding
     * a 300 us cuLibraryLoadData. */
    tb_api(t, "cudaDeviceGetStreamPriorityRange", 100 * US, 50100 * US, 900);
    tb_api(t, "cudaLaunchKernel", 50200 * US, 50600 * US, 901);
    tb_api(t, "cuLibraryLoadData", 50250 * US, 50550 * US, 902);
    gs_error err;
    CHECK_INT(gs_trace_index(t, &err), 0);
    gs_trace_ctx c = tb_ctx(t, NULL);
    gs_startup su;
    CHECK_INT(gs_startup_build(&c, &su, &err), 0);
    CHECK(su.found);
    CHECK_INT(su.start, 100 * US);
    CHECK_INT(su.calls[GS_STARTUP_CONTEXT], 50000 * US);
    CHECK_INT(su.calls[GS_STARTUP_MODULES], 300 * US);
    CHECK_INT(su.calls[GS_STARTUP_LAUNCHES], 100 * US);
    CHECK_INT(gs_startup_top_class(&su), GS_STARTUP_CONTEXT);
    gs_trace_ctx_free(&c);
    gs_trace_delete(t);
}

static void log_to_stderr(void *ctx, const char *msg)
{
    (void)ctx;
    fprintf(stderr, "%s\n", msg);
}

int main(void)
{
    if (getenv("TEST_LOG"))
        gs_log_set(GS_LOG_DETAIL, log_to_stderr, NULL);
    test_clean_loop();
    test_noisy_first_iteration();
    test_extra_every_k();
    test_no_sync();
    test_batch_copies();
    test_graph_replay();
    test_no_period();
    test_find_and_startup();
    test_startup_classes();
    return check_done("test_step_detect");
}
