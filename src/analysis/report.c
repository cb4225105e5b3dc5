#include "analysis/report.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The launch and sync results of the trace a breakdown is about (same profile, same order). */
static const gs_launch_rank *launch_of(const gs_report *r, const gs_trace *t)
{
    for (size_t i = 0; i < r->launch.nranks; i++)
        if (r->launch.ranks[i].path == t->path)
            return &r->launch.ranks[i];
    return NULL;
}

static const gs_sync_rank *sync_of(const gs_report *r, const gs_trace *t)
{
    for (size_t i = 0; i < r->sync.nranks; i++)
        if (r->sync.ranks[i].path == t->path)
            return &r->sync.ranks[i];
    return NULL;
}

/* The operator under which trace t blocks most, owned by *out (NULL when none). The profile's
 * causes pool every rank, so with several ranks one rank's evidence would name another's. */
static int own_top_sync_op(const gs_report *r, const gs_trace *t, const gs_step_opts *steps,
                           char **out, gs_error *err)
{
    *out = NULL;
    const char *op = r->sync.ncauses ? r->sync.causes[0].op : NULL;
    gs_sync_summary one_sync = {0};
    if (r->breakdown.n > 1) {
        gs_trace *one[1] = {(gs_trace *)t};
        const gs_profile one_trace = {.traces = {.v = one, .n = 1, .cap = 1}};
        if (gs_sync_build(&one_trace, NULL, steps, &one_sync, err) != 0)
            return -1;
        op = one_sync.ncauses ? one_sync.causes[0].op : NULL;
    }
    *out = op ? strdup(op) : NULL;
    gs_sync_summary_free(&one_sync);
    return op && !*out ? gs_fail_oom(err) : 0;
}

/* Stragglers are a property of the whole profile: one analysis, read by every rank's verdict. */
static int diagnose_ranks(const gs_profile *p, const gs_select *sel, const gs_report_opts *opts,
                          gs_report *r, gs_error *err)
{
    r->ranks = calloc(r->breakdown.n ? r->breakdown.n : 1, sizeof *r->ranks);
    if (!r->ranks)
        return gs_fail_oom(err);
    const gs_strag_opts strag_opts = {.align = true, .steps = opts->steps};
    if (r->breakdown.n > 1 && gs_stragglers_build(p, sel, &strag_opts, &r->stragglers, err) != 0)
        return -1;
    r->nranks = r->breakdown.n;
    for (size_t i = 0; i < r->nranks; i++) {
        gs_report_rank *rr = &r->ranks[i];
        const gs_bd_trace *bd = &r->breakdown.v[i];
        rr->breakdown = bd;
        if (own_top_sync_op(r, bd->trace, &opts->steps, &rr->sync_top_op, err) != 0)
            return -1;
        gs_diag_sources src = {
            .breakdown = bd,
            .launch = launch_of(r, bd->trace),
            .sync = sync_of(r, bd->trace),
            .sync_top_op = rr->sync_top_op,
            .memory = &r->memory,
            .stragglers = r->breakdown.n > 1 ? &r->stragglers : NULL,
        };
        if (gs_diag_inputs_build(bd->trace, &src, &rr->inputs, err) != 0)
            return -1;
        if (gs_diagnose(&rr->inputs, &rr->diagnosis) != 0)
            return gs_fail_oom(err);
    }
    return 0;
}

/* The analyses are pure functions of the profile: two groups of about equal cost run on two
 * cores at once, then the verdict reads both. */
typedef struct report_job {
    const gs_profile *p;
    const gs_select *sel;
    const gs_report_opts *opts;
    gs_report *out;
    gs_error err;
    int rc;
} report_job;

static void *run_device_side(void *arg)
{
    report_job *j = arg;
    gs_bd_opts bd_opts = {.steps = j->opts->steps};
    j->rc = gs_breakdown_build(j->p, j->sel, &bd_opts, &j->out->breakdown, &j->err) != 0 ||
                    gs_launch_build(j->p, j->sel, &j->opts->steps, &j->out->launch, &j->err) != 0 ||
                    gs_sync_build(j->p, j->sel, &j->opts->steps, &j->out->sync, &j->err) != 0 ||
                    gs_kernel_summary_build(j->p, j->sel, false, &j->out->kernels, &j->err) != 0 ||
                    gs_temporal_build(j->p, j->sel, false, &j->out->temporal, &j->err) != 0
                ? -1
                : 0;
    return NULL;
}

static void run_host_side(report_job *j)
{
    gs_idle_opts idle_opts = {.max_gaps = j->opts->gaps, .steps = &j->opts->steps};
    gs_comm_opts comm_opts = {.steps = &j->opts->steps};
    j->rc = gs_profile_facts_build(j->p, j->sel, &j->out->facts, &j->err) != 0 ||
                    gs_memory_build(j->p, j->sel, &j->opts->steps, &j->out->memory, &j->err) != 0 ||
                    gs_idle_build(j->p, j->sel, &idle_opts, &j->out->idle, &j->err) != 0 ||
                    gs_comm_build(j->p, j->sel, &comm_opts, &j->out->comm, &j->err) != 0 ||
                    gs_op_summary_build(j->p, j->sel, false, &j->out->ops, &j->err) != 0 ||
                    gs_memcpy_summary_build(j->p, j->sel, &j->out->memcpy, &j->err) != 0
                ? -1
                : 0;
}

int gs_report_build(const gs_profile *p, const gs_select *sel, const gs_report_opts *opts,
                    gs_report *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    report_job device = {p, sel, opts, out, {0}, 0}, host = device;
    pthread_t thread;
    bool threaded = pthread_create(&thread, NULL, run_device_side, &device) == 0;
    if (!threaded)
        run_device_side(&device); /* no second thread to be had: one after the other */
    run_host_side(&host);
    if (threaded)
        pthread_join(thread, NULL);
    const report_job *failed = device.rc ? &device : host.rc ? &host : NULL;
    if (failed) {
        if (err)
            *err = failed->err;
        gs_report_free(out);
        return -1;
    }
    if (diagnose_ranks(p, sel, opts, out, err) != 0) {
        gs_report_free(out);
        return -1;
    }
    return 0;
}

void gs_report_free(gs_report *r)
{
    for (size_t i = 0; i < r->nranks; i++) {
        gs_diagnosis_free(&r->ranks[i].diagnosis);
        free(r->ranks[i].sync_top_op);
    }
    free(r->ranks);
    gs_stragglers_free(&r->stragglers);
    gs_profile_facts_free(&r->facts);
    gs_breakdown_free(&r->breakdown);
    gs_launch_summary_free(&r->launch);
    gs_sync_summary_free(&r->sync);
    gs_memory_summary_free(&r->memory);
    gs_temporal_free(&r->temporal);
    gs_idle_free(&r->idle);
    gs_comm_free(&r->comm);
    gs_kernel_summary_free(&r->kernels);
    gs_op_summary_free(&r->ops);
    gs_memcpy_summary_free(&r->memcpy);
    memset(r, 0, sizeof *r);
}
