/* The verdict (doc/design.md §23, doc/diagnosis.md): a table of rules, each reading named
 * per-step numbers, deciding whether its bottleneck class applies, how much step time is at stake,
 * the upper bound of the gain, and what to change. Pure: inputs in, findings out, ranked.
 * Thresholds: thresholds.h. */
#ifndef GS_ANALYSIS_DIAGNOSE_H
#define GS_ANALYSIS_DIAGNOSE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/replay/replay.h"
#include "analysis/trace/cuda_graphs.h"
#include "analysis/trace/trace_facts.h"
#include "model/trace.h"

/* The per-step numbers the rules read (means over the kept steps of one rank). A negative value
 * means "not known from this trace"; rules that need it then say so instead of firing. */
typedef struct gs_diag_inputs {
    int32_t rank;
    size_t steps, warmup_steps;
    uint64_t gpu_activities; /* kernels, copies and sets in the trace: 0 for a CPU-only profile */
    double warmup_ratio; /* slowest warm-up step / median kept step */
    gs_ns step_ns;
    /* Step breakdown, TensorBoard plugin semantics (each instant to one category); comm_ns is
     * instead comm's exposed communication per step when the rank's comm row is known (the
     * number report and comm both print). */
    gs_ns kernel_ns, memcpy_ns, memset_ns, comm_ns, runtime_ns, dataloader_ns, cpu_exec_ns,
        other_ns;
    double gpu_util;
    /* GPU idle that follows a synchronizing call: the pipeline drained, nothing queued. */
    gs_ns sync_idle_ns, sync_blocked_ns;
    const char *sync_top_op; /* the operator behind most blocked time, NULL if none */
    /* Launches. */
    double kernels_per_step;
    gs_ns median_kernel_ns, median_launch_ns;
    double short_kernel_share; /* kernels shorter than their launch call / all launched */
    /* CUDA graphs over the whole trace (captured and instantiated once, often in warm-up). */
    gs_graph_facts graphs;
    /* Copies. */
    gs_ns pageable_copy_ns;
    /* Memory, from allocator records. */
    double mem_peak_share;      /* peak reserved / device memory */
    double mem_fragmentation;   /* reserved / allocated at the peak */
    double mem_growth_per_step; /* bytes, least-squares slope of allocated at step ends */
    double mem_growth_r2;
    size_t mem_growth_steps;
    /* Compute: share of kernel time in Tensor Core kernels (by name). */
    double tensor_core_share;
    /* The first GPU's compute capability, 0.0 when the trace does not record it: which
     * precisions its Tensor Cores take (analysis/base/gpu_caps.h) decides the advice. */
    int32_t compute_major, compute_minor;
    int32_t gpu_vendor; /* enum gs_gpu_vendor, from the device's name: whose numbering */
    /* Compute use (doc/flops.md), -1 when unknown: model FLOPs utilization against the GPU's
     * dense peak, the share of kernel time launched by operators with a FLOPs formula (GEMM,
     * convolution, attention), and of the kernel time of Tensor-Core-eligible operators the
     * share that ran without Tensor Cores, with the eligible share of all kernel time. */
    double mfu, flop_op_share, tc_eligible_share, tc_unused_share;
    /* Stragglers, from the whole profile (straggler.h): the rank that arrived last most often
     * at the collectives matched on every rank, the same on every rank's inputs, and what this
     * rank waited for it. strag_ranks < 2: nothing to compare; strag_rank -1: no collective on
     * every rank. */
    size_t strag_ranks, strag_collectives;
    int32_t strag_rank;
    bool strag_is_self;
    double strag_last_share, strag_compute_excess;
    gs_ns strag_lateness_ns;   /* its mean lateness when last */
    gs_ns strag_others_wait_ns; /* the other ranks' mean wait for it, per step */
    gs_ns strag_step_ns;       /* the median rank's mean step */
    gs_ns strag_wait_ns;       /* this rank's wait for it, per step (0 on the rank itself) */
    /* How the trace was recorded and what ran: the actions are chosen by it, and the host-side
     * rules take the profiler's estimated cost per step (facts.profiler_step_ns) off their gain.
     * facts.known false (a summary of an earlier .gsum minor): every action applies, as before. */
    gs_trace_facts facts;
    /* First use per shape (analysis/trace/first_use.h), over every step after the first, warm-up
     * included: how many met a new input shape or loaded GPU code, and their cost. */
    size_t first_use_steps, first_use_new_steps, first_use_shape_steps, first_use_load_steps;
    gs_ns first_use_mean_ns, first_use_new_ns, first_use_seen_ns, first_use_extra_ns;
    /* The replay of the kept steps (analysis/replay/replay.h): its mean step unchanged; without
     * the profiler's cost (replay_expected_ns[GS_REPLAY_NO_PROFILER]); and with each other
     * action alone, also without the profiler's cost: what the change buys the job as it runs
     * unprofiled. -1 when unknown (nothing to replay, or a summary of an earlier .gsum minor), and
     * an action's -1 when it was not replayed. A finding's expected speedup is the ratio of the
     * step without the profiler to the step with the action, so the unchanged model's own error
     * cancels and the profiler's host time counts for no action. */
    gs_ns replay_step_ns;
    gs_ns replay_expected_ns[GS_REPLAY__COUNT];
    /* The roofline (doc/roofline.md): the operator group with the most GPU time, its share of
     * the operators' GPU time and its kernel time per step, the share of its roof it reached
     * and what bounds it (enum gs_roof_bound). roof_share -1 when unknown (no shapes, no model,
     * a GPU without roofs, or a summary of an earlier .gsum minor). roof_op points into the
     * rank summary's roofline rows. */
    const char *roof_op;
    double roof_op_share, roof_share, roof_intensity;
    gs_ns roof_op_ns;
    uint8_t roof_bound;
} gs_diag_inputs;

