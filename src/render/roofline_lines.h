/* The report's roofline per rank (doc/report.md, doc/roofline.md): a line of text naming the
 * largest operator groups' bound, intensity and share of the roof, and the rows in JSON. */
#ifndef GS_RENDER_ROOFLINE_LINES_H
#define GS_RENDER_ROOFLINE_LINES_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/pipeline/roof_summary.h"
#include "common/json_write.h"

/* Groups the text line names. */
#define GS_ROOF_TEXT_GROUPS 3

/* "rank 0: roofline, 93 % of operator GPU time modelled; aten::mm 30 % of it, compute-bound at
 * 551.8 FLOP/byte, 23 % of its roof; ...". Nothing when none of the rank's operator GPU time is modelled. */
void gs_render_roofline_text(FILE *out, int32_t rank, const gs_rank_roof *r);

/* The member "roofline": {totals, roofs, "rows": [...]}; unknown numbers as null. */
void gs_render_roofline_json(gs_json_writer *w, const gs_rank_roof *r);

#endif
