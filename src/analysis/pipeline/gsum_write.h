/* Writes a rank summary as a .gsum file (doc/FORMAT.md, "Rank summaries"). */
#ifndef GS_ANALYSIS_PIPELINE_GSUM_WRITE_H
#define GS_ANALYSIS_PIPELINE_GSUM_WRITE_H

#include <stdio.h>

#include "analysis/pipeline/summary.h"

void gs_gsum_write(FILE *out, const gs_rank_summary *s);

#endif
