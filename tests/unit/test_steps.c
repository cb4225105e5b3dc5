/* Step detection on hand-made traces; every expected number is worked out in the comments. */
#include <stdlib.h>

#include "analysis/base/name_rules.h"
#include "analysis/base/steps.h"
#include "check.h"
#include "trace_builder.h"

static void launch(gs_trace *t, gs_ns api_start, gs_ns api_end, gs_ns k_start, gs_ns k_end,
                   uint64_t corr)
{
    tb_api(t, "cudaLaunchKernel", api_start, api_end, corr);
    tb_kernel(t, "k", k_start, k_end, corr);
}

static gs_trace *indexed(gs_trace *t)
{
    gs_error err;
    if (gs_trace_index(t, &err) != 0)
        abort();
    return t;
}

/* gs_steps_find with the trace's names, as a trace context calls it. */
static int find_steps(const gs_trace *t, const gs_step_opts *o, gs_steps *s, gs_error *err)
{
    gs_names names;
    if (gs_names_classify(t, &names, err) != 0)
        return -1;
    int rc = gs_steps_find(t, &names, o, s, err);
    gs_names_free(&names);
    return rc;
}

static void find(const gs_trace *t, const char *regex, bool keep, gs_steps *s)
{
    gs_error err;
    gs_step_opts o = {.regex = regex, .keep_warmup = keep};
    CHECK_INT(find_steps(t, &o, s, &err), 0);
}

static void check_step(const gs_steps *s, size_t i, int64_t number, gs_ns start, gs_ns end,
                       uint32_t gpu_ops)
{
    CHECK(i < s->n);
    if (i >= s->n)
        return;
    CHECK_INT(s->v[i].number, number);
    CHECK_INT(s->v[i].start, start);
    CHECK_INT(s->v[i].end, end);
    CHECK_INT(s->v[i].gpu_ops, gpu_ops);
}

/* Three steps whose kernels run past the host range; a fourth launched nothing and is dropped. */
static void test_extension(void)
{
    gs_trace *t = tb_new("ext", 0);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#5", 100, 200, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#6", 200, 300, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#7", 300, 400, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#8", 400, 500, NULL);
    launch(t, 110, 120, 150, 250, 1);
    launch(t, 210, 220, 260, 350, 2);
    launch(t, 310, 320, 360, 370, 3);
    launch(t, 330, 340, 380, 390, 4);
    launch(t, 395, 405, 420, 430, 5); /* straddles the end of #7: belongs to no step */
    indexed(t);
    gs_steps s;
    find(t, NULL, false, &s);
    CHECK_INT(s.source, GS_STEPS_PROFILER);
    CHECK_INT(s.n, 3);
    /* #5: [max(100, 100), max(200, 250)]; #6: [max(250, 200), max(300, 350)];
     * #7: [max(350, 300), max(400, 390)] with two kernels; #8 launched nothing. */
    check_step(&s, 0, 5, 100, 250, 1);
    check_step(&s, 1, 6, 250, 350, 1);
    check_step(&s, 2, 7, 350, 400, 2);
    CHECK_INT(s.v[0].host_end, 200);
    CHECK_INT(s.v[1].host_start, 200);
    /* Durations 150, 100, 50: 150 > 1.5 × 50 (nearest-rank median of {100, 50}) and 100 > 1.5 × 50:
     * both first steps are warm-up; the last never is. */
    CHECK_INT(s.nwarmup, 2);
    CHECK_INT(s.stats.n, 1);
    CHECK_INT(s.stats.mean, 50);

    CHECK_INT(gs_steps_at(&s, 99), -1);
    CHECK_INT(gs_steps_at(&s, 100), 0);
    CHECK_INT(gs_steps_at(&s, 249), 0);
    CHECK_INT(gs_steps_at(&s, 250), 1);
    CHECK_INT(gs_steps_at(&s, 399), 2);
    CHECK_INT(gs_steps_at(&s, 400), -1);
    gs_steps_free(&s);
    gs_trace_delete(t);
}

/* The last step launched 3 activities after one that launched 5: 5 × 0.8 = 4 > 3, dropped. A
 * kernel launched before the profiler's first step ended at 105 pushes the first step's start. */
static void test_trim_ratio_and_floor(void)
{
    gs_trace *t = tb_new("trim", 0);
    tb_kernel(t, "tail_of_previous_iteration", 90, 105, 0);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#0", 100, 200, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#1", 200, 300, NULL);
    for (int i = 0; i < 5; i++)
        launch(t, 110 + 10 * i, 115 + 10 * i, 120 + 10 * i, 125 + 10 * i, (uint64_t)(10 + i));
    for (int i = 0; i < 3; i++)
        launch(t, 210 + 10 * i, 215 + 10 * i, 220 + 10 * i, 225 + 10 * i, (uint64_t)(20 + i));
    indexed(t);
    gs_steps s;
    find(t, NULL, false, &s);
    CHECK_INT(s.n, 1);
    check_step(&s, 0, 0, 105, 200, 5);
    gs_steps_free(&s);
    gs_trace_delete(t);
}

