/* The analyses of a whole profile, as a command folds them over its traces: for each trace the
 * selection keeps (sel NULL: every trace), its context with the default steps over the whole
 * trace (tb_ctx), added, then freed; the result finished at the end. Each returns 0, or -1 with
 * err (the analysis has then freed what it built). */
#ifndef GS_TEST_PROFILE_FOLD_H
#define GS_TEST_PROFILE_FOLD_H

#include "analysis/crossrank/straggler.h"
#include "analysis/pipeline/merge.h"
#include "analysis/pipeline/summarise.h"
#include "analysis/trace/comm.h"
#include "analysis/trace/kernel_summary.h"
#include "analysis/trace/memcpy_summary.h"
#include "analysis/trace/op_summary.h"
#include "trace_builder.h"

static inline int fold_kernels(const gs_profile *p, const gs_select *sel, bool by_launch,
                               gs_kernel_summary *out, gs_error *err)
{
    if (gs_kernel_summary_init(out, by_launch, err) != 0)
        return -1;
    for (size_t i = 0; i < p->traces.n; i++) {
        if (!gs_selected(sel, &p->traces.v[i]->id))
            continue;
        gs_trace_ctx c = tb_ctx(p->traces.v[i], NULL);
        int rc = gs_kernel_summary_add(out, &c, err);
        gs_trace_ctx_free(&c);
        if (rc != 0)
            return -1;
    }
    return gs_kernel_summary_finish(out, err);
}

static inline int fold_ops(const gs_profile *p, const gs_select *sel, bool by_shape,
                           gs_op_summary *out, gs_error *err)
{
    if (gs_op_summary_init(out, by_shape, err) != 0)
        return -1;
    for (size_t i = 0; i < p->traces.n; i++) {
        if (!gs_selected(sel, &p->traces.v[i]->id))
            continue;
        gs_trace_ctx c = tb_ctx(p->traces.v[i], NULL);
        int rc = gs_op_summary_add(out, &c, err);
        gs_trace_ctx_free(&c);
        if (rc != 0)
            return -1;
    }
    gs_op_summary_finish(out);
    return 0;
}

static inline int fold_copies(const gs_profile *p, const gs_select *sel, gs_memcpy_summary *out,
                              gs_error *err)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < p->traces.n; i++) {
        if (!gs_selected(sel, &p->traces.v[i]->id))
            continue;
        gs_trace_ctx c = tb_ctx(p->traces.v[i], NULL);
        int rc = gs_memcpy_summary_add(out, &c, err);
        gs_trace_ctx_free(&c);
        if (rc != 0)
            return -1;
    }
    return gs_memcpy_summary_finish(out, err);
}

/* The communication of the selected ranks as comm shows it: each rank summarised for its
 * communication alone, then the summaries merged (analysis/pipeline/merge.h). */
static inline int fold_comm(const gs_profile *p, const gs_select *sel, bool hta_compat,
                            gs_comm *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    gs_rank_summary *v = calloc(p->traces.n + 1, sizeof *v);
    size_t n = 0;
    int rc = v ? 0 : -1;
    const gs_summarise_opts o = {.stages = GS_STAGE_COMM, .hta_compat = hta_compat};
    for (size_t i = 0; i < p->traces.n && rc == 0; i++) {
        if (!gs_selected(sel, &p->traces.v[i]->id))
            continue;
        gs_trace_ctx c = tb_ctx(p->traces.v[i], NULL);
        rc = gs_rank_summarise(&c, &o, &v[n], err);
        n += rc == 0;
        gs_trace_ctx_free(&c);
    }
    if (rc == 0) {
        gs_rank_summaries_sort(v, n);
        rc = gs_merge_comm(v, n, out);
        out->hta_compat = hta_compat;
    }
    for (size_t i = 0; i < n; i++)
        gs_rank_summary_free(&v[i]);
    free(v);
    return rc;
}

#define FOLD_MAX_RANKS 8

/* The stragglers among the selected ranks (at most FOLD_MAX_RANKS), as the report finds them:
 * each rank's collectives, steps and compute per step read from its context. */
static inline int fold_stragglers(const gs_profile *p, const gs_select *sel, bool align,
                                  gs_stragglers *out, gs_error *err)
{
    gs_trace_ctx ctx[FOLD_MAX_RANKS];
    gs_collectives coll[FOLD_MAX_RANKS];
    gs_strag_input in[FOLD_MAX_RANKS];
    size_t n = 0;
    int rc = 0;
    for (size_t i = 0; i < p->traces.n && rc == 0; i++) {
        if (!gs_selected(sel, &p->traces.v[i]->id))
            continue;
        if (n == FOLD_MAX_RANKS)
            abort();
        ctx[n] = tb_ctx(p->traces.v[i], NULL);
        in[n] = (gs_strag_input){.id = &p->traces.v[i]->id, .coll = &coll[n],
                                 .steps = &ctx[n].steps};
        rc = gs_collectives_find(&ctx[n], &coll[n], err);
        if (rc == 0 && (rc = gs_strag_compute_per_step(&ctx[n], &in[n].compute_ns)) != 0)
            gs_collectives_free(&coll[n]);
        if (rc != 0)
            gs_trace_ctx_free(&ctx[n]);
        else
            n++;
    }
    if (rc == 0)
        rc = gs_stragglers_from(in, n, align, out, err);
    for (size_t r = 0; r < n; r++) {
        gs_collectives_free(&coll[r]);
        gs_trace_ctx_free(&ctx[r]);
    }
    return rc;
}

#endif
