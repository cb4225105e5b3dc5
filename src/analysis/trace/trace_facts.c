#include "analysis/trace/trace_facts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/collectives.h"
#include "common/util.h"
#include "common/vec.h"

/* ---- facts ---------------------------------------------------------------------------------- */

static uint8_t collector_of(const char *format)
{
    if (strcmp(format, "kineto") == 0)
        return GS_COLLECTOR_TORCH_PROFILER;
    if (strcmp(format, "legacy") == 0)
        return GS_COLLECTOR_AUTOGRAD;
    if (strcmp(format, "gst") == 0)
        return GS_COLLECTOR_GPUSCOPE_RUN;
    return GS_COLLECTOR_UNKNOWN;
}

static void count_ranges(const gs_trace_ctx *x, gs_trace_facts *c)
{
    const gs_trace *t = x->trace;
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (r->kind != GS_RANGE_GPU_ANNOTATION && gs_ctx_name(x, r->name, GS_NAME_PROFILER_STEP))
            c->profiler_steps++;
        c->compiled_regions += gs_ctx_name(x, r->name, GS_NAME_COMPILED_RANGE);
        unsigned wrapper = gs_ctx_name(x, r->name, GS_NAME_PARALLEL_WRAPPER);
        c->ddp_ranges += wrapper == GS_WRAPPER_DDP;
        c->fsdp_ranges += wrapper == GS_WRAPPER_FSDP;
        switch ((enum gs_range_kind)r->kind) {
        case GS_RANGE_OP:
            /* gpuscope run's operators are emit_nvtx's ranges, named as operators */
            if (c->collector == GS_COLLECTOR_GPUSCOPE_RUN)
                c->emit_nvtx_ranges++;
            else
                c->ops++;
            c->ops_with_shapes += r->input_dims != GS_STR_EMPTY;
            c->backward_events += gs_ctx_name(x, r->name, GS_NAME_BACKWARD_OP);
            c->optimizer_events += gs_ctx_name(x, r->name, GS_NAME_OPTIMIZER_OP);
            c->decode_events += gs_ctx_name(x, r->name, GS_NAME_DECODE_RANGE);
            break;
        case GS_RANGE_ANNOTATION:
            /* record_function's ranges: the optimizer's step hook, a serving engine's step */
            c->optimizer_events += gs_ctx_name(x, r->name, GS_NAME_OPTIMIZER_OP);
            c->decode_events += gs_ctx_name(x, r->name, GS_NAME_DECODE_RANGE);
            break;
        case GS_RANGE_NVTX:
            c->nvtx_ranges++;
            break;
        case GS_RANGE_PYTHON:
            c->python_functions++;
            break;
        default:
            break;
        }
    }
}

/* Kernel time by what the names say; decode kernels; backward and optimizer kernels count only
 * where the trace has no operators to say it (a gpuscope run trace without emit_nvtx): an
 * operator's name is the surer sign, and an inference trace's kernels can hold the letters. */
static void judge_kernels(const gs_trace_ctx *x, gs_trace_facts *c)
{
    const gs_trace *t = x->trace;
    gs_ns all = 0, low = 0, conv = 0, fp8 = 0, compiled = 0;
    bool ops = c->ops + c->emit_nvtx_ranges > 0;
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        gs_ns d = k->end - k->start;
        all += d;
        low += gs_ctx_name(x, k->name, GS_NAME_LOW_PRECISION) ? d : 0;
        conv += gs_ctx_name(x, k->name, GS_NAME_CONV_KERNEL) ? d : 0;
        fp8 += gs_ctx_name(x, k->name, GS_NAME_FP8_NAME) && gs_ctx_name(x, k->name, GS_NAME_TENSOR_CORE)
                   ? d
                   : 0;
        compiled += gs_ctx_name(x, k->name, GS_NAME_COMPILED_KERNEL) ? d : 0;
        c->embedding_kernels += gs_ctx_name(x, k->name, GS_NAME_EMBEDDING_KERNEL);
        c->decode_events += gs_ctx_name(x, k->name, GS_NAME_DECODE_KERNEL);
        if (!ops) {
            c->backward_events += gs_ctx_name(x, k->name, GS_NAME_BACKWARD_KERNEL);
            c->optimizer_events += gs_ctx_name(x, k->name, GS_NAME_OPTIMIZER_KERNEL);
        }
    }
    c->low_precision_share = all ? (double)low / (double)all : -1.0;
    c->conv_share = all ? (double)conv / (double)all : -1.0;
    c->fp8_share = all ? (double)fp8 / (double)all : -1.0;
    c->compiled_share = all ? (double)compiled / (double)all : -1.0;
}