enum gs_severity {
    GS_SEV_NONE,        /* did not fire */
    GS_SEV_NOTE,        /* worth knowing, costs no step time (warm-up) */
    GS_SEV_FINDING,     /* fired below the bottleneck threshold */
    GS_SEV_BOTTLENECK,  /* fired: time at stake */
    GS_SEV_RISK,        /* fired: the job may fail (out of memory) */
};

enum gs_unit { GS_UNIT_NS, GS_UNIT_SHARE, GS_UNIT_COUNT, GS_UNIT_BYTES, GS_UNIT_RATIO };

typedef struct gs_rule_value {
    const char *name;
    double value;
    uint8_t unit; /* enum gs_unit */
} gs_rule_value;

enum { GS_RULE_MAX_VALUES = 8, GS_RULE_MAX_ACTIONS = 12 };

/* What the trace must show for an action to apply (diag_actions.c: the test and the reason, in
 * words, that the report prints beside the action). */
enum gs_action_when {
    GS_WHEN_ALWAYS,
    GS_WHEN_TRAINING,        /* a backward pass or an optimizer step in the trace */
    GS_WHEN_GRAD_SYNC,       /* gradients synchronized: data or sharded data parallel */
    GS_WHEN_DATA_PARALLEL,   /* DDP: its ranges, or all-reduce in a training step */
    GS_WHEN_SHARDED,         /* FSDP / ZeRO: all-gather and reduce-scatter in a training step */
    GS_WHEN_TENSOR_PARALLEL, /* all-reduces in the forward; all-reduce, -gather without backward */
    GS_WHEN_PIPELINE,        /* send/recv that are not an all-to-all's */
    GS_WHEN_FULL_PRECISION,  /* no bf16/fp16 kernels to speak of */
    GS_WHEN_CONV,            /* convolution kernels */
    GS_WHEN_NO_STACK,        /* no Python stacks recorded */
    GS_WHEN_STACK,           /* Python stacks recorded (with_stack) */
    GS_WHEN_TORCH_NO_STEPS,  /* torch.profiler (or the autograd profiler) without ProfilerStep */
    GS_WHEN_TORCH_STEPS,     /* torch.profiler with ProfilerStep ranges */
    GS_WHEN_GST_NO_STEPS,    /* gpuscope run without steps (ranges or detected) */
    GS_WHEN_GST_STEPS,       /* gpuscope run with steps (ProfilerStep ranges or detected) */
    GS_WHEN_TORCH,           /* torch.profiler or the autograd profiler */
    GS_WHEN_GST,             /* gpuscope run */
    GS_WHEN_PROFILER_HEAVY,  /* the profiler's estimated cost is a noticeable share of the step */
    GS_WHEN_INFERENCE,       /* no backward pass nor optimizer step: inference */
    GS_WHEN_DECODE,          /* inference that decodes: decode steps or decode attention kernels */
    GS_WHEN_CODE_LOADS,      /* steps after the first load GPU code (lazy loading, JIT) */
    GS_WHEN_EXPERT_PARALLEL, /* all-to-all, no embedding-table kernels: a mixture of experts */
    GS_WHEN_EMBEDDING_ALL_TO_ALL, /* all-to-all with embedding-table kernels: sharded tables */
    GS_WHEN_NOT_FP8,         /* the matmuls do not run in fp8/fp4 already */
    GS_WHEN_NOT_COMPILED,    /* no torch.compile region nor Inductor kernel to speak of */
    GS_WHEN_NOT_GRAPHED,     /* under half of the kernels run from CUDA graphs */
    GS_WHEN_NO_ACCELERATOR,  /* no events of an accelerator gpuscope does not read (MTIA) */
    GS_WHEN_REPLAY_MISSING,  /* graphs instantiated, their replay expected in the trace */
    GS_WHEN_CAPTURE_ONLY,    /* the trace holds a graph capture, its replay outside the trace */
    GS_WHEN_MEMORY_BOUND,    /* the roofline's largest operator group is memory-bound */
    GS_WHEN_COMPUTE_BOUND,   /* ... compute-bound */
    GS_WHEN_LATENCY_BOUND,   /* ... latency-bound: kernels too small for either roof */
    GS_WHEN__COUNT
};

