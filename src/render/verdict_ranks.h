/* The report's verdicts of several ranks, ranks whose verdicts say the same in one block. */
#ifndef GS_RENDER_VERDICT_RANKS_H
#define GS_RENDER_VERDICT_RANKS_H

#include <stdio.h>

#include "analysis/pipeline/report.h"
#include "render/render.h"

/* "Verdict, ranks 0-4, 6" and the findings those ranks share, the numbers that differ between
 * them as ranges; each rank whose verdict differs in anything but its numbers in a block of its
 * own, in the order of their first rank. -1 when memory is exhausted. */
int gs_render_verdicts_by_rank(FILE *out, const gs_report *r, const gs_text_style *style);

#endif
