#include "analysis/trace/temporal.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/intervals.h"
#include "analysis/base/kernel_class.h"
#include "common/log.h"
#include "common/util.h"

static double pct(gs_ns part, gs_ns whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* |union| of the activities of one class (all classes when cls < 0). */
static int measure_class_union(const gs_activities *acts, int cls, gs_spans *tmp, gs_ns *len)
{
    tmp->n = 0;
    for (size_t i = 0; i < acts->n; i++)
        if ((cls < 0 || acts->v[i].kclass == cls) &&
            gs_spans_add(tmp, acts->v[i].start, acts->v[i].end) != 0)
            return -1;
    gs_spans_merge(tmp);
    *len = gs_spans_length(tmp);
    return 0;
}

static int fill_row(const gs_trace_ctx *c, bool hta_compat, gs_activities *acts, gs_spans *tmp,
                    gs_temporal_row *row)
{
    /* GPU-side sync records with a stream are busy, non-compute time in HTA's temporal breakdown: a
     * stream waiting on an event holds the queue even though no SM works, so both modes count
     * them and the numbers mean the same. */
    const gs_activity_opts ao = {.hta_compat = hta_compat, .with_syncs = true,
                                 .window = &c->window};
    memset(row, 0, sizeof *row);
    row->rank = c->trace->id.rank;
    row->path = strdup(c->trace->id.path);
    if (!row->path || gs_activities_collect(c, &ao, acts) != 0)
        return -1;
    row->activities = acts->n;
    if (acts->n == 0)
        return 0;
    row->window_start = acts->v[0].start;
    row->window_end = acts->v[0].end;
    for (size_t i = 0; i < acts->n; i++)
        if (acts->v[i].end > row->window_end)
            row->window_end = acts->v[i].end;
    row->window = row->window_end - row->window_start;
    if (measure_class_union(acts, -1, tmp, &row->busy) != 0 ||
        measure_class_union(acts, GS_KCLASS_COMPUTE, tmp, &row->compute) != 0 ||
        measure_class_union(acts, GS_KCLASS_COMMUNICATION, tmp, &row->communication) != 0 ||
        measure_class_union(acts, GS_KCLASS_MEMORY, tmp, &row->memory) != 0)
        return -1;
    row->idle = row->window - row->busy;
    row->non_compute = row->busy - row->compute;
    row->idle_pct = pct(row->idle, row->window);
    row->compute_pct = pct(row->compute, row->window);
    row->non_compute_pct = pct(row->non_compute, row->window);
    return 0;
}

int gs_temporal_row_fill(const gs_trace_ctx *c, bool hta_compat, gs_temporal_row *row)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    gs_activities acts = {0};
    gs_spans tmp = {0};
    int rc = fill_row(c, hta_compat, &acts, &tmp, row);
    free(acts.v);
    gs_spans_free(&tmp);
    if (rc != 0)
        gs_temporal_row_free(row);
    else
        GS_LOG_TOOK(logged_at, "temporal breakdown");
    return rc;
}

void gs_temporal_row_free(gs_temporal_row *row)
{
    free(row->path);
    memset(row, 0, sizeof *row);
}

int gs_temporal_add(gs_temporal *t, const gs_trace_ctx *c, bool hta_compat, gs_error *err)
{
    t->hta_compat = hta_compat;
    gs_temporal_row *grown = realloc(t->rows, (t->nrows + 1) * sizeof *grown);
    if (!grown || gs_temporal_row_fill(c, hta_compat, &grown[t->nrows]) != 0) {
        if (grown)
            t->rows = grown;
        gs_temporal_free(t);
        return gs_fail_oom(err);
    }
    t->rows = grown;
    t->nrows++;
    return 0;
}

void gs_temporal_finish(gs_temporal *t)
{
    gs_stable_sort_by_i32(t->rows, t->nrows, sizeof *t->rows, offsetof(gs_temporal_row, rank));
}

int gs_temporal_build(const gs_trace_ctx *c, bool hta_compat, gs_temporal *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    return gs_temporal_add(out, c, hta_compat, err);
}

void gs_temporal_free(gs_temporal *t)
{
    for (size_t i = 0; i < t->nrows; i++)
        gs_temporal_row_free(&t->rows[i]);
    free(t->rows);
    memset(t, 0, sizeof *t);
}