/* What the GPU must be able to run for an action to apply (its compute capability, read from
 * the capability table analysis/base/gpu_caps.h), beside the trace condition above. */
enum gs_action_gpu {
    GS_GPU_ANY,
    GS_GPU_BF16,      /* bf16 Tensor Cores: NVIDIA compute capability 8.0 or later, AMD MI300 */
    GS_GPU_FP16_ONLY, /* fp16 Tensor Cores without bf16 or TF32: Volta, Turing (7.x) */
    GS_GPU_FP8,       /* fp8 Tensor Cores: Ada (8.9), Hopper (9.0) and later */
    GS_GPU_UNKNOWN,   /* the trace does not record the compute capability */
    GS_GPU_TF32,      /* TF32 Tensor Cores: NVIDIA compute capability 8.0 or later */
    GS_GPU_TENSOR_CORES, /* any Tensor Cores (Volta on; an unknown GPU is given the benefit) */
    GS_GPU_TRITON,    /* torch.compile's Triton kernels: NVIDIA 7.0 or later, AMD, or unknown */
    GS_GPU_NO_TRITON, /* an NVIDIA GPU before 7.0: the wording without torch.compile */
    GS_GPU__COUNT
};

typedef struct gs_action {
    const char *text;
    uint8_t when; /* enum gs_action_when */
    uint8_t gpu;  /* enum gs_action_gpu; 0: any GPU */
    uint8_t also; /* enum gs_action_when that must hold too (the workload of a precision's
                   * advice: GradScaler for training only); 0: none */
} gs_action;

/* An action chosen for a finding (or left out), and why, in words, from the trace. */
typedef struct gs_chosen_action {
    const char *text;
    char *why; /* owned; "" when it applies to any trace */
} gs_chosen_action;

typedef struct gs_rule gs_rule;

/* How a finding's gain is estimated (doc/diagnosis.md, "The gain at stake, and the order"). */
enum gs_gain_basis {
    GS_GAIN_NONE,         /* no step time: a risk, a note, or nothing known to speed up */
    GS_GAIN_REMOVED,      /* the time at stake, removed entirely: an upper bound */
    GS_GAIN_TENSOR_CORES, /* the eligible kernels without Tensor Cores, GS_TH_TC_SPEEDUP x faster */
    GS_GAIN_MFU_TARGET,   /* the FLOP-counted kernels brought up to GS_TH_LOW_MFU of the peak */
    GS_GAIN_ROOF_TARGET,  /* the largest operator group brought up to GS_ROOF_TARGET_SHARE */
    GS_GAIN__COUNT
};

/* The roofline rule (doc/diagnosis.md, "far_below_roof") fires under this share of the roof and
 * estimates its gain as the group's kernels reaching it: well-tuned libraries reach 60 to 80 %
 * of a roof on large problems, so under half leaves at least a third of the group's time. */
#define GS_ROOF_TARGET_SHARE 0.5

