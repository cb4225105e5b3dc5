/* The report's tables (analysis/pipeline/report.h), for the text and JSON report and the HTML page: each
 * section as the report has it. A table whose medians and deviations are not exact (merged from
 * .gsum summaries) leaves those columns out rather than show zeros. */
#ifndef GS_RENDER_REPORT_TABLES_H
#define GS_RENDER_REPORT_TABLES_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/pipeline/report.h"
#include "render/comm_tables.h"
#include "render/idle_tables.h"
#include "render/table.h"

/* Columns a table keeps at most after some are left out. */
#define GS_REPORT_TABLE_COLS 16

typedef struct gs_report_tables {
    gs_table files, devices, kernels, ops, memcpy;
    size_t kernel_rows, op_rows, memcpy_rows; /* before the limit */
    gs_idle_tables idle;                      /* temporal breakdown and largest gaps */
    gs_comm_tables comm;                      /* communication per rank */
    bool has_comm;                            /* some rank ran communication kernels */
    gs_column kernel_cols[GS_REPORT_TABLE_COLS], memcpy_cols[GS_REPORT_TABLE_COLS];
} gs_report_tables;

/* The tables, the kernel, operator and copy tables cut to `limit` rows (0: all). The cells point
 * into r. -1 out of memory (free the tables all the same). */
int gs_report_tables_make(const gs_report *r, size_t limit, gs_report_tables *t);
void gs_report_tables_free(gs_report_tables *t);

#endif
