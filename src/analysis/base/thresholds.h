/* Every threshold the analyses and the diagnosis rules use, in one place, with where it comes
 * from: a public tool's rule (the TensorBoard profiler plugin's recommendations in
 * torch_tb_profiler/profiler/data.py, HTA, Nsight Systems) or our own judgement, explained in
 * doc/diagnosis.md ("Thresholds"), which lists the same table; change both together. Shares are
 * of the mean step. */
#ifndef GS_ANALYSIS_THRESHOLDS_H
#define GS_ANALYSIS_THRESHOLDS_H

/* Above it the GPU is busy and only faster kernels help: work outside the kernels can win back
 * at most 1 / 0.9 = 1.11x (doc/diagnosis.md). */
#define GS_TH_UTIL_BUSY 0.90

/* DataLoader share of the step: a finding above 5 % (the TensorBoard plugin's DataLoader rule), a
 * bottleneck above 10 %, the level of the other bottleneck rules (doc/diagnosis.md). */
#define GS_TH_DATALOADER_FINDING 0.05
#define GS_TH_DATALOADER_BOTTLENECK 0.10

/* Exposed communication share of the step (the TensorBoard plugin's communication rule: 10 %). */
#define GS_TH_COMM_EXPOSED 0.10

/* GPU idle after synchronizing calls: every sync in the loop drains the GPU's queue (the PyTorch
 * Performance Tuning Guide, "Avoid unnecessary CPU-GPU synchronization"); 5 % is where it starts
 * to matter, as for the DataLoader (doc/diagnosis.md). */
#define GS_TH_SYNC_SHARE 0.05

/* Copies that the GPU waits for: memcpy/memset time not hidden behind kernels
 * (doc/diagnosis.md). */
#define GS_TH_TRANSFER_SHARE 0.10

/* Launch-bound (HTA's kernel launch statistics: a launch call takes 5-20 µs on the host, so a
 * kernel shorter than its call is bound by it; doc/diagnosis.md): median kernel shorter than
 * this, the GPU waiting on the host for a large part of the step, and most kernels shorter than
 * their launch call. */
#define GS_TH_SHORT_KERNEL_NS 50000
#define GS_TH_LAUNCH_HOSTWAIT_SHARE 0.10
#define GS_TH_SHORT_KERNEL_SHARE 0.50
/* ... with enough launches per step for their overhead to add up (below a hundred the GPU is
 * waiting on other host work; doc/diagnosis.md). */
#define GS_TH_LAUNCH_MIN_KERNELS_PER_STEP 100

/* CUDA graphs instantiated but not replayed: fewer than this share of the trace's kernels ran
 * from a graph (graphs that replay run most of the step's kernels; doc/diagnosis.md). */
#define GS_TH_GRAPH_REPLAYED_SHARE 0.01
/* A step replays CUDA graphs, so the framework's overhead between kernels is no longer its
 * cost, when at least half of its kernels run from a graph (doc/diagnosis.md). */
#define GS_TH_GRAPHED_SHARE 0.50

/* Host/CPU-bound: the GPU waits on the host (host-wait idle) for this share of the step while
 * kernels are not short: CPU work between launches is the cause (doc/diagnosis.md). */
#define GS_TH_HOST_WAIT_SHARE 0.15

/* Memory: peak reserved above this share of the device (the TensorBoard plugin's memory rule:
 * 90 % of device memory); reserved more than this factor over allocated at the peak is
 * fragmentation, and growth per step with a linear fit this good over at least this many steps
 * is a leak (both doc/diagnosis.md). */
#define GS_TH_MEM_PEAK_SHARE 0.90
#define GS_TH_MEM_FRAGMENTATION 1.5
#define GS_TH_MEM_LEAK_R2 0.90
#define GS_TH_MEM_LEAK_MIN_STEPS 4
#define GS_TH_MEM_LEAK_MIN_GROWTH (16LL << 20) /* bytes per step worth a word */

/* Straggler (HTA's straggler analysis, hta/analyzers/straggler.py, flags the latest starters of
 * blocking collectives; doc/stragglers.md): a rank arriving last at more than this share of the
 * matched collectives is more than chance (1/2 for two ranks, 1/N for N) ... */
#define GS_TH_STRAGGLER_LAST_SHARE 0.60
/* ... of at least this many collectives ("consistently" needs more than one or two) ... */
#define GS_TH_STRAGGLER_MIN_COLLECTIVES 3
/* ... and the others wait for it more than this share of the step (as the other findings). */
#define GS_TH_STRAGGLER_WAIT_SHARE 0.05

/* Too few steps to trust statistics. */
#define GS_TH_MIN_STEPS 3

/* First use per shape (doc/diagnosis.md): at least this many steps after the first meet an input
 * shape (or load GPU code) for the first time ... */
#define GS_TH_FIRST_USE_MIN_STEPS 2
/* ... and at least this share of the steps compared: a cost that recurs (every generate call, every
 * new length), not a start-up paid in one or two steps of a long trace (a CUDA graph captured, a
 * function compiled), which is warm-up ... */
#define GS_TH_FIRST_USE_MIN_SHARE 0.10
/* ... and run on average this many times the median step whose shapes were all seen before (the
 * warm-up factor: the same cost, paid once per shape instead of once) ... */
#define GS_TH_FIRST_USE_FACTOR 1.5
/* ... costing at least this share of the step (as the other findings), a bottleneck from the
 * second. */
#define GS_TH_FIRST_USE_FINDING 0.05
#define GS_TH_FIRST_USE_BOTTLENECK 0.10

/* ---- analyses ----------------------------------------------------------------------------- */

