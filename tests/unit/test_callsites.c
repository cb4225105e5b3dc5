/* Python call sites on a with_stack trace built by hand, with the answers worked out below.
 *
 * thread 101 (Python frames and CUDA calls):
 *   main.py(1): <module>              [0, 1000)
 *     nn.Module: Net_0                [100, 600)
 *       model.py(10): forward         [110, 590)
 *         nn.Module: Linear_0         [120, 300)
 *           cudaLaunchKernel [150, 160) -> k1 [200, 300)   100 ns
 *         nn.Module: Linear_1         [320, 500)
 *           cudaLaunchKernel [350, 360) -> k2 [400, 460)    60 ns
 *         cudaMemsetAsync [520, 530)  -> memset [540, 550)  10 ns
 *     main.py(5): helper              [700, 900)
 *       main.py(5): helper            [710, 800)            (recursion)
 *         cudaLaunchKernel [720, 730) -> k3 [800, 830)      30 ns
 * thread 102 (no Python frames: autograd's backward thread):
 *   cudaLaunchKernel [200, 210) -> k4 [900, 950)            50 ns
 *   an operator range on thread 101, not a Python frame: not in any table
 *
 * GPU time 250, of it 50 with no frame. <module>: GPU total 200 (4 launches), CPU 1000, self
 * 1000 - 500 - 200 = 300. forward: GPU total 170, self 10 (the memset), CPU self 480 - 2 x 180
 * = 120. helper: 2 calls, GPU total 30 once, CPU total 200 (the outer call), self 110 + 90. */
#include <math.h>

#include "analysis/trace/callsites.h"
#include "check.h"
#include "trace_builder.h"

static gs_trace *build(void)
{
    gs_trace *t = tb_new("stack.json", 0);
    tb_range(t, GS_RANGE_PYTHON, "main.py(1): <module>", 0, 1000, NULL);
    tb_range(t, GS_RANGE_PYTHON, "nn.Module: Net_0", 100, 600, NULL);
    tb_range(t, GS_RANGE_PYTHON, "model.py(10): forward", 110, 590, NULL);
    tb_range(t, GS_RANGE_PYTHON, "nn.Module: Linear_0", 120, 300, NULL);
    tb_range(t, GS_RANGE_PYTHON, "nn.Module: Linear_1", 320, 500, NULL);
    tb_range(t, GS_RANGE_PYTHON, "main.py(5): helper", 700, 900, NULL);
    tb_range(t, GS_RANGE_PYTHON, "main.py(5): helper", 710, 800, NULL);
    tb_range(t, GS_RANGE_OP, "aten::mm", 140, 170, NULL);
    tb_api(t, "cudaLaunchKernel", 150, 160, 1);
    tb_api(t, "cudaLaunchKernel", 350, 360, 2);
    tb_api(t, "cudaMemsetAsync", 520, 530, 3);
    tb_api(t, "cudaLaunchKernel", 720, 730, 4);
    tb_api(t, "cudaLaunchKernel", 200, 210, 5);
    t->apis.v[t->apis.n - 1].tid = TB_TID + 1;
    tb_kernel(t, "k1", 200, 300, 1);
    tb_kernel(t, "k2", 400, 460, 2);
    tb_memop(t, GS_MEMOP_MEMSET, GS_LOC_DEVICE, GS_LOC_DEVICE, 64, 540, 550, 3);
    tb_kernel(t, "k3", 800, 830, 4);
    tb_kernel(t, "k4", 900, 950, 5);
    return t;
}

/* The call sites of trace t (indexed) inside the window `window` asks for (NULL: the whole
 * trace). */
static int summarise(const gs_trace *t, const gs_window_spec *window, gs_callsites *s,
                     gs_error *err)
{
    gs_ctx_opts o = {0};
    if (window)
        o.window = *window;
    gs_trace_ctx c = tb_ctx(t, &o);
    int rc = gs_callsites_build(&c, s, err);
    gs_trace_ctx_free(&c);
    return rc;
}

static const gs_callsite_row *find(const gs_callsite_row *rows, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(rows[i].name, name))
            return &rows[i];
    return NULL;
}

static void check_row(const gs_callsite_row *r, uint64_t calls, gs_ns gpu_total, gs_ns gpu_self,
                      uint64_t launches, gs_ns cpu_total, gs_ns cpu_self)
{
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_INT(r->calls, calls);
    CHECK_INT(r->gpu_total, gpu_total);
    CHECK_INT(r->gpu_self, gpu_self);
    CHECK_INT(r->launches, launches);
    CHECK_INT(r->cpu_total, cpu_total);
    CHECK_INT(r->cpu_self, cpu_self);
}

