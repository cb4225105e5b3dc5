#include "analysis/pipeline/summary.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int gs_rank_summary_init(gs_rank_summary *s, const gs_rank_id *id, gs_error *err)
{
    memset(s, 0, sizeof *s);
    return gs_rank_id_copy(&s->id, id) == 0 ? 0 : gs_fail_oom(err);
}

/* The summary's copies of strings the analyses' structs declare const. */
static void disown(const char *s)
{
    free((void *)(uintptr_t)s);
}

void gs_rank_summary_free(gs_rank_summary *s)
{
    gs_rank_id_free(&s->id);
    free(s->format);
    gs_steps_free(&s->steps);
    gs_gpu_metrics_free(&s->gpu);
    free(s->sync_top_op);
    gs_collectives_free(&s->coll);
    free(s->kinds);
    free(s->comm_steps);
    for (size_t i = 0; i < s->nkernels; i++)
        free(s->kernels[i].name);
    free(s->kernels);
    for (size_t i = 0; i < s->nops; i++)
        free(s->ops[i].name);
    free(s->ops);
    for (size_t i = 0; i < s->ndevices; i++)
        disown(s->devices[i].name);
    free(s->devices);
    for (size_t i = 0; i < s->ngaps; i++) {
        const gs_gap *g = &s->gaps[i];
        disown(g->before);
        disown(g->after);
        disown(g->host.op);
        disown(g->host.api);
        disown(g->host.sync_api);
    }
    free(s->gaps);
    free(s->copies);
    gs_rank_series_free(&s->series);
    gs_rank_roof_free(&s->roof);
    gs_rank_detail_free(s->detail);
    memset(s, 0, sizeof *s);
}

static int cmp_summary(const void *pa, const void *pb)
{
    return gs_rank_id_cmp(&((const gs_rank_summary *)pa)->id, &((const gs_rank_summary *)pb)->id);
}

void gs_rank_summaries_sort(gs_rank_summary *ranks, size_t n)
{
    if (n > 1)
        qsort(ranks, n, sizeof *ranks, cmp_summary);
    /* the summaries moved: their rows point at their own paths again */
    for (size_t i = 0; i < n; i++)
        ranks[i].comm.path = ranks[i].temporal.path = ranks[i].id.path;
}
