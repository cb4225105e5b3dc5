/* STUB: replaced by the real model. Returns the measured kept steps unchanged. */
#include "analysis/replay/replay.h"

#include <stdlib.h>
#include <string.h>

struct gs_replay {
    gs_replay_step *steps;
    size_t n;
};

int gs_replay_build(const gs_trace_ctx *c, const gs_trace_facts *facts, gs_replay **out,
                    const char **why, gs_error *err)
{
    (void)facts;
    *out = NULL;
    *why = NULL;
    size_t n = 0;
    for (size_t i = 0; i < c->steps.n; i++)
        n += gs_step_kept(&c->steps, i) && c->steps.v[i].gpu_ops > 0;
    if (!n) {
        *why = "no kept step launched GPU work";
        return 0;
    }
    gs_replay *m = calloc(1, sizeof *m);
    if (!m || !(m->steps = calloc(n, sizeof *m->steps))) {
        free(m);
        return gs_fail_oom(err);
    }
    for (size_t i = 0; i < c->steps.n; i++)
        if (gs_step_kept(&c->steps, i) && c->steps.v[i].gpu_ops > 0) {
            gs_replay_step *s = &m->steps[m->n++];
            s->number = c->steps.v[i].number;
            s->measured_ns = s->replayed_ns = s->changed_ns = c->steps.v[i].end - c->steps.v[i].start;
        }
    *out = m;
    return 0;
}

void gs_replay_free(gs_replay *m)
{
    if (m) {
        free(m->steps);
        free(m);
    }
}

int gs_replay_run(const gs_replay *m, gs_replay_set actions, const gs_replay_params *p,
                  gs_replay_result *out, gs_error *err)
{
    (void)p;
    memset(out, 0, sizeof *out);
    out->actions = actions;
    if (!(out->steps = calloc(m->n, sizeof *out->steps)))
        return gs_fail_oom(err);
    memcpy(out->steps, m->steps, m->n * sizeof *m->steps);
    out->nsteps = m->n;
    gs_ns sum = 0;
    for (size_t i = 0; i < m->n; i++)
        sum += m->steps[i].measured_ns;
    out->measured_mean_ns = out->replayed_mean_ns = out->changed_mean_ns = sum / (gs_ns)m->n;
    out->speedup = 1.0;
    out->expected_step_ns = out->measured_mean_ns;
    return 0;
}

void gs_replay_result_free(gs_replay_result *r)
{
    free(r->steps);
    memset(r, 0, sizeof *r);
}
