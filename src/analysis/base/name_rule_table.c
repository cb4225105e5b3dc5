/* The name rules, one table, read top to bottom (name_rule_table.h); each block cites the public
 * source it rests on, listed again in doc/name_rules.md. */
#include "analysis/base/name_rule_table.h"

#include "analysis/base/collectives.h"
#include "analysis/base/flops.h"
#include "analysis/base/kernel_class.h"
#include "analysis/base/sync_calls.h"
#include "common/profiler_step.h"
#include "common/util.h"

#define FLAG(g, m, a) {GS_NAME_##g, m, a, NULL, 1}
#define NOT(g, m, a) {GS_NAME_##g, m, a, NULL, 0}
#define IS(g, m, a, v) {GS_NAME_##g, m, a, NULL, v}

const gs_name_rule gs_name_rules[] = {
    /* ---- GPU work ---------------------------------------------------------------------------- */
    /* Communication kernels, each library's own names (doc/name_rules.md): NCCL's, and RCCL's,
     * which are named like NCCL's (`hip*` names are ordinary ROCm kernels: hipCUB, hipBLASLt);
     * NVSHMEM's on-stream collectives; DeepEP's dispatch and combine (deep_ep::intranode,
     * ::internode, ::internode_ll; not its local ::layout); PyTorch's symmetric-memory
     * all-reduces; vLLM's and TensorRT-LLM's custom all-reduce; MSCCL++. */
    FLAG(COMM_KERNEL, PREFIX, "nccl"),
    FLAG(COMM_KERNEL, CONTAINS, "ncclKernel"),
    FLAG(COMM_KERNEL, CONTAINS, "ncclDevKernel"),
    FLAG(COMM_KERNEL, PREFIX, "hccl"),
    FLAG(COMM_KERNEL, CONTAINS, "nvshmem"),
    FLAG(COMM_KERNEL, CONTAINS, "_on_stream_kernel"),
    FLAG(COMM_KERNEL, CONTAINS, "ep::intranode::"),
    FLAG(COMM_KERNEL, CONTAINS, "ep::internode"),
    FLAG(COMM_KERNEL, WORD_CONTAINS, "multimem"),
    FLAG(COMM_KERNEL, WORD_CONTAINS, "oneshotallreduce"),
    FLAG(COMM_KERNEL, WORD_CONTAINS, "twoshotallreduce"),
    FLAG(COMM_KERNEL, WORD_CONTAINS, "crossdevicereduce"),
    FLAG(COMM_KERNEL, CONTAINS, "mscclpp::"),

    /* HTA 0.5.0 (hta/utils/utils.py), applied to every GPU row's name, copies and sync records
     * included: ^nccl.*Kernel is communication; ^Memcpy, ^Memset, ^dma memory; names it keeps out
     * of computation (.*Memcpy, .*Sync) other; the rest computation. */
    {GS_NAME_HTA_CLASS, PREFIX_CONTAINS, "nccl", "Kernel", GS_KCLASS_COMMUNICATION},
    IS(HTA_CLASS, PREFIX, "Memcpy", GS_KCLASS_MEMORY),
    IS(HTA_CLASS, PREFIX, "Memset", GS_KCLASS_MEMORY),
    IS(HTA_CLASS, PREFIX, "dma", GS_KCLASS_MEMORY),
    IS(HTA_CLASS, CONTAINS, "Memcpy", GS_KCLASS_OTHER),
    IS(HTA_CLASS, CONTAINS, "Sync", GS_KCLASS_OTHER),

    /* Tensor Cores, by name: the TensorBoard plugin's TC_Allowlist
     * (torch_tb_profiler/profiler/tensor_core.py, after NVIDIA PyProf's tc.py) ... */
#define PLUGIN_TC(p) FLAG(TENSOR_CORE, CONTAINS, p), FLAG(TENSOR_CORE_PLUGIN, CONTAINS, p)
    PLUGIN_TC("h884"), PLUGIN_TC("s884"), PLUGIN_TC("h1688"), PLUGIN_TC("s1688"),
    PLUGIN_TC("hmma"), PLUGIN_TC("i8816"), PLUGIN_TC("16816"),
    PLUGIN_TC("dgrad_1x1_stride_2x2"), PLUGIN_TC("first_layer_wgrad_kernel"),
    PLUGIN_TC("conv1x1"), PLUGIN_TC("conv2d_c1_k1"), PLUGIN_TC("direct_group"),
    PLUGIN_TC("xmma_implicit_gemm"), PLUGIN_TC("xmma_sparse_conv"),
    PLUGIN_TC("xmma_warp_specialized_implicit_gemm"), PLUGIN_TC("xmma_gemm"),
    PLUGIN_TC("xmma_sparse_gemm"), PLUGIN_TC("c1688"),
#undef PLUGIN_TC
    /* ... then the names that came after it (doc/flops.md, "Tensor Cores"; doc/name_rules.md):
     * the memory-efficient attention in fp32 runs on the SIMT cores, FlashAttention-3's backward
     * pre- and post-processing kernels only copy and scale; CUTLASS `tensorop`; Hopper warpgroup
     * MMA (`wgmma`, CUTLASS 3's `TmaGmma` mainloops); Blackwell's `tcgen05` and CUTLASS's `Umma`
     * mainloops; CUTLASS 3 kernels for Sm90 and later (`cutlass::device_kernel`); cuBLASLt's
     * `nvjet_*`; xmma operand types half, bf16, tf32, int8 (`f32f32_f32f32` xmma kernels are FFMA
     * ones); FlashAttention 2 and 3, the memory-efficient attention, TensorRT-LLM's and cuDNN's
     * fused attention; half-precision cuBLAS GEMMs; and a GEMM (a word starting `gemm`,
     * TensorRT-LLM's `bmm_`) of fp8 or fp4 operands, spelt in any case (an fp8 cast or scale is no
     * matrix product, nor is every kernel of the library fbgemm). */
    NOT(TENSOR_CORE, CONTAINS, "fmha_cutlassF_f32"),
    NOT(TENSOR_CORE, CONTAINS, "fmha_cutlassB_f32"),
    NOT(TENSOR_CORE, CONTAINS, "FlashAttnBwdPreprocess"),
    NOT(TENSOR_CORE, CONTAINS, "FlashAttnBwdPostprocess"),
    FLAG(TENSOR_CORE, CONTAINS, "tensorop"), FLAG(TENSOR_CORE, CONTAINS_CI, "gmma"),
    FLAG(TENSOR_CORE, CONTAINS, "tcgen05"), FLAG(TENSOR_CORE, CONTAINS, "Umma"),
    {GS_NAME_TENSOR_CORE, BOTH, "cutlass::device_kernel", "Sm90", 1},
    {GS_NAME_TENSOR_CORE, BOTH, "cutlass::device_kernel", "Sm100", 1},
    {GS_NAME_TENSOR_CORE, BOTH, "cutlass::device_kernel", "Sm120", 1},
    FLAG(TENSOR_CORE, CONTAINS, "nvjet"), FLAG(TENSOR_CORE, CONTAINS, "tf32"),
    FLAG(TENSOR_CORE, CONTAINS, "bf16"), FLAG(TENSOR_CORE, CONTAINS, "f16f16"),
    FLAG(TENSOR_CORE, CONTAINS, "i8i8"), FLAG(TENSOR_CORE, CONTAINS, "flash_fwd"),
    FLAG(TENSOR_CORE, CONTAINS, "flash_bwd"), FLAG(TENSOR_CORE, CONTAINS, "flash::FlashAttn"),
    FLAG(TENSOR_CORE, CONTAINS, "flash::compute_attn"), FLAG(TENSOR_CORE, CONTAINS, "fmha"),
    {GS_NAME_TENSOR_CORE, BOTH, "cudnn", "_sdpa_", 1},
    FLAG(TENSOR_CORE, CONTAINS, "hgemm"),
    /* AMD's matrix cores (ROCm): Tensile/hipBLASLt GEMMs name their MFMA instruction
     * (Cijk_..._MI16x16x1_...; a kernel without one has no MI token), AOTriton's flash attention
     * (PyTorch's ROCm SDPA) names its kernels attn_fwd, bwd_kernel_dk_dv, bwd_kernel_dq. */
    FLAG(TENSOR_CORE, TOKEN_PREFIX, "mi4x"), FLAG(TENSOR_CORE, TOKEN_PREFIX, "mi16x"),
    FLAG(TENSOR_CORE, TOKEN_PREFIX, "mi32x"), FLAG(TENSOR_CORE, EXACT, "attn_fwd"),
    FLAG(TENSOR_CORE, PREFIX, "bwd_kernel_dk_dv"), FLAG(TENSOR_CORE, PREFIX, "bwd_kernel_dq"),
#define LOW_PRECISION_GEMM(p)                                                                      \
    {GS_NAME_TENSOR_CORE, WORD_WITH, "gemm", p, 1}, {GS_NAME_TENSOR_CORE, WORD_WITH, "bmm", p, 1}
    LOW_PRECISION_GEMM("e4m3"), LOW_PRECISION_GEMM("e5m2"), LOW_PRECISION_GEMM("e2m1"),
    LOW_PRECISION_GEMM("fp8"), LOW_PRECISION_GEMM("fp4"),
#undef LOW_PRECISION_GEMM

    /* FP8 and FP4 operands by name, any case: with a Tensor-Core kernel (trace_facts.c), the
     * step's matmuls already run in FP8 or FP4 (PyTorch's Float8_e4m3fn casts are not Tensor-Core
     * kernels). torch.compile's own work: Inductor names the Triton kernels it generates
     * triton_poi_, triton_red_, triton_per_, triton_tem_ ... (torch/_inductor/codegen/triton.py),
     * Dynamo records each compiled region as "Torch-Compiled Region: N/M" and AOTAutograd runs it
     * as the autograd function CompiledFunction. */
    FLAG(FP8_NAME, CONTAINS_CI, "e4m3"), FLAG(FP8_NAME, CONTAINS_CI, "e5m2"),
    FLAG(FP8_NAME, CONTAINS_CI, "e2m1"), FLAG(FP8_NAME, CONTAINS_CI, "fp8"),
    FLAG(FP8_NAME, CONTAINS_CI, "fp4"), FLAG(FP8_NAME, CONTAINS_CI, "mxf"),
    FLAG(COMPILED_KERNEL, PREFIX, "triton_"),
    FLAG(COMPILED_RANGE, PREFIX, "Torch-Compiled Region"),
    FLAG(COMPILED_RANGE, PREFIX, "CompiledFunction"),

    /* Precision, convolution, backward and optimizer kernels as cuBLAS, cuDNN, CUTLASS and
     * PyTorch's templates name them (sm90_xmma_gemm_bf16bf16..., at::native::...<c10::BFloat16>,
     * cuDNN's dgrad/wgrad, FlashAttention's *_bwd, fused Adam): doc/diagnosis.md, "What the
     * advice is conditioned on". Precisions in any case (E4m3, MxE2m1, nvfp4, mxfp4). A
     * convolution and LAMB are whole words (`conv`, `convol...`, `LAMB`), never the letters of
     * `ConvertdQ`, `convert` or `lambda`; cuDNN's fused attention says `fprop` too. */
    FLAG(LOW_PRECISION, CONTAINS_CI, "bf16"), FLAG(LOW_PRECISION, CONTAINS_CI, "bfloat16"),
    FLAG(LOW_PRECISION, CONTAINS_CI, "fp16"), FLAG(LOW_PRECISION, CONTAINS_CI, "f16"),
    FLAG(LOW_PRECISION, CONTAINS_CI, "half"), FLAG(LOW_PRECISION, CONTAINS_CI, "fp8"),
    FLAG(LOW_PRECISION, CONTAINS_CI, "e4m3"), FLAG(LOW_PRECISION, CONTAINS_CI, "e5m2"),
    FLAG(LOW_PRECISION, CONTAINS_CI, "hgemm"), FLAG(LOW_PRECISION, CONTAINS_CI, "h884"),
    FLAG(LOW_PRECISION, CONTAINS_CI, "h1688"), FLAG(LOW_PRECISION, CONTAINS_CI, "h16816"),
    FLAG(LOW_PRECISION, CONTAINS_CI, "fp4"), FLAG(LOW_PRECISION, CONTAINS_CI, "e2m1"),
    FLAG(LOW_PRECISION, CONTAINS_CI, "mxf"),
    /* Tensile's data types, one letter each after the index names (H half, B bfloat16, S
     * single): Cijk_Alik_Bljk_B_BS_..., Cijk_Ailk_Bljk_BBS_..., Cijk_..._HHS_... */
    {GS_NAME_LOW_PRECISION, PREFIX_CONTAINS, "Cijk_", "_B_BS_", 1},
    {GS_NAME_LOW_PRECISION, PREFIX_CONTAINS, "Cijk_", "_BBS_", 1},
    {GS_NAME_LOW_PRECISION, PREFIX_CONTAINS, "Cijk_", "_H_HS_", 1},
    {GS_NAME_LOW_PRECISION, PREFIX_CONTAINS, "Cijk_", "_HHS_", 1},
    NOT(CONV_KERNEL, CONTAINS_CI, "_sdpa_"),
    FLAG(CONV_KERNEL, TOKEN, "conv"), FLAG(CONV_KERNEL, TOKEN_PREFIX, "convol"),
    FLAG(CONV_KERNEL, CONTAINS_CI, "fprop"),
    FLAG(CONV_KERNEL, CONTAINS_CI, "dgrad"), FLAG(CONV_KERNEL, CONTAINS_CI, "wgrad"),
    FLAG(CONV_KERNEL, CONTAINS_CI, "implicit_gemm"), FLAG(CONV_KERNEL, CONTAINS_CI, "winograd"),
    FLAG(BACKWARD_KERNEL, CONTAINS_CI, "backward"), FLAG(BACKWARD_KERNEL, CONTAINS_CI, "bwd"),
    FLAG(BACKWARD_KERNEL, CONTAINS_CI, "dgrad"), FLAG(BACKWARD_KERNEL, CONTAINS_CI, "wgrad"),
    FLAG(OPTIMIZER_KERNEL, CONTAINS_CI, "adam"), FLAG(OPTIMIZER_KERNEL, CONTAINS_CI, "sgd"),
    FLAG(OPTIMIZER_KERNEL, TOKEN, "lamb"), FLAG(OPTIMIZER_KERNEL, CONTAINS_CI, "adagrad"),
    FLAG(OPTIMIZER_KERNEL, CONTAINS_CI, "rmsprop"),
    /* What the replay's actions change (doc/whatif.md). Pointwise kernels, which torch.compile's
     * Inductor fuses into one: ATen's elementwise templates (aten/src/ATen/native/cuda/Loops.cuh,
     * CUDALoops.cuh: vectorized_elementwise_kernel, unrolled_elementwise_kernel,
     * elementwise_kernel) and Inductor's own pointwise kernels (triton_poi_). Kernels that apply
     * one launch to a list of tensors, as the foreach and fused optimizers do
     * (aten/src/ATen/native/cuda/MultiTensorApply.cuh; apex's multi_tensor_apply). */
    FLAG(POINTWISE_KERNEL, CONTAINS, "elementwise_kernel"),
    FLAG(POINTWISE_KERNEL, PREFIX, "triton_poi_"),
    FLAG(MULTI_TENSOR_KERNEL, CONTAINS, "multi_tensor_apply"),
    FLAG(MULTI_TENSOR_KERNEL, CONTAINS_CI, "foreach"),
    FLAG(MULTI_TENSOR_KERNEL, CONTAINS, "fused_adam"), FLAG(MULTI_TENSOR_KERNEL, CONTAINS, "FusedAdam"),
    /* Attention kernels made for decoding, one new token per sequence against its KV cache:
     * vLLM's paged attention (csrc/attention/paged_attention_v1.cu, and ROCm's
     * paged_attention_ll4mi), FlashAttention's split-KV kernel (flash_fwd_splitkv_kernel, what
     * flash_attn_with_kvcache runs), FlashInfer's BatchDecodeWithPagedKVCacheKernel; vLLM's
     * Triton attention's 3d kernel (triton_unified_attention.py launches it only for a batch of
     * one query token per sequence, the 2d kernel otherwise); TensorRT-LLM's generated FMHA
     * kernels for the generation phase (fmhaSm100aKernel_...ForGen, FlashInfer's trtllm-gen
     * kernel table; the context phase's end in Context). */
    FLAG(DECODE_KERNEL, CONTAINS, "paged_attention"),
    FLAG(DECODE_KERNEL, CONTAINS, "splitkv"),
    FLAG(DECODE_KERNEL, WORD_CONTAINS, "batchdecode"),
    FLAG(DECODE_KERNEL, CONTAINS, "kernel_unified_attention_3d"),
    {GS_NAME_DECODE_KERNEL, PREFIX_SUFFIX, "fmhaSm", "ForGen", 1},

    /* The collective a NCCL or RCCL kernel runs, spelt in CamelCase in its name
     * (ncclKernel_AllReduce_RING_LL_Sum_float, ncclDevKernel_ReduceScatter_Sum_f32_RING_LL,
     * ncclDevKernel_SendRecv); Reduce after the longer names that hold it. Then the other
     * libraries' names: DeepEP's kernels move tokens to and from experts, an all-to-all; NVSHMEM's
     * fcollect is an all-gather, its rdxn an all-reduce (doc/name_rules.md). */
    IS(KERNEL_COLLECTIVE, CONTAINS, "ep::intranode::", GS_COLL_ALL_TO_ALL),
    IS(KERNEL_COLLECTIVE, CONTAINS, "ep::internode", GS_COLL_ALL_TO_ALL),
    IS(KERNEL_COLLECTIVE, BEFORE_PAREN, "AllReduce", GS_COLL_ALL_REDUCE),
    IS(KERNEL_COLLECTIVE, BEFORE_PAREN, "ReduceScatter", GS_COLL_REDUCE_SCATTER),
    IS(KERNEL_COLLECTIVE, BEFORE_PAREN, "AllGather", GS_COLL_ALL_GATHER),
    IS(KERNEL_COLLECTIVE, BEFORE_PAREN, "AllToAll", GS_COLL_ALL_TO_ALL),
    IS(KERNEL_COLLECTIVE, BEFORE_PAREN, "AlltoAll", GS_COLL_ALL_TO_ALL),
    IS(KERNEL_COLLECTIVE, BEFORE_PAREN, "Broadcast", GS_COLL_BROADCAST),
    IS(KERNEL_COLLECTIVE, BEFORE_PAREN, "SendRecv", GS_COLL_SEND_RECV),
    IS(KERNEL_COLLECTIVE, BEFORE_PAREN, "Send", GS_COLL_SEND_RECV),
    IS(KERNEL_COLLECTIVE, BEFORE_PAREN, "Recv", GS_COLL_SEND_RECV),
    IS(KERNEL_COLLECTIVE, BEFORE_PAREN, "Reduce", GS_COLL_REDUCE),
    IS(KERNEL_COLLECTIVE, WORD_CONTAINS, "allreduce", GS_COLL_ALL_REDUCE),
    IS(KERNEL_COLLECTIVE, WORD_CONTAINS, "crossdevicereduce", GS_COLL_ALL_REDUCE),
    IS(KERNEL_COLLECTIVE, WORD_CONTAINS, "rdxnonstream", GS_COLL_ALL_REDUCE),
    IS(KERNEL_COLLECTIVE, WORD_CONTAINS, "allgather", GS_COLL_ALL_GATHER),
    IS(KERNEL_COLLECTIVE, WORD_CONTAINS, "fcollect", GS_COLL_ALL_GATHER),
    IS(KERNEL_COLLECTIVE, WORD_CONTAINS, "alltoall", GS_COLL_ALL_TO_ALL),
    IS(KERNEL_COLLECTIVE, WORD_CONTAINS, "reducescatter", GS_COLL_REDUCE_SCATTER),
    IS(KERNEL_COLLECTIVE, WORD_CONTAINS, "broadcast", GS_COLL_BROADCAST),

    /* fbgemm_gpu's table-batched embedding kernels (split_embedding_codegen_forward_*,
     * split_embedding_backward_codegen_*): the sharded embedding tables of a recommendation
     * model, whose all-to-alls exchange the looked-up embeddings (doc/name_rules.md). */
    FLAG(EMBEDDING_KERNEL, CONTAINS, "split_embedding"),

    /* ---- host ranges ------------------------------------------------------------------------- */
    /* The data-parallel wrappers' own ranges: DDP's forward records
     * "DistributedDataParallel.forward" (torch/nn/parallel/distributed.py), FSDP's "FullyShardedDataParallel.forward" and its hooks
     * (torch/distributed/fsdp/fully_sharded_data_parallel.py), fully_shard's (FSDP2)
     * "FSDP::pre_forward", "FSDP::all_gather" ...; with_stack's module events name the wrapper
     * too ("nn.Module: DistributedDataParallel_0"). */
    IS(PARALLEL_WRAPPER, CONTAINS, "FullyShardedDataParallel", GS_WRAPPER_FSDP),
    IS(PARALLEL_WRAPPER, PREFIX, "FSDP::", GS_WRAPPER_FSDP),
    IS(PARALLEL_WRAPPER, CONTAINS, "DistributedDataParallel", GS_WRAPPER_DDP),

    /* torch.profiler records each training step as a range "ProfilerStep#" and the step's number
     * (torch/profiler/profiler.py). */
    FLAG(PROFILER_STEP, PREFIX_NUMBER, GS_PROFILER_STEP_PREFIX),

    /* DataLoader fetches as torch.profiler names them (the TensorBoard plugin's DataLoader
     * category); gpuscope run's Python hooks use the same names. */
    {GS_NAME_DATALOADER, PREFIX_SUFFIX, "enumerate(DataLoader)#", ".__next__", 1},
    FLAG(DATALOADER, PREFIX, "enumerate(DataPipe)#"),

    /* Backward work as torch.profiler and emit_nvtx name it: autograd's nodes ("MmBackward0",
     * "CompiledFunctionBackward", "torch::autograd::AccumulateGrad"), the engine that runs them
     * ("autograd::engine::evaluate_function: ..."), ATen's backward operators
     * ("aten::convolution_backward"), "backward" a whole word. The optimizer by its step, as
     * torch/optim/optimizer.py's profile hook names it ("Optimizer.step#AdamW.step",
     * "Optimizer.zero_grad#AdamW.zero_grad"), and ATen's fused optimizers (_fused_adam_,
     * _fused_adamw_, _fused_sgd_, _fused_adagrad_); never a name that merely holds "optimizer",
     * which an inference program's own ranges can (a graph or KV-cache optimizer). */
    FLAG(BACKWARD_OP, TOKEN, "backward"),
    FLAG(BACKWARD_OP, PREFIX, "autograd::engine"),
    FLAG(BACKWARD_OP, EXACT, "torch::autograd::AccumulateGrad"),
    FLAG(OPTIMIZER_OP, PREFIX, "Optimizer.step#"),
    FLAG(OPTIMIZER_OP, PREFIX, "Optimizer.zero_grad#"),
    FLAG(OPTIMIZER_OP, PREFIX, "aten::_fused_adam"),
    FLAG(OPTIMIZER_OP, PREFIX, "aten::_fused_sgd"),
    FLAG(OPTIMIZER_OP, PREFIX, "aten::_fused_adagrad"),

    /* Autoregressive decoding (doc/name_rules.md): SGLang's per-batch annotation
     * ("step[DECODE bs=32]"), a range whose name holds "decode" as a whole word (never
     * "Decoder", a decoder layer that also trains). */
    FLAG(DECODE_RANGE, TOKEN, "decode"),

    /* Framework operators that synchronize (the PyTorch Performance Tuning Guide, "Avoid
     * unnecessary CPU-GPU synchronization": .item(), .cpu(), .to(), .nonzero()). */
    FLAG(SYNC_OP, EXACT, "aten::item"), FLAG(SYNC_OP, EXACT, "aten::_local_scalar_dense"),
    FLAG(SYNC_OP, EXACT, "aten::nonzero"), FLAG(SYNC_OP, EXACT, "aten::tolist"),
    FLAG(SYNC_OP, EXACT, "aten::is_nonzero"), FLAG(SYNC_OP, EXACT, "aten::cpu"),
    FLAG(SYNC_OP, EXACT, "aten::to"), FLAG(SYNC_OP, EXACT, "aten::_to_copy"),
    FLAG(SYNC_OP, EXACT, "aten::copy_"),

    /* Collective calls: every nccl:* and gloo:* operator; the TensorBoard plugin knew only five
     * of each (trace.py NcclOpNameSet, GlooOpNameSet). */
    FLAG(COMM_OP, PREFIX, "nccl:"), FLAG(COMM_OP, PREFIX, "gloo:"),
#define PLUGIN_COMM(n) FLAG(COMM_OP_PLUGIN, EXACT, n)
    PLUGIN_COMM("nccl:broadcast"), PLUGIN_COMM("nccl:reduce"), PLUGIN_COMM("nccl:all_reduce"),
    PLUGIN_COMM("nccl:all_gather"), PLUGIN_COMM("nccl:reduce_scatter"),
    PLUGIN_COMM("gloo:broadcast"), PLUGIN_COMM("gloo:reduce"), PLUGIN_COMM("gloo:all_reduce"),
    PLUGIN_COMM("gloo:all_gather"), PLUGIN_COMM("gloo:reduce_scatter"),
#undef PLUGIN_COMM

    /* The collective an operator launches, for a kernel whose name and arguments do not say it
     * ("nccl:all_reduce", "c10d::allreduce_"). */
    IS(OP_COLLECTIVE, WORD_CONTAINS, "allreduce", GS_COLL_ALL_REDUCE),
    IS(OP_COLLECTIVE, WORD_CONTAINS, "allgather", GS_COLL_ALL_GATHER),
    IS(OP_COLLECTIVE, WORD_CONTAINS, "reducescatter", GS_COLL_REDUCE_SCATTER),
    IS(OP_COLLECTIVE, WORD_CONTAINS, "alltoall", GS_COLL_ALL_TO_ALL),
    IS(OP_COLLECTIVE, WORD_CONTAINS, "broadcast", GS_COLL_BROADCAST),
    IS(OP_COLLECTIVE, WORD_CONTAINS, "send", GS_COLL_SEND_RECV),
    IS(OP_COLLECTIVE, WORD_CONTAINS, "recv", GS_COLL_SEND_RECV),

    /* Operators that could run on Tensor Cores: the TensorBoard plugin's TC_OP_Allowlist ... */
#define PLUGIN_TC_OP(n) FLAG(TC_ELIGIBLE, EXACT, n), FLAG(TC_ELIGIBLE_PLUGIN, EXACT, n)
    PLUGIN_TC_OP("aten::_convolution"), PLUGIN_TC_OP("aten::_convolution_nogroup"),
    PLUGIN_TC_OP("aten::conv1d"), PLUGIN_TC_OP("aten::conv2d"), PLUGIN_TC_OP("aten::conv3d"),
    PLUGIN_TC_OP("aten::conv_tbc"), PLUGIN_TC_OP("aten::conv_transpose1d"),
    PLUGIN_TC_OP("aten::conv_transpose2d"), PLUGIN_TC_OP("aten::conv_transpose3d"),
    PLUGIN_TC_OP("aten::convolution"), PLUGIN_TC_OP("aten::cudnn_convolution"),
    PLUGIN_TC_OP("aten::cudnn_convolution_transpose"), PLUGIN_TC_OP("aten::prelu"),
    PLUGIN_TC_OP("aten::addmm"), PLUGIN_TC_OP("aten::addmv"), PLUGIN_TC_OP("aten::addr"),
    PLUGIN_TC_OP("aten::matmul"), PLUGIN_TC_OP("aten::mm"), PLUGIN_TC_OP("aten::mv"),
    PLUGIN_TC_OP("aten::linear"), PLUGIN_TC_OP("aten::addbmm"), PLUGIN_TC_OP("aten::baddbmm"),
    PLUGIN_TC_OP("aten::bmm"), PLUGIN_TC_OP("aten::chain_matmul"),
    PLUGIN_TC_OP("aten::linalg_multi_dot"), PLUGIN_TC_OP("aten::_thnn_fused_lstm_cell"),
    PLUGIN_TC_OP("aten::_thnn_fused_gru_cell"), PLUGIN_TC_OP("aten::lstm_cell"),
    PLUGIN_TC_OP("aten::gru_cell"), PLUGIN_TC_OP("aten::rnn_tanh_cell"),
    PLUGIN_TC_OP("aten::rnn_relu_cell"), PLUGIN_TC_OP("CudnnConvolutionBackward"),
    PLUGIN_TC_OP("BmmBackward0"), PLUGIN_TC_OP("aten::cudnn_convolution_transpose_backward"),
    PLUGIN_TC_OP("CudnnConvolutionTransposeBackward"), PLUGIN_TC_OP("MmBackward"),
    PLUGIN_TC_OP("aten::cudnn_convolution_backward_weight"), PLUGIN_TC_OP("aten::addmm_"),
    PLUGIN_TC_OP("AddmvBackward"), PLUGIN_TC_OP("MvBackward"),
    PLUGIN_TC_OP("aten::cudnn_convolution_transpose_backward_weight"),
    PLUGIN_TC_OP("aten::cudnn_convolution_transpose_backward_input"),
    PLUGIN_TC_OP("AddmmBackward"), PLUGIN_TC_OP("aten::cudnn_convolution_backward_input"),
    PLUGIN_TC_OP("AddbmmBackward"), PLUGIN_TC_OP("aten::cudnn_convolution_backward"),
#undef PLUGIN_TC_OP
    /* ... then the backward nodes' current names, convolution_backward, fp8 GEMMs and attention
     * (doc/flops.md, "Tensor Cores"). */
    FLAG(TC_ELIGIBLE, EXACT, "MmBackward0"), FLAG(TC_ELIGIBLE, EXACT, "AddmmBackward0"),
    FLAG(TC_ELIGIBLE, EXACT, "AddbmmBackward0"), FLAG(TC_ELIGIBLE, EXACT, "BaddbmmBackward0"),
    FLAG(TC_ELIGIBLE, EXACT, "AddmvBackward0"), FLAG(TC_ELIGIBLE, EXACT, "MvBackward0"),
    FLAG(TC_ELIGIBLE, EXACT, "ConvolutionBackward0"),
    FLAG(TC_ELIGIBLE, EXACT, "CudnnConvolutionBackward0"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::convolution_backward"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::_addmm_activation"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::_scaled_mm"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::scaled_dot_product_attention"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::_scaled_dot_product_flash_attention"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::_scaled_dot_product_efficient_attention"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::_scaled_dot_product_cudnn_attention"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::_scaled_dot_product_flash_attention_backward"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::_scaled_dot_product_efficient_attention_backward"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::_scaled_dot_product_cudnn_attention_backward"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::_flash_attention_forward"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::_flash_attention_backward"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::_efficient_attention_forward"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::_efficient_attention_backward"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::_cudnn_attention_forward"),
    FLAG(TC_ELIGIBLE, EXACT, "aten::_cudnn_attention_backward"),

    /* The FLOP formula of an operator is the formula table's (analysis/base/flops.c); these names
     * of a convolution's backward, which PyTorch < 1.11 recorded as two operators
     * (aten/src/ATen/native/native_functions.yaml of those versions), are convolutions too. */
    IS(FLOP_KIND, EXACT, "aten::cudnn_convolution_backward_input", GS_FLOP_CONV),
    IS(FLOP_KIND, EXACT, "aten::cudnn_convolution_backward_weight", GS_FLOP_CONV),
    IS(FLOP_KIND, EXACT, "aten::cudnn_convolution_transpose_backward_input", GS_FLOP_CONV),
    IS(FLOP_KIND, EXACT, "aten::cudnn_convolution_transpose_backward_weight", GS_FLOP_CONV),

    /* ---- CUDA/HIP API calls ------------------------------------------------------------------ */
    /* Calls that block the host until the GPU catches up, and the stream wait (sync_calls.h);
     * value: gs_sync_kind + 1, an async copy's GS_SYNC_ASYNC_COPY + 1 (blocking only when its host
     * side is pageable). A name matches with CUPTI's version suffix too, so cudaMemcpy never
     * matches cudaMemcpyAsync. */
#define SYNC(n, k) IS(SYNC_CALL, CALL, n, (k) + 1)
    SYNC("cudaStreamSynchronize", GS_SYNC_STREAM), SYNC("hipStreamSynchronize", GS_SYNC_STREAM),
    SYNC("cuStreamSynchronize", GS_SYNC_STREAM), SYNC("cudaDeviceSynchronize", GS_SYNC_DEVICE),
    SYNC("cudaThreadSynchronize", GS_SYNC_DEVICE), SYNC("hipDeviceSynchronize", GS_SYNC_DEVICE),
    SYNC("cuCtxSynchronize", GS_SYNC_DEVICE), SYNC("cudaEventSynchronize", GS_SYNC_EVENT),
    SYNC("hipEventSynchronize", GS_SYNC_EVENT), SYNC("cuEventSynchronize", GS_SYNC_EVENT),
    SYNC("cudaStreamWaitEvent", GS_SYNC_WAIT_EVENT), SYNC("hipStreamWaitEvent", GS_SYNC_WAIT_EVENT),
    SYNC("cuStreamWaitEvent", GS_SYNC_WAIT_EVENT), SYNC("cudaMemcpy", GS_SYNC_MEMCPY),
    SYNC("cudaMemcpy2D", GS_SYNC_MEMCPY), SYNC("cudaMemcpy3D", GS_SYNC_MEMCPY),
    SYNC("cudaMemcpyToSymbol", GS_SYNC_MEMCPY), SYNC("cudaMemcpyFromSymbol", GS_SYNC_MEMCPY),
    SYNC("hipMemcpy", GS_SYNC_MEMCPY), SYNC("cuMemcpyDtoH", GS_SYNC_MEMCPY),
    SYNC("cuMemcpyHtoD", GS_SYNC_MEMCPY), SYNC("cuMemcpy", GS_SYNC_MEMCPY),
    SYNC("cudaMemcpyAsync", GS_SYNC_ASYNC_COPY), SYNC("cudaMemcpy2DAsync", GS_SYNC_ASYNC_COPY),
    SYNC("hipMemcpyAsync", GS_SYNC_ASYNC_COPY), SYNC("cuMemcpyDtoHAsync", GS_SYNC_ASYNC_COPY),
    SYNC("cuMemcpyHtoDAsync", GS_SYNC_ASYNC_COPY), SYNC("cuMemcpyAsync", GS_SYNC_ASYNC_COPY),
#undef SYNC

    /* What a CUDA call does, by name prefix (NVIDIA's CUDA Runtime and Driver API references);
     * more specific prefixes first; cuCtxSynchronize waits, it does not create a context. */
    IS(CALL_CLASS, CONTAINS, "Synchronize", GS_STARTUP_SYNC),
    /* Loading GPU code, the cost a first use pays once per kernel under lazy loading
     * (CUDA_MODULE_LOADING=LAZY, the default from CUDA 12.2) and each time Triton or
     * torch.compile brings a new kernel: the module and library loads and the JIT linker. */
    FLAG(CODE_LOAD, PREFIX, "cuModuleLoad"), FLAG(CODE_LOAD, PREFIX, "cuLibraryLoad"),
    FLAG(CODE_LOAD, PREFIX, "cuLink"),
#define CALLS(p, k) IS(CALL_CLASS, PREFIX, p, GS_STARTUP_##k)
    CALLS("cuInit", CONTEXT), CALLS("cuCtx", CONTEXT), CALLS("cuDevicePrimaryCtx", CONTEXT),
    CALLS("cudaSetDevice", CONTEXT), CALLS("cudaDeviceReset", CONTEXT),
    CALLS("cudaInitDevice", CONTEXT), CALLS("cuLibrary", MODULES), CALLS("cuModule", MODULES),
    CALLS("cuKernelGet", MODULES), CALLS("cudaGetFuncBySymbol", MODULES),
    CALLS("cudaGetKernel", MODULES), CALLS("cudaFuncGetAttributes", MODULES),
    CALLS("cudaFuncSetAttribute", MODULES), CALLS("cuFuncGetAttribute", MODULES),
    CALLS("cuFuncSetAttribute", MODULES), CALLS("cuLink", MODULES), CALLS("cudaMalloc", MEMORY),
    CALLS("cudaFree", MEMORY), CALLS("cudaHostAlloc", MEMORY), CALLS("cudaHostRegister", MEMORY),
    CALLS("cudaHostUnregister", MEMORY), CALLS("cuMemAlloc", MEMORY), CALLS("cuMemFree", MEMORY),
    CALLS("cuMemHost", MEMORY), CALLS("cuMemCreate", MEMORY), CALLS("cuMemRelease", MEMORY),
    CALLS("cuMemMap", MEMORY), CALLS("cuMemUnmap", MEMORY), CALLS("cuMemAddress", MEMORY),
    CALLS("cuMemSetAccess", MEMORY), CALLS("cudaMemcpy", COPIES), CALLS("cudaMemset", COPIES),
    CALLS("cuMemcpy", COPIES), CALLS("cuMemset", COPIES), CALLS("cudaLaunch", LAUNCHES),
    CALLS("cuLaunch", LAUNCHES), CALLS("cudaGraphLaunch", LAUNCHES),
    CALLS("cuGraphLaunch", LAUNCHES),
#undef CALLS

    /* ---- collective arguments ---------------------------------------------------------------- */
    /* PyTorch's "Collective name" argument (allreduce, _allgather_base,
     * allgather_into_tensor_coalesced, reduce_scatter_tensor_coalesced, all_to_all, alltoall_base,
     * send, recv, recvAnySource, broadcast, reduce ...). "wait" records the host waiting on a work
     * object: it says nothing about a kernel. */
    IS(ARG_COLLECTIVE, WORD_PREFIX, "allreduce", GS_COLL_ALL_REDUCE),
    IS(ARG_COLLECTIVE, WORD_PREFIX, "reducescatter", GS_COLL_REDUCE_SCATTER),
    IS(ARG_COLLECTIVE, WORD_PREFIX, "allgather", GS_COLL_ALL_GATHER),
    IS(ARG_COLLECTIVE, WORD_PREFIX, "alltoall", GS_COLL_ALL_TO_ALL),
    IS(ARG_COLLECTIVE, WORD_PREFIX, "broadcast", GS_COLL_BROADCAST),
    IS(ARG_COLLECTIVE, WORD_PREFIX, "send", GS_COLL_SEND_RECV),
    IS(ARG_COLLECTIVE, WORD_PREFIX, "recv", GS_COLL_SEND_RECV),
    IS(ARG_COLLECTIVE, WORD_PREFIX, "reduce", GS_COLL_REDUCE),
    IS(ARG_COLLECTIVE, WORD_PREFIX, "wait", GS_COLL_ARG_IGNORED),
};

const size_t gs_name_rules_n = COUNT_OF(gs_name_rules);
