/* The tables of the diff view (diff_view.h): step time per rank pair, the breakdown shift, kernel
 * and operator deltas, what was added or removed, and memory peaks. Field names are documented in
 * doc/diff.md. */
#ifndef GS_RENDER_DIFF_TABLES_H
#define GS_RENDER_DIFF_TABLES_H

#include <stddef.h>

#include "compare/diff.h"
#include "render/table.h"

typedef struct gs_diff_tables {
    gs_table steps, breakdown, kernels, ops, only, memory;
    char (*pvalues)[16]; /* per pair: the p-value as the table shows it */
    char (*devices)[24]; /* per memory row: "cuda:0", "cpu" */
} gs_diff_tables;

/* The columns of the breakdown shift and of the kernel deltas, for --help. */
const gs_column *gs_diff_breakdown_columns(size_t *ncols);
const gs_column *gs_diff_kernel_columns(size_t *ncols);

/* -1 when memory is exhausted (the tables are freed). */
int gs_diff_tables_make(const gs_diff *d, gs_diff_tables *out);
void gs_diff_tables_free(gs_diff_tables *t);

#endif
