/* The operator summary (PyTorch key_averages) on a nested trace built by hand.
 *
 *   step          annotation [0, 1000)
 *     aten::linear   op [100, 500)  dims [[64]]
 *       aten::addmm  op [150, 450)
 *         cudaLaunchKernel [200, 220) -> kernel k1 [300, 400)   100 ns
 *         cudaLaunchKernel [230, 250) -> kernel k2 [420, 470)    50 ns
 *       cudaMemcpyAsync [460, 480)    -> HtoD copy [500, 530)     30 ns
 *     aten::linear   op [600, 700)  dims [[32]]
 *       cudaLaunchKernel [610, 620)   -> kernel k3 [700, 710)     10 ns
 *   python range [0, 1000) and a GPU annotation: not operators
 *
 * Self CUDA: addmm 150, linear 30 + 10, step 0.
 * CUDA total: addmm 150, linear (30 + 150) + 10 = 190, step 190.
 * Self CPU: addmm 300 - 20 - 20 = 260; linear (400 - 300 - 20) + (100 - 10) = 170;
 *           step 1000 - 400 - 100 = 500. */
#include <math.h>
#include <string.h>

#include "analysis/trace/op_summary.h"
#include "check.h"
#include "render/view_tables.h"
#include "trace_builder.h"

static gs_trace *build(void)
{
    gs_trace *t = tb_new("ops.json", 0);
    tb_range(t, GS_RANGE_ANNOTATION, "step", 0, 1000, NULL);
    tb_range(t, GS_RANGE_OP, "aten::linear", 100, 500, "[[64]]");
    tb_range(t, GS_RANGE_OP, "aten::addmm", 150, 450, NULL);
    tb_range(t, GS_RANGE_OP, "aten::linear", 600, 700, "[[32]]");
    tb_range(t, GS_RANGE_PYTHON, "train.py(10): main", 0, 1000, NULL);
    tb_range(t, GS_RANGE_GPU_ANNOTATION, "step", 0, 1000, NULL);
    tb_api(t, "cudaLaunchKernel", 200, 220, 1);
    tb_api(t, "cudaLaunchKernel", 230, 250, 2);
    tb_api(t, "cudaMemcpyAsync", 460, 480, 3);
    tb_api(t, "cudaLaunchKernel", 610, 620, 4);
    tb_kernel(t, "k1", 300, 400, 1);
    tb_kernel(t, "k2", 420, 470, 2);
    tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PAGEABLE, GS_LOC_DEVICE, 300, 500, 530, 3);
    tb_kernel(t, "k3", 700, 710, 4);
    return t;
}

/* The summary of trace t (indexed) with the steps `steps` finds (NULL: the default ones), over
 * the whole trace; -1 with err when its context or the summary fails. */
static int summarise(const gs_trace *t, bool by_shape, const gs_step_opts *steps,
                     gs_op_summary *s, gs_error *err)
{
    gs_ctx_opts o = {0};
    if (steps)
        o.steps = *steps;
    gs_trace_ctx c;
    if (gs_trace_ctx_build(t, &o, &c, err) != 0)
        return -1;
    int rc = gs_op_summary_build(&c, by_shape, s, err);
    gs_trace_ctx_free(&c);
    return rc;
}

static const gs_op_row *find(const gs_op_summary *s, const char *name, const char *dims)
{
    for (size_t i = 0; i < s->nrows; i++)
        if (!strcmp(s->rows[i].name, name) && (!dims || !strcmp(s->rows[i].input_dims, dims)))
            return &s->rows[i];
    return NULL;
}

