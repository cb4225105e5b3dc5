#include "analysis/pipeline/report.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/diagnosis/diag_inputs.h"
#include "analysis/pipeline/merge.h"
#include "analysis/pipeline/runs.h"

/* One rank's breakdown (a view of its summary's steps and GPU metrics) and temporal row. */
static void fill_rank(gs_report *r, size_t i)
{
    gs_rank_summary *s = &r->summaries[i];
    gs_bd_trace *b = &r->breakdown.v[i];
    b->trace = &s->id;
    b->rank = s->id.rank;
    b->steps = s->steps;
    b->nkept = s->nkept;
    b->avg_total_ns = s->avg_total_ns;
    for (int c = 0; c < GS_BD__COUNT; c++) {
        b->avg_ns[c] = s->avg_ns[c];
        b->avg_pct[c] = b->avg_total_ns > 0 ? b->avg_ns[c] * 100.0 / b->avg_total_ns : 0;
    }
    b->gpu = s->gpu;
    r->temporal.rows[i] = s->temporal;
    r->ranks[i].summary = s;
    r->ranks[i].breakdown = b;
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

static int merge_sections(gs_report *r)
{
    const gs_rank_summary *v = r->summaries;
    size_t n = r->nsummaries;
    return gs_merge_facts(v, n, &r->facts, &r->has_devices) != 0 ||
                   gs_merge_comm(v, n, &r->comm) != 0 ||
                   gs_merge_gaps(v, n, &r->idle, &r->has_gaps) != 0 ||
                   gs_merge_kernels(v, n, &r->kernels, &r->kernel_spread) != 0 ||
                   gs_merge_ops(v, n, &r->ops) != 0 ||
                   gs_merge_copies(v, n, &r->memcpy, &r->has_copies, &r->copy_spread) != 0 ||
                   diagnose_ranks(r) != 0
               ? -1
               : 0;
}

int gs_report_build(gs_rank_summary *ranks, size_t n, bool align, gs_report *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    gs_rank_summaries_sort(ranks, n);
    out->summaries = ranks;
    out->nsummaries = n;
    /* Several runs in the inputs: refuse with the runs listed rather than merge them. */
    if (gs_runs_check(ranks, n, err) != 0) {
        gs_report_free(out);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        out->from_gsum += ranks[i].from_gsum;
    size_t m = n ? n : 1;
    out->breakdown.v = calloc(m, sizeof *out->breakdown.v);
    out->temporal.rows = calloc(m, sizeof *out->temporal.rows);
    out->ranks = calloc(m, sizeof *out->ranks);
    if (!out->breakdown.v || !out->temporal.rows || !out->ranks) {
        gs_report_free(out);
        return gs_fail_oom(err);
    }
    out->breakdown.n = out->temporal.nrows = out->nranks = n;
    for (size_t i = 0; i < n; i++)
        fill_rank(out, i);
    if (gs_merge_stragglers(ranks, n, align, &out->stragglers, err) != 0) {
        gs_report_free(out);
        return -1;
    }
    if (merge_sections(out) != 0) {
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
    free(r->breakdown.v); /* views: the steps and GPU metrics are the summaries' */
    free(r->temporal.rows);
    gs_profile_facts_free(&r->facts);
    gs_comm_free(&r->comm);
    free(r->idle.gaps); /* the strings are the summaries' */
    free(r->kernels.rows);
    free(r->ops.rows);
    free(r->memcpy.rows);
    gs_stragglers_free(&r->stragglers);
    for (size_t i = 0; i < r->nsummaries; i++)
        gs_rank_summary_free(&r->summaries[i]);
    free(r->summaries);
    memset(r, 0, sizeof *r);
}
