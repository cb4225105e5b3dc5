/* gpuscope diff of runs that lack a kind of activity (compare/diff.h, compare/activity.h): two
 * runs without kernels (as two CPU-only captures), two without operators, and one of each. A side
 * with nothing of a kind has an empty set, and nothing of that kind is matched, added or removed.
 * The first case once handed qsort a NULL array (undefined behaviour, caught by UBSan in the
 * sanitized build and by tests/fuzz/fuzz_diff.c).
 *
 * Each trace has 5 steps, ProfilerStep#1..5, of 100 ns each at [100 * n, 100 * n + 100): none is
 * longer than the others, so none is warm-up and all 5 are kept (doc/design.md §10). */
#include "check.h"
#include "common/util.h"
#include "compare/diff.h"
#include "trace_builder.h"

#define STEPS 5
#define KEPT STEPS

static void steps(gs_trace *t)
{
    char name[32];
    for (int n = 1; n <= STEPS; n++) {
        snprintf(name, sizeof name, "ProfilerStep#%d", n);
        tb_range(t, GS_RANGE_ANNOTATION, name, 100 * n, 100 * n + 100, NULL);
    }
}

/* One aten::mm of `mm_ns` and one aten::relu of 10 ns per step, no GPU activity. */
static gs_trace *cpu_only(const char *path, gs_ns mm_ns)
{
    gs_trace *t = tb_new(path, 0);
    steps(t);
    for (int n = 1; n <= STEPS; n++) {
        tb_range(t, GS_RANGE_OP, "aten::mm", 100 * n + 5, 100 * n + 5 + mm_ns, NULL);
        tb_range(t, GS_RANGE_OP, "aten::relu", 100 * n + 80, 100 * n + 90, NULL);
    }
    return t;
}

/* One kernel "gemm" of `ns` per step, launched by nothing the trace recorded. */
static gs_trace *kernels_only(const char *path, gs_ns ns)
{
    gs_trace *t = tb_new(path, 0);
    steps(t);
    for (int n = 1; n <= STEPS; n++)
        tb_kernel(t, "gemm", 100 * n + 10, 100 * n + 10 + ns, 0);
    return t;
}

typedef struct run_pair {
    gs_profile p[GS_SIDES];
    gs_diff d;
} run_pair;

static int diff(run_pair *r, gs_trace *base, gs_trace *next)
{
    memset(r, 0, sizeof *r);
    tb_add(&r->p[GS_SIDE_BASE], base);
    tb_add(&r->p[GS_SIDE_NEW], next);
    const gs_diff_opts opts = {0};
    gs_error err;
    int rc = gs_diff_build(&r->p[0], &r->p[1], &opts, &r->d, &err);
    if (rc != 0)
        fprintf(stderr, "gs_diff_build: %s\n", err.msg);
    return rc;
}

static void run_pair_free(run_pair *r)
{
    gs_diff_free(&r->d);
    gs_profile_free(&r->p[0]);
    gs_profile_free(&r->p[1]);
}

static const gs_act *act_named(const gs_act_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i].name, name))
            return &s->v[i];
    return NULL;
}

/* No kernels on either side: the kernel sets are empty, the operators compare. */
static void test_no_kernels(void)
{
    run_pair r;
    CHECK_INT(diff(&r, cpu_only("base.json", 40), cpu_only("new.json", 60)), 0);
    for (int s = 0; s < GS_SIDES; s++) {
        CHECK_INT(r.d.act[s].steps, KEPT);
        CHECK_INT(r.d.act[s].kernels.n, 0);
        CHECK_INT(r.d.act[s].ops.n, 2);
        const gs_act *mm = act_named(&r.d.act[s].ops, "aten::mm");
        CHECK(mm != NULL);
        if (mm) {
            CHECK_INT(mm->count, KEPT);
            CHECK_INT(mm->total, KEPT * (s == GS_SIDE_BASE ? 40 : 60));
        }
    }
    CHECK_INT(r.d.kernels.n, 0);
    CHECK_INT(r.d.kernels_only.n, 0);
    CHECK_INT(r.d.ops.n, 2);
    CHECK_INT(r.d.ops_only.n, 0);
    run_pair_free(&r);
}

/* No operators on either side: the operator sets are empty, the kernels compare. */
static void test_no_operators(void)
{
    run_pair r;
    CHECK_INT(diff(&r, kernels_only("base.json", 30), kernels_only("new.json", 45)), 0);
    for (int s = 0; s < GS_SIDES; s++) {
        CHECK_INT(r.d.act[s].ops.n, 0);
        CHECK_INT(r.d.act[s].kernels.n, 1);
        CHECK_INT(r.d.act[s].kernels.v[0].count, KEPT);
        CHECK_INT(r.d.act[s].kernels.v[0].total, KEPT * (s == GS_SIDE_BASE ? 30 : 45));
    }
    CHECK_INT(r.d.kernels.n, 1);
    CHECK_INT(r.d.ops.n, 0);
    CHECK_INT(r.d.ops_only.n, 0);
    run_pair_free(&r);
}

/* Kernels on one side, operators on the other: everything is added or removed, nothing matched. */
static void test_one_kind_each(void)
{
    run_pair r;
    CHECK_INT(diff(&r, kernels_only("base.json", 30), cpu_only("new.json", 40)), 0);
    CHECK_INT(r.d.act[GS_SIDE_BASE].ops.n, 0);
    CHECK_INT(r.d.act[GS_SIDE_NEW].kernels.n, 0);
    CHECK_INT(r.d.kernels.n, 0);
    CHECK_INT(r.d.kernels_only.n, 1);
    CHECK_INT(r.d.ops.n, 0);
    run_pair_free(&r);
}

int main(void)
{
    test_no_kernels();
    test_no_operators();
    test_one_kind_each();
    return check_done("test_diff_sides");
}
