/* Which of a rule's actions a trace calls for, and why (doc/diagnosis.md, "What the advice is
 * conditioned on"). Each condition of the rule table (enum gs_action_when) is one test on the
 * trace's facts (analysis/trace/trace_facts.h) that says, in words, what in the trace makes the action
 * apply or not: advice to turn on with_stack for a trace that has Python stacks, or to add a
 * torch.profiler schedule to a gpuscope run trace, is left out and the reason kept for
 * report --explain. A trace whose context is not known (a summary of an earlier .gsum minor)
 * gets every action, without a reason, as before. */
#include "analysis/diagnosis/diagnose.h"

#include <inttypes.h>

#include "analysis/base/gpu_caps.h"
#include "analysis/base/thresholds.h"
#include "analysis/trace/roofline.h"
#include "common/strbuf.h"

enum verdict { APPLIES, DOES_NOT, UNKNOWN };

/* A condition decides from the trace and, when it does, says why in `why`. */
typedef enum verdict (*condition_fn)(const gs_diag_inputs *in, gs_strbuf *why);

static const gs_trace_facts *facts_of(const gs_diag_inputs *in)
{
    return &in->facts;
}

static void say_workload(const gs_trace_facts *c, gs_strbuf *why)
{
    if (gs_trace_trains(c) && c->backward_events)
        gs_strbuf_appendf(why, "%" PRIu64 " backward %s in the trace: a training step",
                          c->backward_events,
                          c->ops + c->emit_nvtx_ranges ? "operators" : "kernels");
    else if (gs_trace_trains(c))
        gs_strbuf_append(why, "an optimizer step in the trace: training");
    else if (c->ops + c->emit_nvtx_ranges)
        gs_strbuf_appendf(why, "no backward operator or optimizer step among %" PRIu64
                          " operators: inference", c->ops + c->emit_nvtx_ranges);
    else
        gs_strbuf_append(why, "no backward or optimizer kernel among the trace's kernels: "
                              "inference");
}

static enum verdict when_always(const gs_diag_inputs *in, gs_strbuf *why)
{
    (void)in, (void)why;
    return APPLIES;
}

static enum verdict when_training(const gs_diag_inputs *in, gs_strbuf *why)
{
    const gs_trace_facts *c = facts_of(in);
    if (c->workload == GS_WORKLOAD_UNKNOWN)
        return UNKNOWN;
    say_workload(c, why);
    return gs_trace_trains(c) ? APPLIES : DOES_NOT;
}

/* Inference-only advice (CUDA graphs for decode, a static KV cache, batching requests) is never
 * given to a trace that trains, nor to one whose workload is not known: the training wording is
 * what such a trace has always been given. */
static enum verdict when_inference(const gs_diag_inputs *in, gs_strbuf *why)
{
    const gs_trace_facts *c = facts_of(in);
    if (!c->known || c->workload == GS_WORKLOAD_UNKNOWN) {
        gs_strbuf_append(why, c->known ? "the trace shows neither operators nor kernels"
                                       : "the summary does not record what ran");
        return DOES_NOT;
    }
    say_workload(c, why);
    return gs_trace_trains(c) ? DOES_NOT : APPLIES;
}

static enum verdict when_decode(const gs_diag_inputs *in, gs_strbuf *why)
{
    const gs_trace_facts *c = facts_of(in);
    if (when_inference(in, why) != APPLIES)
        return DOES_NOT;
    if (gs_trace_decodes(c))
        gs_strbuf_appendf(why, "; %" PRIu64 " decode steps and kernels: autoregressive decoding",
                          c->decode_events);
    else
        gs_strbuf_append(why, "; no decode step nor decode attention kernel (paged_attention, "
                              "splitkv): not autoregressive decoding");
    return gs_trace_decodes(c) ? APPLIES : DOES_NOT;
}

/* The parallelism conditions: whether the trace shows one of the kinds in `mask` (a bit per
 * enum gs_parallelism; a job combines several), said with the collectives' counts and every
 * kind it shows. */
