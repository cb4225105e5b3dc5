/* The trace context (analysis/base/trace_ctx.h) on a trace with ProfilerStep ranges and a warm-up
 * step: its steps are gs_steps_find's, `window` is what the options ask for, `kept` the kept
 * steps whatever they ask, a copy over another window owns nothing, and a --step that matches
 * nothing is the usage error. Run under the ASan build (GS_SANITIZE) a double free shows. */
#include "analysis/base/trace_ctx.h"

#include <string.h>

#include "analysis/trace/kernel_summary.h"
#include "check.h"
#include "trace_builder.h"

#define US 1000

/* A launch call at `at` and the kernel it launched. */
static void launch(gs_trace *t, const char *name, gs_ns at, gs_ns start, gs_ns end, uint64_t corr)
{
    tb_api(t, "cudaLaunchKernel", at, at + 10 * US, corr);
    tb_kernel(t, name, start, end, corr);
}

/* A copy at 0-200 µs before any step. ProfilerStep#0 [1000, 11000) µs is the warm-up (10 ms
 * against 2 ms); ProfilerStep#1-4, 2 ms each from 11000 µs, each a range "fwd" and a gemm
 * launched at +100 that runs [+200, +1200). */
static gs_trace *build(void)
{
    gs_trace *t = tb_new("ctx.json", 0);
    tb_api(t, "cudaMemcpyAsync", 0, 10 * US, 1);
    tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PAGEABLE, GS_LOC_DEVICE, 1 << 20, 100 * US, 200 * US, 1);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#0", 1000 * US, 11000 * US, NULL);
    launch(t, "warm", 1500 * US, 1600 * US, 1700 * US, 2);
    for (int k = 1; k <= 4; k++) {
        gs_ns s = (11000 + (k - 1) * 2000) * US;
        char name[32];
        snprintf(name, sizeof name, "ProfilerStep#%d", k);
        tb_range(t, GS_RANGE_ANNOTATION, name, s, s + 2000 * US, NULL);
        tb_range(t, GS_RANGE_ANNOTATION, "fwd", s + 50 * US, s + 1000 * US, NULL);
        launch(t, "gemm", s + 100 * US, s + 200 * US, s + 1200 * US, (uint64_t)(10 + k));
    }
    gs_error err;
    if (gs_trace_index(t, &err) != 0)
        abort();
    return t;
}

static void check_same_steps(const gs_steps *a, const gs_steps *b)
{
    CHECK_INT(a->source, b->source);
    CHECK_INT(a->n, b->n);
    CHECK_INT(a->nwarmup, b->nwarmup);
    CHECK_INT(a->keep_warmup, b->keep_warmup);
    for (size_t i = 0; i < a->n && i < b->n; i++) {
        CHECK_INT(a->v[i].number, b->v[i].number);
        CHECK_INT(a->v[i].range, b->v[i].range);
        CHECK_INT(a->v[i].start, b->v[i].start);
        CHECK_INT(a->v[i].end, b->v[i].end);
        CHECK_INT(a->v[i].host_start, b->v[i].host_start);
        CHECK_INT(a->v[i].host_end, b->v[i].host_end);
        CHECK_INT(a->v[i].gpu_ops, b->v[i].gpu_ops);
        CHECK_INT(a->v[i].warmup, b->v[i].warmup);
    }
    CHECK_INT(a->stats.n, b->stats.n);
    CHECK_INT(a->stats.mean, b->stats.mean);
    CHECK_INT(a->stats.med, b->stats.med);
    CHECK_INT(a->stats.max, b->stats.max);
}

/* The steps the context found are those gs_steps_find finds with the same options. */
static void test_steps_are_found_once(const gs_trace *t)
{
    static const gs_step_opts cases[] = {{0}, {.keep_warmup = true}, {.regex = "^fwd$"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gs_trace_ctx c = tb_ctx(t, &(gs_ctx_opts){.steps = cases[i]});
        CHECK(c.trace == t);
        gs_names names;
        gs_steps found;
        gs_error err;
        CHECK_INT(gs_names_classify(t, &names, &err), 0);
        CHECK_INT(gs_steps_find(t, &names, &cases[i], &found, &err), 0);
        check_same_steps(&c.steps, &found);
        gs_steps_free(&found);
        gs_names_free(&names);
        gs_trace_ctx_free(&c);
    }
    gs_trace_ctx c = tb_ctx(t, NULL);
    CHECK_INT(c.steps.source, GS_STEPS_PROFILER);
    CHECK_INT(c.steps.n, 5);
    CHECK_INT(c.steps.nwarmup, 1);
    CHECK(c.steps.v[0].warmup);
    CHECK_INT(c.steps.stats.n, 4);
    gs_trace_ctx_free(&c);
}

static void check_kept_steps(const gs_window *w, size_t nkept, int64_t first_step)
{
    CHECK_INT(w->kind, GS_WINDOW_STEPS);
    CHECK_INT(w->nsteps, 5);
    CHECK_INT(w->nkept, nkept);
    CHECK_INT(w->first_step, first_step);
    CHECK_INT(w->last_step, 4);
    CHECK(gs_window_restricts(w));
    CHECK(gs_window_holds(w, 11000 * US));
    CHECK_INT(gs_window_holds(w, 10900 * US), first_step == 0); /* inside the warm-up step */
}

/* `window` is what the options ask for (the whole trace when off); `kept` the kept steps always. */
static void test_windows(const gs_trace *t)
{
    gs_trace_ctx whole = tb_ctx(t, NULL);
    CHECK_INT(whole.window.kind, GS_WINDOW_WHOLE);
    CHECK(!gs_window_restricts(&whole.window));
    CHECK(gs_window_holds(&whole.window, 0));
    CHECK(gs_window_holds(&whole.window, 10900 * US));
    CHECK_INT(whole.window.from, 0);
    CHECK_INT(whole.window.to, 19000 * US); /* ProfilerStep#4 ends last */
    check_kept_steps(&whole.kept, 4, 1);

    gs_trace_ctx steps = tb_ctx(t, &(gs_ctx_opts){.window = {.on = true}});
    check_kept_steps(&steps.window, 4, 1);
    check_kept_steps(&steps.kept, 4, 1);
    CHECK_INT(steps.window.spans.n, steps.kept.spans.n);
    for (size_t i = 0; i < steps.window.spans.n && i < steps.kept.spans.n; i++) {
        CHECK_INT(steps.window.spans.v[i].start, steps.kept.spans.v[i].start);
        CHECK_INT(steps.window.spans.v[i].end, steps.kept.spans.v[i].end);
    }

    /* whatever the window, the kept steps: --all-steps, --range, --from/--to */
    const gs_window_spec others[] = {
        {.on = true, .all_steps = true},
        {.on = true, .range = "fwd"},
        {.on = true, .has_from = true, .from = 13000 * US, .has_to = true, .to = 15000 * US},
    };
    const enum gs_window_kind kinds[] = {GS_WINDOW_WHOLE, GS_WINDOW_RANGE, GS_WINDOW_TIME};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        gs_trace_ctx c = tb_ctx(t, &(gs_ctx_opts){.window = others[i]});
        CHECK_INT(c.window.kind, kinds[i]);
        check_kept_steps(&c.kept, 4, 1);
        gs_trace_ctx_free(&c);
    }
    /* --keep-warmup: the warm-up step is kept, by the window and by `kept` */
    gs_trace_ctx warm =
        tb_ctx(t, &(gs_ctx_opts){.steps = {.keep_warmup = true}, .window = {.on = true}});
    check_kept_steps(&warm.window, 5, 0);
    check_kept_steps(&warm.kept, 5, 0);
    gs_trace_ctx_free(&warm);
    gs_trace_ctx_free(&steps);
    gs_trace_ctx_free(&whole);
}

