/* What a trace says about how it was recorded and what ran (doc/diagnosis.md, "What the advice
 * is conditioned on"): the collector and the options it had on, training or inference, the kind
 * of parallelism its collectives show, the precision its kernels run in, and an estimate of the
 * profiler's own cost on the host. The verdict's actions are chosen by these facts, and the
 * report's "What was profiled" states them. */
#ifndef GS_ANALYSIS_TRACE_FACTS_H
#define GS_ANALYSIS_TRACE_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/base/steps.h"
#include "analysis/base/trace_ctx.h"
#include "model/trace.h"

enum gs_collector {
    GS_COLLECTOR_UNKNOWN,
    GS_COLLECTOR_TORCH_PROFILER, /* torch.profiler (Kineto JSON) */
    GS_COLLECTOR_AUTOGRAD,       /* the legacy autograd profiler's export */
    GS_COLLECTOR_GPUSCOPE_RUN,   /* gpuscope run (.gst) */
    GS_COLLECTOR__COUNT
};

enum gs_workload { GS_WORKLOAD_UNKNOWN, GS_WORKLOAD_TRAINING, GS_WORKLOAD_INFERENCE,
                   GS_WORKLOAD__COUNT };

/* The kinds of parallelism a trace shows, a bit each (1u << kind): real jobs combine them (3D
 * parallelism is data + tensor + pipeline, a mixture of experts data + expert). Read from the
 * operators and the collectives (doc/diagnosis.md, "What the advice is conditioned on"): DDP's
 * or FSDP's own ranges, or in a training step all-reduce (data) and all-gather with
 * reduce-scatter (sharded); all-reduces in a training step's forward, more than one per step, or
 * all-reduce, all-gather or reduce-scatter with no backward pass (tensor); send/recv
 * that are not an all-to-all's (pipeline); all-to-alls, with fbgemm's embedding-table kernels
 * (embedding tables sharded across ranks) or without (expert). None of them with collectives:
 * a pattern gpuscope does not recognize. */
enum gs_parallelism {
    GS_PAR_DATA,      /* DDP */
    GS_PAR_SHARDED,   /* FSDP, ZeRO */
    GS_PAR_TENSOR,
    GS_PAR_PIPELINE,
    GS_PAR_EXPERT,    /* all-to-all: expert parallel (a mixture of experts) */
    GS_PAR_EMBEDDING, /* all-to-all of sharded embedding tables (a recommendation model) */
    GS_PAR__COUNT
};

static inline bool gs_par_has(uint8_t kinds, enum gs_parallelism k)
{
    return (kinds >> k) & 1u;
}

/* Measured unit costs of the profiler on the host, per recorded event (doc/diagnosis.md, "The
 * profiler's own cost", has the measurements and their sources). */
#define GS_COST_CUDA_ACTIVITY_NS 6150 /* a GPU activity traced by CUPTI (its launch call) */
#define GS_COST_TORCH_OP_NS 2050      /* an operator recorded by torch.profiler */
#define GS_COST_PYTHON_EVENT_NS 6500  /* a Python function event (with_stack) */
#define GS_COST_EMIT_NVTX_NS 5200     /* an operator range of emit_nvtx, recorded by gpuscope run */
#define GS_COST_NVTX_RANGE_NS 100     /* a user's NVTX range recorded by gpuscope run */

