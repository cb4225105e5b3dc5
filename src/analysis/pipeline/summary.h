/* A rank summary: one trace reduced to what the report, comm and stragglers need of its rank
 * (pipeline.h), so a trace can be dropped as soon as it is summarised, and summaries can be
 * written next to each rank's trace under the job's own launcher (gpuscope summarize, .gsum
 * files: doc/FORMAT.md).
 *
 * It holds numbers that are final for its rank (step statistics and windows, breakdown
 * averages, the temporal breakdown, communication per rank, kind and step, memory peaks, the
 * verdict's inputs, the GPUs, the longest idle gaps with what the host was doing, the charts'
 * series), the per-name aggregates that merge across ranks exactly (count, total, min, max of
 * kernels, operators and copies), the GPU metrics per device, and the collectives (kind, seq,
 * start, end, bytes) that clock alignment and the straggler analysis match across ranks. Single
 * events are dropped: medians and deviations of durations across ranks need the rank's detail
 * (detail.h), which only a summary built in this process has. */
#ifndef GS_ANALYSIS_PIPELINE_SUMMARY_H
#define GS_ANALYSIS_PIPELINE_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/trace/breakdown.h"
#include "analysis/base/collectives.h"
#include "analysis/trace/comm.h"
#include "analysis/trace/compute.h"
#include "analysis/diagnosis/diagnose.h"
#include "analysis/trace/gpu_metrics.h"
#include "analysis/trace/idle.h"
#include "analysis/trace/memcpy_summary.h"
#include "analysis/trace/profile_facts.h"
#include "analysis/trace/startup.h"
#include "analysis/pipeline/detail.h"
#include "analysis/pipeline/roof_summary.h"
#include "analysis/pipeline/series.h"
#include "analysis/base/steps.h"
#include "analysis/trace/temporal.h"

/* Idle gaps each rank keeps, and the report lists: the longest across ranks are among them. */
#define GS_RANK_GAPS 5

/* One kernel name on one rank; merging adds counts and totals, takes min of mins, max of maxes. */
typedef struct gs_sum_kernel {
    char *name;
    uint64_t count;
    gs_ns total, min, max;
} gs_sum_kernel;

/* One operator name on one rank (key_averages columns, which all add up across ranks). */
typedef struct gs_sum_op {
    char *name;
    uint64_t calls;
    gs_ns self_cpu, cpu_total, self_cuda, cuda_total;
} gs_sum_op;

typedef struct gs_rank_summary {
    gs_rank_id id; /* the trace's (owned) */
    /* The sections it holds (enum gs_stage, summarise.h): those a command asked for, every one
     * of a .gsum file (whose has_* flags say what its minor version lacks). */
    unsigned stages;
    char *format;           /* "kineto", "legacy", "gst" */
    gs_ns span;             /* first to last event */
    uint64_t profiler_steps; /* ProfilerStep#N ranges */
    gs_event_counts events;
    gs_steps steps;         /* windows (number, start, end, warm-up) and statistics */
    size_t nkept;           /* steps in the breakdown averages */
    double avg_ns[GS_BD__COUNT], avg_total_ns;
    gs_gpu_metrics gpu;     /* the breakdown's GPU metrics per device over the kept steps */
    gs_diag_inputs inputs;  /* the straggler fields are filled by the cross-rank phase */
    char *sync_top_op;      /* owns inputs.sync_top_op */
    gs_ns compute_ns;       /* per kept step, for the straggler analysis */
    gs_collectives coll;    /* .kernel is not kept (0) */
    gs_temporal_row temporal;
    gs_comm_rank comm;
    gs_comm_kind *kinds;    /* in gs_coll_kind order, only kinds that occur */
    size_t nkinds;
    gs_comm_step *comm_steps;
    size_t ncomm_steps;
    int64_t mem_peak_allocated, mem_peak_reserved; /* over the rank's CUDA devices, 0 if none */
    bool has_startup;       /* the start-up phase was computed (minor 3) */
    gs_startup startup;
    bool has_compute;       /* model FLOPs, MFU, Tensor Cores were computed (minor 4) */
    gs_compute compute;
    bool has_tracing_cost;  /* the trace says what tracing cost the program (minor 2) */
    gs_ns tracing_cost_ns;  /* then: that cost (gs_trace.collector_overhead_ns) */
    bool has_graphs;        /* inputs.graphs is known (minor 3; earlier: every count 0) */
    bool has_replay;        /* inputs.replay_* are known (minor 6; earlier: -1, unknown) */
    bool has_roofline;      /* the roofline per operator group was computed (minor 7) */
    gs_rank_roof roof;
    gs_sum_kernel *kernels; /* by total, largest first */
    size_t nkernels;
    gs_sum_op *ops;         /* by CUDA total (CPU total without GPU work), largest first */
    size_t nops;
    bool ops_gpu;           /* the trace has kernels or memory operations */
    gs_ns ops_cpu;          /* the profiled CPU time the CPU shares are of (gs_op_summary.cpu_base);
                             * 0 in a .gsum of an earlier minor: the rows' Self CPU then */

    /* Sections a .gsum of an earlier minor version lacks (has_* false), as every summary built
     * here has them. Strings are owned. */
    bool has_devices;
    gs_device_facts *devices; /* the GPUs the trace lists */
    size_t ndevices;
    bool has_gaps;
    gs_gap *gaps;             /* the rank's GS_RANK_GAPS longest GPU-wide gaps, longest first */
    size_t ngaps;
    size_t gaps_worth_listing;
    bool has_copies;
    gs_memcpy_row *copies;    /* the copies table; med and stddev only with the detail */
    size_t ncopies;
    gs_rank_series series;

    gs_rank_detail *detail; /* NULL unless asked for; never read from or written to a .gsum */
    bool from_gsum;         /* read from a .gsum file */
} gs_rank_summary;

/* An empty summary of rank `id` (copied): 0, or -1 with err. */
int gs_rank_summary_init(gs_rank_summary *s, const gs_rank_id *id, gs_error *err);
void gs_rank_summary_free(gs_rank_summary *s);

/* Orders summaries by rank, then path, as a profile orders its traces. */
void gs_rank_summaries_sort(gs_rank_summary *ranks, size_t n);

#endif
