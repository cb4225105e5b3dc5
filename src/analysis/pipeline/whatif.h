/* What `gpuscope whatif` shows (doc/whatif.md): each trace's kept steps replayed
 * (analysis/replay/replay.h) unchanged, with each action alone, and with the chosen actions
 * together. Built one trace at a time: _add replays a trace's context and keeps only the results,
 * which own their steps, so the trace can be dropped; _finish puts the ranks in order. */
#ifndef GS_ANALYSIS_PIPELINE_WHATIF_H
#define GS_ANALYSIS_PIPELINE_WHATIF_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/base/trace_ctx.h"
#include "analysis/replay/replay.h"
#include "common/error.h"

/* Every action a replay can apply. */
#define GS_REPLAY_ALL ((gs_replay_set)(GS_REPLAY_BIT(GS_REPLAY__COUNT) - GS_REPLAY_BIT(1)))

typedef struct gs_whatif_rank {
    int32_t rank;
    char *path;     /* owned */
    char *why;      /* owned; NULL when replayed, else why there was nothing to replay */
    gs_replay_result unchanged;                 /* no action: the model against the trace */
    gs_replay_result together;                  /* the chosen actions (gs_whatif.actions) */
    gs_replay_result alone[GS_REPLAY__COUNT];   /* each shown action alone, by action */
    uint8_t order[GS_REPLAY__COUNT];            /* the shown actions, best speedup first */
    size_t norder;
    double alone_product; /* the product of the chosen actions' speedups alone */
} gs_whatif_rank;

typedef struct gs_whatif {
    gs_replay_set actions;  /* chosen by the caller; 0: none, every action shown alone */
    gs_replay_params params;
    gs_whatif_rank *ranks;  /* after _finish: by rank, the traces of a rank in path order */
    size_t n, cap;
    size_t replayed;        /* ranks with something to replay */
} gs_whatif;

/* The actions shown alone: the chosen ones, or all when none is chosen. */
static inline gs_replay_set gs_whatif_shown(const gs_whatif *w)
{
    return w->actions ? w->actions : GS_REPLAY_ALL;
}

/* Replays c's kept steps (w->actions and w->params set by the caller before the first). A trace
 * with nothing to replay is kept with its reason. 0, or -1 with err (out of memory, the trace's
 * facts); w is then freed. */
int gs_whatif_add(gs_whatif *w, const gs_trace_ctx *c, gs_error *err);
void gs_whatif_finish(gs_whatif *w);
void gs_whatif_free(gs_whatif *w);

#endif