/* Training is backward work or an optimizer step; anything else that ran is inference, which
 * decodes (autoregressive generation) where decode steps or kernels show it (gs_trace_decodes).
 * A trace that both decodes and trains (a reinforcement-learning rollout beside its update)
 * trains: the training advice is the one it needs. */
static uint8_t workload_of(const gs_trace_ctx *x, const gs_trace_facts *c)
{
    if (c->backward_events > 0 || c->optimizer_events > 0)
        return GS_WORKLOAD_TRAINING;
    if (c->ops + c->emit_nvtx_ranges > 0 || x->trace->kernels.n > 0)
        return GS_WORKLOAD_INFERENCE;
    return GS_WORKLOAD_UNKNOWN;
}

/* Which kinds of parallelism the trace shows: each kind's test, on the counts. */
typedef bool (*shows_fn)(const gs_trace_facts *c);

static bool shows_data(const gs_trace_facts *c)
{
    return c->ddp_ranges > 0 || (gs_trace_trains(c) && c->all_reduces > 0 && !c->fsdp_ranges &&
                                 !(c->all_gathers > 0 && c->reduce_scatters > 0));
}

/* All-gather with reduce-scatter is FSDP's pattern unless DDP's ranges say the data parallelism
 * is DDP, or embedding-table kernels say they exchange sharded tables (TorchRec's row-wise
 * sharding reduce-scatters the pooled embeddings). */
static bool shows_sharded(const gs_trace_facts *c)
{
    return c->fsdp_ranges > 0 || (gs_trace_trains(c) && c->all_gathers > 0 && c->reduce_scatters > 0 &&
                                  !c->ddp_ranges && !c->embedding_kernels);
}

/* Tensor parallelism communicates inside the forward: in training, more all-reduces launched
 * before their step's first backward operator than one per step (a loss averaged for logging is
 * one), where the trace has backward operators to tell them apart; without a backward pass, all-reduce, all-gather or
 * reduce-scatter (a collective of no known kind says nothing). */
static bool shows_tensor(const gs_trace_facts *c)
{
    uint64_t steps = c->profiler_steps ? c->profiler_steps : 1;
    if (gs_trace_trains(c))
        return c->backward_events > 0 && c->ops > 0 && c->forward_all_reduces > steps;
    return c->workload == GS_WORKLOAD_INFERENCE &&
           c->all_reduces + c->all_gathers + c->reduce_scatters > 0;
}

static bool shows_pipeline(const gs_trace_facts *c)
{
    return c->send_recvs > 0;
}

static bool shows_expert(const gs_trace_facts *c)
{
    return c->all_to_alls > 0 && c->embedding_kernels == 0;
}

static bool shows_embedding(const gs_trace_facts *c)
{
    return c->all_to_alls > 0 && c->embedding_kernels > 0;
}

static const shows_fn shows[GS_PAR__COUNT] = {
    [GS_PAR_DATA] = shows_data,         [GS_PAR_SHARDED] = shows_sharded,
    [GS_PAR_TENSOR] = shows_tensor,     [GS_PAR_PIPELINE] = shows_pipeline,
    [GS_PAR_EXPERT] = shows_expert,     [GS_PAR_EMBEDDING] = shows_embedding,
};

static uint8_t parallel_kinds_of(const gs_trace_facts *c)
{
    uint8_t kinds = 0;
    for (int k = 0; k < GS_PAR__COUNT; k++)
        kinds |= (uint8_t)(shows[k](c) << k);
    return kinds;
}

/* The start of each step's first backward operator (GS_NS_MAX: none). An all-reduce launched
 * before it is in the forward: tensor parallelism's; DDP's run during or after the backward
 * (from autograd's hooks, or the last bucket after it). */
static gs_ns *first_backward_of_steps(const gs_trace_ctx *x)
{
    const gs_trace *t = x->trace;
    gs_ns *first = gs_array_new(x->steps.n, sizeof *first);
    if (!first)
        return NULL;
    for (size_t i = 0; i < x->steps.n; i++)
        first[i] = INT64_MAX;
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        long s = r->kind == GS_RANGE_OP && gs_ctx_name(x, r->name, GS_NAME_BACKWARD_OP)
                     ? gs_steps_at(&x->steps, r->start)
                     : -1;
        if (s >= 0 && r->start < first[s])
            first[s] = r->start;
    }
    return first;
}

static bool in_forward(const gs_trace_ctx *x, const gs_ns *first_backward, const gs_kernel *k)
{
    if (k->op == GS_NONE || k->op >= x->trace->ranges.n)
        return false;
    gs_ns at = x->trace->ranges.v[k->op].start;
    long s = gs_steps_at(&x->steps, at);
    return s >= 0 && first_backward[s] != INT64_MAX && at < first_backward[s];
}

