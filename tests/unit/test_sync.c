/* Sync points on a hand-made trace of two steps (times in µs); the expected numbers are worked
 * out in the comments.
 *
 *   step 1 [0, 1000):    aten::item [100,300) > aten::_local_scalar_dense [110,290)
 *                          cudaMemcpyAsync DtoH to pageable [120,130)      blocks 10
 *                          cudaStreamSynchronize [140,280), GPU Stream Sync [150,270)  blocks 140
 *                        cudaStreamWaitEvent [400,402) in no operator        counted, 0 blocked
 *   step 2 [1000, 2000): aten::to [1100,1300) > aten::_to_copy > aten::copy_ [1120,1280)
 *                          cudaMemcpy DtoH to pinned [1130,1230)           blocks 100
 *                        cudaDeviceSynchronize [1500,1550) in no operator   blocks 50
 *                        cudaMemcpyAsync HtoD from pinned [1600,1605)      does not block
 * Each step also launches one kernel so that the step detector keeps it. */
#include "analysis/trace/sync.h"
#include "check.h"
#include "trace_builder.h"

#define US 1000

static void op(gs_trace *t, const char *name, gs_ns a, gs_ns b)
{
    tb_range(t, GS_RANGE_OP, name, a * US, b * US, NULL);
}

static void copy(gs_trace *t, const char *api, gs_ns a, gs_ns b, enum gs_memop_kind kind,
                 enum gs_mem_loc src, enum gs_mem_loc dst, uint64_t corr)
{
    tb_api(t, api, a * US, b * US, corr);
    tb_memop(t, kind, src, dst, 4, (b + 5) * US, (b + 6) * US, corr);
}

static gs_trace *build(void)
{
    gs_trace *t = tb_new("sync.json", 0);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#1", 0, 1000 * US, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#2", 1000 * US, 2000 * US, NULL);
    tb_api(t, "cudaLaunchKernel", 10 * US, 15 * US, 1);
    tb_kernel(t, "k", 20 * US, 30 * US, 1);
    tb_api(t, "cudaLaunchKernel", 1010 * US, 1015 * US, 2);
    tb_kernel(t, "k", 1020 * US, 1030 * US, 2);

    op(t, "aten::item", 100, 300);
    op(t, "aten::_local_scalar_dense", 110, 290);
    copy(t, "cudaMemcpyAsync", 120, 130, GS_MEMOP_DTOH, GS_LOC_DEVICE, GS_LOC_PAGEABLE, 10);
    tb_api(t, "cudaStreamSynchronize", 140 * US, 280 * US, 11);
    gs_gpu_sync *g = GS_VEC_PUSH(&t->syncs);
    *g = (gs_gpu_sync){.start = 150 * US, .end = 270 * US, .name = tb_str(t, "Stream Sync"),
                       .stream = 7, .correlation = 11, .api = GS_NONE};
    tb_api(t, "cudaStreamWaitEvent", 400 * US, 402 * US, 0);

    op(t, "aten::to", 1100, 1300);
    op(t, "aten::_to_copy", 1110, 1290);
    op(t, "aten::copy_", 1120, 1280);
    copy(t, "cudaMemcpy", 1130, 1230, GS_MEMOP_DTOH, GS_LOC_DEVICE, GS_LOC_PINNED, 12);
    tb_api(t, "cudaDeviceSynchronize", 1500 * US, 1550 * US, 0);
    copy(t, "cudaMemcpyAsync", 1600, 1605, GS_MEMOP_HTOD, GS_LOC_PINNED, GS_LOC_DEVICE, 13);
    return t;
}

/* The sync summary of t (indexed) over its whole trace and default steps. */
static int summarise(const gs_trace *t, gs_sync_summary *s, gs_error *err)
{
    gs_trace_ctx c = tb_ctx(t, NULL);
    int rc = gs_sync_build(&c, s, err);
    gs_trace_ctx_free(&c);
    return rc;
}

