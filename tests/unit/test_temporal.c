/* The temporal breakdown per rank (HTA semantics) on a trace built by hand. */
#include <math.h>

#include "analysis/trace/temporal.h"
#include "check.h"
#include "trace_builder.h"

#define US 1000

/* compute [0,100) | nccl [50,150) on stream 8 | copy [200,250) | compute [400,500) |
 * Stream Wait Event [500,510): window 510, busy 310, idle 200, compute 200, non-compute 110. */
static void build(gs_profile *p)
{
    gs_trace *t = tb_new("r3.json", 3);
    tb_kernel(t, "gemm", 0, 100 * US, 0);
    tb_kernel(t, "ncclDevKernel_AllReduce", 50 * US, 150 * US, 0);
    t->kernels.v[1].stream = 8;
    tb_memop(t, GS_MEMOP_HTOD, GS_LOC_PINNED, GS_LOC_DEVICE, 64, 200 * US, 250 * US, 0);
    t->memops.v[0].name = tb_str(t, "Memcpy HtoD (Pinned -> Device)"); /* HTA classifies names */
    tb_kernel(t, "relu", 400 * US, 500 * US, 0);
    gs_gpu_sync *s = GS_VEC_PUSH(&t->syncs);
    s->name = tb_str(t, "Stream Wait Event");
    s->stream = 7;
    s->start = 500 * US;
    s->end = 510 * US;
    s->api = GS_NONE;
    tb_add(p, t);
    tb_add(p, tb_new("cpu_only.json", 4));
}

/* The breakdown of the ranks `sel` selects, each over its whole trace, in rank order. */
static int temporal(const gs_profile *p, const gs_select *sel, bool hta_compat, gs_temporal *out,
                    gs_error *err)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < p->traces.n; i++) {
        if (!gs_selected(sel, &p->traces.v[i]->id))
            continue;
        gs_trace_ctx c = tb_ctx(p->traces.v[i], NULL);
        int rc = gs_temporal_add(out, &c, hta_compat, err);
        gs_trace_ctx_free(&c);
        if (rc != 0)
            return -1;
    }
    gs_temporal_finish(out);
    return 0;
}

static void check_row(const gs_temporal_row *r)
{
    CHECK_INT(r->rank, 3);
    CHECK_INT(r->activities, 5);
    CHECK_INT(r->window, 510 * US);
    CHECK_INT(r->busy, 310 * US);
    CHECK_INT(r->idle, 200 * US);
    CHECK_INT(r->compute, 200 * US);
    CHECK_INT(r->non_compute, 110 * US);
    CHECK(fabs(r->idle_pct - 100.0 * 200 / 510) < 1e-9);
    CHECK(fabs(r->idle_pct + r->compute_pct + r->non_compute_pct - 100.0) < 1e-9);
}

static void test_breakdown(void)
{
    gs_profile p = {0};
    build(&p);
    gs_temporal tp;
    gs_error err;
    CHECK_INT(temporal(&p, NULL, false, &tp, &err), 0);
    CHECK_INT(tp.nrows, 2);
    check_row(&tp.rows[0]);
    CHECK_INT(tp.rows[0].communication, 100 * US);
    CHECK_INT(tp.rows[0].memory, 50 * US);
    /* a trace without GPU work: an empty window, no division by zero */
    CHECK_INT(tp.rows[1].window, 0);
    CHECK(tp.rows[1].idle_pct == 0.0);
    gs_temporal_free(&tp);

    /* HTA 0.5.0 counts the nccl kernel as communication and Stream Wait Event as compute */
    CHECK_INT(temporal(&p, &(gs_select){.by_rank = true, .rank = 3}, true, &tp, &err), 0);
    CHECK_INT(tp.nrows, 1);
    CHECK_INT(tp.rows[0].compute, 210 * US);
    CHECK_INT(tp.rows[0].non_compute, 100 * US);
    gs_temporal_free(&tp);
    gs_profile_free(&p);
}

int main(void)
{
    test_breakdown();
    return check_done("test_temporal");
}
