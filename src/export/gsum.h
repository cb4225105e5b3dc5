/* Writes a rank summary as a .gsum file (doc/FORMAT.md, "Rank summaries"). */
#ifndef GS_EXPORT_GSUM_H
#define GS_EXPORT_GSUM_H

#include <stdio.h>

#include "analysis/pipeline/summary.h"

void gs_gsum_write(FILE *out, const gs_rank_summary *s);

#endif