static int count_collectives(const gs_trace_ctx *x, gs_trace_facts *c, gs_error *err)
{
    const gs_trace *t = x->trace;
    const gs_collectives *coll = gs_ctx_collectives(x, err);
    if (!coll)
        return -1;
    gs_ns *first_backward = first_backward_of_steps(x);
    if (!first_backward)
        return gs_fail_oom(err);
    for (size_t i = 0; i < coll->n; i++) {
        uint64_t *kind[GS_COLL__COUNT] = {
            [GS_COLL_ALL_REDUCE] = &c->all_reduces, [GS_COLL_ALL_GATHER] = &c->all_gathers,
            [GS_COLL_REDUCE_SCATTER] = &c->reduce_scatters, [GS_COLL_SEND_RECV] = &c->send_recvs,
            [GS_COLL_ALL_TO_ALL] = &c->all_to_alls,
        };
        const gs_kernel *k = &t->kernels.v[coll->v[i].kernel];
        /* A SendRecv kernel no operator claims, in a trace with operators (its launch lost),
         * may be an all-to-all's as well as a pipeline's: a collective of no known kind. */
        bool unclaimed = coll->v[i].kind == GS_COLL_SEND_RECV && k->op == GS_NONE && c->ops > 0;
        if (kind[coll->v[i].kind] && !unclaimed)
            (*kind[coll->v[i].kind])++;
        if (coll->v[i].kind == GS_COLL_ALL_REDUCE && in_forward(x, first_backward, k))
            c->forward_all_reduces++;
    }
    free(first_backward);
    c->collectives = coll->n;
    /* Process groups by name: the arguments are few (one per collective at most). */
    for (size_t i = 0; i < t->coll_args.n; i++) {
        gs_str g = t->coll_args.v[i].group;
        bool seen = g == GS_STR_EMPTY;
        for (size_t k = 0; k < i && !seen; k++)
            seen = t->coll_args.v[k].group == g;
        c->process_groups += !seen;
    }
    return 0;
}

/* ---- the profiler's own cost ---------------------------------------------------------------- */

/* The unit cost of a range of the profiler's, 0 for a range it did not add. */
gs_ns gs_profiler_range_cost(const gs_trace_facts *c, const gs_range *r)
{
    switch ((enum gs_range_kind)r->kind) {
    case GS_RANGE_OP:
        return c->collector == GS_COLLECTOR_GPUSCOPE_RUN ? GS_COST_EMIT_NVTX_NS
                                                         : GS_COST_TORCH_OP_NS;
    case GS_RANGE_PYTHON:
        return GS_COST_PYTHON_EVENT_NS;
    case GS_RANGE_NVTX:
        return c->collector == GS_COLLECTOR_GPUSCOPE_RUN ? GS_COST_NVTX_RANGE_NS : 0;
    default:
        return 0;
    }
}

static gs_ns at_most(gs_ns unit, gs_ns dur)
{
    return dur < unit ? (dur > 0 ? dur : 0) : unit;
}

static bool counted(const gs_steps *steps, gs_ns ts)
{
    if (!steps)
        return true;
    long s = gs_steps_at(steps, ts);
    return s >= 0 && gs_step_kept(steps, (size_t)s);
}

gs_ns gs_profiler_activity_cost(const gs_trace_facts *c, gs_ns call_ns)
{
    if (c->collector != GS_COLLECTOR_TORCH_PROFILER && c->collector != GS_COLLECTOR_GPUSCOPE_RUN)
        return 0;
    return call_ns < 0 ? GS_COST_CUDA_ACTIVITY_NS : at_most(GS_COST_CUDA_ACTIVITY_NS, call_ns);
}

static gs_ns launch_cost(const gs_trace *t, const gs_trace_facts *c, uint32_t api)
{
    bool known = api != GS_NONE && api < t->apis.n;
    return gs_profiler_activity_cost(c, known ? t->apis.v[api].end - t->apis.v[api].start : -1);
}

/* Each recorded event at its unit cost; a traced GPU activity at most its launch call's duration,
 * which holds CUPTI's work (a range's cost falls partly outside its own interval: the Python
 * tracer's and RecordFunction's callbacks run around it). steps NULL: the whole trace. */
