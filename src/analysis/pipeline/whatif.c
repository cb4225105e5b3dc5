/* The replays `gpuscope whatif` shows, one trace at a time (whatif.h). */
#include "analysis/pipeline/whatif.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/pipeline/roof_summary.h"
#include "analysis/trace/trace_facts.h"
#include "common/util.h"

static void rank_free(gs_whatif_rank *r)
{
    free(r->path);
    free(r->why);
    gs_replay_result_free(&r->unchanged);
    gs_replay_result_free(&r->together);
    for (int a = 0; a < GS_REPLAY__COUNT; a++)
        gs_replay_result_free(&r->alone[a]);
    memset(r, 0, sizeof *r);
}

void gs_whatif_free(gs_whatif *w)
{
    for (size_t i = 0; i < w->n; i++)
        rank_free(&w->ranks[i]);
    free(w->ranks);
    w->ranks = NULL;
    w->n = w->cap = w->replayed = 0;
}

/* An action by its speedup negated: ascending puts the best first. */
typedef struct ranked_action {
    double slower;
    uint8_t action;
} ranked_action;

/* r->order: the shown actions best speedup first, equal speedups in the actions' order. */
static void order_actions(gs_whatif_rank *r, gs_replay_set shown)
{
    ranked_action v[GS_REPLAY__COUNT];
    size_t n = 0;
    for (int a = GS_REPLAY_NONE + 1; a < GS_REPLAY__COUNT; a++)
        if (shown & GS_REPLAY_BIT(a))
            v[n++] = (ranked_action){-r->alone[a].speedup, (uint8_t)a};
    gs_stable_sort(v, n, sizeof *v, gs_cmp_double);
    for (r->norder = 0; r->norder < n; r->norder++)
        r->order[r->norder] = v[r->norder].action;
}

/* The unchanged replay, each shown action alone, the chosen ones together. */
static int replay_rank(const gs_whatif *w, const gs_replay *m, const gs_replay_params *p,
                       gs_whatif_rank *r, gs_error *err)
{
    if (gs_replay_run(m, 0, p, &r->unchanged, err) != 0 ||
        gs_replay_structural(m, &r->unchanged, err) != 0 ||
        gs_replay_run(m, w->actions, p, &r->together, err) != 0)
        return -1;
    r->alone_product = 1;
    for (int a = GS_REPLAY_NONE + 1; a < GS_REPLAY__COUNT; a++) {
        if (!(gs_whatif_shown(w) & GS_REPLAY_BIT(a)))
            continue;
        if (gs_replay_run(m, GS_REPLAY_BIT(a), p, &r->alone[a], err) != 0)
            return -1;
        if (w->actions & GS_REPLAY_BIT(a))
            r->alone_product *= r->alone[a].speedup;
    }
    order_actions(r, gs_whatif_shown(w));
    return 0;
}

static int add_rank(gs_whatif *w, const gs_trace_ctx *c, gs_whatif_rank *r, gs_error *err)
{
    r->rank = c->trace->id.rank;
    if (!(r->path = strdup(c->trace->id.path)))
        return gs_fail_oom(err);
    gs_trace_facts facts;
    gs_replay *m;
    const char *why;
    if (gs_trace_facts_build(c, &facts, err) != 0 || gs_replay_build(c, &facts, &m, &why, err) != 0)
        return -1;
    if (!m)
        return (r->why = strdup(why ? why : "nothing to replay")) ? 0 : gs_fail_oom(err);
    /* the roof target is the rank's own: its kept steps' largest operator group */
    gs_trace_ctx kept = gs_trace_ctx_over(c, &c->kept);
    gs_rank_roof roof;
    gs_replay_params p = w->params;
    int rc = gs_rank_roof_build(&kept, &roof, err);
    if (rc == 0) {
        gs_rank_roof_target(&roof, &p);
        rc = replay_rank(w, m, &p, r, err);
        gs_rank_roof_free(&roof);
    }
    gs_replay_free(m);
    w->replayed += rc == 0;
    return rc;
}

int gs_whatif_add(gs_whatif *w, const gs_trace_ctx *c, gs_error *err)
{
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 4;
        gs_whatif_rank *v = realloc(w->ranks, cap * sizeof *v);
        if (!v) {
            gs_whatif_free(w);
            return gs_fail_oom(err);
        }
        w->ranks = v;
        w->cap = cap;
    }
    gs_whatif_rank *r = &w->ranks[w->n++];
    memset(r, 0, sizeof *r);
    if (add_rank(w, c, r, err) != 0) {
        gs_whatif_free(w);
        return -1;
    }
    return 0;
}

void gs_whatif_finish(gs_whatif *w)
{
    gs_stable_sort_by_i32(w->ranks, w->n, sizeof *w->ranks, offsetof(gs_whatif_rank, rank));
}