static enum verdict parallel_is(const gs_diag_inputs *in, gs_strbuf *why, uint8_t mask)
{
    const gs_trace_facts *c = facts_of(in);
    /* collectives of a pattern none of the kinds explains, or a summary of an earlier .gsum
     * minor that did not record the kinds: every kind's advice, as before */
    if (!c->known || (c->workload == GS_WORKLOAD_UNKNOWN && c->collectives == 0) ||
        (c->collectives > 0 && c->parallel_kinds == 0))
        return UNKNOWN;
    if (c->collectives == 0 && c->parallel_kinds == 0) {
        gs_strbuf_append(why, "no collective in the trace");
        return DOES_NOT;
    }
    gs_strbuf_appendf(why, "%" PRIu64 " collectives", c->collectives);
    if (c->process_groups > 1)
        gs_strbuf_appendf(why, " in %" PRIu32 " process groups", c->process_groups);
    gs_strbuf_appendf(why,
                      " (%" PRIu64 " all-reduce, %" PRIu64 " all-gather, %" PRIu64
                      " reduce-scatter, %" PRIu64 " send/recv, %" PRIu64 " all-to-all)",
                      c->all_reduces, c->all_gathers, c->reduce_scatters, c->send_recvs,
                      c->all_to_alls);
    if (c->ddp_ranges || c->fsdp_ranges)
        gs_strbuf_appendf(why, ", %" PRIu64 " %s ranges", c->ddp_ranges + c->fsdp_ranges,
                          c->ddp_ranges ? "DistributedDataParallel" : "FullyShardedDataParallel");
    char kinds[GS_PAR_NAMES_MAX];
    gs_strbuf_appendf(why, ", %s: %s", gs_trace_trains(c) ? "training" : "no backward pass",
                      gs_parallel_kinds_name(c->parallel_kinds, c->collectives, kinds,
                                             sizeof kinds));
    return c->parallel_kinds & mask ? APPLIES : DOES_NOT;
}

#define PAR(k) (uint8_t)(1u << (k))

static enum verdict when_grad_sync(const gs_diag_inputs *in, gs_strbuf *why)
{
    return parallel_is(in, why, PAR(GS_PAR_DATA) | PAR(GS_PAR_SHARDED));
}

static enum verdict when_data_parallel(const gs_diag_inputs *in, gs_strbuf *why)
{
    return parallel_is(in, why, PAR(GS_PAR_DATA));
}

static enum verdict when_sharded(const gs_diag_inputs *in, gs_strbuf *why)
{
    return parallel_is(in, why, PAR(GS_PAR_SHARDED));
}

static enum verdict when_tensor_parallel(const gs_diag_inputs *in, gs_strbuf *why)
{
    return parallel_is(in, why, PAR(GS_PAR_TENSOR));
}

static enum verdict when_pipeline(const gs_diag_inputs *in, gs_strbuf *why)
{
    return parallel_is(in, why, PAR(GS_PAR_PIPELINE));
}

static enum verdict when_expert(const gs_diag_inputs *in, gs_strbuf *why)
{
    return parallel_is(in, why, PAR(GS_PAR_EXPERT));
}

static enum verdict when_embedding(const gs_diag_inputs *in, gs_strbuf *why)
{
    return parallel_is(in, why, PAR(GS_PAR_EMBEDDING));
}

#undef PAR

static enum verdict when_full_precision(const gs_diag_inputs *in, gs_strbuf *why)
{
    double low = facts_of(in)->low_precision_share;
    if (!facts_of(in)->known || low < 0)
        return UNKNOWN;
    bool full = low < GS_TH_LOW_PRECISION_SHARE;
    gs_strbuf_appendf(why, "%.0f %% of kernel time is in bf16/fp16 kernels (by name)%s",
                      100 * low, full ? "" : ": mixed precision is already on");
    return full ? APPLIES : DOES_NOT;
}

/* FP8 advice to a step whose matmuls already run in FP8 (Tensor-Core kernels with fp8 or fp4
 * operands, GS_TH_LOW_PRECISION_SHARE of kernel time, as mixed precision) is advice it took. */
static enum verdict when_not_fp8(const gs_diag_inputs *in, gs_strbuf *why)
{
    double fp8 = facts_of(in)->fp8_share;
    if (!facts_of(in)->known || fp8 < 0)
        return UNKNOWN;
    bool on = fp8 >= GS_TH_LOW_PRECISION_SHARE;
    gs_strbuf_appendf(why, "%.0f %% of kernel time is in fp8/fp4 Tensor-Core kernels (by name)%s",
                      100 * fp8, on ? ": FP8 is already on" : "");
    return on ? DOES_NOT : APPLIES;
}

