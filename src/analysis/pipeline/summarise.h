/* The per-rank phase of the pipeline (pipeline.h): one trace reduced to its rank's summary
 * (summary.h) by the same analyses a view runs, so the summary holds the numbers a report on that
 * trace shows for its rank. A command asks only for the stages it shows: `comm` for the
 * communication, `stragglers` for the collectives; `report` and `summarize` for all of them. */
#ifndef GS_ANALYSIS_PIPELINE_SUMMARISE_H
#define GS_ANALYSIS_PIPELINE_SUMMARISE_H

#include <stdbool.h>

#include "analysis/base/trace_ctx.h"
#include "analysis/pipeline/summary.h"

/* The sections of a rank summary, each filled by the analyses named. */
enum gs_stage {
    GS_STAGE_FACTS = 1u << 0,      /* the file, its events and GPUs, start-up (profile_facts.h) */
    GS_STAGE_BREAKDOWN = 1u << 1,  /* step breakdown averages, GPU metrics (breakdown.h) */
    GS_STAGE_LAUNCH = 1u << 2,     /* launch statistics (launch.h) */
    GS_STAGE_SYNC = 1u << 3,       /* blocking calls (sync.h) */
    GS_STAGE_MEMORY = 1u << 4,     /* allocator peaks (memory.h) */
    GS_STAGE_TEMPORAL = 1u << 5,   /* GPU time over the kept steps (temporal.h) */
    GS_STAGE_IDLE = 1u << 6,       /* the longest idle gaps of the kept steps (idle.h) */
    GS_STAGE_COMM = 1u << 7,       /* communication per rank, kind, step (comm.h) */
    GS_STAGE_KERNELS = 1u << 8,    /* kernels by name (kernel_summary.h) */
    GS_STAGE_OPS = 1u << 9,        /* operators by name (op_summary.h) */
    GS_STAGE_COPIES = 1u << 10,    /* copies and sets (memcpy_summary.h) */
    GS_STAGE_DIAGNOSIS = 1u << 11, /* the verdict's inputs, FLOPs, Tensor Cores (diag_inputs.h) */
    GS_STAGE_SERIES = 1u << 12,    /* the series the HTML page draws (series.h) */
    GS_STAGE_STRAGGLERS = 1u << 13, /* collectives and compute per step (straggler.h) */
    GS_STAGE_ALL = (GS_STAGE_STRAGGLERS << 1) - 1,
};

/* The stages `stages` needs run too: the diagnosis reads the breakdown, launch, sync, memory and
 * communication; the series the breakdown and memory. */
unsigned gs_stages_needed(unsigned stages);

/* "breakdown, comm, ..." for the debug log, into buf. Returns buf. */
const char *gs_stages_describe(unsigned stages, char *buf, size_t cap);

typedef struct gs_summarise_opts {
    unsigned stages;  /* the sections wanted (their dependencies are added) */
    bool hta_compat;  /* the communication as HTA computes it (comm.h) */
    bool detail;      /* keep every kernel's and copy's duration (detail.h) */
} gs_summarise_opts;

/* Summarises c's trace into the sections asked for. 0, or -1 with err. */
int gs_rank_summarise(const gs_trace_ctx *c, const gs_summarise_opts *o, gs_rank_summary *out,
                      gs_error *err);

#endif
