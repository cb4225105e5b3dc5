/* Steps (doc/design.md §10): the unit every per-step analysis divides time by.
 *
 * Detection, in this order: annotation or NVTX ranges whose name matches opts->regex (POSIX
 * extended regex) when given; PyTorch `ProfilerStep#N` ranges; the iterations of the repeating
 * sequence of GPU launches (step_detect.h), also when opts->detect asks to ignore the ranges;
 * else the whole trace is one window.
 * A step's span is then extended to cover the GPU work launched inside it, with the TensorBoard
 * profiler plugin's rule (its StepParser, event_parser.py), and trailing steps that launched
 * no GPU work are dropped as the plugin does. Warm-up steps — the first steps slower than GS_TH_WARMUP_FACTOR × the
 * median of the rest — are flagged and left out of the statistics unless opts->keep_warmup. */
#ifndef GS_ANALYSIS_STEPS_H
#define GS_ANALYSIS_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "model/trace.h"


enum gs_step_source { GS_STEPS_PROFILER, GS_STEPS_REGEX, GS_STEPS_WINDOW, GS_STEPS_DETECTED };

typedef struct gs_step {
    int64_t number;      /* N of ProfilerStep#N; the index for other sources */
    uint32_t range;      /* index of the range in trace->ranges, GS_NONE when none marks it */
    gs_ns host_start, host_end; /* the range as the host recorded it */
    gs_ns start, end;    /* extended to the GPU work it launched */
    uint32_t gpu_ops;    /* kernels, copies and sets launched inside the host range */
    bool warmup;
} gs_step;

typedef struct gs_step_stats {
    size_t n; /* steps kept (warm-up excluded unless asked) */
    gs_ns mean, std, min, med, p95, p99, max; /* percentiles nearest-rank; std population */
} gs_step_stats;

typedef struct gs_steps {
    enum gs_step_source source;
    gs_step *v;
    size_t n;
    size_t nwarmup;
    bool keep_warmup;
    gs_step_stats stats;
    uint32_t period;   /* GS_STEPS_DETECTED: launching calls per steady iteration */
    double confidence; /* GS_STEPS_DETECTED: share of launches repeating at the period, 0..1 */
} gs_steps;

typedef struct gs_step_opts {
    const char *regex; /* NULL: ProfilerStep#N, else detected, else the whole window */
    bool detect;       /* ignore the ranges: steps from the repeating launch sequence */
    bool plugin_rules; /* the TensorBoard plugin's steps: ProfilerStep#N or --step, else the
                        * whole trace from its first event; nothing detected */
    bool keep_warmup;
} gs_step_opts;

struct gs_names;

/* The steps of t (once per trace: a trace context holds them, trace_ctx.h); names are t's
 * (name_rules.h). 0, or -1 with err (a --step regex that is invalid or matches nothing). */
int gs_steps_find(const gs_trace *t, const struct gs_names *names, const gs_step_opts *opts,
                  gs_steps *out, gs_error *err);
void gs_steps_free(gs_steps *s);
/* A copy owning its own steps. 0, or -1 out of memory (dst is then empty). */
int gs_steps_copy(gs_steps *dst, const gs_steps *src);

/* The step whose [start, end) holds ts, or -1. Binary search. */
long gs_steps_at(const gs_steps *s, gs_ns ts);

/* Whether step i counts in statistics and per-step averages. */
static inline bool gs_step_kept(const gs_steps *s, size_t i)
{
    return s->keep_warmup || !s->v[i].warmup;
}

#endif