/* torch.compile advice to a program torch.compile already runs: its regions in the trace, or
 * Inductor's kernels a noticeable share of kernel time. */
static enum verdict when_not_compiled(const gs_diag_inputs *in, gs_strbuf *why)
{
    const gs_trace_facts *c = facts_of(in);
    if (!c->known)
        return UNKNOWN;
    double share = c->compiled_share > 0 ? c->compiled_share : 0;
    bool on = c->compiled_regions > 0 || share >= GS_TH_LOW_PRECISION_SHARE;
    if (!c->compiled_regions && share == 0) {
        gs_strbuf_append(why, "no torch.compile region nor Inductor kernel in the trace");
        return APPLIES;
    }
    gs_strbuf_appendf(why, "%" PRIu64 " torch.compile region%s (Torch-Compiled Region, "
                      "CompiledFunction), %.0f %% of kernel time in Inductor's Triton kernels%s",
                      c->compiled_regions, c->compiled_regions == 1 ? "" : "s", 100 * share,
                      on ? ": torch.compile is already on" : "");
    return on ? DOES_NOT : APPLIES;
}

/* Advice to cut the framework's overhead between kernels, to a step whose kernels mostly run
 * from CUDA graphs: a replayed graph launches them without the framework already. A trace
 * without graph kernels has nothing to say about it. */
static enum verdict when_not_graphed(const gs_diag_inputs *in, gs_strbuf *why)
{
    const gs_graph_facts *g = &in->graphs;
    if (!g->kernels || !g->graph_kernels)
        return UNKNOWN;
    double share = gs_graph_kernel_share(g);
    bool graphed = share >= GS_TH_GRAPHED_SHARE;
    gs_strbuf_appendf(why, "%.0f %% of the kernels run from CUDA graphs (%" PRIu64 " of %" PRIu64
                      ")%s",
                      100 * share, (uint64_t)g->graph_kernels, (uint64_t)g->kernels,
                      graphed ? ": the framework no longer launches them one by one" : "");
    return graphed ? DOES_NOT : APPLIES;
}

/* Advice about the GPU to a trace whose work ran on an accelerator gpuscope does not read. */
static enum verdict when_no_accelerator(const gs_diag_inputs *in, gs_strbuf *why)
{
    const gs_trace_facts *c = facts_of(in);
    if (!c->known || !c->accelerator_events)
        return UNKNOWN;
    gs_strbuf_appendf(why, "%" PRIu64 " events of an MTIA accelerator (mtia_ccp_events): the "
                      "profiler recorded the accelerator, which gpuscope does not read",
                      c->accelerator_events);
    return DOES_NOT;
}

/* A trace of the capture itself (graphs_unreplayed's note): the replay happens after it. */
static enum verdict capture(const gs_diag_inputs *in, gs_strbuf *why, bool want)
{
    const gs_graph_facts *g = &in->graphs;
    bool only = gs_graphs_capture_only(g);
    gs_strbuf_appendf(why, "%" PRIu64 " launches recorded into graphs, %" PRIu64
                      " kernels run, %" PRIu64 " graph launches%s",
                      (uint64_t)g->captured_launches, (uint64_t)g->kernels, (uint64_t)g->launches,
                      only ? ": the trace holds the capture, the replay comes after it" : "");
    return only == want ? APPLIES : DOES_NOT;
}

static enum verdict when_replay_missing(const gs_diag_inputs *in, gs_strbuf *why)
{
    return capture(in, why, false);
}

static enum verdict when_capture_only(const gs_diag_inputs *in, gs_strbuf *why)
{
    return capture(in, why, true);
}

static enum verdict when_conv(const gs_diag_inputs *in, gs_strbuf *why)
{
    double conv = facts_of(in)->conv_share;
    if (!facts_of(in)->known || conv < 0)
        return UNKNOWN;
    gs_strbuf_appendf(why, "%.0f %% of kernel time is in convolution kernels", 100 * conv);
    return conv > 0 ? APPLIES : DOES_NOT;
}

