#include "analysis/pipeline/report.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/stage_times.h"
#include "analysis/diagnosis/diag_inputs.h"
#include "analysis/pipeline/merge.h"
#include "analysis/pipeline/runs.h"
#include "common/log.h"
#include "common/vec.h"

/* One rank's breakdown (its summary's steps, averages and GPU metrics, copied) and temporal
 * row. */
static int fill_rank(gs_report *r, size_t i)
{
    const gs_rank_summary *s = &r->summaries[i];
    gs_bd_trace *b = &r->breakdown.v[i];
    r->breakdown.n++;
    b->steps = s->steps;
    b->nkept = s->nkept;
    b->avg_total_ns = s->avg_total_ns;
    for (int c = 0; c < GS_BD__COUNT; c++) {
        b->avg_ns[c] = s->avg_ns[c];
        b->avg_pct[c] = b->avg_total_ns > 0 ? b->avg_ns[c] * 100.0 / b->avg_total_ns : 0;
    }
    b->gpu = s->gpu;
    b->steps.v = NULL;
    b->gpu.v = gs_array_new(s->gpu.n, sizeof *b->gpu.v);
    if (!b->gpu.v || gs_rank_id_copy(&b->id, &s->id) != 0 ||
        gs_steps_copy(&b->steps, &s->steps) != 0)
        return -1;
    if (s->gpu.n)
        memcpy(b->gpu.v, s->gpu.v, s->gpu.n * sizeof *b->gpu.v);
    r->temporal.rows[i] = s->temporal;
    r->temporal.nrows++;
    if (!(r->temporal.rows[i].path = strdup(s->id.path)))
        return -1;
    r->ranks[i].summary = s;
    r->ranks[i].breakdown = b;
    return 0;
}

/* Every rank's verdict: its own inputs plus the straggler finding, which is a property of the
 * ranks together. */
static int diagnose_ranks(gs_report *r)
{
    for (size_t i = 0; i < r->nranks; i++) {
        gs_rank_summary *s = &r->summaries[i];
        gs_diag_straggler_inputs(&s->id, r->nranks > 1 ? &r->stragglers : NULL, &s->inputs);
        if (gs_diagnose(&s->inputs, &r->ranks[i].diagnosis) != 0)
            return -1;
    }
    return 0;
}

static bool merging(const gs_report *r, unsigned stage)
{
    return (r->stages & stage) != 0;
}

static int merge_sections(gs_report *r)
{
    const gs_rank_summary *v = r->summaries;
    size_t n = r->nsummaries;
    for (size_t i = 0; i < n && merging(r, GS_STAGE_BREAKDOWN | GS_STAGE_TEMPORAL); i++)
        if (fill_rank(r, i) != 0)
            return -1;
    if (merging(r, GS_STAGE_COMM)) {
        if (gs_merge_comm(v, n, &r->comm) != 0)
            return -1;
        r->comm.hta_compat = r->hta_compat;
    }
    return (merging(r, GS_STAGE_FACTS) && gs_merge_facts(v, n, &r->facts, &r->has_devices) != 0) ||
                   (merging(r, GS_STAGE_IDLE) &&
                    gs_merge_gaps(v, n, &r->idle, &r->has_gaps) != 0) ||
                   (merging(r, GS_STAGE_KERNELS) &&
                    gs_merge_kernels(v, n, &r->kernels, &r->kernel_spread) != 0) ||
                   (merging(r, GS_STAGE_OPS) && gs_merge_ops(v, n, &r->ops) != 0) ||
                   (merging(r, GS_STAGE_COPIES) &&
                    gs_merge_copies(v, n, &r->memcpy, &r->has_copies, &r->copy_spread) != 0)
               ? -1
               : 0;
}

int gs_report_build(gs_rank_summary *ranks, size_t n, const gs_report_opts *o, gs_report *out,
                    gs_error *err)
{
    memset(out, 0, sizeof *out);
    double since = gs_stage_clock();
    gs_rank_summaries_sort(ranks, n);
    out->summaries = ranks;
    out->nsummaries = n;
    out->stages = o->stages;
    out->hta_compat = o->hta_compat;
    char names[200];
    GS_LOG(GS_LOG_INFO, "report: %zu rank(s) merged for: %s", n,
           gs_stages_describe(o->stages, names, sizeof names));
    /* Several runs in the inputs: refuse with the runs listed rather than merge them. */
    if (gs_runs_check(ranks, n, err) != 0) {
        gs_report_free(out);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        out->from_gsum += ranks[i].from_gsum;
    size_t m = n ? n : 1;
    out->breakdown.v = gs_array_zeroed(m, sizeof *out->breakdown.v);
    out->temporal.rows = gs_array_zeroed(m, sizeof *out->temporal.rows);
    out->ranks = gs_array_zeroed(m, sizeof *out->ranks);
    if (!out->breakdown.v || !out->temporal.rows || !out->ranks) {
        gs_report_free(out);
        return gs_fail_oom(err);
    }
    out->nranks = n;
    if (merging(out, GS_STAGE_STRAGGLERS | GS_STAGE_DIAGNOSIS) &&
        gs_merge_stragglers(ranks, n, o->align, &out->stragglers, err) != 0) {
        gs_report_free(out);
        return -1;
    }
    int rc = merge_sections(out);
    gs_stage_time_add(GS_TIMED_MERGE, since);
    if (rc == 0 && merging(out, GS_STAGE_DIAGNOSIS)) {
        since = gs_stage_clock();
        rc = diagnose_ranks(out);
        gs_stage_time_add(GS_TIMED_VERDICT, since);
    }
    if (rc != 0) {
        gs_report_free(out);
        return gs_fail_oom(err);
    }
    return 0;
}

void gs_report_free(gs_report *r)
{
    for (size_t i = 0; r->ranks && i < r->nranks; i++)
        gs_diagnosis_free(&r->ranks[i].diagnosis);
    free(r->ranks);
    gs_breakdown_free(&r->breakdown);
    gs_temporal_free(&r->temporal);
    gs_profile_facts_free(&r->facts);
    gs_comm_free(&r->comm);
    gs_idle_free(&r->idle);
    gs_kernel_summary_free(&r->kernels);
    gs_op_summary_free(&r->ops);
    gs_memcpy_summary_free(&r->memcpy);
    gs_stragglers_free(&r->stragglers);
    for (size_t i = 0; i < r->nsummaries; i++)
        gs_rank_summary_free(&r->summaries[i]);
    free(r->summaries);
    memset(r, 0, sizeof *r);
}