/* Durations 1000, 400, 100, 110, 120 (no GPU work, so no extension):
 * step 0: median of {100,110,120,400} (nearest rank 2) = 110, 1000 > 165: warm-up;
 * step 1: median of {100,110,120} = 110, 400 > 165: warm-up; step 2: 100 <= 1.5 × 110: stop. */
static void test_warmup_and_stats(void)
{
    gs_trace *t = tb_new("warm", 0);
    const gs_ns dur[] = {1000, 400, 100, 110, 120};
    gs_ns ts = 0;
    for (int i = 0; i < 5; i++) {
        char name[32];
        snprintf(name, sizeof name, "ProfilerStep#%d", i);
        tb_range(t, GS_RANGE_ANNOTATION, name, ts, ts + dur[i], NULL);
        ts += dur[i];
    }
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#99", 0, 10, NULL);
    t->ranges.v[t->ranges.n - 1].tid = TB_TID + 1; /* a thread with fewer steps is ignored */
    indexed(t);
    gs_steps s;
    find(t, NULL, false, &s);
    CHECK_INT(s.n, 5);
    CHECK_INT(s.nwarmup, 2);
    CHECK(s.v[0].warmup && s.v[1].warmup && !s.v[2].warmup);
    CHECK(!gs_step_kept(&s, 1) && gs_step_kept(&s, 2));
    /* Kept {100, 110, 120}: mean 110, std sqrt(200/3) = 8.16, ranks ceil(1.5)=2, ceil(2.85)=3. */
    CHECK_INT(s.stats.n, 3);
    CHECK_INT(s.stats.mean, 110);
    CHECK_INT(s.stats.std, 8);
    CHECK_INT(s.stats.min, 100);
    CHECK_INT(s.stats.med, 110);
    CHECK_INT(s.stats.p95, 120);
    CHECK_INT(s.stats.p99, 120);
    CHECK_INT(s.stats.max, 120);
    gs_steps_free(&s);

    /* All five {100,110,120,400,1000}: mean 346, std sqrt(597920/5) = 345.8, med rank 3,
     * p95 rank ceil(4.75) = 5. */
    find(t, NULL, true, &s);
    CHECK_INT(s.nwarmup, 2);
    CHECK(gs_step_kept(&s, 0));
    CHECK_INT(s.stats.n, 5);
    CHECK_INT(s.stats.mean, 346);
    CHECK_INT(s.stats.std, 346);
    CHECK_INT(s.stats.med, 120);
    CHECK_INT(s.stats.p95, 1000);
    CHECK_INT(s.stats.min, 100);
    gs_steps_free(&s);
    gs_trace_delete(t);
}

/* --step: NVTX and annotation ranges matching the regex, outermost only; operators never match. */
static void test_regex(void)
{
    gs_trace *t = tb_new("regex", 0);
    tb_range(t, GS_RANGE_NVTX, "iter 1", 0, 100, NULL);
    tb_range(t, GS_RANGE_NVTX, "iter inner", 10, 20, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "iter 2", 100, 250, NULL);
    tb_range(t, GS_RANGE_OP, "iter_op", 300, 400, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#1", 0, 400, NULL);
    indexed(t);
    gs_steps s;
    find(t, "^iter", false, &s);
    CHECK_INT(s.source, GS_STEPS_REGEX);
    CHECK_INT(s.n, 2);
    check_step(&s, 0, 0, 0, 100, 0);
    check_step(&s, 1, 1, 100, 250, 0);
    gs_steps_free(&s);

    gs_error err;
    gs_step_opts bad = {.regex = "(unclosed"};
    CHECK_INT(find_steps(t, &bad, &s, &err), -1);
    CHECK_INT(err.code, GS_EXIT_USAGE);
    gs_step_opts none = {.regex = "^nomatch$"};
    CHECK_INT(find_steps(t, &none, &s, &err), -1);
    CHECK_INT(err.code, GS_EXIT_USAGE);
    gs_trace_delete(t);
}

/* No step ranges: the whole trace span is one window holding every GPU activity. */
static void test_window(void)
{
    gs_trace *t = tb_new("window", 0);
    tb_range(t, GS_RANGE_OP, "aten::mm", 0, 50, NULL);
    launch(t, 5, 8, 10, 70, 1);
    indexed(t);
    gs_steps s;
    find(t, NULL, false, &s);
    CHECK_INT(s.source, GS_STEPS_WINDOW);
    CHECK_INT(s.n, 1);
    CHECK_INT(s.v[0].range, GS_NONE);
    check_step(&s, 0, 0, 0, 70, 1);
    CHECK_INT(s.stats.n, 1);
    CHECK_INT(s.stats.p99, 70);
    gs_steps_free(&s);
    gs_trace_delete(t);

    gs_trace *empty = indexed(tb_new("empty", 0));
    find(empty, NULL, false, &s);
    CHECK_INT(s.n, 0);
    CHECK_INT(s.stats.n, 0);
    CHECK_INT(gs_steps_at(&s, 0), -1);
    gs_steps_free(&s);
    gs_trace_delete(empty);
}

int main(void)
{
    test_extension();
    test_trim_ratio_and_floor();
    test_warmup_and_stats();
    test_regex();
    test_window();
    return check_done("test_steps");
}
