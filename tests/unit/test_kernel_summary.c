/* The kernel summary (nsys cuda_gpu_kern_sum) on traces built by hand. */
#include <math.h>

#include "analysis/trace/kernel_summary.h"
#include "check.h"
#include "profile_fold.h"
#include "trace_builder.h"

static const gs_kernel_row *find(const gs_kernel_summary *s, const char *name)
{
    for (size_t i = 0; i < s->nrows; i++)
        if (!strcmp(s->rows[i].name, name))
            return &s->rows[i];
    return NULL;
}

/* Four names whose totals tie at 100 ns except one: the order is Total desc, then Instances asc,
 * then Name asc. Kernel "a" is split over two traces to check names merge across traces. */
static void build(gs_profile *p)
{
    gs_trace *t0 = tb_new("rank0.json", 0), *t1 = tb_new("rank1.json", 1);
    tb_kernel(t0, "a", 0, 10, 0);
    tb_launch_config(t0, 2, 128);
    tb_kernel(t0, "a", 100, 120, 0);
    tb_launch_config(t0, 2, 128);
    tb_kernel(t0, "b", 200, 300, 0);
    tb_kernel(t0, "d", 300, 350, 0);
    tb_kernel(t0, "d", 400, 450, 0);
    tb_kernel(t0, "c", 500, 505, 0);
    tb_kernel(t0, "c", 600, 609, 0);
    tb_kernel(t1, "c", 50, 57, 0);
    tb_kernel(t1, "a", 0, 30, 0);
    tb_kernel(t1, "a", 40, 80, 0);
    tb_add(p, t0);
    tb_add(p, t1);
}

static void test_groups_by_name_across_traces(void)
{
    gs_profile p = {0};
    build(&p);
    gs_kernel_summary s;
    gs_error err;
    CHECK_INT(fold_kernels(&p, NULL, false, &s, &err), 0);
    CHECK_INT(s.nrows, 4);
    CHECK_INT(s.total, 321);
    CHECK_STR(s.rows[0].name, "b"); /* 100 ns, 1 instance */
    CHECK_STR(s.rows[1].name, "d"); /* 100 ns, 2 instances */
    CHECK_STR(s.rows[2].name, "a"); /* 100 ns, 4 instances */
    CHECK_STR(s.rows[3].name, "c"); /* 21 ns */
    const gs_kernel_row *a = find(&s, "a");
    CHECK_INT(a->time.count, 4);
    CHECK_INT(a->time.total, 100); /* 10 + 20 + 30 + 40 */
    CHECK_INT(a->time.med, 25);    /* (20 + 30) / 2 */
    CHECK_INT(a->time.stddev, 12); /* sqrt(500 / 3) = 12.9 */
    CHECK(fabs(a->time_pct - 100.0 * 100 / 321) < 1e-9);
    const gs_kernel_row *c = find(&s, "c");
    CHECK_INT(c->time.med, 7); /* 5, 7, 9 */
    CHECK_INT(c->time.min, 5);
    CHECK_INT(c->time.max, 9);
    CHECK_INT(c->time.stddev, 2);
    CHECK_INT(find(&s, "b")->time.stddev, 0);
    double pct = 0;
    for (size_t i = 0; i < s.nrows; i++)
        pct += s.rows[i].time_pct;
    CHECK(fabs(pct - 100.0) < 1e-9);
    gs_kernel_summary_free(&s);
    gs_profile_free(&p);
}

static void test_rank_selection(void)
{
    gs_profile p = {0};
    build(&p);
    gs_kernel_summary s;
    gs_error err;
    gs_select sel = {.by_rank = true, .rank = 1};
    CHECK_INT(fold_kernels(&p, &sel, false, &s, &err), 0);
    CHECK_INT(s.nrows, 2);
    CHECK_STR(s.rows[0].name, "a");
    CHECK_INT(s.rows[0].time.total, 70);
    CHECK_INT(s.rows[0].time.med, 35);
    CHECK_STR(s.rows[1].name, "c");
    gs_kernel_summary_free(&s);
    gs_profile_free(&p);
}

static void test_by_launch_splits_a_name_by_grid_and_block(void)
{
    gs_profile p = {0};
    build(&p);
    gs_kernel_summary s;
    gs_error err;
    CHECK_INT(fold_kernels(&p, NULL, true, &s, &err), 0);
    CHECK_INT(s.nrows, 5);
    /* "a" at 1x1x1 (rank 1: 30 + 40 = 70 ns) and at 2x1x1 / 128x1x1 (rank 0: 10 + 20 = 30 ns) */
    size_t seen = 0;
    for (size_t i = 0; i < s.nrows; i++) {
        const gs_kernel_row *r = &s.rows[i];
        if (strcmp(r->name, "a") != 0)
            continue;
        seen++;
        if (r->grid[0] == 2) {
            CHECK_INT(r->block[0], 128);
            CHECK_INT(r->time.total, 30);
        } else {
            CHECK_INT(r->grid[0], 1);
            CHECK_INT(r->time.total, 70);
        }
    }
    CHECK_INT(seen, 2);
    gs_kernel_summary_free(&s);
    gs_profile_free(&p);
}

static void test_no_kernels(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("empty.json", 0);
    tb_add(&p, t);
    gs_trace_ctx c = tb_ctx(t, NULL);
    gs_kernel_summary s;
    gs_error err;
    CHECK_INT(gs_kernel_summary_build(&c, false, &s, &err), 0);
    CHECK_INT(s.nrows, 0);
    CHECK_INT(s.total, 0);
    gs_kernel_summary_free(&s);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
}

/* The launching operator: the innermost framework operator around the launch call, through a
 * user annotation and the step; the one that launched most of a kernel name's time wins.
 * "gemm" runs 30 ns under aten::mm (inside a record_function annotation) and 70 ns under
 * aten::addmm: addmm, 70 %. "copy" runs under the step alone: no operator. */
static void test_launching_operator(void)
{
    gs_trace *t = tb_new("ops.json", 0);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#1", 0, 1000, NULL);
    tb_range(t, GS_RANGE_OP, "aten::mm", 10, 100, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "my_block", 20, 90, NULL);
    tb_range(t, GS_RANGE_OP, "aten::addmm", 200, 300, NULL);
    tb_api(t, "cudaLaunchKernel", 30, 40, 1);
    tb_kernel(t, "gemm", 100, 130, 1);
    tb_api(t, "cudaLaunchKernel", 210, 220, 2);
    tb_kernel(t, "gemm", 300, 370, 2);
    tb_api(t, "cudaLaunchKernel", 500, 510, 3);
    tb_kernel(t, "copy", 520, 530, 3);
    gs_profile p = {0};
    tb_add(&p, t);
    gs_trace_ctx c = tb_ctx(t, NULL); /* the whole trace */
    gs_kernel_summary s;
    gs_error err;
    CHECK_INT(gs_kernel_summary_build(&c, false, &s, &err), 0);
    const gs_kernel_row *gemm = find(&s, "gemm"), *copy = find(&s, "copy");
    CHECK(gemm && gemm->op && !strcmp(gemm->op, "aten::addmm"));
    CHECK(gemm && fabs(gemm->op_pct - 70.0) < 1e-9);
    CHECK(copy && copy->op == NULL);
    gs_kernel_summary_free(&s);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
}

int main(void)
{
    test_groups_by_name_across_traces();
    test_rank_selection();
    test_by_launch_splits_a_name_by_grid_and_block();
    test_launching_operator();
    test_no_kernels();
    return check_done("test_kernel_summary");
}
