/* The charts of the HTML report (html.c), each an inline SVG with its legend and caption. They
 * read the report's analyses and the trace (kernels and NVML counters for utilization over time);
 * every chart buckets its data to a few hundred shapes, whatever the trace's length. Colours are
 * the page's CSS classes: k0..k7 the step categories in enum gs_bd_cat order. Each returns -1 when
 * memory is exhausted. */
#ifndef GS_RENDER_HTML_CHARTS_H
#define GS_RENDER_HTML_CHARTS_H

#include <stdio.h>

#include "analysis/report.h"

/* Most bars a step chart draws: more steps are bucketed (mean bars, min-max whiskers). */
#define GS_HTML_MAX_BARS 240
/* Time buckets of the utilization chart. */
#define GS_HTML_UTIL_BUCKETS 480

/* The average kept step as one 100 % bar with a legend giving each category's time. */
void gs_html_breakdown_bar(FILE *out, const gs_bd_trace *b);

/* Per-step stacked breakdown: one bar per step (or bucket of steps), warm-up faded, mean line. */
int gs_html_step_chart(FILE *out, const gs_bd_trace *b);

/* GPU utilization over the trace: |union of kernels| per time bucket, and the NVML
 * gpu_util_pct samples when the trace has them. */
int gs_html_util_chart(FILE *out, const gs_trace *t);

/* Allocated and reserved over the trace with the peak marked (d->npoints >= 1). */
int gs_html_memory_chart(FILE *out, const gs_mem_device *d, const gs_trace *t);

/* For several ranks: mean step time per rank, and compute / non-compute / idle per rank. */
int gs_html_rank_charts(FILE *out, const gs_report *r);

#endif
