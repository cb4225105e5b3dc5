/* The diff view (gpuscope diff) as a document: both runs' step statistics, the step-time table
 * and the verdict line, then the breakdown shift, kernel and operator deltas, what was added or
 * removed, and memory peaks. Text, CSV (one block per table) or JSON; fields in doc/diff.md. */
#ifndef GS_RENDER_DIFF_VIEW_H
#define GS_RENDER_DIFF_VIEW_H

#include <stddef.h>
#include <stdio.h>

#include "compare/diff.h"
#include "render/diff_tables.h"
#include "render/render.h"

/* The verdict in one line, e.g. "NEW is 12.3 % slower (95 % CI 10.1–14.6 %, bootstrap of
 * medians; Mann-Whitney p < 0.001)" or "no significant change (...)"; between runs recorded
 * differently, "GPU work per step: the same within 0.18 % (...); the step-time change (NEW
 * -24.1 %) is within what the collectors' own cost explains: BASE 19.618 ms vs NEW 6.849 ms per
 * step (estimated)". */
void gs_diff_verdict(char *buf, size_t size, const gs_diff *d);

/* What the command was asked and what it found about its gate. */
typedef struct gs_diff_view {
    const char *path[GS_SIDES]; /* BASE and NEW as given */
    const gs_diff *diff;
    gs_diff_tables *tables;
    long gate_pct; /* --fail-if-slower, -1 when not given */
    bool force;    /* --force: the gate judges even when the setups differ */
} gs_diff_view;

/* The gate refuses to judge: it was asked for, the setups differ and --force was not given. */
bool gs_diff_gate_refused(const gs_diff_view *v);

/* `limit` caps the kernel, operator and added/removed tables (0 = all rows). -1 when memory is
 * exhausted. */
int gs_render_diff(FILE *out, const gs_diff_view *v, enum gs_format format,
                   const gs_text_style *style, size_t limit);

#endif
