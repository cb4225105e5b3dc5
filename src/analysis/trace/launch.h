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

#include "analysis/base/select.h"
#include "analysis/base/steps.h"
#include "analysis/trace/cuda_graphs.h"
#include "analysis/base/window.h"
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
    const char *path;          /* the trace's file; points into the profile */
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
    gs_launch_rank *ranks; /* in profile order */
    size_t nranks;
} gs_launch_summary;

/* The profile must outlive the summary (paths point into it). 0, or -1 with err set. */
int gs_launch_build(const gs_profile *p, const gs_select *sel, const gs_step_opts *step_opts,
                    gs_launch_summary *out, gs_error *err);
void gs_launch_summary_free(gs_launch_summary *s);

/* One trace, with its steps already found (for the report, which finds steps once); kernels
 * outside the window w (NULL: the whole trace) count in no step. */
int gs_launch_trace(const gs_trace *t, const gs_steps *steps, const gs_window *w,
                    gs_launch_rank *out, gs_error *err);
void gs_launch_rank_free(gs_launch_rank *r);

#endif