static void test_self_and_total_through_nesting(void)
{
    gs_profile p = {0};
    tb_add(&p, build());
    gs_op_summary s;
    gs_error err;
    CHECK_INT(summarise(p.traces.v[0], false, NULL, &s, &err), 0);
    CHECK(s.has_gpu);
    CHECK_INT(s.nrows, 3);
    /* CUDA total desc, ties by name: aten::linear (190) before step (190), then addmm (150) */
    CHECK_STR(s.rows[0].name, "aten::linear");
    CHECK_STR(s.rows[1].name, "step");
    CHECK_STR(s.rows[2].name, "aten::addmm");
    const gs_op_row *linear = &s.rows[0], *step = &s.rows[1], *addmm = &s.rows[2];
    CHECK(linear->input_dims == NULL);
    CHECK_INT(linear->calls, 2);
    CHECK_INT(linear->cpu_total, 500);
    CHECK_INT(linear->self_cpu, 170);
    CHECK_INT(linear->self_cuda, 40);
    CHECK_INT(linear->cuda_total, 190);
    CHECK_INT(addmm->calls, 1);
    CHECK_INT(addmm->self_cpu, 260);
    CHECK_INT(addmm->self_cuda, 150);
    CHECK_INT(addmm->cuda_total, 150);
    CHECK_INT(step->self_cpu, 500);
    CHECK_INT(step->self_cuda, 0);
    CHECK_INT(step->cuda_total, 190);
    gs_op_summary_free(&s);
    gs_profile_free(&p);
}

static void test_group_by_shape(void)
{
    gs_profile p = {0};
    tb_add(&p, build());
    gs_op_summary s;
    gs_error err;
    CHECK_INT(summarise(p.traces.v[0], true, NULL, &s, &err), 0);
    CHECK_INT(s.nrows, 4);
    const gs_op_row *big = find(&s, "aten::linear", "[[64]]");
    const gs_op_row *small = find(&s, "aten::linear", "[[32]]");
    CHECK(big && small);
    if (big && small) {
        CHECK_INT(big->calls, 1);
        CHECK_INT(big->cuda_total, 180);
        CHECK_INT(big->self_cpu, 80);
        CHECK_INT(small->cuda_total, 10);
        CHECK_INT(small->cpu_total, 100);
    }
    const gs_op_row *step = find(&s, "step", NULL);
    CHECK(step && !strcmp(step->input_dims, ""));
    gs_op_summary_free(&s);
    gs_profile_free(&p);
}

static void test_cpu_only_orders_by_cpu_total(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("cpu.json", 0);
    tb_range(t, GS_RANGE_OP, "b", 0, 10, NULL);
    tb_range(t, GS_RANGE_OP, "a", 20, 30, NULL);
    tb_range(t, GS_RANGE_NVTX, "c", 40, 70, NULL);
    tb_add(&p, t);
    gs_op_summary s;
    gs_error err;
    CHECK_INT(summarise(p.traces.v[0], false, NULL, &s, &err), 0);
    CHECK(!s.has_gpu);
    CHECK_INT(s.nrows, 3);
    CHECK_STR(s.rows[0].name, "c");
    CHECK_STR(s.rows[1].name, "a"); /* ties by name */
    CHECK_STR(s.rows[2].name, "b");
    gs_op_summary_free(&s);
    gs_profile_free(&p);
}

/* The TensorBoard plugin's recursion rule (op_tree.py remove_dup_nodes):
 *
 *   aten::div [0, 100)             only child aten::div: one call
 *     aten::div [10, 90)           only child aten::div: the same call again
 *       aten::div [20, 80)
 *         cudaLaunchKernel [30, 40) -> kernel [50, 60)  10 ns
 *   aten::add [200, 300)           two children of its name: one call too
 *     aten::add [210, 240)
 *     aten::add [250, 280)
 *
 * aten::div: 1 call, CPU total 100, self 100 - 60 + (60 - 10) = 90, Self CUDA 10, CUDA total 10
 * (without the rule: 3 calls, CPU total 240, CUDA total 30). aten::add: 1 call, CPU total 100. */