/* A copy over the kept steps shares the steps and names, looks at its own window, and its free
 * frees nothing: the context stays whole and is freed once. */
static void test_copy_over_another_window(gs_trace *t)
{
    gs_trace_ctx c = tb_ctx(t, NULL);
    gs_trace_ctx kept = gs_trace_ctx_over(&c, &c.kept);
    CHECK(kept.is_copy && !c.is_copy);
    CHECK(kept.trace == t);
    CHECK(kept.steps.v == c.steps.v);
    CHECK(kept.names.v == c.names.v);
    CHECK_INT(kept.window.kind, GS_WINDOW_STEPS);
    CHECK_INT(c.window.kind, GS_WINDOW_WHOLE);

    /* the kernels of each: the whole trace has the warm-up's kernel, the kept steps not */
    gs_kernel_summary over_whole, over_kept;
    gs_error err;
    CHECK_INT(gs_kernel_summary_build(&c, false, &over_whole, &err), 0);
    CHECK_INT(gs_kernel_summary_build(&kept, false, &over_kept, &err), 0);
    CHECK_INT(over_whole.nrows, 2);
    CHECK_INT(over_kept.nrows, 1);
    CHECK_STR(over_kept.rows[0].name, "gemm");
    CHECK_INT(over_kept.rows[0].time.count, 4);
    gs_kernel_summary_free(&over_whole);
    gs_kernel_summary_free(&over_kept);

    gs_trace_ctx_free(&kept);
    CHECK(kept.trace == NULL && kept.steps.v == NULL); /* the copy is emptied ... */
    CHECK(c.steps.v != NULL && c.names.v != NULL);    /* ... the context keeps what it owns */
    CHECK_INT(c.steps.n, 5);
    CHECK_INT(c.kept.nkept, 4);
    CHECK_INT(gs_ctx_name(&c, tb_str(t, "ProfilerStep#1"), GS_NAME_PROFILER_STEP), 1);
    CHECK_INT(gs_kernel_summary_build(&c, false, &over_whole, &err), 0);
    CHECK_INT(over_whole.nrows, 2);
    gs_kernel_summary_free(&over_whole);
    gs_trace_ctx_free(&c);
    CHECK(c.steps.v == NULL && c.names.v == NULL && c.kept.spans.v == NULL);
}

/* --step: a regex that matches nothing, or that does not compile, is the usage error; the
 * context is then left empty, so freeing it again is harmless. */
static void test_step_regex_errors(const gs_trace *t)
{
    gs_trace_ctx c;
    gs_error err = {0};
    CHECK_INT(gs_trace_ctx_build(t, &(gs_ctx_opts){.steps = {.regex = "^nothing$"}}, &c, &err),
              -1);
    CHECK_INT(err.code, GS_EXIT_USAGE);
    CHECK(strstr(err.msg, "'^nothing$' matches no annotation or NVTX range") != NULL);
    CHECK(c.trace == NULL && c.steps.v == NULL && c.names.v == NULL);
    gs_trace_ctx_free(&c);

    err = (gs_error){0};
    CHECK_INT(gs_trace_ctx_build(t, &(gs_ctx_opts){.steps = {.regex = "(unclosed"}}, &c, &err),
              -1);
    CHECK_INT(err.code, GS_EXIT_USAGE);
    CHECK(strstr(err.msg, "--step '(unclosed'") != NULL);
}

int main(void)
{
    gs_trace *t = build();
    test_steps_are_found_once(t);
    test_windows(t);
    test_copy_over_another_window(t);
    test_step_regex_errors(t);
    gs_trace_delete(t);
    return check_done("test_trace_ctx");
}
