/* Step-time breakdown (doc/design.md §11), with the TensorBoard profiler plugin's semantics
 * (its OverallParser, torch_tb_profiler/profiler/overall_parser.py) so that the numbers agree on
 * the same trace: each instant of a step goes to the first category active then, in the priority
 * order of enum gs_bd_cat. Plus the plugin's GPU metrics per device (gpu_metrics.h).
 *
 * Deliberate differences from the plugin are listed in doc/breakdown.md. */
#ifndef GS_ANALYSIS_BREAKDOWN_H
#define GS_ANALYSIS_BREAKDOWN_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/trace/gpu_metrics.h"
#include "analysis/base/steps.h"
#include "analysis/base/trace_ctx.h"
#include "common/error.h"
#include "model/trace.h"

/* In priority order: an instant covered by several goes to the first. */
enum gs_bd_cat {
    GS_BD_KERNEL,     /* GPU kernels other than communication kernels */
    GS_BD_MEMCPY,     /* GPU copies */
    GS_BD_MEMSET,     /* GPU sets */
    GS_BD_COMM,       /* communication kernels, and host ops named nccl:* / gloo:* */
    GS_BD_RUNTIME,    /* CUDA runtime and driver calls */
    GS_BD_DATALOADER, /* enumerate(DataLoader)#….__next__, enumerate(DataPipe)#… */
    GS_BD_CPU_EXEC,   /* other operators, annotations and NVTX ranges */
    GS_BD_OTHER,      /* step time covered by none of the above */
    GS_BD__COUNT
};

/* Stable names: "kernel", "memcpy", "memset", "communication", "runtime", "dataloader",
 * "cpu_exec", "other" (JSON keys), and the plugin's titles ("Kernel", ..., "CPU Exec"). */
const char *gs_bd_cat_key(enum gs_bd_cat c);

const char *gs_bd_cat_title(enum gs_bd_cat c);

typedef struct gs_bd_step {
    int64_t number; /* as gs_step.number */
    gs_ns start, end;
    gs_ns ns[GS_BD__COUNT]; /* sums to end - start */
    bool warmup;
} gs_bd_step;

/* One trace (rank). */
typedef struct gs_bd_trace {
    gs_rank_id id;    /* owned */
    gs_steps steps;   /* owned */
    gs_bd_step *step; /* one per steps.v[i] */
    size_t nkept;     /* steps counted in the averages (gs_step_kept) */
    double avg_ns[GS_BD__COUNT]; /* mean over the kept steps */
    double avg_total_ns;
    double avg_pct[GS_BD__COUNT]; /* avg_ns / avg_total_ns × 100 */
    gs_gpu_metrics gpu; /* over [first kept step start, last step end] */
} gs_bd_trace;

typedef struct gs_breakdown {
    gs_bd_trace *v; /* by rank, then path */
    size_t n;
} gs_breakdown;

/* The breakdown of c's steps, appended; finish puts the traces in rank order. tb_compat:
 * Communication and Runtime exactly as the plugin detected them, to compare with its numbers: a
 * kernel is communication only when its External id is that of a host op named one of nccl:/gloo:
 * broadcast, reduce, all_reduce, all_gather, reduce_scatter (which misses every NCCL kernel of
 * modern PyTorch); host comm ops by those five names only; Runtime = runtime calls, not driver
 * calls. Off: gpuscope's kernel classes (kernel_class.h), every nccl:* or gloo:* op, runtime and
 * driver calls. (The plugin's steps are the context's, found with gs_step_opts.plugin_rules.)
 * 0, or -1 with err; a failed breakdown is freed. */
int gs_breakdown_add(gs_breakdown *b, const gs_trace_ctx *c, bool tb_compat, gs_error *err);
void gs_breakdown_finish(gs_breakdown *b);
int gs_breakdown_build(const gs_trace_ctx *c, bool tb_compat, gs_breakdown *out, gs_error *err);

void gs_breakdown_free(gs_breakdown *b);

#endif