/* Steps: a first step slower than this × the median of the steps after it is warm-up
 * (doc/design.md §10; the factor is explained in doc/diagnosis.md). */
#define GS_TH_WARMUP_FACTOR 1.5
/* Steps: the TensorBoard plugin drops a last step that launched fewer than this share of the GPU
 * activities of the step before it ("the profiler may fail to capture all kernels"). */
#define GS_TH_TAIL_GPU_OPS_RATIO 0.8

/* Launch: HTA's runtime_cutoff (cuda_kernel_launch_stats): a launch call of at most this long
 * whose kernel is shorter makes a "short" kernel; longer calls are runtime outliers. */
#define GS_TH_LAUNCH_CALL_CUTOFF_NS 50000
/* Launch: HTA's launch_delay_cutoff (cuda_kernel_launch_stats): delays above this are outliers. */
#define GS_TH_LAUNCH_DELAY_OUTLIER_NS 100000

/* Idle: HTA's consecutive_kernel_delay (get_idle_time_breakdown; 30 in trace µs, although its
 * docstring says ns): a gap shorter than this between back-to-back launches is kernel-wait. */
#define GS_TH_KERNEL_WAIT_NS 30000
/* Idle: a gap is worth listing when it is at least this long (doc/diagnosis.md; the gpu_gaps
 * rule of nsys analyze lists gaps over 500 ms by default, far too coarse for steps of
 * milliseconds) ... */
#define GS_TH_GAP_LIST_NS 1000000
/* ... or at least this percentage of the step it falls in. */
#define GS_TH_GAP_LIST_STEP_PCT 5.0

/* Report: what tracing cost the program (gpuscope run's CUPTI overhead records) is worth a line
 * from this share of the trace's span: below it the cost is within the run-to-run spread of step
 * times (doc/diagnosis.md). */
#define GS_TH_TRACING_COST_SHARE 0.01

/* Steps detected from the repeating kernel sequence (doc/steps.md), our own judgement: a period
 * is accepted when at least half of the launches match the launch one period later, and at least
 * half of what chance would not explain; the shortest lag within 95 % of the best match is the
 * period (its multiples match as well); the steady iterations start where a period's worth of
 * launches repeats 90 % as well as the best stretch; a position is "after a blocking call" when
 * 90 % of the steady iterations block there; the last iteration counts when 90 % of a period of
 * launches follows its start; at least two steps of at least two launches each. */
#define GS_TH_PERIOD_MATCH 0.5
#define GS_TH_PERIOD_NEAR_BEST 0.95
#define GS_TH_PERIOD_STEADY 0.9
#define GS_TH_PERIOD_SYNCED 0.9
#define GS_TH_PERIOD_LAST_COMPLETE 0.9
#define GS_TH_PERIOD_MIN_STEPS 2
#define GS_TH_PERIOD_MIN_OPS 2
/* ... and where no wait for the GPU marks an iteration's start, the host's pause before it must
 * be this many times the median pause before a launch: a loop's Python between iterations
 * (fetching a batch, logging) stands out; the layers of one forward pass repeat without one. */
#define GS_TH_PERIOD_PAUSE_RATIO 5.0

/* A CUDA call this long that does not wait for the GPU is start-up work (context creation,
 * module loading, the allocator's first cudaFree): steady-state calls take microseconds. A
 * trace without steps is judged from after the last of them (doc/steps.md). */
#define GS_TH_SETUP_CALL_NS 100000000

/* The start-up phase gets its line in report's "What was profiled" from 5 % of the trace's span:
 * below that it changes no figure a reader compares (our own judgement). */
#define GS_TH_STARTUP_SHARE 0.05
/* Diagnosis: the profiler's estimated host cost per step is said beside a host-side verdict, and
 * calls for profiling with less, from this share of the step (doc/diagnosis.md): the same 5 % as
 * the other causes of GPU idle. */
#define GS_TH_PROFILER_COST_SHARE 0.05
/* Diagnosis: mixed precision is already in use when at least this share of kernel time is in
 * bf16/fp16/fp8 kernels (doc/diagnosis.md). */
#define GS_TH_LOW_PRECISION_SHARE 0.10

/* Tensor Cores unused (doc/diagnosis.md): the kernels of Tensor-Core-eligible operators (the
 * TensorBoard plugin's TC_OP_Allowlist) run this share of their time in kernels without Tensor
 * Cores, and that time is at least GS_TH_TC_UNUSED_STEP of the step (our own judgement: below,
 * converting the model is not worth its risk). */
#define GS_TH_TC_UNUSED_SHARE 0.2
#define GS_TH_TC_UNUSED_STEP 0.05
/* The gain estimated for moving those kernels to Tensor Cores: they run this many times faster.
 * NVIDIA's "Automatic Mixed Precision for Deep Learning" page gives up to 3x for whole models on
 * Volta and Turing; the peak ratios (V100: 125 fp16 against 15.7 fp32 TFLOP/s) are far above what
 * kernels that were not at the fp32 peak gain, so the lower, published figure stands for all. */
#define GS_TH_TC_SPEEDUP 3.0

/* Low MFU on a GEMM-dominated step (doc/diagnosis.md): at least GS_TH_GEMM_DOMINATED of the
 * kernel time is in operators with a FLOPs formula (matrix multiplies, convolutions, attention)
 * and the step reaches less than GS_TH_LOW_MFU of the GPU's dense peak. Large-model training
 * reports 40-60 % MFU (PaLM, Chowdhery et al. 2022, table 3: 46.2 %); a third of the peak leaves
 * a margin for smaller models. */
#define GS_TH_GEMM_DOMINATED 0.5
#define GS_TH_LOW_MFU 0.3

#endif
