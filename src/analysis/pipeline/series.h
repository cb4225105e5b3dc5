/* The series the HTML report draws for one rank: GPU utilization over time, the step time per
 * step by category, and allocated and reserved memory over time. Each is fixed in size whatever
 * the trace's length (a few hundred points), computed from the trace in the per-rank phase
 * (summarise.h) and carried by the rank's summary and its .gsum, so a page is drawn rank by
 * rank with one trace in memory at a time, or from summaries alone. The renderer computes
 * nothing from events. */
#ifndef GS_ANALYSIS_PIPELINE_SERIES_H
#define GS_ANALYSIS_PIPELINE_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/trace/breakdown.h"
#include "analysis/trace/memory.h"

/* Time buckets of the utilization series. */
#define GS_SERIES_UTIL_BUCKETS 480
/* Most bars of the step series: more steps are grouped, a bar per run of consecutive steps. */
#define GS_SERIES_STEP_BARS 240

/* NVML's gpu_util_pct averaged over the samples (and GPUs) in one bucket. */
typedef struct gs_util_sample {
    size_t bucket;
    double pct;
} gs_util_sample;

/* GPU utilization over the trace: the share of each bucket during which a kernel ran (|union
 * of kernel intervals|), and NVML's samples when the trace has them (gpuscope run). */
typedef struct gs_util_series {
    bool kernels;         /* the trace has GPU kernels; nothing is drawn without */
    gs_ns first, last;    /* the trace's span; the nbusy buckets split it evenly */
    double *busy_pct;     /* per bucket; none when the span is empty */
    size_t nbusy;
    gs_util_sample *nvml; /* buckets with samples, in bucket order */
    size_t nnvml;
} gs_util_series;

/* A run of consecutive steps drawn as one bar. */
typedef struct gs_step_bar {
    size_t first, last; /* indexes into the rank's steps, inclusive */
    int64_t first_number, last_number;
    double mean[GS_BD__COUNT]; /* mean time per category over its steps */
    double total, min, max;    /* mean, shortest and longest step time */
    bool warm;                 /* holds a warm-up step */
} gs_step_bar;

/* One device's allocator timeline and the facts shown beside it (memory.h defines them). */
typedef struct gs_mem_chart {
    int8_t device_type; /* GS_MEM_DEVICE_CUDA, GS_MEM_DEVICE_CPU or another c10 type */
    int32_t device;
    bool cuda_allocator; /* CUDA's allocations (GS_MEM_CUDA): no reserved curve (minor 2) */
    gs_ns origin, end; /* the trace's first and last timestamps: the time axis */
    int64_t peak_allocated, reserved_at_peak, peak_reserved;
    gs_ns peak_ts;
    int64_t peak_step;  /* -1 when no step holds the peak */
    char *peak_op;      /* NULL when none */
    double fragmentation;
    bool fragmented;
    uint64_t device_memory; /* 0 when unknown */
    int64_t headroom;
    double peak_pct;
    size_t fit_steps;
    double slope, r2;
    bool leak;
    size_t first, npoints; /* its points in gs_rank_series.mem_points; npoints >= 1 */
} gs_mem_chart;

typedef struct gs_rank_series {
    /* Which series a summary holds: all of them when built from a trace, those its .gsum has
     * when read (files written before they existed have none). */
    bool has_util, has_steps, has_memory;
    gs_util_series util;
    gs_step_bar *bars; /* in step order; none for a rank without steps */
    size_t nbars;
    /* The devices a page charts: those with allocator records, only the GPUs when the rank has
     * some (the host's records are then a few bytes of CPU tensors). */
    gs_mem_chart *memory;
    size_t nmemory;
    gs_mem_point *mem_points; /* GS_MEM_SERIES_POINTS at most per device, times relative to none */
    size_t nmem_points;
} gs_rank_series;

/* The series of context c's trace from its breakdown and memory analyses. 0, or -1 out of
 * memory. */
int gs_rank_series_build(const gs_trace_ctx *c, const gs_bd_trace *bd,
                         const gs_memory_summary *mem, gs_rank_series *out);
void gs_rank_series_free(gs_rank_series *s);

#endif