typedef struct gs_finding {
    const gs_rule *rule;
    uint8_t severity; /* enum gs_severity */
    gs_ns at_stake_ns;     /* step time the cause costs, per step */
    double at_stake_share; /* of the mean step */
    double speedup_bound;  /* step / (step - at stake); 0 when not a time bound */
    /* What the step would gain per step if the finding's actions worked, as estimated by
     * gain_basis (enum gs_gain_basis); the verdict is ordered by it. For a time bound it is the
     * time at stake; for the kernel-speed rules an estimate of faster kernels. */
    gs_ns gain_ns;
    double gain_share;       /* of the mean step */
    double gain_speedup;     /* step / (step - gain); 0 without a gain */
    uint8_t gain_basis;
    /* A host-side finding's part that the profiler's estimated cost explains, taken off its time
     * at stake (whose share and bound are then of the step without it), and the share of the
     * recorded step it had before (equal to at_stake_share when nothing was taken off). */
    gs_ns profiler_ns;
    double recorded_share;
    gs_rule_value inputs[GS_RULE_MAX_VALUES];
    size_t ninputs;
    gs_rule_value thresholds[GS_RULE_MAX_VALUES];
    size_t nthresholds;
    char *evidence; /* owned: one sentence with the numbers */
    char *why;      /* owned: why it fired or not, for report --explain */
    gs_chosen_action actions[GS_RULE_MAX_ACTIONS]; /* the rule's actions this trace calls for */
    size_t nactions;
    gs_chosen_action left_out[GS_RULE_MAX_ACTIONS]; /* the others, with why they do not apply */
    size_t nleft_out;
    /* What the replay of the rule's action (gs_rule.replay) expects: the measured step times
     * the replay's ratio (with the action / unchanged), and step / that. 0 when the rule has no
     * replay, the replay is unknown, or the action does not apply to this GPU. */
    gs_ns expected_step_ns;
    double expected_speedup;
} gs_finding;

struct gs_rule {
    const char *id;    /* stable: "data_loading", "launch_bound", ... */
    const char *title; /* "Data loading" */
    const char *source;
    void (*eval)(const gs_diag_inputs *in, gs_finding *f);
    gs_action actions[GS_RULE_MAX_ACTIONS]; /* each with what the trace must show for it */
    uint8_t replay; /* enum gs_replay_action whose replay estimates the gain; 0: none */
};

typedef struct gs_diagnosis {
    gs_finding *findings; /* one per rule, in rule-table order */
    size_t n;
    size_t *order; /* fired findings first: risks, then bottlenecks and findings by gain, notes */
    size_t nfired;
} gs_diagnosis;

const gs_rule *gs_rules(size_t *n);

/* Every rule on `in`, ranked. -1 only when out of memory (the caller says so: gs_fail_oom), with
 * *out freed. The findings own their text; gs_diagnosis_free releases it. */
int gs_diagnose(const gs_diag_inputs *in, gs_diagnosis *out);

/* Fills f->actions and f->left_out from the rule's actions and in->facts (diag_actions.c). -1 when
 * out of memory; what it filled is f's, freed with it. */
int gs_choose_actions(const gs_diag_inputs *in, gs_finding *f);

/* Whether the profiler's estimated cost per step is worth saying beside a host-side verdict
 * (GS_TH_PROFILER_COST_SHARE of the step). */
bool gs_profiler_cost_noticeable(const gs_diag_inputs *in);

/* The profiler's estimated host time per step that `host_ns` of the step's host time holds; 0 when
 * the cost is not noticeable. */
gs_ns gs_profiler_within(const gs_diag_inputs *in, gs_ns host_ns);

/* The most the profiler's host time per step can lengthen the step: as much of it as the step's
 * GPU-idle host time holds (its runtime, DataLoader, CPU exec and other time: while the GPU is
 * busy, host time the profiler adds runs beside it). 0 when the cost is not noticeable. */
gs_ns gs_profiler_step_lengthening(const gs_diag_inputs *in);
void gs_diagnosis_free(gs_diagnosis *d);

/* "removed", "tensor_cores", "mfu_target", "none": JSON's gain_basis. */
const char *gs_gain_basis_name(uint8_t basis);

/* Tells the debug log (common/log.h) each rule's decision; gs_diagnose calls it when -v is on. */
void gs_diagnosis_log(const gs_diag_inputs *in, const gs_diagnosis *d);

#endif