static void test_recursion_counted_once(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("recursion.json", 0);
    tb_range(t, GS_RANGE_OP, "aten::div", 0, 100, NULL);
    tb_range(t, GS_RANGE_OP, "aten::div", 10, 90, NULL);
    tb_range(t, GS_RANGE_OP, "aten::div", 20, 80, NULL);
    tb_api(t, "cudaLaunchKernel", 30, 40, 1);
    tb_kernel(t, "k", 50, 60, 1);
    tb_range(t, GS_RANGE_OP, "aten::add", 200, 300, NULL);
    tb_range(t, GS_RANGE_OP, "aten::add", 210, 240, NULL);
    tb_range(t, GS_RANGE_OP, "aten::add", 250, 280, NULL);
    tb_add(&p, t);
    gs_op_summary s;
    gs_error err;
    CHECK_INT(summarise(p.traces.v[0], false, NULL, &s, &err), 0);
    const gs_op_row *div = find(&s, "aten::div", NULL), *add = find(&s, "aten::add", NULL);
    CHECK(div && add);
    if (div && add) {
        CHECK_INT(div->calls, 1);
        CHECK_INT(div->cpu_total, 100);
        CHECK_INT(div->self_cpu, 90);
        CHECK_INT(div->self_cuda, 10);
        CHECK_INT(div->cuda_total, 10);
        CHECK_INT(add->calls, 1);
        CHECK_INT(add->cpu_total, 100);
        CHECK_INT(add->self_cpu, 100);
    }
    gs_op_summary_free(&s);
    gs_profile_free(&p);
}

/* Autocast's aten::addmm: the fp32 call casts its inputs (aten::to) and runs the bf16 aten::addmm
 * inside it, next to the casts. One GEMM: its FLOPs once, its kernel once in the CUDA total.
 *
 *   aten::addmm [0, 1000)  dims [[8], [4, 16], [16, 8]]: 2 x 4 x 16 x 8 = 1024 FLOPs
 *     aten::to [100, 300)
 *       cudaLaunchKernel [120, 140) -> cast kernel [150, 170)   20 ns
 *     aten::addmm [400, 900)  the same dims
 *       cudaLaunchKernel [500, 520) -> gemm [600, 1100)          500 ns
 *
 * aten::addmm: 1 call, CPU total 1000, Self CPU (1000 - 200 - 500) + (500 - 20) = 780,
 * Self CUDA 500, CUDA total 520, 1024 FLOPs (before: 2 calls, CPU total 1500, CUDA total 1020,
 * 2048 FLOPs). */
static void test_autocast_addmm_counted_once(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("autocast.json", 0);
    const char *dims = "[[8], [4, 16], [16, 8]]";
    tb_range(t, GS_RANGE_OP, "aten::addmm", 0, 1000, dims);
    tb_range(t, GS_RANGE_OP, "aten::to", 100, 300, NULL);
    tb_range(t, GS_RANGE_OP, "aten::addmm", 400, 900, dims);
    tb_api(t, "cudaLaunchKernel", 120, 140, 1);
    tb_api(t, "cudaLaunchKernel", 500, 520, 2);
    tb_kernel(t, "cast", 150, 170, 1);
    tb_kernel(t, "gemm", 600, 1100, 2);
    tb_add(&p, t);
    gs_op_summary s;
    gs_error err;
    CHECK_INT(summarise(p.traces.v[0], false, NULL, &s, &err), 0);
    const gs_op_row *mm = find(&s, "aten::addmm", NULL), *to = find(&s, "aten::to", NULL);
    CHECK(mm && to);
    if (mm && to) {
        CHECK_INT(mm->calls, 1);
        CHECK_INT(mm->cpu_total, 1000);
        CHECK_INT(mm->self_cpu, 780);
        CHECK_INT(mm->self_cuda, 500);
        CHECK_INT(mm->cuda_total, 520);
        CHECK(mm->has_flops);
        CHECK(mm->flops == 1024.0);
        CHECK_INT(to->cuda_total, 20);
    }
    gs_op_summary_free(&s);
    gs_profile_free(&p);
}