static enum verdict stack(const gs_diag_inputs *in, gs_strbuf *why, bool want)
{
    const gs_trace_facts *c = facts_of(in);
    if (!c->known)
        return UNKNOWN;
    if (c->python_functions)
        gs_strbuf_appendf(why,
                          "the trace holds %" PRIu64 " Python function event%s (with_stack=True)",
                          c->python_functions, c->python_functions == 1 ? "" : "s");
    else
        gs_strbuf_appendf(why, "the trace has no Python stacks (%s)",
                          c->collector == GS_COLLECTOR_GPUSCOPE_RUN ? "gpuscope run records none"
                                                                    : "with_stack was off");
    return (c->python_functions > 0) == want ? APPLIES : DOES_NOT;
}

static enum verdict when_no_stack(const gs_diag_inputs *in, gs_strbuf *why)
{
    return stack(in, why, false);
}

static enum verdict when_stack(const gs_diag_inputs *in, gs_strbuf *why)
{
    return stack(in, why, true);
}

/* The collector, and whether the trace marks its steps with ProfilerStep#N. */
static enum verdict collector_is(const gs_diag_inputs *in, gs_strbuf *why, bool gst, int steps)
{
    const gs_trace_facts *c = facts_of(in);
    if (!c->known || c->collector == GS_COLLECTOR_UNKNOWN)
        return UNKNOWN;
    bool is_gst = c->collector == GS_COLLECTOR_GPUSCOPE_RUN;
    /* A gpuscope run trace has steps when its ranges mark them or they were detected from its
     * repeating kernel sequence; a torch.profiler trace, when it has ProfilerStep#N (what a
     * schedule adds). */
    bool detected = is_gst && !c->profiler_steps && in->steps > 1;
    bool has_steps = c->profiler_steps > 0 || detected;
    if (steps < 0)
        gs_strbuf_appendf(why, "a %s trace", gs_collector_name(c->collector));
    else if (c->profiler_steps)
        gs_strbuf_appendf(why, "a %s trace with %" PRIu64 " ProfilerStep#N ranges",
                          gs_collector_name(c->collector), c->profiler_steps);
    else if (detected)
        gs_strbuf_appendf(why,
                          "a %s trace with steps detected from its repeating kernel sequence",
                          gs_collector_name(c->collector));
    else
        gs_strbuf_appendf(why, "a %s trace without ProfilerStep#N ranges",
                          gs_collector_name(c->collector));
    bool match = is_gst == gst && (steps < 0 || has_steps == (steps > 0));
    return match ? APPLIES : DOES_NOT;
}

static enum verdict when_torch_no_steps(const gs_diag_inputs *in, gs_strbuf *why)
{
    return collector_is(in, why, false, 0);
}

static enum verdict when_torch_steps(const gs_diag_inputs *in, gs_strbuf *why)
{
    return collector_is(in, why, false, 1);
}

static enum verdict when_gst_no_steps(const gs_diag_inputs *in, gs_strbuf *why)
{
    return collector_is(in, why, true, 0);
}

static enum verdict when_gst_steps(const gs_diag_inputs *in, gs_strbuf *why)
{
    return collector_is(in, why, true, 1);
}

static enum verdict when_torch(const gs_diag_inputs *in, gs_strbuf *why)
{
    return collector_is(in, why, false, -1);
}

static enum verdict when_gst(const gs_diag_inputs *in, gs_strbuf *why)
{
    return collector_is(in, why, true, -1);
}

bool gs_profiler_cost_noticeable(const gs_diag_inputs *in)
{
    return in->facts.known && in->step_ns > 0 &&
           (double)in->facts.profiler_step_ns >= GS_TH_PROFILER_COST_SHARE * (double)in->step_ns;
}

/* The profiler's host time per step that `host_ns` holds, noticeable or not. */
static gs_ns profiler_in(const gs_diag_inputs *in, gs_ns host_ns)
{
    return in->facts.profiler_step_ns < host_ns ? in->facts.profiler_step_ns : host_ns;
}

/* The step's GPU-idle host time: runtime, DataLoader, CPU exec and other. */
static gs_ns gpu_idle_host_ns(const gs_diag_inputs *in)
{
    return in->runtime_ns + in->dataloader_ns + in->cpu_exec_ns + in->other_ns;
}

gs_ns gs_profiler_within(const gs_diag_inputs *in, gs_ns host_ns)
{
    return gs_profiler_cost_noticeable(in) ? profiler_in(in, host_ns) : 0;
}