static gs_ns estimate_cost(const gs_trace *t, const gs_trace_facts *c, const gs_steps *steps)
{
    gs_ns ns = 0;
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        gs_ns unit = gs_profiler_range_cost(c, r);
        if (unit && counted(steps, r->start))
            ns += unit;
    }
    if (c->collector != GS_COLLECTOR_TORCH_PROFILER && c->collector != GS_COLLECTOR_GPUSCOPE_RUN)
        return ns;
    for (size_t i = 0; i < t->kernels.n; i++)
        if (counted(steps, t->kernels.v[i].start))
            ns += launch_cost(t, c, t->kernels.v[i].api);
    for (size_t i = 0; i < t->memops.n; i++)
        if (counted(steps, t->memops.v[i].start))
            ns += launch_cost(t, c, t->memops.v[i].api);
    return ns;
}

gs_ns gs_profiler_step_cost(const gs_trace *t, const gs_trace_facts *c, const gs_steps *steps,
                            size_t nkept)
{
    if (!nkept || !c->known)
        return 0;
    return estimate_cost(t, c, steps) / (gs_ns)nkept;
}

/* The unit costs were measured on one machine: on a faster host the estimate can pass the time
 * it is a share of, and is then said as all of it. */
static gs_ns capped(gs_ns ns, gs_ns cap)
{
    return cap > 0 && ns > cap ? cap : ns;
}

int gs_trace_facts_build(const gs_trace_ctx *x, gs_trace_facts *out, gs_error *err)
{
    const gs_trace *t = x->trace;
    memset(out, 0, sizeof *out);
    out->known = true;
    out->collector = collector_of(
        gs_trace_str(t, t->recorded_by != GS_STR_EMPTY ? t->recorded_by : t->format));
    out->memory_events = t->mem_events.n;
    out->gpu_activities = t->kernels.n + t->memops.n;
    out->accelerator_events = t->accelerator_events;
    count_ranges(x, out);
    judge_kernels(x, out);
    out->workload = workload_of(x, out);
    if (count_collectives(x, out, err) != 0)
        return -1;
    out->parallel_kinds = parallel_kinds_of(out);
    out->profiler_cost_ns =
        capped(estimate_cost(t, out, NULL), x->has_span ? x->last - x->first : 0);
    if (t->collector_overhead_ns > out->profiler_cost_ns)
        out->profiler_cost_ns = t->collector_overhead_ns;
    return 0;
}

const char *gs_collector_name(uint8_t collector)
{
    static const char *const names[GS_COLLECTOR__COUNT] = {
        [GS_COLLECTOR_UNKNOWN] = "an unknown profiler",
        [GS_COLLECTOR_TORCH_PROFILER] = "torch.profiler",
        [GS_COLLECTOR_AUTOGRAD] = "the autograd profiler",
        [GS_COLLECTOR_GPUSCOPE_RUN] = "gpuscope run",
    };
    return collector < GS_COLLECTOR__COUNT ? names[collector] : names[0];
}

const char *gs_parallelism_key(enum gs_parallelism k)
{
    static const char *const keys[GS_PAR__COUNT] = {
        [GS_PAR_DATA] = "data",         [GS_PAR_SHARDED] = "sharded",
        [GS_PAR_TENSOR] = "tensor",     [GS_PAR_PIPELINE] = "pipeline",
        [GS_PAR_EXPERT] = "expert",     [GS_PAR_EMBEDDING] = "embedding",
    };
    return (unsigned)k < GS_PAR__COUNT ? keys[k] : "other";
}

const char *gs_parallel_kinds_name(uint8_t kinds, uint64_t collectives, char *buf, size_t cap)
{
    static const char *const names[GS_PAR__COUNT] = {
        [GS_PAR_DATA] = "data parallel (DDP)",
        [GS_PAR_SHARDED] = "sharded data parallel (FSDP, ZeRO)",
        [GS_PAR_TENSOR] = "tensor parallel (collectives in the forward)",
        [GS_PAR_PIPELINE] = "pipeline parallel (send/recv)",
        [GS_PAR_EXPERT] = "expert parallel (all-to-all)",
        [GS_PAR_EMBEDDING] = "sharded embedding tables (all-to-all)",
    };
    const char *alone = collectives ? "collectives of an unrecognized pattern" : "none";
    size_t at = 0;
    if (cap == 0)
        return buf;
    buf[0] = '\0';
    for (int k = 0; k < GS_PAR__COUNT; k++) {
        if (!gs_par_has(kinds, (enum gs_parallelism)k))
            continue;
        int n = snprintf(buf + at, cap - at, "%s%s", at ? " + " : "", names[k]);
        if (n < 0 || (size_t)n >= cap - at)
            return buf; /* cut short: the caller's buffer holds every name (GS_PAR_NAMES_MAX) */
        at += (size_t)n;
    }
    if (at == 0)
        snprintf(buf, cap, "%s", alone);
    return buf;
}
