/* What was profiled: files, ranks, devices (deduplicated), span, steps, event counts. */
#include "analysis/trace/profile_facts.h"
#include "check.h"
#include "trace_builder.h"

static gs_trace *rank_trace(const char *path, int32_t rank)
{
    gs_trace *t = tb_new(path, rank);
    t->id.world_size = 2;
    tb_device(t, 0, "NVIDIA A100-SXM4-80GB", 85899345920ull, 108, 8, 0);
    tb_device(t, 1, "NVIDIA A100-SXM4-80GB", 85899345920ull, 108, 8, 0);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#1", 0, 100, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#2", 100, 200, NULL);
    tb_range(t, GS_RANGE_GPU_ANNOTATION, "ProfilerStep#2", 100, 200, NULL);
    tb_range(t, GS_RANGE_OP, "aten::mm", 10, 20, NULL);
    tb_kernel(t, "k", 150, 250, 0);
    tb_memop(t, GS_MEMOP_MEMSET, GS_LOC_UNKNOWN, GS_LOC_DEVICE, 4, 30, 31, 0);
    tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PINNED, GS_LOC_DEVICE, 4, 40, 41, 0);
    tb_api(t, "cudaLaunchKernel", 11, 12, 0);
    return t;
}

/* The facts of the ranks `sel` selects, each trace's context added, then finished. */
static int facts(const gs_profile *p, const gs_select *sel, gs_profile_facts *f, gs_error *err)
{
    if (gs_profile_facts_init(f, err) != 0)
        return -1;
    for (size_t i = 0; i < p->traces.n; i++) {
        if (!gs_selected(sel, &p->traces.v[i]->id))
            continue;
        gs_trace_ctx c = tb_ctx(p->traces.v[i], NULL);
        int rc = gs_profile_facts_add(f, &c, err);
        gs_trace_ctx_free(&c);
        if (rc != 0)
            return -1;
    }
    return gs_profile_facts_finish(f, err);
}

static void test_step_names(void)
{
    CHECK(gs_is_profiler_step("ProfilerStep#0"));
    CHECK(gs_is_profiler_step("ProfilerStep#123"));
    CHECK(!gs_is_profiler_step("ProfilerStep#"));
    CHECK(!gs_is_profiler_step("ProfilerStep#1a"));
    CHECK(!gs_is_profiler_step("ProfilerStep1"));
    CHECK(!gs_is_profiler_step("xProfilerStep#1"));
}

static void test_two_ranks(void)
{
    gs_profile p = {0};
    tb_add(&p, rank_trace("rank0.json", 0));
    gs_trace *r1 = rank_trace("rank1.json", 1);
    tb_range(r1, GS_RANGE_ANNOTATION, "ProfilerStep#3", 200, 300, NULL);
    tb_add(&p, r1);
    gs_profile_facts f;
    gs_error err;
    CHECK_INT(facts(&p, NULL, &f, &err), 0);
    CHECK_INT(f.nfiles, 2);
    CHECK_STR(f.files[0].path, "rank0.json");
    CHECK_STR(f.files[0].format, "kineto");
    CHECK_INT(f.files[0].span, 250);
    CHECK_INT(f.files[0].steps, 2); /* the GPU projection is not a step */
    CHECK_INT(f.files[1].rank, 1);
    CHECK_INT(f.files[1].steps, 3);
    CHECK_INT(f.files[1].span, 300);
    CHECK_INT(f.nranks, 2);
    CHECK_INT(f.world_size, 2);
    CHECK_INT(f.steps, 3);
    CHECK_INT(f.span, 300); /* the longest trace */
    CHECK_INT(f.ndevices, 2);
    CHECK_INT(f.devices[1].id, 1);
    CHECK_STR(f.devices[0].capability, "8.0");
    CHECK_INT(f.devices[0].num_sms, 108);
    CHECK_INT(f.events.kernels, 2);
    CHECK_INT(f.events.memsets, 2);
    CHECK_INT(f.events.memcpys, 2);
    CHECK_INT(f.events.api_calls, 2);
    CHECK_INT(f.events.ranges[GS_RANGE_ANNOTATION], 5);
    CHECK_INT(f.events.ranges[GS_RANGE_OP], 2);
    CHECK_INT(f.events.ranges[GS_RANGE_GPU_ANNOTATION], 2);
    gs_profile_facts_free(&f);

    gs_select sel = {.by_rank = true, .rank = 1};
    CHECK_INT(facts(&p, &sel, &f, &err), 0);
    CHECK_INT(f.nfiles, 1);
    CHECK_INT(f.nranks, 1);
    CHECK_INT(f.span, 300);
    CHECK_INT(f.events.kernels, 1);
    /* the facts own their names: they outlive the traces */
    gs_profile_free(&p);
    CHECK_STR(f.files[0].path, "rank1.json");
    CHECK_STR(f.files[0].format, "kineto");
    CHECK_STR(f.devices[0].name, "NVIDIA A100-SXM4-80GB");
    gs_profile_facts_free(&f);
}

/* Files are listed by rank, whatever order the traces were added in. */
static void test_files_by_rank(void)
{
    gs_profile p = {0};
    tb_add(&p, rank_trace("b/rank1.json", 1));
    tb_add(&p, rank_trace("a/rank0.json", 0));
    gs_profile_facts f;
    gs_error err;
    CHECK_INT(facts(&p, NULL, &f, &err), 0);
    CHECK_INT(f.nfiles, 2);
    if (f.nfiles == 2) {
        CHECK_INT(f.files[0].rank, 0);
        CHECK_STR(f.files[0].path, "a/rank0.json");
        CHECK_INT(f.files[1].rank, 1);
        CHECK_STR(f.files[1].path, "b/rank1.json");
    }
    gs_profile_facts_free(&f);
    gs_profile_free(&p);
}

/* A trace without ProfilerStep#N ranges whose steps come from --step: the file's steps are the
 * steps the analyses use (3, from the regex), not its ProfilerStep#N ranges (0). */
static void test_steps_used(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("iters.json", 0);
    for (int i = 0; i < 3; i++)
        tb_range(t, GS_RANGE_ANNOTATION, "iteration", 100 * i, 100 * i + 90, NULL);
    tb_range(t, GS_RANGE_OP, "aten::mm", 10, 20, NULL);
    tb_add(&p, t);
    gs_ctx_opts o = {.steps = {.regex = "^iteration$"}};
    gs_trace_ctx c = tb_ctx(t, &o);
    gs_profile_facts f;
    gs_error err;
    CHECK_INT(gs_profile_facts_init(&f, &err), 0);
    CHECK_INT(gs_profile_facts_add(&f, &c, &err), 0);
    CHECK_INT(gs_profile_facts_finish(&f, &err), 0);
    CHECK_INT(f.files[0].steps, 3);
    CHECK_INT(f.files[0].step_source, GS_STEPS_REGEX);
    gs_profile_facts_free(&f);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
}

int main(void)
{
    test_steps_used();
    test_step_names();
    test_two_ranks();
    test_files_by_rank();
    return check_done("test_profile_facts");
}