gs_ns gs_profiler_step_lengthening(const gs_diag_inputs *in)
{
    return gs_profiler_within(in, gpu_idle_host_ns(in));
}

static enum verdict when_profiler_heavy(const gs_diag_inputs *in, gs_strbuf *why)
{
    const gs_trace_facts *c = facts_of(in);
    if (!c->known)
        return UNKNOWN;
    gs_ns longer = profiler_in(in, gpu_idle_host_ns(in));
    gs_strbuf_appendf(why,
                      "the profiler's own host time is about %.3f ms per step (estimated), at "
                      "most %.3f ms of it in the %.3f ms step's GPU-idle time (%.0f %% of the step)",
                      (double)c->profiler_step_ns / 1e6, (double)longer / 1e6,
                      (double)in->step_ns / 1e6,
                      in->step_ns > 0 ? 100.0 * (double)longer / (double)in->step_ns : 0.0);
    return gs_profiler_cost_noticeable(in) ? APPLIES : DOES_NOT;
}

static enum verdict when_code_loads(const gs_diag_inputs *in, gs_strbuf *why)
{
    if (!in->first_use_steps)
        return UNKNOWN;
    gs_strbuf_appendf(why, "%zu of %zu steps after the first load GPU code (cuModuleLoad, "
                           "cuLibraryLoad, cuLink)",
                      in->first_use_load_steps, in->first_use_steps);
    return in->first_use_load_steps ? APPLIES : DOES_NOT;
}

/* What bounds the roofline's largest operator group: each bound has its own advice. */
static enum verdict when_bound(const gs_diag_inputs *in, enum gs_roof_bound b, gs_strbuf *why)
{
    if (in->roof_share < 0 || !in->roof_op)
        return UNKNOWN;
    gs_strbuf_appendf(why, "%s is %s-bound (%.1f FLOP/byte)", in->roof_op,
                      gs_roof_bound_name(in->roof_bound), in->roof_intensity);
    return in->roof_bound == b ? APPLIES : DOES_NOT;
}

static enum verdict when_memory_bound(const gs_diag_inputs *in, gs_strbuf *why)
{
    return when_bound(in, GS_BOUND_MEMORY, why);
}

static enum verdict when_compute_bound(const gs_diag_inputs *in, gs_strbuf *why)
{
    return when_bound(in, GS_BOUND_COMPUTE, why);
}

static enum verdict when_latency_bound(const gs_diag_inputs *in, gs_strbuf *why)
{
    return when_bound(in, GS_BOUND_LATENCY, why);
}

static const condition_fn conditions[GS_WHEN__COUNT] = {
    [GS_WHEN_ALWAYS] = when_always,
    [GS_WHEN_TRAINING] = when_training,
    [GS_WHEN_GRAD_SYNC] = when_grad_sync,
    [GS_WHEN_DATA_PARALLEL] = when_data_parallel,
    [GS_WHEN_SHARDED] = when_sharded,
    [GS_WHEN_TENSOR_PARALLEL] = when_tensor_parallel,
    [GS_WHEN_PIPELINE] = when_pipeline,
    [GS_WHEN_FULL_PRECISION] = when_full_precision,
    [GS_WHEN_CONV] = when_conv,
    [GS_WHEN_NO_STACK] = when_no_stack,
    [GS_WHEN_STACK] = when_stack,
    [GS_WHEN_TORCH_NO_STEPS] = when_torch_no_steps,
    [GS_WHEN_TORCH_STEPS] = when_torch_steps,
    [GS_WHEN_GST_NO_STEPS] = when_gst_no_steps,
    [GS_WHEN_GST_STEPS] = when_gst_steps,
    [GS_WHEN_TORCH] = when_torch,
    [GS_WHEN_GST] = when_gst,
    [GS_WHEN_PROFILER_HEAVY] = when_profiler_heavy,
    [GS_WHEN_INFERENCE] = when_inference,
    [GS_WHEN_DECODE] = when_decode,
    [GS_WHEN_CODE_LOADS] = when_code_loads,
    [GS_WHEN_EXPERT_PARALLEL] = when_expert,
    [GS_WHEN_EMBEDDING_ALL_TO_ALL] = when_embedding,
    [GS_WHEN_NOT_FP8] = when_not_fp8,
    [GS_WHEN_NOT_COMPILED] = when_not_compiled,
    [GS_WHEN_NOT_GRAPHED] = when_not_graphed,
    [GS_WHEN_NO_ACCELERATOR] = when_no_accelerator,
    [GS_WHEN_REPLAY_MISSING] = when_replay_missing,
    [GS_WHEN_CAPTURE_ONLY] = when_capture_only,
    [GS_WHEN_MEMORY_BOUND] = when_memory_bound,
    [GS_WHEN_COMPUTE_BOUND] = when_compute_bound,
    [GS_WHEN_LATENCY_BOUND] = when_latency_bound,
};

