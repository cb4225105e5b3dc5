/* The `comm` view: communication per rank (overlap with compute, exposed time), collectives per
 * rank and kind with message sizes and bandwidth, and optionally the same per step, as tables
 * and as one document in each output format (doc/comm.md). */
#ifndef GS_RENDER_COMM_TABLES_H
#define GS_RENDER_COMM_TABLES_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/trace/comm.h"
#include "render/render.h"
#include "render/table.h"

typedef struct gs_comm_tables {
    gs_table ranks, collectives, steps;
    bool per_step; /* the steps section is written */
} gs_comm_tables;

/* The columns of the per-rank and per-kind tables, for --help. */
const gs_column *gs_comm_rank_columns(size_t *ncols);
const gs_column *gs_comm_kind_columns(size_t *ncols);

/* The cells point into comm, which must outlive the tables. -1 out of memory. */
int gs_comm_tables_make(const gs_comm *comm, bool per_step, gs_comm_tables *out);
void gs_comm_tables_free(gs_comm_tables *t);

/* Writes the sections in `format`; `limit` caps the rows of each section (0 = all).
 * CSV: one block per section after a line `# <section>`, blocks separated by an empty line.
 * Returns -1 when memory is exhausted. */
int gs_render_comm(FILE *out, gs_comm_tables *t, bool hta_compat, enum gs_format format,
                   const gs_text_style *style, size_t limit);

#endif
