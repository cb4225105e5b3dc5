/* What a rank summarised in this process keeps beyond its summary, so that the report merged
 * from several ranks has the exact median and deviation of every kernel and copy across ranks,
 * as the report on all the traces at once would: every kernel's and copy's duration. It is never
 * written to a .gsum (durations grow with the events, and a summary must stay small): it costs 8
 * bytes per kernel and copy, against the whole trace the rank no longer holds. */
#ifndef GS_ANALYSIS_PIPELINE_DETAIL_H
#define GS_ANALYSIS_PIPELINE_DETAIL_H

#include <stddef.h>

#include "analysis/trace/kernel_summary.h"
#include "analysis/trace/memcpy_summary.h"

typedef struct gs_rank_detail {
    size_t *kernel_first; /* parallel to the summary's kernels: where its durations start */
    gs_ns *kernel_durs;   /* every kernel's duration, each name's ascending */
    gs_ns *memcpy_durs;   /* every copy's and set's, each row's ascending (copies[i].first) */
} gs_rank_detail;

/* From the rank's kernel and copy tables, whose durations it takes over (they are left without).
 * 0, or -1 out of memory. */
int gs_rank_detail_build(gs_kernel_summary *k, gs_memcpy_summary *m, gs_rank_detail **out);
void gs_rank_detail_free(gs_rank_detail *d);

#endif
