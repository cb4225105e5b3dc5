/* Writing the report (src/analysis/pipeline/report.h) as text or JSON. */
#ifndef GS_RENDER_REPORT_H
#define GS_RENDER_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/pipeline/report.h"
#include "render/render.h"

/* `limit` caps the kernel, operator and copy tables (0 = all rows); `explain` adds every rule
 * with its inputs after the verdict. GS_FORMAT_CSV is not a report format. Returns -1 when
 * memory is exhausted. */
int gs_render_report(FILE *out, const gs_report *r, enum gs_format format,
                     const gs_text_style *style, size_t limit, bool explain);

#endif
