#include "render/report_tables.h"

#include <string.h>

#include "render/view_tables.h"

/* The columns that need every duration of every rank, left out unless the report has them. */
static const char *const spread_keys[] = {"med_ns", "stddev_ns", NULL};
/* The launching operator of a kernel row: a rank summary does not keep it, so a report (merged
 * from summaries) never has it; `gpuscope kernels` shows it. */
static const char *const operator_keys[] = {"operator", "operator_pct", NULL};

static bool listed(const char *const *keys, const char *key)
{
    for (const char *const *k = keys; *k; k++)
        if (strcmp(*k, key) == 0)
            return true;
    return false;
}

/* Leaves the columns of keys (and of also, when not NULL) out of t, its column list kept in
 * cols. Cells move down in place: a cell only ever moves to an index at or below its own. */
static void drop_columns(gs_table *t, const char *const *keys, const char *const *also,
                         gs_column cols[GS_REPORT_TABLE_COLS])
{
    size_t keep[GS_REPORT_TABLE_COLS], n = 0;
    for (size_t c = 0; c < t->ncols && n < GS_REPORT_TABLE_COLS; c++)
        if (!listed(keys, t->cols[c].key) && !(also && listed(also, t->cols[c].key))) {
            cols[n] = t->cols[c];
            keep[n++] = c;
        }
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < n; c++)
            t->cells[r * n + c] = t->cells[r * t->ncols + keep[c]];
    t->cols = cols;
    t->ncols = n;
}

int gs_report_tables_make(const gs_report *r, size_t limit, gs_report_tables *t)
{
    memset(t, 0, sizeof *t);
    int rc = gs_file_table(&r->facts, &t->files) | gs_device_table(&r->facts, &t->devices) |
             gs_kernel_table(&r->kernels, &t->kernels) | gs_op_table(&r->ops, &t->ops) |
             gs_memcpy_table(&r->memcpy, &t->memcpy) |
             gs_idle_tables_make(&r->temporal, &r->idle, &t->idle) |
             gs_comm_tables_make(&r->comm, false, &t->comm);
    if (rc != 0)
        return -1;
    drop_columns(&t->kernels, operator_keys, r->kernel_spread ? NULL : spread_keys,
                 t->kernel_cols);
    if (!r->copy_spread)
        drop_columns(&t->memcpy, spread_keys, NULL, t->memcpy_cols);
    for (size_t i = 0; i < r->comm.nranks; i++)
        t->has_comm |= r->comm.ranks[i].collectives > 0;
    t->kernel_rows = t->kernels.nrows;
    t->op_rows = t->ops.nrows;
    t->memcpy_rows = t->memcpy.nrows;
    gs_table_limit(&t->kernels, limit);
    gs_table_limit(&t->ops, limit);
    gs_table_limit(&t->memcpy, limit);
    return 0;
}

void gs_report_tables_free(gs_report_tables *t)
{
    gs_idle_tables_free(&t->idle);
    gs_comm_tables_free(&t->comm);
    gs_table_free(&t->files);
    gs_table_free(&t->devices);
    gs_table_free(&t->kernels);
    gs_table_free(&t->ops);
    gs_table_free(&t->memcpy);
}
