#include "analysis/report.h"

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

static int diagnose_ranks(gs_report *r, gs_error *err)
{
    r->ranks = calloc(r->breakdown.n ? r->breakdown.n : 1, sizeof *r->ranks);
    if (!r->ranks)
        return gs_fail_oom(err);
    r->nranks = r->breakdown.n;
    for (size_t i = 0; i < r->nranks; i++) {
        gs_report_rank *rr = &r->ranks[i];
        const gs_bd_trace *bd = &r->breakdown.v[i];
        rr->breakdown = bd;
        gs_diag_sources src = {
            .breakdown = bd,
            .launch = launch_of(r, bd->trace),
            .sync = sync_of(r, bd->trace),
            .sync_top_op = r->sync.ncauses ? r->sync.causes[0].op : NULL,
            .memory = &r->memory,
        };
        if (gs_diag_inputs_build(bd->trace, &src, &rr->inputs, err) != 0)
            return -1;
        if (gs_diagnose(&rr->inputs, &rr->diagnosis) != 0)
            return gs_fail_oom(err);
    }
    return 0;
}

int gs_report_build(const gs_profile *p, const gs_select *sel, const gs_report_opts *opts,
                    gs_report *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    gs_bd_opts bd_opts = {.steps = opts->steps};
    gs_idle_opts idle_opts = {.max_gaps = opts->gaps, .steps = &opts->steps};
    if (gs_profile_facts_build(p, sel, &out->facts, err) != 0 ||
        gs_breakdown_build(p, sel, &bd_opts, &out->breakdown, err) != 0 ||
        gs_launch_build(p, sel, &opts->steps, &out->launch, err) != 0 ||
        gs_sync_build(p, sel, &opts->steps, &out->sync, err) != 0 ||
        gs_memory_build(p, sel, &opts->steps, &out->memory, err) != 0 ||
        gs_temporal_build(p, sel, false, &out->temporal, err) != 0 ||
        gs_idle_build(p, sel, &idle_opts, &out->idle, err) != 0 ||
        diagnose_ranks(out, err) != 0 ||
        gs_kernel_summary_build(p, sel, false, &out->kernels, err) != 0 ||
        gs_op_summary_build(p, sel, false, &out->ops, err) != 0 ||
        gs_memcpy_summary_build(p, sel, &out->memcpy, err) != 0) {
        gs_report_free(out);
        return -1;
    }
    return 0;
}

void gs_report_free(gs_report *r)
{
    for (size_t i = 0; i < r->nranks; i++)
        gs_diagnosis_free(&r->ranks[i].diagnosis);
    free(r->ranks);
    gs_profile_facts_free(&r->facts);
    gs_breakdown_free(&r->breakdown);
    gs_launch_summary_free(&r->launch);
    gs_sync_summary_free(&r->sync);
    gs_memory_summary_free(&r->memory);
    gs_temporal_free(&r->temporal);
    gs_idle_free(&r->idle);
    gs_kernel_summary_free(&r->kernels);
    gs_op_summary_free(&r->ops);
    gs_memcpy_summary_free(&r->memcpy);
    memset(r, 0, sizeof *r);
}