static void test_flat_frames(void)
{
    gs_profile p = {0};
    tb_add(&p, build());
    gs_callsites s;
    gs_error err;
    CHECK_INT(summarise(p.traces.v[0], NULL, &s, &err), 0);
    CHECK_INT(s.gpu_time, 250);
    CHECK_INT(s.gpu_unattributed, 50);
    CHECK_INT(s.python_frames, 7);
    CHECK_INT(s.nframes, 6);
    /* GPU total desc: <module> 200, then Net_0 and forward (170, CPU total 500 before 480) */
    CHECK_STR(s.frames[0].name, "main.py(1): <module>");
    CHECK_STR(s.frames[1].name, "nn.Module: Net_0");
    CHECK_STR(s.frames[2].name, "model.py(10): forward");
    check_row(&s.frames[0], 1, 200, 0, 4, 1000, 300);
    check_row(&s.frames[1], 1, 170, 0, 3, 500, 20);
    check_row(&s.frames[2], 1, 170, 10, 3, 480, 120);
    check_row(find(s.frames, s.nframes, "nn.Module: Linear_0"), 1, 100, 100, 1, 180, 180);
    check_row(find(s.frames, s.nframes, "main.py(5): helper"), 2, 30, 30, 1, 200, 200);
    CHECK(find(s.frames, s.nframes, "aten::mm") == NULL);
    gs_callsites_free(&s);
    gs_profile_free(&p);
}

static void test_call_tree(void)
{
    gs_profile p = {0};
    tb_add(&p, build());
    gs_callsites s;
    gs_error err;
    CHECK_INT(summarise(p.traces.v[0], NULL, &s, &err), 0);
    /* depth first, siblings by GPU total: <module>, Net_0, forward, Linear_0, Linear_1, helper,
     * helper */
    static const char *const names[] = {"main.py(1): <module>", "nn.Module: Net_0",
                                        "model.py(10): forward", "nn.Module: Linear_0",
                                        "nn.Module: Linear_1", "main.py(5): helper",
                                        "main.py(5): helper"};
    static const int depth[] = {0, 1, 2, 3, 3, 1, 2};
    static const uint32_t parent[] = {GS_NONE, 0, 1, 2, 2, 0, 5};
    CHECK_INT(s.ntree, 7);
    for (size_t i = 0; i < s.ntree && i < 7; i++) {
        CHECK_STR(s.tree[i].name, names[i]);
        CHECK_INT(s.tree[i].depth, depth[i]);
        CHECK_INT(s.tree[i].parent, parent[i]);
    }
    if (s.ntree == 7) {
        check_row(&s.tree[5], 1, 30, 0, 1, 200, 110);
        check_row(&s.tree[6], 1, 30, 30, 1, 90, 90);
        check_row(&s.tree[4], 1, 60, 60, 1, 180, 180);
    }
    gs_callsites_free(&s);
    gs_profile_free(&p);
}

static void test_module_paths(void)
{
    gs_profile p = {0};
    tb_add(&p, build());
    gs_callsites s;
    gs_error err;
    CHECK_INT(summarise(p.traces.v[0], NULL, &s, &err), 0);
    CHECK_INT(s.nmodules, 3);
    if (s.nmodules == 3) {
        CHECK_STR(s.modules[0].name, "Net_0");
        CHECK_STR(s.modules[0].path, "Net_0");
        CHECK_STR(s.modules[1].path, "Net_0/Linear_0");
        CHECK_STR(s.modules[2].path, "Net_0/Linear_1");
        CHECK_INT(s.modules[2].depth, 1);
        /* the memset ran in forward, whose innermost module is Net_0: Net_0's own GPU time */
        check_row(&s.modules[0], 1, 170, 10, 3, 500, 140);
        check_row(&s.modules[1], 1, 100, 100, 1, 180, 180);
    }
    gs_callsites_free(&s);
    gs_profile_free(&p);
}

/* --to 650: the frames' time before 650 counts, helper (from 700) and k3 (launched at 720) not;
 * k4, launched at 200 on the other thread, is GPU time with no frame. */
static void test_window_clips_frames(void)
{
    gs_profile p = {0};
    tb_add(&p, build());
    gs_window_spec to_650 = {.on = true, .all_steps = true, .has_to = true, .to = 650};
    gs_callsites s;
    gs_error err;
    CHECK_INT(summarise(p.traces.v[0], &to_650, &s, &err), 0);
    CHECK_INT(s.gpu_time, 220);
    CHECK_INT(s.gpu_unattributed, 50);
    check_row(find(s.frames, s.nframes, "main.py(1): <module>"), 1, 170, 0, 3, 650, 150);
    CHECK(find(s.frames, s.nframes, "main.py(5): helper") == NULL);
    CHECK_INT(s.ntree, 5);
    gs_callsites_free(&s);
    gs_profile_free(&p);
}

static void test_no_python_frames(void)
{
    gs_profile p = {0};
    gs_trace *t = tb_new("plain.json", 0);
    tb_api(t, "cudaLaunchKernel", 0, 10, 1);
    tb_kernel(t, "k", 20, 40, 1);
    tb_add(&p, t);
    gs_callsites s;
    gs_error err;
    CHECK_INT(summarise(p.traces.v[0], NULL, &s, &err), 0);
    CHECK_INT(s.nframes + s.ntree + s.nmodules, 0);
    CHECK_INT(s.gpu_time, 20);
    CHECK_INT(s.gpu_unattributed, 20);
    gs_callsites_free(&s);
    gs_profile_free(&p);
}

int main(void)
{
    test_flat_frames();
    test_call_tree();
    test_module_paths();
    test_window_clips_frames();
    test_no_python_frames();
    return check_done("test_callsites");
}
