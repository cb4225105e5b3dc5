/* `gpuscope export --format csv`: the summary views' tables (kernels, ops, api, memcpy) as CSV,
 * byte for byte what `gpuscope VIEW --format csv` prints, one file per view or one view. */
#ifndef GS_EXPORT_VIEW_CSV_H
#define GS_EXPORT_VIEW_CSV_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/select.h"
#include "common/error.h"
#include "model/trace.h"

/* The i-th view's name, in the order a folder export writes them; NULL after the last. */
const char *gs_csv_view_name(size_t i);

/* One view's table to `out`. */
int gs_export_csv_view(const gs_profile *p, const gs_select *sel, const char *name, FILE *out,
                       gs_error *err);

/* Every view into `dir` (created when absent) as NAME.csv. */
int gs_export_csv_dir(const gs_profile *p, const gs_select *sel, const char *dir, gs_error *err);

#endif
