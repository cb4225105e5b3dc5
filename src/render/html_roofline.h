/* The HTML report's roofline chart (doc/roofline.md, "In the report"): log-log, arithmetic
 * intensity (FLOP/byte) across, achieved TFLOP/s up; the memory roof (slope: the HBM bandwidth),
 * the Tensor Cores' peak in the rank's matrix type and the CUDA cores' fp32 peak; one point per
 * operator group with FLOPs and bytes, sized by its GPU time, coloured by its bound. */
#ifndef GS_RENDER_HTML_ROOFLINE_H
#define GS_RENDER_HTML_ROOFLINE_H

#include <stdio.h>

#include "analysis/pipeline/roof_summary.h"

/* The groups of r the chart can place: FLOPs and bytes known (intensity and TFLOP/s above 0). */
size_t gs_html_roofline_points(const gs_rank_roof *r);

/* The chart with its legend, when r has a point to place; nothing otherwise. */
void gs_html_roofline_chart(FILE *out, const gs_rank_roof *r);

#endif