/* One trace condition, or none when `when` is out of the table. */
static enum verdict test_when(const gs_diag_inputs *in, uint8_t when, gs_strbuf *why)
{
    condition_fn test = when < GS_WHEN__COUNT ? conditions[when] : NULL;
    return test ? test(in, why) : UNKNOWN;
}

/* An action's trace conditions, `when` and `also`: it is left out when either rules it out. */
static enum verdict test_trace(const gs_diag_inputs *in, const gs_action *act, gs_strbuf *why)
{
    enum verdict v = test_when(in, act->when, why);
    if (act->also == GS_WHEN_ALWAYS || v == DOES_NOT)
        return v;
    gs_strbuf also;
    gs_strbuf_init(&also);
    enum verdict w = test_when(in, act->also, &also);
    if (also.len)
        gs_strbuf_appendf(why, "%s%s", why->len ? "; " : "", gs_strbuf_str(&also));
    why->failed |= also.failed;
    gs_strbuf_free(&also);
    return w == DOES_NOT ? DOES_NOT : v == APPLIES || w == APPLIES ? APPLIES : UNKNOWN;
}

/* The GPU conditions (enum gs_action_gpu): the Tensor Core precisions the GPU must have and
 * must not have (a Volta or Turing GPU gets float16 with GradScaler; bf16 and TF32 only from
 * Ampere on). GS_GPU_UNKNOWN is the advice for a GPU the trace does not name. */
static const struct {
    uint32_t has, lacks;
} gpu_needs[GS_GPU__COUNT] = {
    [GS_GPU_BF16] = {GS_TC_BF16, 0},
    [GS_GPU_TF32] = {GS_TC_TF32, 0},
    [GS_GPU_TENSOR_CORES] = {GS_TC_FP16, 0},
    [GS_GPU_FP16_ONLY] = {GS_TC_FP16, GS_TC_BF16},
    [GS_GPU_FP8] = {GS_TC_FP8, 0},
};

/* ALTERNATIVE: the action is another GPU's version of one given (float16 where bf16 is given,
 * the by-GPU wording where the GPU is known), dropped without a word rather than left out. */
enum { ALTERNATIVE = UNKNOWN + 1 };

/* torch.compile generates Triton kernels, and PyTorch's Inductor refuses an NVIDIA GPU before
 * compute capability 7.0 ("Triton only supports devices of CUDA Capability >= 7.0",
 * GPUTooOldForTriton). An AMD GPU (ROCm's Triton) and a GPU the trace does not name are given
 * it; GS_GPU_NO_TRITON is the wording without torch.compile, given only where it is refused. */
static int triton_can(const gs_diag_inputs *in, uint8_t need, gs_strbuf *why)
{
    bool refused = in->gpu_vendor == GS_VENDOR_NVIDIA && in->compute_major > 0 &&
                   in->compute_major < GS_TRITON_MIN_MAJOR;
    if (need == GS_GPU_NO_TRITON)
        return refused ? APPLIES : ALTERNATIVE;
    if (!refused)
        return APPLIES;
    const gs_gpu_caps *g = gs_gpu_caps_find(in->gpu_vendor, in->compute_major, in->compute_minor);
    gs_strbuf_appendf(why, "compute capability %d.%d (%s): torch.compile's Triton kernels need "
                      "%d.0 or later",
                      (int)in->compute_major, (int)in->compute_minor, g ? g->arch : "NVIDIA",
                      GS_TRITON_MIN_MAJOR);
    return DOES_NOT;
}