typedef struct gs_trace_facts {
    bool known;        /* false: not recorded (a rank summary of an earlier .gsum minor) */
    uint8_t collector; /* enum gs_collector */
    /* Options already on, as the trace shows them. */
    uint64_t profiler_steps;  /* ProfilerStep#N ranges: a schedule, or prof.step() */
    uint64_t ops, ops_with_shapes; /* operators; those with input shapes (record_shapes) */
    uint64_t python_functions; /* with_stack */
    uint64_t emit_nvtx_ranges; /* operator ranges of torch.autograd.profiler.emit_nvtx */
    uint64_t nvtx_ranges;      /* other NVTX ranges */
    uint64_t memory_events;    /* profile_memory / --trace memory */
    uint64_t gpu_activities;
    uint64_t accelerator_events; /* of an accelerator gpuscope does not read (MTIA): gs_trace's */
    /* What ran. */
    uint8_t workload;          /* enum gs_workload */
    uint64_t backward_events;  /* backward operators, or backward kernels without operators */
    uint64_t optimizer_events; /* optimizer steps (operators) or optimizer kernels */
    uint64_t decode_events;    /* decode steps (ranges) and decode attention kernels */
    uint8_t parallel_kinds;    /* a bit per enum gs_parallelism */
    uint64_t all_reduces, all_gathers, reduce_scatters, send_recvs, all_to_alls, collectives;
    uint64_t forward_all_reduces; /* all-reduces launched before their step's backward */
    uint64_t ddp_ranges, fsdp_ranges; /* DDP's and FSDP's own ranges (their forward) */
    uint64_t embedding_kernels;   /* fbgemm's embedding-table kernels */
    uint32_t process_groups;   /* distinct process group names in collective arguments */
    double low_precision_share; /* kernel time in bf16/fp16/fp8 kernels (by name), -1: none */
    double conv_share;          /* kernel time in convolution kernels (by name), -1: none */
    double fp8_share;      /* kernel time in Tensor-Core kernels with fp8/fp4 operands, -1: none */
    double compiled_share; /* kernel time in torch.compile's generated kernels, -1: none */
    uint64_t compiled_regions; /* ranges of regions torch.compile compiled */
    /* The profiler's own host time over the trace (estimated; at least the collector's own
     * overhead records) and per kept step (filled with the verdict's inputs). */
    gs_ns profiler_cost_ns;
    gs_ns profiler_step_ns;
} gs_trace_facts;

/* Whether the trace trains: backward work or an optimizer step. */
static inline bool gs_trace_trains(const gs_trace_facts *c)
{
    return c->workload == GS_WORKLOAD_TRAINING;
}

/* Whether the trace is inference that decodes (autoregressive generation): decode steps or
 * decode attention kernels, and no backward pass. */
static inline bool gs_trace_decodes(const gs_trace_facts *c)
{
    return c->workload == GS_WORKLOAD_INFERENCE && c->decode_events > 0;
}

/* The facts of one trace; fills everything but profiler_step_ns. 0, or -1 with err. */
int gs_trace_facts_build(const gs_trace_ctx *c, gs_trace_facts *out, gs_error *err);

/* The profiler's estimated host time per kept step: each of its events in the kept steps at its
 * unit cost, at most the event's own duration. */
gs_ns gs_profiler_step_cost(const gs_trace *t, const gs_trace_facts *c, const gs_steps *steps,
                            size_t nkept);

/* The profiler's estimated host cost of recording range r, and of tracing one GPU activity whose
 * launch call lasted call_ns (-1: unknown), at the unit costs above; 0 for what the trace's
 * collector does not record at a cost. */
gs_ns gs_profiler_range_cost(const gs_trace_facts *c, const gs_range *r);
gs_ns gs_profiler_activity_cost(const gs_trace_facts *c, gs_ns call_ns);

const char *gs_collector_name(uint8_t collector);    /* "torch.profiler", "gpuscope run", ... */
enum { GS_PAR_NAMES_MAX = 256 }; /* room for every kind's name, joined */

/* The kinds in words, joined by " + " ("data parallel (DDP) + expert parallel (all-to-all)"),
 * "none" or "collectives of an unrecognized pattern": written into buf, which is returned. */
const char *gs_parallel_kinds_name(uint8_t kinds, uint64_t collectives, char *buf, size_t cap);
const char *gs_parallelism_key(enum gs_parallelism k); /* "data", "expert", ... (JSON) */

#endif
