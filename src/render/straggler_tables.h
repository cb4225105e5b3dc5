/* The `stragglers` view: per rank the clock offset applied, the residual, how often it arrived
 * last and how late, its wait and compute per step; the skew of arrivals per collective kind;
 * optionally every matched collective; as tables and as one document in each output format
 * (doc/stragglers.md). */
#ifndef GS_RENDER_STRAGGLER_TABLES_H
#define GS_RENDER_STRAGGLER_TABLES_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/crossrank/straggler.h"
#include "render/render.h"
#include "render/table.h"

typedef struct gs_straggler_tables {
    gs_table ranks, kinds, collectives;
    bool each; /* the collectives section is written */
} gs_straggler_tables;

/* The columns of the per-rank table and of the table of every collective, for --help. */
const gs_column *gs_straggler_rank_columns(size_t *ncols);
const gs_column *gs_straggler_collective_columns(size_t *ncols);

/* The cells point into s, which must outlive the tables. -1 out of memory. */
int gs_straggler_tables_make(const gs_stragglers *s, bool each, gs_straggler_tables *out);
void gs_straggler_tables_free(gs_straggler_tables *t);

/* Writes the summary and the sections in `format`; `limit` caps the rows of each section
 * (0 = all). CSV: one block per section after a line `# <section>`. -1 out of memory. */
int gs_render_stragglers(FILE *out, const gs_stragglers *s, gs_straggler_tables *t,
                         enum gs_format format, const gs_text_style *style, size_t limit);

#endif
