/* The report: what was profiled, the verdict per rank with the numbers behind it, the steps, the
 * breakdown, GPU time and the largest idle gaps, then the top kernels, operators and copies.
 *
 * It is merged from rank summaries (analysis/pipeline/pipeline.h): one trace is a profile of one
 * rank. The report owns those summaries and everything else it points to, and has one free
 * function. A section a summary may lack (one read from an older .gsum) or that needs every
 * duration of every rank (the medians and deviations) says whether the report has it. */
#ifndef GS_ANALYSIS_REPORT_H
#define GS_ANALYSIS_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/trace/breakdown.h"
#include "analysis/trace/comm.h"
#include "analysis/diagnosis/diagnose.h"
#include "analysis/trace/idle.h"
#include "analysis/trace/kernel_summary.h"
#include "analysis/trace/memcpy_summary.h"
#include "analysis/trace/op_summary.h"
#include "analysis/trace/profile_facts.h"
#include "analysis/pipeline/summarise.h"
#include "analysis/pipeline/summary.h"
#include "analysis/crossrank/straggler.h"
#include "analysis/trace/temporal.h"

/* One rank: its summary, breakdown and verdict. */
typedef struct gs_report_rank {
    const gs_rank_summary *summary; /* this report's summaries[i] */
    const gs_bd_trace *breakdown;   /* this report's breakdown.v[i] */
    gs_diagnosis diagnosis;
} gs_report_rank;

/* What a report is made of: the sections a command shows (enum gs_stage, summarise.h). */
typedef struct gs_report_opts {
    unsigned stages;
    bool align;      /* estimate clock offsets between the ranks' files (stragglers) */
    bool hta_compat; /* the communication was summarised as HTA computes it */
} gs_report_opts;

typedef struct gs_report {
    /* The ranks merged, sorted by rank then path. Each section below owns what it holds and is
     * filled when its stage was asked for. */
    unsigned stages;
    bool hta_compat;            /* comm was summarised as HTA computes it */
    gs_rank_summary *summaries;
    size_t nsummaries;
    size_t from_gsum;           /* how many of them were read from .gsum files */

    gs_profile_facts facts;     /* files, ranks, world size, span, steps, events */
    bool has_devices;           /* facts.devices lists every rank's GPUs */
    gs_breakdown breakdown;     /* one per rank: steps, averages, GPU metrics */
    gs_report_rank *ranks;      /* parallel to breakdown.v */
    size_t nranks;
    gs_temporal temporal;       /* GPU time per rank */
    gs_comm comm;               /* communication per rank, kind and step */
    gs_idle idle;               /* only the longest gaps (ngaps, gaps_worth_listing) */
    bool has_gaps;              /* every rank's longest gaps were at hand */
    gs_kernel_summary kernels;  /* merged by name; no durations */
    bool kernel_spread;         /* med and stddev are exact (else 0) */
    gs_op_summary ops;
    gs_memcpy_summary memcpy;   /* merged by kind and locations */
    bool has_copies;
    bool copy_spread;           /* med and stddev are exact (else 0) */
    gs_stragglers stragglers;   /* across the ranks (one rank: its row, nothing to compare) */
} gs_report;

/* The report of n rank summaries, the sections o->stages names. The report takes the summaries
 * (sorted here): they are freed with it, or at once when it fails. 0, or -1 with err. */
int gs_report_build(gs_rank_summary *ranks, size_t n, const gs_report_opts *o, gs_report *out,
                    gs_error *err);
void gs_report_free(gs_report *r);

#endif