/* An annotation directly inside an annotation of its name, and an NVTX range inside an NVTX
 * range of its name, are part of the outer call, as an operator in an operator of its name is (a
 * benchmark's record_function entered twice): its row stays within the profiled CPU time.
 *
 *   "[warmup|forward]" annotation [0, 1000)
 *     "[warmup|forward]" annotation [100, 900)
 *       aten::mm operator [200, 300)
 *   "fwd" NVTX [2000, 2500)
 *     "fwd" NVTX [2100, 2400)
 *
 * Profiled CPU time 1500. "[warmup|forward]": 1 call, CPU total 1000 = 66.7 % (before: 2 calls,
 * 1800 = 120 %), Self CPU 1000 - 800 + 800 - 100 = 900; "fwd": 1 call, CPU total and Self CPU 500
 * (before: 2 calls, 800); aten::mm unchanged. */
static void test_annotation_in_its_own_name_counted_once(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("annotations.json", 0);
    tb_range(t, GS_RANGE_ANNOTATION, "[warmup|forward]", 0, 1000, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "[warmup|forward]", 100, 900, NULL);
    tb_range(t, GS_RANGE_OP, "aten::mm", 200, 300, NULL);
    tb_range(t, GS_RANGE_NVTX, "fwd", 2000, 2500, NULL);
    tb_range(t, GS_RANGE_NVTX, "fwd", 2100, 2400, NULL);
    tb_add(&p, t);
    gs_op_summary s;
    gs_error err;
    CHECK_INT(summarise(p.traces.v[0], false, NULL, &s, &err), 0);
    CHECK_INT(s.cpu_base, 1500);
    const gs_op_row *fw = find(&s, "[warmup|forward]", NULL), *fwd = find(&s, "fwd", NULL),
                    *mm = find(&s, "aten::mm", NULL);
    CHECK(fw && fwd && mm);
    if (fw && fwd && mm) {
        CHECK_INT(fw->calls, 1);
        CHECK_INT(fw->cpu_total, 1000);
        CHECK_INT(fw->self_cpu, 900);
        CHECK_INT(fwd->calls, 1);
        CHECK_INT(fwd->cpu_total, 500);
        CHECK_INT(fwd->self_cpu, 500);
        CHECK_INT(mm->calls, 1);
        CHECK_INT(mm->cpu_total, 100);
    }
    gs_op_summary_free(&s);
    gs_profile_free(&p);
}

/* A step's CUDA total is the GPU work launched while it is open by any thread of its process;
 * an operator keeps what its own thread launched inside it.
 *
 *   ProfilerStep#0 [0, 1000) on the main thread
 *     aten::mm [100, 200)   launch [110, 120) -> kernel 40 ns
 *   autograd thread: MmBackward0 [300, 500)  launch [310, 320) -> kernel 60 ns
 *   another process's thread: launch [400, 410) -> kernel 500 ns (not the step's)
 *   after the step: launch [1200, 1210) -> kernel 7 ns */
static void test_step_counts_every_thread(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("threads.json", 0);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#0", 0, 1000, NULL);
    tb_range(t, GS_RANGE_OP, "aten::mm", 100, 200, NULL);
    tb_range(t, GS_RANGE_OP, "MmBackward0", 300, 500, NULL);
    t->ranges.v[t->ranges.n - 1].tid = TB_TID + 1;
    tb_api(t, "cudaLaunchKernel", 110, 120, 1);
    tb_api(t, "cudaLaunchKernel", 310, 320, 2);
    t->apis.v[t->apis.n - 1].tid = TB_TID + 1;
    tb_api(t, "cudaLaunchKernel", 400, 410, 3);
    t->apis.v[t->apis.n - 1].pid = TB_PID + 1;
    tb_api(t, "cudaLaunchKernel", 1200, 1210, 4);
    tb_kernel(t, "k1", 130, 170, 1);
    tb_kernel(t, "k2", 330, 390, 2);
    tb_kernel(t, "k3", 420, 920, 3);
    tb_kernel(t, "k4", 1220, 1227, 4);
    tb_add(&p, t);
    gs_op_summary s;
    gs_error err;
    CHECK_INT(summarise(p.traces.v[0], false, NULL, &s, &err), 0);
    const gs_op_row *step = find(&s, "ProfilerStep#0", NULL), *mm = find(&s, "aten::mm", NULL);
    const gs_op_row *bwd = find(&s, "MmBackward0", NULL);
    CHECK(step && mm && bwd);
    if (step && mm && bwd) {
        CHECK_INT(step->cuda_total, 100);
        CHECK_INT(step->self_cuda, 0);
        CHECK_INT(mm->cuda_total, 40);
        CHECK_INT(bwd->cuda_total, 60);
    }
    gs_op_summary_free(&s);
    /* --step names the steps: the same rule for the ranges it matches; a regex that matches
     * nothing is the usage error every per-step view gives (building the trace's context). */
    gs_step_opts opts = {.regex = "^ProfilerStep#0$"};
    CHECK_INT(summarise(p.traces.v[0], false, &opts, &s, &err), 0);
    step = find(&s, "ProfilerStep#0", NULL);
    CHECK(step && step->cuda_total == 100);
    gs_op_summary_free(&s);
    opts.regex = "^nothing$";
    CHECK_INT(summarise(p.traces.v[0], false, &opts, &s, &err), -1);
    CHECK_INT(err.code, GS_EXIT_USAGE);
    gs_profile_free(&p);
}

