/* The tables of `gpuscope kernels --ncu` (and report's Nsight Compute section): one row per
 * kernel of the ncu export joined with the trace's, and one row per rule finding. The cells point
 * into the join and the export, which must outlive the tables. */
#ifndef GS_RENDER_NCU_TABLES_H
#define GS_RENDER_NCU_TABLES_H

#include "analysis/trace/ncu_join.h"
#include "render/render.h"
#include "render/table.h"

const gs_column *gs_ncu_columns(size_t *ncols);

/* Returns -1 when memory is exhausted. */
int gs_ncu_table(const gs_ncu_join *j, gs_table *out);
int gs_ncu_findings_table(const gs_ncu_join *j, gs_table *out);

/* Both tables, as sections: the kernels sorted by column sort_col (-1: the export's order) and
 * cut to `limit` rows, then every finding. JSON: {"command": "kernels", "ncu": PATH,
 * "matched": N, "unmatched": M, "ncu_kernels": [...], "ncu_findings": [...]}. */
int gs_render_ncu(FILE *out, const gs_ncu_join *j, enum gs_format format,
                  const gs_text_style *style, size_t limit, int sort_col, bool blank_first);

#endif
