/* The rule table: each rule's id, title, source, function, and the actions it gives with the
 * condition under which each applies and what the GPU must run for it (its compute capability:
 * analysis/base/gpu_caps.h), so that no action asks for a precision the GPU lacks
 * (doc/diagnosis.md lists the same); last, the replay action that models the rule's main action
 * and so estimates its expected gain (diag_expected.c; doc/diagnosis.md, "The gain at stake, and
 * the order"). */
#include "analysis/diagnosis/diag_rules.h"
#include "common/util.h"

static const gs_rule rules[] = {
    {"data_loading", "Data loading",
     "TensorBoard profiler plugin, DataLoader rule (5 %); 10 %: doc/diagnosis.md#thresholds",
     diag_rule_data_loading,
     {{"raise DataLoader num_workers (with persistent_workers=True) so batches are ready in time",
       GS_WHEN_ALWAYS},
      {"pin_memory=True and .to(device, non_blocking=True)", GS_WHEN_ALWAYS},
      {"move decoding and augmentation off the critical path: GPU transforms, pre-processed data",
       GS_WHEN_ALWAYS},
      {"raise prefetch_factor", GS_WHEN_ALWAYS}},
     GS_REPLAY_DATALOADER_WORKERS},
    {"sync_bound", "Synchronization",
     "PyTorch performance tuning guide (avoid CPU-GPU synchronization); 5 %: "
     "doc/diagnosis.md#thresholds",
     diag_rule_sync,
     {{"remove .item(), .cpu(), print(tensor) and other host reads of GPU values from the loop: "
       "accumulate on the GPU and read every N steps",
       GS_WHEN_ALWAYS},
      {"use non_blocking=True copies into pinned memory instead of synchronous ones",
       GS_WHEN_ALWAYS},
      {"drop explicit torch.cuda.synchronize() outside timing code", GS_WHEN_ALWAYS},
      {"avoid data-dependent shapes (nonzero, masked_select, boolean indexing) in the hot loop",
       GS_WHEN_ALWAYS}},
     GS_REPLAY_REMOVE_SYNCS},
    {"graphs_unreplayed", "CUDA graphs captured but not replayed",
     "PyTorch docs: CUDA graphs (torch.cuda.graphs) and torch.compile's CUDA graph trees "
     "(mode=\"reduce-overhead\"); 1 %: doc/diagnosis.md#thresholds",
     diag_rule_graphs,
     {{"find why the graph is not replayed: run with TORCH_LOGS=perf_hints, which prints the "
       "\"skipping cudagraphs due to ...\" reason (mutated inputs, CPU tensors, dynamic shapes, "
       "ops that cannot be captured)",
       GS_WHEN_REPLAY_MISSING},
      {"keep input shapes fixed (pad or bucket them): every new shape records a new graph, and "
       "reduce-overhead warms up before it records",
       GS_WHEN_REPLAY_MISSING},
      {"call the compiled function the same way each step (same device, no graph break inside), "
       "then check that gpuscope launch shows Graph (%) near 100",
       GS_WHEN_REPLAY_MISSING},
      {"profile the steady state: start the profiler after the capture (a server after its "
       "warm-up, e.g. a few requests in) to see the graphs replayed and what each step costs",
       GS_WHEN_CAPTURE_ONLY}},
     GS_REPLAY_CUDA_GRAPHS},
    {"launch_bound", "Kernel launch overhead",
     "HTA kernel launch statistics; thresholds: doc/diagnosis.md#thresholds", diag_rule_launch,
     {{"capture the step in a CUDA graph (torch.compile(mode=\"reduce-overhead\") or "
       "torch.cuda.graphs)",
       GS_WHEN_ALWAYS, GS_GPU_TRITON},
      {"capture the step in a CUDA graph with torch.cuda.graphs alone "
       "(torch.cuda.make_graphed_callables for a part of the model)",
       GS_WHEN_ALWAYS, GS_GPU_NO_TRITON},
      {"fuse small operations with torch.compile", GS_WHEN_NOT_COMPILED, GS_GPU_TRITON},
      {"fused optimizers (foreach=True / fused=True)", GS_WHEN_TRAINING},
      {"raise the batch size so each kernel does more work", GS_WHEN_TRAINING},
      {"batch requests together (dynamic or continuous batching, as vLLM, SGLang and TorchServe "
       "do) so each kernel does more work",
       GS_WHEN_INFERENCE},
      {"capture the decode step in a CUDA graph: a static KV cache "
       "(cache_implementation=\"static\" in transformers' generate) with "
       "torch.compile(mode=\"reduce-overhead\"), or the serving engine's own capture (vLLM "
       "without enforce_eager, SGLang without --disable-cuda-graph)",
       GS_WHEN_DECODE, GS_GPU_TRITON, GS_WHEN_NOT_GRAPHED},
      {"profile again with less recording (no with_stack or record_shapes; gpuscope run without "
       "emit_nvtx) to see the host time without the profiler's",
       GS_WHEN_PROFILER_HEAVY}},
     GS_REPLAY_CUDA_GRAPHS},
    {"host_bound", "Host (CPU) bound",
     "doc/diagnosis.md#thresholds (GPU waiting on the host > 15 %)", diag_rule_host,
     {{"profile the host (torch.profiler with_stack=True, py-spy) and move per-step Python work "
       "out of the loop",
       GS_WHEN_NO_STACK},
      {"find the per-step Python work in the Python functions the trace holds (their time in "
       "Perfetto or TensorBoard) and move it out of the loop",
       GS_WHEN_STACK},
      {"torch.compile to cut framework overhead between kernels", GS_WHEN_NOT_COMPILED,
       GS_GPU_TRITON, GS_WHEN_NOT_GRAPHED},
      {"overlap host work with GPU work: prefetch, asynchronous logging and checkpointing",
       GS_WHEN_TRAINING},
      {"overlap host work with GPU work: tokenize, schedule and sample the next batch of requests "
       "while the GPU runs this one",
       GS_WHEN_INFERENCE},
      {"a CUDA graph per decode step takes the per-token launches off the host: a static KV cache "
       "(cache_implementation=\"static\") with torch.compile(mode=\"reduce-overhead\"), or the "
       "serving engine's CUDA graph capture",
       GS_WHEN_DECODE, GS_GPU_TRITON, GS_WHEN_NOT_GRAPHED},
      {"profile again with less recording (no with_stack or record_shapes; gpuscope run without "
       "emit_nvtx) to see the host time without the profiler's",
       GS_WHEN_PROFILER_HEAVY}},
     GS_REPLAY_COMPILE},
    {"transfer_bound", "Host-device transfers",
     "CUDA C++ Best Practices Guide (host-device transfers); 10 %: doc/diagnosis.md#thresholds",
     diag_rule_transfer,
     {{"pin host memory (DataLoader pin_memory=True, tensor.pin_memory()) so copies are "
       "asynchronous",
       GS_WHEN_ALWAYS},
      {"copy with non_blocking=True and overlap copies with compute on a side stream",
       GS_WHEN_ALWAYS},
      {"keep tensors on the GPU between steps; avoid .cpu() round trips", GS_WHEN_ALWAYS}},
     GS_REPLAY_PINNED_MEMORY},
    {"communication_bound", "Communication",
     "TensorBoard profiler plugin, communication rule (10 %)", diag_rule_communication,
     {{"overlap gradient all-reduce with backward (DDP bucket_cap_mb, gradient_as_bucket_view)",
       GS_WHEN_DATA_PARALLEL},
      {"overlap FSDP's all-gathers with compute (forward_prefetch, backward_prefetch) and wrap "
       "larger units",
       GS_WHEN_SHARDED},
      {"accumulate gradients over micro-batches (no_sync) to communicate less often",
       GS_WHEN_GRAD_SYNC},
      {"raise the per-rank batch, or compress the gradients the all-reduce sends (DDP "
       "communication hooks such as fp16_compress_hook)",
       GS_WHEN_DATA_PARALLEL},
      {"tensor-parallel collectives sit in every forward: keep the tensor-parallel group on "
       "NVLink, fewer and larger collectives (sequence parallelism, fused all-reduce), or overlap "
       "them with compute (asynchronous tensor parallelism)",
       GS_WHEN_TENSOR_PARALLEL},
      {"more micro-batches per step, or an interleaved schedule, to shrink the pipeline bubble",
       GS_WHEN_PIPELINE},
      {"expert-parallel all-to-all: balance the experts' load (capacity factor, load-balancing "
       "loss), overlap dispatch and combine with compute, and use a hierarchical all-to-all "
       "(NVLink inside the node, one transfer per node: DeepEP)",
       GS_WHEN_EXPERT_PARALLEL},
      {"embedding all-to-all: pipeline the embedding exchange with the dense compute of the "
       "neighbouring batch (TorchRec's TrainPipelineSparseDist) and balance the tables' sharding "
       "plan across ranks",
       GS_WHEN_EMBEDDING_ALL_TO_ALL},
      {"look for a straggler rank: the others wait for it inside the collective (gpuscope "
       "stragglers on every rank's trace)",
       GS_WHEN_ALWAYS}},
     GS_REPLAY_OVERLAP_COMM},
    {"straggler", "Straggler rank", "HTA straggler analysis (late-starting collectives)",
     diag_rule_straggler,
     {{"check the straggler's GPU and host: clocks, power and thermal throttling (gpuscope "
       "monitor, nvidia-smi -q -d PERFORMANCE), other processes on its GPU or CPUs",
       GS_WHEN_ALWAYS},
      {"look at its input pipeline: gpuscope report --rank N (N = the straggler) for data "
       "loading and host time the other ranks do not have",
       GS_WHEN_ALWAYS},
      {"check for uneven sharding: batch sizes, sequence lengths or experts per rank",
       GS_WHEN_ALWAYS},
      {"compare it with a rank that keeps up: gpuscope diff on their two traces", GS_WHEN_ALWAYS},
      {"gpuscope stragglers for every collective, the clock offsets and the skew",
       GS_WHEN_ALWAYS}}},
    {"compute_bound", "GPU compute",
     "doc/diagnosis.md#thresholds (compute kernels >= 90 % of the step)", diag_rule_compute,
     {{"mixed precision (torch.autocast with bfloat16) so matmuls and convolutions use Tensor "
       "Cores",
       GS_WHEN_FULL_PRECISION, GS_GPU_BF16},
      {"mixed precision (torch.autocast with float16; torch.amp.GradScaler when training) so "
       "matmuls and convolutions use Tensor Cores",
       GS_WHEN_FULL_PRECISION, GS_GPU_FP16_ONLY, GS_WHEN_TRAINING},
      {"run the model in float16 (model.half(), or torch.autocast with float16) so matmuls and "
       "convolutions use Tensor Cores",
       GS_WHEN_FULL_PRECISION, GS_GPU_FP16_ONLY, GS_WHEN_INFERENCE},
      {"mixed precision so matmuls and convolutions use Tensor Cores: on Ampere or later "
       "(compute capability 8.0+) torch.autocast with bfloat16 and TF32 for the rest; on "
       "Volta/Turing (7.x) torch.autocast with float16 and torch.amp.GradScaler",
       GS_WHEN_FULL_PRECISION, GS_GPU_UNKNOWN, GS_WHEN_TRAINING},
      {"half precision so matmuls and convolutions use Tensor Cores: bfloat16 weights on Ampere "
       "or later (compute capability 8.0+) with TF32 for the rest, float16 on Volta/Turing (7.x)",
       GS_WHEN_FULL_PRECISION, GS_GPU_UNKNOWN, GS_WHEN_INFERENCE},
      {"FP8 for the largest matmuls: Transformer Engine (te.fp8_autocast) or torchao's float8 "
       "(convert_to_float8_training)",
       GS_WHEN_TRAINING, GS_GPU_FP8, GS_WHEN_NOT_FP8},
      {"FP8 for the largest matmuls: torchao's float8 inference quantization "
       "(quantize_ with float8_dynamic_activation_float8_weight), or the serving engine's fp8 "
       "(vLLM quantization=\"fp8\")",
       GS_WHEN_INFERENCE, GS_GPU_FP8, GS_WHEN_NOT_FP8},
      {"Tensor-Core-friendly shapes: batch, channel and hidden sizes multiples of 8",
       GS_WHEN_ALWAYS, GS_GPU_TENSOR_CORES},
      {"torch.compile to fuse the kernels around the matmuls", GS_WHEN_NOT_COMPILED,
       GS_GPU_TRITON},
      {"channels_last memory format for convolutions", GS_WHEN_CONV},
      {"start from the top kernels (gpuscope kernels): the largest single wins are there",
       GS_WHEN_ALWAYS}},
     GS_REPLAY_MIXED_PRECISION},
    {"tensor_cores_unused", "Tensor Cores unused",
     "TensorBoard profiler plugin (tc_eligible, tc_ratio); thresholds: doc/diagnosis.md#thresholds",
     diag_rule_tensor_cores,
     {{"mixed precision: torch.autocast(\"cuda\", dtype=torch.bfloat16) around the forward pass",
       GS_WHEN_ALWAYS, GS_GPU_BF16},
      {"for fp32: torch.backends.cuda.matmul.allow_tf32 = True and torch.backends.cudnn.allow_tf32 "
       "= True (or torch.set_float32_matmul_precision(\"high\"))",
       GS_WHEN_ALWAYS, GS_GPU_TF32},
      {"mixed precision: torch.autocast(\"cuda\", dtype=torch.float16) around the forward pass; "
       "when training, scale the loss with torch.amp.GradScaler(\"cuda\")",
       GS_WHEN_TRAINING, GS_GPU_FP16_ONLY},
      {"half precision: torch.autocast(\"cuda\", dtype=torch.float16) around the forward pass, "
       "or the model in float16 (model.half())",
       GS_WHEN_INFERENCE, GS_GPU_FP16_ONLY},
      {"mixed precision, by GPU: on Ampere or later (compute capability 8.0+) "
       "torch.autocast(\"cuda\", dtype=torch.bfloat16), and for fp32 "
       "torch.backends.cuda.matmul.allow_tf32 = True; on Volta/Turing (7.x) "
       "torch.autocast(\"cuda\", dtype=torch.float16) with torch.amp.GradScaler(\"cuda\")",
       GS_WHEN_TRAINING, GS_GPU_UNKNOWN},
      {"half precision, by GPU: on Ampere or later (compute capability 8.0+) "
       "torch.autocast(\"cuda\", dtype=torch.bfloat16), and for fp32 "
       "torch.backends.cuda.matmul.allow_tf32 = True; on Volta/Turing (7.x) "
       "torch.autocast(\"cuda\", dtype=torch.float16)",
       GS_WHEN_INFERENCE, GS_GPU_UNKNOWN},
      {"Tensor-Core-friendly shapes: batch, channel, hidden and vocabulary sizes multiples of 8",
       GS_WHEN_ALWAYS, GS_GPU_TENSOR_CORES},
      {"gpuscope kernels: the eligible operators' kernels without Tensor Cores", GS_WHEN_ALWAYS}},
     GS_REPLAY_MIXED_PRECISION},
    {"low_mfu", "Low MFU", "doc/diagnosis.md#thresholds (MFU < 30 % on a GEMM-dominated step)",
     diag_rule_low_mfu,
     {{"larger matrices per kernel: raise the batch or micro-batch, fuse small matmuls",
       GS_WHEN_TRAINING},
      {"larger matrices per kernel: batch more requests together, fuse small matmuls",
       GS_WHEN_INFERENCE},
      {"pad dimensions to multiples of 64 (vocabulary, hidden, heads x head size)", GS_WHEN_ALWAYS},
      {"torch.compile (mode=\"max-autotune\") to pick faster GEMM kernels and fuse the rest",
       GS_WHEN_ALWAYS, GS_GPU_TRITON},
      {"gpuscope ops: FLOPs and TFLOP/s per operator show which ones run slowest",
       GS_WHEN_ALWAYS}}},
    {"far_below_roof", "Far below the roof",
     "doc/diagnosis.md#thresholds (largest operator group under 50 % of its roof: doc/roofline.md)",
     diag_rule_roofline,
     {{"fuse the memory-bound operators so their intermediates stay on chip: torch.compile",
       GS_WHEN_MEMORY_BOUND, GS_GPU_TRITON, GS_WHEN_NOT_COMPILED},
      {"move fewer bytes: bf16 activations (torch.autocast(\"cuda\", dtype=torch.bfloat16))",
       GS_WHEN_MEMORY_BOUND, GS_GPU_BF16, GS_WHEN_FULL_PRECISION},
      {"move fewer bytes: fp8 where the model tolerates it (Transformer Engine, torchao)",
       GS_WHEN_MEMORY_BOUND, GS_GPU_FP8, GS_WHEN_NOT_FP8},
      {"contiguous tensors (and channels_last for convolutions): strided reads waste bandwidth",
       GS_WHEN_MEMORY_BOUND},
      {"Tensor Cores: bf16 autocast, or torch.backends.cuda.matmul.allow_tf32 = True for fp32",
       GS_WHEN_COMPUTE_BOUND, GS_GPU_TF32, GS_WHEN_FULL_PRECISION},
      {"lower precision for the matmuls: fp8 (Transformer Engine, torchao)", GS_WHEN_COMPUTE_BOUND,
       GS_GPU_FP8, GS_WHEN_NOT_FP8},
      {"shapes the Tensor Cores tile: dimensions multiples of 8 (16 bytes), better 64",
       GS_WHEN_COMPUTE_BOUND},
      {"fewer, larger kernels: fuse (torch.compile), batch small operations together",
       GS_WHEN_LATENCY_BOUND, GS_GPU_TRITON},
      {"CUDA graphs to launch the small kernels as one (torch.compile mode=\"reduce-overhead\")",
       GS_WHEN_LATENCY_BOUND, GS_GPU_TRITON},
      {"CUDA graphs to launch the small kernels as one (torch.cuda.graphs)", GS_WHEN_LATENCY_BOUND,
       GS_GPU_NO_TRITON},
      {"gpuscope ops --roofline: every operator's intensity, bound and share of its roof",
       GS_WHEN_ALWAYS}},
     GS_REPLAY_ROOF_TARGET},
    {"memory_growth", "Memory growth", "doc/diagnosis.md#thresholds (leak fit)", diag_rule_memory_growth,
     {{"look for tensors kept across steps: losses summed without .item()/.detach(), lists of "
       "outputs, caches that never shrink",
       GS_WHEN_ALWAYS},
      {"gpuscope memory shows the operators that allocate most", GS_WHEN_ALWAYS}}},
    {"memory_capacity", "Memory capacity",
     "TensorBoard profiler plugin, memory rule (90 %); 1.5x: doc/diagnosis.md#thresholds",
     diag_rule_memory_capacity,
     {{"activation checkpointing, or a smaller micro-batch with gradient accumulation",
       GS_WHEN_TRAINING},
      {"mixed precision (torch.autocast with bfloat16) to halve activations",
       GS_WHEN_FULL_PRECISION, GS_GPU_BF16},
      {"mixed precision (torch.autocast with float16; torch.amp.GradScaler when training) to "
       "halve activations",
       GS_WHEN_FULL_PRECISION, GS_GPU_FP16_ONLY, GS_WHEN_TRAINING},
      {"the model in float16 (model.half()) to halve weights and activations",
       GS_WHEN_FULL_PRECISION, GS_GPU_FP16_ONLY, GS_WHEN_INFERENCE},
      {"mixed precision to halve activations: torch.autocast with bfloat16 on Ampere or later "
       "(compute capability 8.0+), with float16 and torch.amp.GradScaler on Volta/Turing (7.x)",
       GS_WHEN_FULL_PRECISION, GS_GPU_UNKNOWN, GS_WHEN_TRAINING},
      {"half precision to halve weights and activations: bfloat16 on Ampere or later (compute "
       "capability 8.0+), float16 on Volta/Turing (7.x)",
       GS_WHEN_FULL_PRECISION, GS_GPU_UNKNOWN, GS_WHEN_INFERENCE},
      {"a smaller batch per forward", GS_WHEN_ALWAYS},
      {"run under torch.inference_mode() so no activation is kept for a backward pass",
       GS_WHEN_INFERENCE},
      {"cap the KV cache: fewer sequences at once or a shorter maximum length (vLLM "
       "gpu_memory_utilization and max_num_seqs), or an fp8 KV cache",
       GS_WHEN_DECODE},
      {"against fragmentation: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True",
       GS_WHEN_ALWAYS}}},
    {"no_gpu", "No GPU activity", "PyTorch profiler recipe (ProfilerActivity.CUDA)", diag_rule_no_gpu,
     {{"profile with activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA] to see the GPU",
       GS_WHEN_TORCH, 0, GS_WHEN_NO_ACCELERATOR},
      {"with gpuscope run: check the summary's notes (no driver, CUPTI held by another tool)",
       GS_WHEN_GST}}},
    {"first_use_per_shape", "First use per shape",
     "CUDA C++ Programming Guide (lazy loading, CUDA_MODULE_LOADING); PyTorch docs: "
     "torch.compile dynamic shapes; 1.5x, 5 %, 10 %: doc/diagnosis.md#thresholds",
     diag_rule_first_use,
     {{"keep input shapes static: pad to a fixed length, or to a few buckets (lengths rounded up "
       "to a multiple of 64 or a power of two), so each shape's first use is paid once",
       GS_WHEN_ALWAYS},
      {"warm every shape before serving or timing: one pass over each bucket (each batch size "
       "and sequence length) first",
       GS_WHEN_ALWAYS},
      {"CUDA_MODULE_LOADING=EAGER loads every kernel at start-up instead of at its first launch",
       GS_WHEN_CODE_LOADS},
      {"with torch.compile: dynamic=True, or torch._dynamo.mark_dynamic on the dimension that "
       "grows, so a new length does not recompile (TORCH_LOGS=recompiles names each recompile)",
       GS_WHEN_ALWAYS, GS_GPU_TRITON},
      {"decoding: a static KV cache (cache_implementation=\"static\" in transformers' generate) "
       "gives every token the same shapes, so one compiled graph serves them all",
       GS_WHEN_DECODE},
      {"torch.backends.cudnn.benchmark=True tunes again for every new shape: leave it off when "
       "shapes keep changing",
       GS_WHEN_CONV}}},
    {"warmup", "Warm-up",
     "PyTorch profiler recipe (schedule warmup); 1.5x: doc/diagnosis.md#thresholds", diag_rule_warmup,
     {{"profile with a schedule that skips warm-up: torch.profiler.schedule(wait=1, warmup=1, "
       "active=5), and call prof.step() every step",
       GS_WHEN_TORCH_NO_STEPS},
      {"raise the schedule's warmup (or wait) so the slow first steps are not recorded, and "
       "active to 5 or more",
       GS_WHEN_TORCH_STEPS},
      {"mark each step with an NVTX range named ProfilerStep#N (torch.cuda.nvtx.range_push / "
       "range_pop) so gpuscope run's trace has steps and the first ones are left out",
       GS_WHEN_GST_NO_STEPS},
      {"run more steps under gpuscope run: the slow first ones are left out of the statistics "
       "(--keep-warmup keeps them)",
       GS_WHEN_GST_STEPS}}},
};

const gs_rule *gs_rules(size_t *n)
{
    *n = COUNT_OF(rules);
    return rules;
}

