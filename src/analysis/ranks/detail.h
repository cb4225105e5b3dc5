/* What a rank summarised from a trace in this process keeps beyond its summary, so that the
 * multi-rank report built rank by rank (report_ranks.h) is the report on the traces, byte for
 * byte: the GPUs' properties, the rank's longest idle gaps with what the host was doing, and
 * every kernel's and copy's duration (for the exact median and deviation across ranks). It is
 * never written to a .gsum: durations grow with the events, and a summary must stay small. It
 * costs 8 bytes per kernel and copy, against the whole trace the rank no longer holds. */
#ifndef GS_ANALYSIS_RANKS_DETAIL_H
#define GS_ANALYSIS_RANKS_DETAIL_H

#include <stddef.h>

#include "analysis/idle.h"
#include "analysis/memcpy_summary.h"
#include "analysis/profile_facts.h"

/* Idle gaps each rank keeps: the report's longest gaps across ranks are among them. */
#define GS_RANK_DETAIL_GAPS 5

typedef struct gs_report gs_report;

typedef struct gs_rank_detail {
    gs_device_facts *devices; /* names owned */
    size_t ndevices;
    gs_gap *gaps;             /* the rank's longest, longest first; strings owned */
    size_t ngaps;
    size_t gaps_worth_listing;
    size_t *kernel_first;     /* parallel to the summary's kernels: where its durations start */
    gs_ns *kernel_durs;       /* every kernel's duration, each name's ascending */
    gs_memcpy_row *memcpy;    /* the rank's copies table; rows' `first` index memcpy_durs */
    size_t nmemcpy;
    gs_ns *memcpy_durs;
} gs_rank_detail;

/* From the one-trace report of the rank (built with GS_RANK_DETAIL_GAPS gaps). 0, or -1 out of
 * memory. */
int gs_rank_detail_build(const gs_report *r, gs_rank_detail **out);
void gs_rank_detail_free(gs_rank_detail *d);

#endif
