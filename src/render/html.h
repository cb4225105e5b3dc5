/* The report (src/analysis/pipeline/report.h) as one self-contained HTML page: the verdict, charts drawn as
 * inline SVG (step time with its breakdown, GPU utilization over time, memory, ranks side by
 * side) and the report's tables. No script, no font, no request to any network: the page opens
 * anywhere and can be mailed. Light and dark palettes follow the reader's system setting. Every
 * string that comes from a trace is escaped. */
#ifndef GS_RENDER_HTML_H
#define GS_RENDER_HTML_H

#include <stdio.h>

#include "analysis/pipeline/report.h"

/* Ranks drawn with their own charts; the rest appear in the per-rank comparison and tables. */
#define GS_HTML_MAX_RANK_CHARTS 8

/* `limit` caps the kernel, operator and copy tables (0 = all rows). -1 when memory is exhausted. */
int gs_render_html(FILE *out, const gs_report *r, size_t limit);

#endif
