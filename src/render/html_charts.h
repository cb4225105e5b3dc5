/* The charts of the HTML report (html.c), each an inline SVG with its legend and caption. They
 * draw the report's analyses and each rank's series (analysis/pipeline/series.h: a few hundred
 * points whatever the trace's length), and compute nothing from events. Colours are the page's
 * CSS classes: k0..k7 the step categories in enum gs_bd_cat order. Each returns -1 when memory
 * is exhausted. */
#ifndef GS_RENDER_HTML_CHARTS_H
#define GS_RENDER_HTML_CHARTS_H

#include <stdio.h>

#include "analysis/pipeline/series.h"
#include "analysis/pipeline/report.h"

/* The average kept step as one 100 % bar with a legend giving each category's time. */
void gs_html_breakdown_bar(FILE *out, const gs_bd_trace *b);

/* Per-step stacked breakdown of a rank with these steps: one bar per step (or run of steps, with
 * min-max whiskers), warm-up faded, mean line. */
int gs_html_step_chart(FILE *out, const gs_steps *steps, const gs_step_bar *bars, size_t nbars);

/* GPU utilization over the trace: |union of kernels| per time bucket, and the NVML
 * gpu_util_pct samples when the trace has them. */
int gs_html_util_chart(FILE *out, const gs_util_series *u);

/* Allocated and reserved over the trace with the peak marked (d->npoints >= 1 of points). */
int gs_html_memory_chart(FILE *out, const gs_mem_chart *d, const gs_mem_point *points);

/* For several ranks: mean step time per rank, and compute / non-compute / idle per rank. */
int gs_html_rank_charts(FILE *out, const gs_report *r);

#endif
