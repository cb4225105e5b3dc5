/* What the replay's known-answer tests share (test_replay_host.c, test_replay_gpu.c): an operator
 * that launches one GPU op, the steps, and a replay built from a trace made by hand, so that each
 * test writes only its timeline and the answer counted beside it. Times are whole microseconds
 * (US) from the step's start, so every answer is exact in ns. */
#ifndef GS_TEST_REPLAY_FIXTURE_H
#define GS_TEST_REPLAY_FIXTURE_H

#include "analysis/replay/replay.h"
#include "check.h"
#include "trace_builder.h"

#define US 1000
#define EW_KERNEL "void at::native::vectorized_elementwise_kernel<4, add>(int)"

/* The step's thread is TB_TID; a second host thread of the same process (autograd's backward). */
#define FX_TID2 102

/* ProfilerStep#k over [b, b + len] microseconds. */
static inline void fx_step(gs_trace *t, int k, gs_ns b, gs_ns len)
{
    char name[32];
    snprintf(name, sizeof name, "ProfilerStep#%d", k);
    tb_range(t, GS_RANGE_ANNOTATION, name, b, b + len * US, NULL);
}

/* An operator [op0, op1] holding one launch call [c0, c1] of a kernel [k0, k1], all in
 * microseconds from b; returns the next correlation id. */
static inline uint64_t fx_launch(gs_trace *t, gs_ns b, const char *op, gs_ns op0, gs_ns op1,
                                 gs_ns c0, gs_ns c1, const char *kernel, gs_ns k0, gs_ns k1,
                                 uint64_t corr)
{
    if (op)
        tb_range(t, GS_RANGE_OP, op, b + op0 * US, b + op1 * US, NULL);
    tb_api(t, "cudaLaunchKernel", b + c0 * US, b + c1 * US, corr);
    tb_kernel(t, kernel, b + k0 * US, b + k1 * US, corr);
    return corr + 1;
}

/* Moves the last operator and launch call added (fx_launch's) onto host thread tid. */
static inline void fx_on_thread(gs_trace *t, int64_t tid)
{
    t->ranges.v[t->ranges.n - 1].tid = tid;
    t->apis.v[t->apis.n - 1].tid = tid;
}

typedef struct replay_fx {
    gs_trace *t;
    gs_trace_ctx c;
    gs_trace_facts facts;
    gs_replay *m;
} replay_fx;

/* Indexes t and builds its context, facts and replay model (which must exist). */
static inline void fx_open(replay_fx *f, gs_trace *t)
{
    gs_error err;
    const char *why = NULL;
    f->t = t;
    if (gs_trace_index(t, &err) != 0)
        abort();
    f->c = tb_ctx(t, NULL);
    if (gs_trace_facts_build(&f->c, &f->facts, &err) != 0 ||
        gs_replay_build(&f->c, &f->facts, &f->m, &why, &err) != 0 || !f->m) {
        fprintf(stderr, "fx_open %s: %s\n", t->id.path, why ? why : err.msg);
        abort();
    }
}

static inline void fx_close(replay_fx *f)
{
    gs_replay_free(f->m);
    gs_trace_ctx_free(&f->c);
    gs_trace_delete(f->t);
    memset(f, 0, sizeof *f);
}

/* The replay with `actions`; the unchanged model must give back the measured steps, each of
 * `measured` (ns), on every trace of these tests. */
static inline gs_replay_result fx_run(const replay_fx *f, gs_replay_set actions,
                                      const gs_replay_params *p, gs_ns measured)
{
    gs_replay_result r;
    gs_error err;
    if (gs_replay_run(f->m, actions, p, &r, &err) != 0) {
        fprintf(stderr, "gs_replay_run: %s\n", err.msg);
        abort();
    }
    CHECK_INT(r.measured_mean_ns, measured);
    CHECK_INT(r.replayed_mean_ns, r.measured_mean_ns);
    for (size_t s = 0; s < r.nsteps; s++)
        CHECK_INT(r.steps[s].replayed_ns, r.steps[s].measured_ns);
    return r;
}

/* The mean replayed step with `actions` (ns). */
static inline gs_ns fx_changed(const replay_fx *f, gs_replay_set actions,
                               const gs_replay_params *p, gs_ns measured)
{
    gs_replay_result r = fx_run(f, actions, p, measured);
    gs_ns v = r.changed_mean_ns;
    gs_replay_result_free(&r);
    return v;
}

#endif