static void check_cause(const gs_sync_cause *c, const char *op_name, const char *api,
                        enum gs_sync_kind kind, uint64_t calls, gs_ns blocked, gs_ns gpu_wait)
{
    CHECK_STR(c->op, op_name);
    CHECK_STR(c->api, api);
    CHECK_INT(c->kind, kind);
    CHECK_INT(c->calls, calls);
    CHECK_INT(c->blocked, blocked);
    CHECK_INT(c->gpu_wait, gpu_wait);
}

int main(void)
{
    gs_profile p = {0};
    tb_add(&p, build());
    gs_sync_summary s;
    gs_error err;
    CHECK_INT(summarise(p.traces.v[0], &s, &err), 0);
    CHECK_INT(s.ncauses, 5);
    CHECK_INT(s.nranks, 1);
    if (s.ncauses == 5) {
        /* blocked descending; the wait-event row last with 0 */
        check_cause(&s.causes[0], "aten::item", "cudaStreamSynchronize", GS_SYNC_STREAM, 1,
                    140 * US, 120 * US);
        check_cause(&s.causes[1], "aten::to", "cudaMemcpy", GS_SYNC_MEMCPY, 1, 100 * US, 0);
        check_cause(&s.causes[2], "(no operator)", "cudaDeviceSynchronize", GS_SYNC_DEVICE, 1,
                    50 * US, 0);
        check_cause(&s.causes[3], "aten::item", "cudaMemcpyAsync", GS_SYNC_MEMCPY_PAGEABLE, 1,
                    10 * US, 0);
        check_cause(&s.causes[4], "(no operator)", "cudaStreamWaitEvent", GS_SYNC_WAIT_EVENT, 1,
                    0, 0);
    }
    if (s.nranks == 1) {
        const gs_sync_rank *r = &s.ranks[0];
        CHECK_INT(r->calls, 4);
        CHECK_INT(r->blocked, 300 * US);
        CHECK_INT(r->gpu_wait, 120 * US);
        CHECK_INT(r->wait_event_calls, 1);
        CHECK_INT(r->nsteps, 2);
        if (r->nsteps == 2) {
            CHECK_INT(r->steps[0].calls, 2);
            CHECK_INT(r->steps[0].blocked, 150 * US);
            CHECK_INT(r->steps[1].calls, 2);
            CHECK_INT(r->steps[1].blocked, 150 * US);
            gs_ns d0 = r->steps[0].end - r->steps[0].start;
            double want = 1.5e7 / (double)d0; /* 150 µs of the step, in % */
            CHECK(r->steps[0].pct > want - 1e-9 && r->steps[0].pct < want + 1e-9);
        }
        CHECK_INT(r->kept_blocked, 300 * US);
        CHECK(r->kept_step_time >= 2000 * US);
        /* share of the kept step time: 140 / Σ steps for the first cause */
        CHECK(s.causes[0].step_pct > 1.4e7 / (double)s.kept_step_time - 1e-9 &&
              s.causes[0].step_pct < 1.4e7 / (double)s.kept_step_time + 1e-9);
    }
    CHECK_STR(gs_sync_kind_name(GS_SYNC_MEMCPY_PAGEABLE), "pageable memcpy");
    gs_sync_summary_free(&s);
    gs_profile_free(&p);

    /* Legacy traces record the step as an operator: it is still no cause. A user annotation
     * inside it is, when no operator encloses the call. */
    gs_trace *t = tb_new("legacy.json", 0);
    tb_range(t, GS_RANGE_OP, "ProfilerStep#1", 0, 1000 * US, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, "eval", 100 * US, 900 * US, NULL);
    tb_api(t, "cudaDeviceSynchronize", 200 * US, 300 * US, 0);
    tb_api(t, "cudaLaunchKernel", 10 * US, 15 * US, 1);
    tb_kernel(t, "k", 20 * US, 30 * US, 1);
    p = (gs_profile){0};
    tb_add(&p, t);
    CHECK_INT(summarise(t, &s, &err), 0);
    CHECK_INT(s.ncauses, 1);
    if (s.ncauses == 1)
        check_cause(&s.causes[0], "eval", "cudaDeviceSynchronize", GS_SYNC_DEVICE, 1, 100 * US, 0);
    gs_sync_summary_free(&s);
    gs_profile_free(&p);
    return check_done("test_sync");
}