static int gpu_can(const gs_diag_inputs *in, uint8_t need, gs_strbuf *why)
{
    if (need == GS_GPU_ANY || need >= GS_GPU__COUNT)
        return APPLIES;
    if (need == GS_GPU_TRITON || need == GS_GPU_NO_TRITON)
        return triton_can(in, need, why);
    const gs_gpu_caps *g = gs_gpu_caps_find(in->gpu_vendor, in->compute_major, in->compute_minor);
    if (!g) {
        if (need == GS_GPU_TENSOR_CORES)
            return APPLIES;
        if (need == GS_GPU_BF16 || need == GS_GPU_TF32 || need == GS_GPU_FP16_ONLY)
            return ALTERNATIVE; /* the by-GPU action says both */
        if (in->compute_major)
            gs_strbuf_appendf(why, "compute capability %d.%d is not in gpuscope's table",
                              (int)in->compute_major, (int)in->compute_minor);
        else
            gs_strbuf_append(why, "the trace does not record the GPU's compute capability");
        gs_strbuf_append(why, need == GS_GPU_UNKNOWN ? ": the advice depends on it"
                                                     : " (FP8 needs 8.9 or later)");
        return need == GS_GPU_UNKNOWN ? APPLIES : DOES_NOT;
    }
    uint32_t missing = gpu_needs[need].has & ~g->tensor_core;
    if (need == GS_GPU_UNKNOWN || (!missing && (g->tensor_core & gpu_needs[need].lacks)))
        return ALTERNATIVE;
    if (need == GS_GPU_TENSOR_CORES && !missing)
        return APPLIES; /* any GPU of the kind: nothing to say */
    gs_strbuf_appendf(why, "compute capability %d.%d (%s)", (int)in->compute_major,
                      (int)in->compute_minor, g->arch);
    if (!missing)
        return APPLIES;
    char has[64], lacks[64];
    if (g->tensor_core)
        gs_strbuf_appendf(why, ": Tensor Cores for %s, not %s",
                          gs_tc_precisions_name(g->tensor_core, has, sizeof has),
                          gs_tc_precisions_name(missing, lacks, sizeof lacks));
    else
        gs_strbuf_append(why, ": no Tensor Cores");
    return DOES_NOT;
}

/* An action applies unless its trace condition or its GPU condition rules it out; the reasons
 * of both are kept, joined. */
static int judge(const gs_diag_inputs *in, const gs_action *act, gs_strbuf *why)
{
    gs_strbuf trace_why, gpu_why;
    gs_strbuf_init(&trace_why);
    gs_strbuf_init(&gpu_why);
    enum verdict v = test_trace(in, act, &trace_why);
    int g = gpu_can(in, act->gpu, &gpu_why);
    if (v != UNKNOWN && trace_why.len)
        gs_strbuf_append(why, gs_strbuf_str(&trace_why));
    if (gpu_why.len)
        gs_strbuf_appendf(why, "%s%s", why->len ? "; " : "", gs_strbuf_str(&gpu_why));
    why->failed |= trace_why.failed || gpu_why.failed; /* out of memory: the caller says so */
    gs_strbuf_free(&trace_why);
    gs_strbuf_free(&gpu_why);
    if (g == ALTERNATIVE)
        return ALTERNATIVE;
    if (v == DOES_NOT || g == DOES_NOT)
        return DOES_NOT;
    return v == UNKNOWN && g == APPLIES && !why->len ? UNKNOWN : APPLIES;
}

int gs_choose_actions(const gs_diag_inputs *in, gs_finding *f)
{
    f->nactions = f->nleft_out = 0;
    for (size_t a = 0; a < GS_RULE_MAX_ACTIONS && f->rule->actions[a].text; a++) {
        const gs_action *act = &f->rule->actions[a];
        gs_strbuf why;
        gs_strbuf_init(&why);
        int v = judge(in, act, &why);
        if (v == ALTERNATIVE) {
            gs_strbuf_free(&why);
            continue;
        }
        if (v == UNKNOWN) /* no reason to give: the action applies as to any trace */
            gs_strbuf_free(&why);
        gs_chosen_action *to = v == DOES_NOT ? &f->left_out[f->nleft_out++]
                                             : &f->actions[f->nactions++];
        to->text = act->text;
        to->why = gs_strbuf_steal(&why);
        if (!to->why)
            return -1;
    }
    return 0;
}