/* A trace without operators (a kernel, its launch): no rows, no GPU time attributed. */
static void test_no_operators(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("no_ops.json", 0);
    tb_api(t, "cudaLaunchKernel", 0, 10, 1);
    tb_kernel(t, "k", 20, 40, 1);
    tb_add(&p, t);
    gs_op_summary s;
    gs_error err;
    CHECK_INT(summarise(t, false, NULL, &s, &err), 0);
    CHECK_INT(s.nrows, 0);
    gs_op_summary_free(&s);
    gs_profile_free(&p);
}

/* The CPU shares are of the profiled CPU time, as key_averages' table computes them: the sum of
 * every event's self time, the CUDA calls' included (930 ns of operators' self time, 70 ns of
 * CUDA calls: 1000 ns, the step's whole range). No row is over 100 %: the step, which holds
 * everything, is exactly 100 % (it was 1000 / 930 = 107.5 % over the operators' self time). */
static void test_cpu_shares_of_profiled_time(void)
{
    gs_profile p = {0};
    tb_add(&p, build());
    gs_op_summary s;
    gs_error err;
    CHECK_INT(summarise(p.traces.v[0], false, NULL, &s, &err), 0);
    CHECK_INT(s.cpu_base, 1000);
    gs_table tab;
    CHECK_INT(gs_op_table(&s, &tab), 0);
    size_t total_col = 0, self_col = 0;
    for (size_t c = 0; c < tab.ncols; c++) {
        total_col = strcmp(tab.cols[c].key, "cpu_total_pct") ? total_col : c;
        self_col = strcmp(tab.cols[c].key, "self_cpu_pct") ? self_col : c;
    }
    for (size_t r = 0; r < tab.nrows; r++) {
        double total = gs_table_cell(&tab, r, total_col)->f;
        double self = gs_table_cell(&tab, r, self_col)->f;
        CHECK(total <= 100.0 + 1e-9);
        if (!strcmp(s.rows[r].name, "step"))
            CHECK(fabs(total - 100.0) < 1e-9 && fabs(self - 50.0) < 1e-9);
        if (!strcmp(s.rows[r].name, "aten::addmm"))
            CHECK(fabs(total - 30.0) < 1e-9 && fabs(self - 26.0) < 1e-9);
    }
    gs_table_free(&tab);
    gs_op_summary_free(&s);
    gs_profile_free(&p);
}

int main(void)
{
    test_cpu_shares_of_profiled_time();
    test_recursion_counted_once();
    test_autocast_addmm_counted_once();
    test_annotation_in_its_own_name_counted_once();
    test_step_counts_every_thread();
    test_self_and_total_through_nesting();
    test_group_by_shape();
    test_cpu_only_orders_by_cpu_total();
    test_no_operators();
    return check_done("test_op_summary");
}
