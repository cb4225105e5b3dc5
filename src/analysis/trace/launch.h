/* Launch statistics (doc/design.md §17; HTA's cuda_kernel_launch_stats, cuda_kernel_analysis.py):
 * for each kernel with a launching API call, the launch delay (GPU start − call end, floored at 0),
 * the call's cost, and whether the kernel is "short" (shorter than the call that launched it) —
 * per trace and per step, with CUDA-graph use and driver (Triton) launches counted.
 *
 * Unlike HTA, launches through cuLaunchKernel (Triton) and hip* calls count: any API call the model
 * linked to a kernel is a launch call. */
#ifndef GS_ANALYSIS_LAUNCH_H
#define GS_ANALYSIS_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/base/steps.h"
#include "analysis/base/trace_ctx.h"
#include "analysis/trace/cuda_graphs.h"
#include "common/error.h"
#include "model/trace.h"


/* The numbers of one window (a step, or a whole trace). */
typedef struct gs_launch_stats {
    uint64_t kernels;        /* kernels in the window */
    uint64_t launched;       /* of which with a launching API call (the rest have no delay) */
    uint64_t short_kernels;  /* call <= GS_TH_LAUNCH_CALL_CUTOFF_NS and kernel < call */
    gs_ns kernel_time;       /* Σ kernel durations */
    gs_ns short_kernel_time; /* Σ durations of the short kernels */
    double short_time_pct;   /* short_kernel_time / kernel_time × 100 */
    gs_ns med_kernel;        /* median kernel duration (lower middle for an even count) */
    uint64_t launch_calls;   /* distinct API calls that launched the window's kernels */
    gs_ns launch_cost;       /* Σ durations of the launch calls */
    gs_ns med_launch_cost;   /* median launch call duration */
    uint64_t cost_outliers;  /* launch calls longer than GS_TH_LAUNCH_CALL_CUTOFF_NS */
    gs_ns delay_med, delay_p95, delay_max; /* launch delay, nearest-rank percentiles */
    uint64_t delay_outliers; /* launch delay > GS_TH_LAUNCH_DELAY_OUTLIER_NS */
    uint64_t graph_kernels;  /* kernels with graph_id != 0 or launched by a graph launch */
    uint64_t graph_launches; /* cudaGraphLaunch / hipGraphLaunch calls (with or without kernels) */
    uint64_t driver_launches; /* kernels launched by cuLaunchKernel*, hip(Ext)ModuleLaunchKernel */
} gs_launch_stats;

typedef struct gs_launch_step {
    int64_t number;      /* gs_step.number */
    gs_ns start, end;    /* the step's (extended) span */
    bool warmup;
    gs_launch_stats s;   /* kernels whose launch call (else start) falls in the step */
    double launches_per_s; /* s.launch_calls / step duration in seconds */
} gs_launch_step;

/* One trace (rank). */
typedef struct gs_launch_rank {
    int32_t rank;
    char *path;                /* the trace's file (owned) */
    enum gs_step_source step_source;
    gs_launch_stats total;     /* every kernel of the trace */
    gs_launch_step *steps;
    size_t nsteps;
    size_t nkept;              /* steps counted below (warm-up left out unless --keep-warmup) */
    /* Over the kept steps: the per-step numbers a diagnosis compares with its thresholds. */
    double kernels_per_step;   /* mean kernels per kept step */
    double launches_per_s;     /* kept.launch_calls / Σ step time of the kept steps */
    gs_launch_stats kept;      /* the kept steps' kernels together */
    gs_graph_facts graphs;     /* the whole trace's CUDA graph captures, instantiations, launches */
} gs_launch_rank;

typedef struct gs_launch_summary {
    gs_launch_rank *ranks; /* by rank */
    size_t nranks;
} gs_launch_summary;

/* Appends c's rank: every kernel of the trace, and per step of c's steps those that c's window
 * holds; finish puts the ranks in order. 0, or -1 with err; a failed summary is freed. */
int gs_launch_add(gs_launch_summary *s, const gs_trace_ctx *c, gs_error *err);
void gs_launch_finish(gs_launch_summary *s);
int gs_launch_build(const gs_trace_ctx *c, gs_launch_summary *out, gs_error *err);
void gs_launch_summary_free(gs_launch_summary *s);
void gs_launch_rank_free(gs_launch_rank *r);

#endif
