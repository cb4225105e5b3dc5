/* The name rules (analysis/base/name_rules.h): the groups' layout in the packed word, one real
 * classification per group with the rule order that matters, and a trace's names judged by the
 * role each has in it. */
#include "analysis/base/name_rules.h"

#include <stdint.h>

#include "analysis/base/collectives.h"
#include "analysis/base/flops.h"
#include "analysis/base/kernel_class.h"
#include "analysis/base/sync_calls.h"
#include "common/util.h"
#include "check.h"
#include "trace_builder.h"

/* The role each group is asked of (the table in name_rules.h). */
static const enum gs_name_role role_of[GS_NAME__COUNT] = {
#define ROLE_OF(g, role, shift, bits, dflt) [GS_NAME_##g] = GS_ROLE_##role,
    GS_NAME_GROUPS(ROLE_OF)
#undef ROLE_OF
};

static unsigned read_group(uint64_t word, enum gs_name_group g)
{
    const gs_names names = {.v = &word, .n = 1};
    return gs_names_get(&names, 0, g);
}

/* Each bit of the word is read by one group at most; a group reads a run of bits, all ones when
 * the word is; its default fits them, and a name that matches no rule packs every group of its
 * role at its default and leaves the other roles' groups at 0. */
static void test_layout(void)
{
    unsigned width[GS_NAME__COUNT] = {0};
    for (int bit = 0; bit < 64; bit++) {
        int readers = 0;
        for (int g = 0; g < GS_NAME__COUNT; g++) {
            unsigned v = read_group(1ull << bit, (enum gs_name_group)g);
            if (v) {
                readers++;
                width[g]++;
                CHECK((v & (v - 1)) == 0); /* one bit of the word is one bit of the value */
            }
        }
        if (readers > 1)
            fprintf(stderr, "bit %d is read by %d groups\n", bit, readers);
        CHECK(readers <= 1);
    }
    for (int g = 0; g < GS_NAME__COUNT; g++) {
        CHECK(width[g] >= 1);
        unsigned all = read_group(~0ull, (enum gs_name_group)g);
        CHECK_INT(all, (1u << width[g]) - 1); /* contiguous bits */
        unsigned dflt = gs_name_judge((enum gs_name_group)g, NULL);
        CHECK(dflt <= all);
    }
    static const char no_rule_matches[] = "zz";
    for (int role = 0; role < GS_ROLE__COUNT; role++) {
        uint64_t word = gs_name_judge_role((enum gs_name_role)role, no_rule_matches);
        for (int g = 0; g < GS_NAME__COUNT; g++) {
            unsigned want = role_of[g] == (enum gs_name_role)role
                                ? gs_name_judge((enum gs_name_group)g, NULL)
                                : 0;
            CHECK_INT(read_group(word, (enum gs_name_group)g), want);
        }
    }
    /* the defaults that are not 0 */
    CHECK_INT(gs_name_judge(GS_NAME_KERNEL_COLLECTIVE, NULL), GS_COLL_OTHER);
    CHECK_INT(gs_name_judge(GS_NAME_OP_COLLECTIVE, NULL), GS_COLL_OTHER);
    CHECK_INT(gs_name_judge(GS_NAME_ARG_COLLECTIVE, NULL), GS_COLL_OTHER);
    CHECK_INT(gs_name_judge(GS_NAME_CALL_CLASS, NULL), GS_STARTUP_OTHER);
    /* the largest values fit: the async copy's SYNC_CALL, the ignored argument */
    CHECK_INT(read_group(gs_name_judge_role(GS_ROLE_API, "cudaMemcpyAsync"), GS_NAME_SYNC_CALL),
              GS_SYNC_ASYNC_COPY + 1);
    CHECK_INT(read_group(gs_name_judge_role(GS_ROLE_COLL_ARG, "wait"), GS_NAME_ARG_COLLECTIVE),
              GS_COLL_ARG_IGNORED);
}

/* Packing a role and reading a group back gives what a single lookup gives, for every group. */
static void test_packed_equals_single(void)
{
    static const char *const names[] = {
        "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(ncclDevComm*)",
        "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64",
        "Memcpy HtoD (Pinned -> Device)",
        "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
        "Optimizer.step#AdamW.step",
        "aten::addmm",
        "MmBackward0",
        "nccl:all_reduce",
        "cudaMemcpy_v3020",
        "cuCtxSynchronize",
        "_allgather_base",
        "ProfilerStep#7",
        "",
    };
    for (size_t i = 0; i < COUNT_OF(names); i++) {
        for (int g = 0; g < GS_NAME__COUNT; g++) {
            uint64_t word = gs_name_judge_role(role_of[g], names[i]);
            unsigned packed = read_group(word, (enum gs_name_group)g);
            unsigned single = gs_name_judge((enum gs_name_group)g, names[i]);
            if (packed != single)
                fprintf(stderr, "'%s', group %d: packed %u, single %u\n", names[i], g, packed,
                        single);
            CHECK_INT(packed, single);
        }
    }
}

static unsigned judge(enum gs_name_group g, const char *name)
{
    return gs_name_judge(g, name);
}

static void test_gpu_groups(void)
{
    /* communication kernels: NCCL's and RCCL's, HCCL's; not ROCm's hip* kernels */
    CHECK_INT(judge(GS_NAME_COMM_KERNEL, "ncclDevKernel_AllReduce_Sum_f32_RING_LL"), 1);
    CHECK_INT(judge(GS_NAME_COMM_KERNEL, "_Z29ncclDevKernel_AllReduce_Sum_f32P11ncclDevComm"), 1);
    CHECK_INT(judge(GS_NAME_COMM_KERNEL, "hcclX"), 1);
    CHECK_INT(judge(GS_NAME_COMM_KERNEL, "hipMemcpy"), 0);
    CHECK_INT(judge(GS_NAME_COMM_KERNEL, "volta_sgemm_128x64_nn"), 0);

    /* HTA's classes: ^nccl.*Kernel, then the Memcpy prefix before the Memcpy anywhere */
    CHECK_INT(judge(GS_NAME_HTA_CLASS, "ncclKernel_AllReduce_RING_LL_Sum_float"),
              GS_KCLASS_COMMUNICATION);
    CHECK_INT(judge(GS_NAME_HTA_CLASS, "Memcpy HtoD (Pinned -> Device)"), GS_KCLASS_MEMORY);
    CHECK_INT(judge(GS_NAME_HTA_CLASS, "Memset (Device)"), GS_KCLASS_MEMORY);
    CHECK_INT(judge(GS_NAME_HTA_CLASS, "DtoH Memcpy"), GS_KCLASS_OTHER);
    CHECK_INT(judge(GS_NAME_HTA_CLASS, "Context Sync"), GS_KCLASS_OTHER);
    CHECK_INT(judge(GS_NAME_HTA_CLASS, "cudaStreamSynchronize"), GS_KCLASS_OTHER);
    CHECK_INT(judge(GS_NAME_HTA_CLASS, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n"),
              GS_KCLASS_COMPUTE);
    CHECK_INT(judge(GS_NAME_HTA_CLASS, "hcclX"), GS_KCLASS_COMPUTE); /* HTA knows only nccl */

    /* Tensor Cores: the plugin's list, then gpuscope's; fp32 memory-efficient attention is not */
    CHECK_INT(judge(GS_NAME_TENSOR_CORE, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n"), 1);
    CHECK_INT(judge(GS_NAME_TENSOR_CORE_PLUGIN, "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n"), 1);
    CHECK_INT(judge(GS_NAME_TENSOR_CORE, "fmha_cutlassF_f32_aligned_64x64_rf_sm80"), 0);
    CHECK_INT(judge(GS_NAME_TENSOR_CORE, "fmha_cutlassF_bf16_aligned_64x64_rf_sm80"), 1);
    CHECK_INT(judge(GS_NAME_TENSOR_CORE, "nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_TNT"), 1);
    /* AMD: Tensile/hipBLASLt GEMMs with an MFMA instruction, AOTriton's attention; bf16 in */
    static const char tensile_bf16[] =
        "Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT256x128x64_MI16x16x1_SN_LDSB1_AFC1";
    CHECK_INT(judge(GS_NAME_TENSOR_CORE, tensile_bf16), 1);
    CHECK_INT(judge(GS_NAME_LOW_PRECISION, tensile_bf16), 1);
    CHECK_INT(judge(GS_NAME_TENSOR_CORE, "Cijk_Ailk_Bljk_BBS_BH_Bias_HAS_SAV_MT64x64x64_MI32x32x8x1_SN"), 1);
    CHECK_INT(judge(GS_NAME_LOW_PRECISION, "Cijk_Ailk_Bljk_BBS_BH_Bias_HAS_SAV_MT64x64x64_MI32x32x8x1"), 1);
    CHECK_INT(judge(GS_NAME_LOW_PRECISION, "Cijk_Ailk_Bljk_SB_Bias_AS_SAV_UserArgs_MT16x16x128"), 0);
    CHECK_INT(judge(GS_NAME_TENSOR_CORE, "Cijk_Ailk_Bljk_SB_Bias_AS_SAV_UserArgs_MT16x16x128_MIAV0"), 0);
    CHECK_INT(judge(GS_NAME_TENSOR_CORE, "attn_fwd"), 1);
    CHECK_INT(judge(GS_NAME_TENSOR_CORE, "bwd_kernel_dk_dv"), 1);
    CHECK_INT(judge(GS_NAME_TENSOR_CORE, "attn_fwd_helper"), 0);
    CHECK_INT(judge(GS_NAME_TENSOR_CORE_PLUGIN, "nvjet_sm90_tst_192x128_64x5_1x2_h_bz_coopB_TNT"),
              0);
    CHECK_INT(judge(GS_NAME_TENSOR_CORE, "volta_sgemm_128x64_nn"), 0);
    CHECK_INT(judge(GS_NAME_TENSOR_CORE_PLUGIN, "volta_h884gemm_64x128_ldg8_nn"), 1);

    /* precision, case ignored */
    CHECK_INT(judge(GS_NAME_LOW_PRECISION,
                    "void at::native::vectorized_elementwise_kernel<4, c10::BFloat16>"),
              1);
    CHECK_INT(judge(GS_NAME_LOW_PRECISION, "ampere_fp16_s16816gemm_fp16_128x128"), 1);
    CHECK_INT(judge(GS_NAME_LOW_PRECISION, "volta_sgemm_128x64_nn"), 0);

    CHECK_INT(judge(GS_NAME_CONV_KERNEL, "cudnn::implicit_convolve_sgemm<float>"), 1);
    CHECK_INT(judge(GS_NAME_CONV_KERNEL, "sm80_xmma_fprop_implicit_gemm_f16f16"), 1);
    CHECK_INT(judge(GS_NAME_CONV_KERNEL, "volta_sgemm_128x64_nn"), 0);

    CHECK_INT(judge(GS_NAME_BACKWARD_KERNEL, "flash_bwd_dq_dk_dv_loop_kernel"), 1);
    CHECK_INT(judge(GS_NAME_BACKWARD_KERNEL, "sm80_xmma_dgrad_implicit_gemm"), 1);
    CHECK_INT(judge(GS_NAME_BACKWARD_KERNEL, "flash_fwd_kernel"), 0);

    CHECK_INT(judge(GS_NAME_OPTIMIZER_KERNEL,
                    "multi_tensor_apply_kernel<FusedAdamMathFunctor<float>>"),
              1);
    CHECK_INT(judge(GS_NAME_OPTIMIZER_KERNEL, "volta_sgemm_128x64_nn"), 0);

    /* the collective a kernel runs: ReduceScatter before Reduce; its name, not its parameters */
    CHECK_INT(judge(GS_NAME_KERNEL_COLLECTIVE, "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL"),
              GS_COLL_REDUCE_SCATTER);
    CHECK_INT(judge(GS_NAME_KERNEL_COLLECTIVE, "ncclDevKernel_Reduce_Sum_f32_RING_LL"),
              GS_COLL_REDUCE);
    CHECK_INT(judge(GS_NAME_KERNEL_COLLECTIVE, "ncclKernel_AllReduce_RING_LL_Sum_float"),
              GS_COLL_ALL_REDUCE);
    CHECK_INT(judge(GS_NAME_KERNEL_COLLECTIVE, "ncclDevKernel_SendRecv"), GS_COLL_SEND_RECV);
    CHECK_INT(judge(GS_NAME_KERNEL_COLLECTIVE, "ncclDevKernel_AlltoAll_RING"),
              GS_COLL_ALL_TO_ALL);
    CHECK_INT(judge(GS_NAME_KERNEL_COLLECTIVE, "ncclDevKernel_Generic(ReduceArgs*)"),
              GS_COLL_OTHER);
}

static void test_range_groups(void)
{
    CHECK_INT(judge(GS_NAME_DATALOADER,
                    "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"),
              1);
    CHECK_INT(judge(GS_NAME_DATALOADER, "enumerate(DataLoader)#_SingleProcessDataLoaderIter"), 0);
    CHECK_INT(judge(GS_NAME_DATALOADER, "enumerate(DataPipe)#ShardingFilterIterDataPipe"), 1);
    CHECK_INT(judge(GS_NAME_DATALOADER, "DataLoader"), 0);

    CHECK_INT(judge(GS_NAME_BACKWARD_OP, "MmBackward0"), 1);
    CHECK_INT(judge(GS_NAME_BACKWARD_OP, "autograd::engine::evaluate_function: MmBackward0"), 1);
    CHECK_INT(judge(GS_NAME_BACKWARD_OP, "aten::mm"), 0);

    CHECK_INT(judge(GS_NAME_OPTIMIZER_OP, "Optimizer.step#AdamW.step"), 1);
    CHECK_INT(judge(GS_NAME_OPTIMIZER_OP, "Optimizer.zero_grad#AdamW.zero_grad"), 1);
    CHECK_INT(judge(GS_NAME_OPTIMIZER_OP, "aten::add_"), 0);

    /* backward work by word: autograd's nodes, ATen's *_backward operators, AccumulateGrad */
    CHECK_INT(judge(GS_NAME_BACKWARD_OP, "aten::convolution_backward"), 1);
    CHECK_INT(judge(GS_NAME_BACKWARD_OP, "aten::native_layer_norm_backward"), 1);
    CHECK_INT(judge(GS_NAME_BACKWARD_OP, "torch::autograd::AccumulateGrad"), 1);
    CHECK_INT(judge(GS_NAME_BACKWARD_OP, "CompiledFunctionBackward"), 1);
    CHECK_INT(judge(GS_NAME_BACKWARD_OP, "aten::_flash_attention_forward"), 0);
    /* the optimizer by its step, never a name that merely holds "optimizer" (an inference
     * program's own ranges: a KV-cache or graph optimizer) */
    CHECK_INT(judge(GS_NAME_OPTIMIZER_OP, "aten::_fused_adamw_"), 1);
    CHECK_INT(judge(GS_NAME_OPTIMIZER_OP, "aten::_fused_sgd_"), 1);
    CHECK_INT(judge(GS_NAME_OPTIMIZER_OP, "kv_cache_optimizer.prepare"), 0);
    CHECK_INT(judge(GS_NAME_OPTIMIZER_OP, "TensorRT graph optimizer"), 0);

    /* decoding: SGLang's step annotation, vLLM's and FlashAttention's and FlashInfer's decode
     * kernels; a decoder layer is no decode step */
    CHECK_INT(judge(GS_NAME_DECODE_RANGE, "step[DECODE bs=32]"), 1);
    CHECK_INT(judge(GS_NAME_DECODE_RANGE, "decode_step"), 1);
    CHECK_INT(judge(GS_NAME_DECODE_RANGE, "nn.Module: Qwen2DecoderLayer_9"), 0);
    CHECK_INT(judge(GS_NAME_DECODE_RANGE, "step[EXTEND bs=4]"), 0);
    CHECK_INT(judge(GS_NAME_DECODE_KERNEL,
                    "void vllm::paged_attention_v1_kernel<__nv_bfloat16, __nv_bfloat16, 128, 16, "
                    "128, (vllm::Fp8KVCacheDataType)0, false>(...)"),
              1);
    CHECK_INT(judge(GS_NAME_DECODE_KERNEL,
                    "void paged_attention_ll4mi_reduce_kernel<__hip_bfloat16, __hip_bfloat16, "
                    "128, 128, 256, 3, false>(...)"),
              1);
    CHECK_INT(judge(GS_NAME_DECODE_KERNEL,
                    "void flash::flash_fwd_splitkv_kernel<Flash_fwd_kernel_traits<128, 64, 128, "
                    "4, false, false, cutlass::bfloat16_t>, false, false>(Flash_fwd_params)"),
              1);
    CHECK_INT(judge(GS_NAME_DECODE_KERNEL,
                    "void flashinfer::BatchDecodeWithPagedKVCacheKernel<...>(...)"),
              1);
    CHECK_INT(judge(GS_NAME_DECODE_KERNEL,
                    "void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, "
                    "false, cutlass::bfloat16_t>, false>(Flash_fwd_params)"),
              0);
    CHECK_INT(judge(GS_NAME_DECODE_KERNEL, "kernel_unified_attention_2d"), 0);
    /* vLLM's Triton attention splits the KV cache into segments (its 3d kernel) only for a batch
     * of one query token per sequence; TensorRT-LLM's generated FMHA kernels for the generation
     * phase end in ForGen, the context phase's in Context */
    CHECK_INT(judge(GS_NAME_DECODE_KERNEL, "kernel_unified_attention_3d"), 1);
    CHECK_INT(judge(GS_NAME_DECODE_KERNEL,
                    "fmhaSm100aKernel_QkvE4m3OBfloat16H64PagedKvDenseP16VarSeqQ8Kv128"
                    "PersistentSwapsAbForGen"),
              1);
    CHECK_INT(judge(GS_NAME_DECODE_KERNEL,
                    "fmhaSm100aKernel_QkvE4m3OBfloat16H64PagedKvCausalP16VarSeqQ128Kv128"
                    "PersistentContext"),
              0);
    CHECK_INT(judge(GS_NAME_DECODE_KERNEL, "transposeForGenericShapes"), 0);

    /* Tensor-Core eligible operators: the plugin's list lacks the backward nodes' new names */
    CHECK_INT(judge(GS_NAME_TC_ELIGIBLE, "MmBackward0"), 1);
    CHECK_INT(judge(GS_NAME_TC_ELIGIBLE_PLUGIN, "MmBackward0"), 0);
    CHECK_INT(judge(GS_NAME_TC_ELIGIBLE, "aten::addmm"), 1);
    CHECK_INT(judge(GS_NAME_TC_ELIGIBLE_PLUGIN, "aten::addmm"), 1);
    CHECK_INT(judge(GS_NAME_TC_ELIGIBLE, "aten::add"), 0);

    /* collective calls: every nccl:*, the plugin's five names only */
    CHECK_INT(judge(GS_NAME_COMM_OP, "nccl:_all_gather_base"), 1);
    CHECK_INT(judge(GS_NAME_COMM_OP_PLUGIN, "nccl:_all_gather_base"), 0);
    CHECK_INT(judge(GS_NAME_COMM_OP, "gloo:broadcast"), 1);
    CHECK_INT(judge(GS_NAME_COMM_OP_PLUGIN, "nccl:all_reduce"), 1);
    CHECK_INT(judge(GS_NAME_COMM_OP, "c10d::allreduce_"), 0);

    CHECK_INT(judge(GS_NAME_OP_COLLECTIVE, "c10d::allreduce_"), GS_COLL_ALL_REDUCE);
    CHECK_INT(judge(GS_NAME_OP_COLLECTIVE, "nccl:all_to_all"), GS_COLL_ALL_TO_ALL);
    CHECK_INT(judge(GS_NAME_OP_COLLECTIVE, "nccl:_reduce_scatter_base"), GS_COLL_REDUCE_SCATTER);
    CHECK_INT(judge(GS_NAME_OP_COLLECTIVE, "nccl:all_gather"), GS_COLL_ALL_GATHER);
    CHECK_INT(judge(GS_NAME_OP_COLLECTIVE, "aten::mm"), GS_COLL_OTHER);

    CHECK_INT(judge(GS_NAME_FLOP_KIND, "aten::addmm"), GS_FLOP_GEMM);
    CHECK_INT(judge(GS_NAME_FLOP_KIND, "aten::convolution"), GS_FLOP_CONV);
    CHECK_INT(judge(GS_NAME_FLOP_KIND, "aten::scaled_dot_product_attention"), GS_FLOP_ATTENTION);
    CHECK_INT(judge(GS_NAME_FLOP_KIND, "aten::relu"), GS_FLOP_NONE);

    CHECK_INT(judge(GS_NAME_PROFILER_STEP, "ProfilerStep#12"), 1);
    CHECK_INT(judge(GS_NAME_PROFILER_STEP, "ProfilerStep#"), 0);
    CHECK_INT(judge(GS_NAME_PROFILER_STEP, "ProfilerStep#1a"), 0);
    CHECK_INT(judge(GS_NAME_PROFILER_STEP, "ProfilerStep1"), 0);

    CHECK_INT(judge(GS_NAME_SYNC_OP, "aten::item"), 1);
    CHECK_INT(judge(GS_NAME_SYNC_OP, "aten::_local_scalar_dense"), 1);
    CHECK_INT(judge(GS_NAME_SYNC_OP, "aten::items"), 0);
}

static void test_api_and_argument_groups(void)
{
    /* blocking calls with CUPTI's version suffix; cudaMemcpy is not cudaMemcpyAsync */
    CHECK_INT(judge(GS_NAME_SYNC_CALL, "cudaMemcpy_v3020"), GS_SYNC_MEMCPY + 1);
    CHECK_INT(judge(GS_NAME_SYNC_CALL, "cudaMemcpy"), GS_SYNC_MEMCPY + 1);
    CHECK_INT(judge(GS_NAME_SYNC_CALL, "cudaMemcpyAsync"), GS_SYNC_ASYNC_COPY + 1);
    CHECK_INT(judge(GS_NAME_SYNC_CALL, "cudaMemcpyAsync_v3020"), GS_SYNC_ASYNC_COPY + 1);
    CHECK_INT(judge(GS_NAME_SYNC_CALL, "cudaStreamSynchronize"), GS_SYNC_STREAM + 1);
    CHECK_INT(judge(GS_NAME_SYNC_CALL, "cuCtxSynchronize"), GS_SYNC_DEVICE + 1);
    CHECK_INT(judge(GS_NAME_SYNC_CALL, "cudaStreamWaitEvent"), GS_SYNC_WAIT_EVENT + 1);
    CHECK_INT(judge(GS_NAME_SYNC_CALL, "cudaStreamSynchronizeX"), 0);
    CHECK_INT(judge(GS_NAME_SYNC_CALL, "cudaLaunchKernel"), 0);

    /* what a call does: cuCtxSynchronize waits, it does not create a context */
    CHECK_INT(judge(GS_NAME_CALL_CLASS, "cuCtxSynchronize"), GS_STARTUP_SYNC);
    CHECK_INT(judge(GS_NAME_CALL_CLASS, "cuCtxCreate_v2"), GS_STARTUP_CONTEXT);
    CHECK_INT(judge(GS_NAME_CALL_CLASS, "cuModuleLoadData"), GS_STARTUP_MODULES);
    CHECK_INT(judge(GS_NAME_CALL_CLASS, "cudaMalloc"), GS_STARTUP_MEMORY);
    CHECK_INT(judge(GS_NAME_CALL_CLASS, "cudaMemcpyAsync"), GS_STARTUP_COPIES);
    CHECK_INT(judge(GS_NAME_CALL_CLASS, "cudaLaunchKernel"), GS_STARTUP_LAUNCHES);
    CHECK_INT(judge(GS_NAME_CALL_CLASS, "cudaGetDeviceCount"), GS_STARTUP_OTHER);

    /* PyTorch's "Collective name" argument, read without '_' and case */
    CHECK_INT(judge(GS_NAME_ARG_COLLECTIVE, "_allgather_base"), GS_COLL_ALL_GATHER);
    CHECK_INT(judge(GS_NAME_ARG_COLLECTIVE, "reduce_scatter_tensor_coalesced"),
              GS_COLL_REDUCE_SCATTER);
    CHECK_INT(judge(GS_NAME_ARG_COLLECTIVE, "reduce"), GS_COLL_REDUCE);
    CHECK_INT(judge(GS_NAME_ARG_COLLECTIVE, "recvAnySource"), GS_COLL_SEND_RECV);
    CHECK_INT(judge(GS_NAME_ARG_COLLECTIVE, "wait"), GS_COLL_ARG_IGNORED);
    CHECK_INT(judge(GS_NAME_ARG_COLLECTIVE, "barrier"), GS_COLL_OTHER);
}

/* A trace's names judged by the role each has in it: "MmBackward0" is a kernel and an operator
 * (both roles' groups), "AddmmBackward0" an operator only (no kernel group), the format's name
 * nothing at all. */
static void test_classify_trace(void)
{
    gs_trace *t = tb_new("roles.json", 0);
    tb_range(t, GS_RANGE_ANNOTATION, "ProfilerStep#3", 0, 1000, NULL);
    tb_range(t, GS_RANGE_OP, "MmBackward0", 10, 100, NULL);
    tb_range(t, GS_RANGE_OP, "AddmmBackward0", 110, 200, NULL);
    tb_range(t, GS_RANGE_OP, "nccl:all_reduce", 210, 300, NULL);
    tb_api(t, "cudaStreamSynchronize", 310, 320, 0);
    tb_api(t, "cudaLaunchKernel", 20, 30, 1);
    tb_kernel(t, "MmBackward0", 40, 60, 1);
    tb_kernel(t, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 220, 280, 2);
    gs_coll_args *a = GS_VEC_PUSH(&t->coll_args);
    *a = (gs_coll_args){.on = GS_COLL_ARGS_ON_KERNEL, .correlation = 2,
                        .collective = tb_str(t, "allreduce"), .in_nelems = 1, .out_nelems = 1,
                        .group_size = 2};
    gs_error err;
    CHECK_INT(gs_trace_index(t, &err), 0);
    gs_names names;
    CHECK_INT(gs_names_classify(t, &names, &err), 0);
    CHECK_INT(names.n, t->strings.n);
    const gs_str mm_bwd = tb_str(t, "MmBackward0"), addmm_bwd = tb_str(t, "AddmmBackward0");
    const gs_str nccl = tb_str(t, "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    CHECK_INT(gs_names_get(&names, mm_bwd, GS_NAME_BACKWARD_KERNEL), 1);
    CHECK_INT(gs_names_get(&names, mm_bwd, GS_NAME_BACKWARD_OP), 1);
    CHECK_INT(gs_names_get(&names, mm_bwd, GS_NAME_TC_ELIGIBLE), 1);
    CHECK_INT(gs_names_get(&names, addmm_bwd, GS_NAME_BACKWARD_OP), 1);
    CHECK_INT(gs_names_get(&names, addmm_bwd, GS_NAME_BACKWARD_KERNEL), 0); /* not a kernel */
    CHECK_INT(gs_names_get(&names, nccl, GS_NAME_COMM_KERNEL), 1);
    CHECK_INT(gs_names_get(&names, nccl, GS_NAME_KERNEL_COLLECTIVE), GS_COLL_ALL_REDUCE);
    CHECK_INT(gs_names_get(&names, nccl, GS_NAME_HTA_CLASS), GS_KCLASS_COMMUNICATION);
    CHECK_INT(gs_names_get(&names, tb_str(t, "nccl:all_reduce"), GS_NAME_COMM_OP), 1);
    CHECK_INT(gs_names_get(&names, tb_str(t, "nccl:all_reduce"), GS_NAME_OP_COLLECTIVE),
              GS_COLL_ALL_REDUCE);
    CHECK_INT(gs_names_get(&names, tb_str(t, "ProfilerStep#3"), GS_NAME_PROFILER_STEP), 1);
    CHECK_INT(gs_names_get(&names, tb_str(t, "cudaStreamSynchronize"), GS_NAME_SYNC_CALL),
              GS_SYNC_STREAM + 1);
    CHECK_INT(gs_names_get(&names, tb_str(t, "cudaStreamSynchronize"), GS_NAME_CALL_CLASS),
              GS_STARTUP_SYNC);
    CHECK_INT(gs_names_get(&names, tb_str(t, "cudaLaunchKernel"), GS_NAME_CALL_CLASS),
              GS_STARTUP_LAUNCHES);
    CHECK_INT(gs_names_get(&names, tb_str(t, "allreduce"), GS_NAME_ARG_COLLECTIVE),
              GS_COLL_ALL_REDUCE);
    /* "kineto" names no event: every group reads as its default, never as another answer */
    CHECK_INT(gs_names_get(&names, t->format, GS_NAME_KERNEL_COLLECTIVE), GS_COLL_OTHER);
    CHECK_INT(gs_names_get(&names, t->format, GS_NAME_OP_COLLECTIVE), GS_COLL_OTHER);
    CHECK_INT(gs_names_get(&names, t->format, GS_NAME_ARG_COLLECTIVE), GS_COLL_OTHER);
    CHECK_INT(gs_names_get(&names, t->format, GS_NAME_CALL_CLASS), GS_STARTUP_OTHER);
    CHECK_INT(gs_names_get(&names, t->format, GS_NAME_COMM_KERNEL), 0);
    CHECK_INT(gs_names_get(&names, t->format, GS_NAME_SYNC_CALL), 0);
    /* a range name read as a kernel: the kernel groups' defaults too */
    CHECK_INT(gs_names_get(&names, tb_str(t, "nccl:all_reduce"), GS_NAME_KERNEL_COLLECTIVE),
              GS_COLL_OTHER);

    /* a blocking call as the sync view and step detection read it */
    const gs_api *sync = NULL;
    for (size_t i = 0; i < t->apis.n; i++)
        if (t->apis.v[i].name == tb_str(t, "cudaStreamSynchronize"))
            sync = &t->apis.v[i];
    CHECK(sync != NULL);
    if (sync)
        CHECK_INT(gs_sync_call_kind(t, &names, sync), GS_SYNC_STREAM);

    /* the context holds the same answers */
    gs_trace_ctx c = tb_ctx(t, NULL);
    CHECK_INT(c.names.n, names.n);
    for (size_t id = 0; id < names.n && id < c.names.n; id++)
        CHECK(c.names.v[id] == names.v[id]);
    CHECK_INT(gs_ctx_name(&c, mm_bwd, GS_NAME_BACKWARD_KERNEL), 1);
    gs_trace_ctx_free(&c);
    gs_names_free(&names);
    CHECK(names.v == NULL && names.n == 0);
    gs_trace_delete(t);
}

/* One name and what a group must say of it. */
typedef struct name_case {
    enum gs_name_group group;
    const char *name;
    unsigned want;
} name_case;

/* Kernels of current libraries, each named as its source (doc/name_rules.md) defines it, and the
 * names a substring match misread. */
static const name_case modern_kernels[] = {
    /* CUTLASS 3 GEMMs (Sm90 GMMA, Sm100 UMMA, grouped), FlashAttention-3, TRT-LLM's FMHA, cuDNN's
     * SDPA, low-precision GEMMs in any case */
    {GS_NAME_TENSOR_CORE,
     "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cute::tuple<int, int, int, "
     "int>, cutlass::gemm::collective::CollectiveMma<cutlass::gemm::"
     "MainloopSm90TmaGmmaWarpSpecialized<4, cute::tuple<cute::C<2>, cute::C<1>, cute::C<1>>, "
     "cutlass::gemm::KernelTmaWarpSpecializedCooperative>, cutlass::bfloat16_t>>>(...)",
     1},
    {GS_NAME_TENSOR_CORE,
     "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<cutlass::gemm::"
     "GroupProblemShape<cute::tuple<int, int, int>>, cutlass::gemm::collective::CollectiveMma<"
     "cutlass::gemm::MainloopSm100ArrayTmaUmmaWarpSpecialized<3, 2, 2>>>>(...)",
     1},
    {GS_NAME_TENSOR_CORE,
     "void cutlass::device_kernel<flash::enable_sm90_or_later<flash::FlashAttnFwdSm90<flash::"
     "CollectiveMainloopFwdSm90<2, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1>>>>>>(...)",
     1},
    {GS_NAME_TENSOR_CORE,
     "void cutlass::device_kernel<flash::enable_sm80_to_sm89<flash::FlashAttnBwdSm80<flash::"
     "CollectiveMainloopBwdSm80<2, 2>>>>(...)",
     1},
    {GS_NAME_TENSOR_CORE,
     "void flash::compute_attn_ws<Flash_fwd_kernel_traits<128, 128, 176, 12, 2, false, 1, "
     "cutlass::half_t>, true, false>(flash::Flash_fwd_params)",
     1},
    {GS_NAME_TENSOR_CORE,
     "fmhaSm100aKernel_QkvE4m3OBfloat16H128PagedKvCausalP64VarSeqQ128Kv128PersistentSwapsAbForGen",
     1},
    {GS_NAME_TENSOR_CORE, "cudnn_generated_fort_native_sdpa_sm80_flash_fprop_f16_knob_3_64x64x64_"
                          "4x1x1_kernel0_0",
     1},
    {GS_NAME_TENSOR_CORE, "bmm_MxE2m1E4m3_Fp32_t128x8x256u2_s6_et64x8_m128x8x32_cga1x1x1_16dp256b_"
                          "TN_transOut_schedS_sm100a",
     1},
    {GS_NAME_TENSOR_CORE, "void deep_gemm::fp8_gemm_kernel<128u, 128u, 128u>(float*, ...)", 1},
    {GS_NAME_TENSOR_CORE, "nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NNT", 1},
    /* the FlashAttention-3 backward's pre- and post-processing copy, they multiply nothing; an fp8
     * cast or scale is no matrix product */
    {GS_NAME_TENSOR_CORE,
     "void cutlass::device_kernel<flash::FlashAttnBwdPostprocessConvertdQ<cute::tuple<cute::C<64>, "
     "cute::C<128>>, 3, cutlass::bfloat16_t, cute::SM90_64x128x16_F32BF16BF16_SS<1, 1>>>(...)",
     0},
    {GS_NAME_TENSOR_CORE,
     "void flash::FlashAttnBwdPreprocess<cute::tuple<cute::C<128>, cute::C<128>>>(...)", 0},
    {GS_NAME_TENSOR_CORE,
     "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
     "direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::operator()() const::{lambda()"
     "#14}::operator()() const::{lambda(float)#1}, std::array<char*, 2ul>>(int, c10::Float8_e4m3fn)",
     0},
    {GS_NAME_TENSOR_CORE, "void vllm::scaled_fp8_quant_kernel<c10::BFloat16, c10::Float8_e4m3fn>"
                          "(c10::Float8_e4m3fn*, c10::BFloat16 const*, float const*, long)",
     0},
    {GS_NAME_TENSOR_CORE, "void fbgemm_gpu::(anonymous namespace)::_compute_FP8_quantize_cuda_"
                          "kernel<float>(float const*, float const*, int, int, unsigned char*, bool)",
     0},
    /* low precision in any case: cuBLASLt/TRT-LLM's E4m3, MX and NV fp4 */
    {GS_NAME_LOW_PRECISION, "bmm_MxE2m1MxE2m1_Fp32_t128x256x256_s3_sm100a", 1},
    {GS_NAME_LOW_PRECISION, "void cutlass::device_kernel<...cutlass::float_e5m2_t...>(...)", 1},
    {GS_NAME_LOW_PRECISION, "void tensorrt_llm::kernels::quantize_with_block_size<nvfp4>(...)", 1},
    {GS_NAME_LOW_PRECISION, "void vllm::cvt_fp16_to_fp4<__nv_bfloat16>(int, int, ...)", 1},
    {GS_NAME_LOW_PRECISION, "void marlin::Marlin<mxfp4_t>(...)", 1},

    /* communication beyond NCCL: RCCL's generic kernel, NVSHMEM's on-stream collectives, DeepEP,
     * PyTorch's symmetric memory, vLLM's and TRT-LLM's custom all-reduce, MSCCL++ */
    {GS_NAME_COMM_KERNEL, "ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)", 1},
    {GS_NAME_COMM_KERNEL, "barrier_on_stream_kernel(int, int, int, long*, long*)", 1},
    {GS_NAME_COMM_KERNEL, "alltoall_float_on_stream_kernel(int, float*, float const*, unsigned long)",
     1},
    {GS_NAME_COMM_KERNEL, "void nvshmemi_int_wait_until_on_stream_kernel(int volatile*, int, int)",
     1},
    {GS_NAME_COMM_KERNEL, "void deep_ep::intranode::notify_dispatch<8>(int const*, int*, ...)", 1},
    {GS_NAME_COMM_KERNEL, "void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, ...)", 1},
    {GS_NAME_COMM_KERNEL, "void deep_ep::intranode::cached_notify_combine<8>(void**, int*, ...)", 1},
    {GS_NAME_COMM_KERNEL, "void deep_ep::internode::cached_notify<false>(int, int, int, ...)", 1},
    {GS_NAME_COMM_KERNEL, "void deep_ep::internode::combine<true, 2, 4, 8192>(int4*, ...)", 1},
    {GS_NAME_COMM_KERNEL, "void deep_ep::internode_ll::dispatch<false, 3, 7168>(void*, ...)", 1},
    {GS_NAME_COMM_KERNEL, "void deep_ep::layout::get_dispatch_layout<256, 32, 8>(long const*, ...)",
     0},
    {GS_NAME_COMM_KERNEL, "void c10d::symmetric_memory::multimem_all_reduce_kernel<float, "
                          "(c10d::symmetric_memory::AllReduceAlgo)0>(float*, unsigned long, ...)",
     1},
    {GS_NAME_COMM_KERNEL, "void (anonymous namespace)::one_shot_all_reduce_kernel<float, 8>(...)", 1},
    {GS_NAME_COMM_KERNEL, "void (anonymous namespace)::two_shot_all_reduce_kernel<c10::BFloat16, "
                          "8>(...)",
     1},
    {GS_NAME_COMM_KERNEL, "void vllm::cross_device_reduce_1stage<float, 8>(vllm::RankData*, ...)", 1},
    {GS_NAME_COMM_KERNEL, "void vllm::cross_device_reduce_2stage<__nv_bfloat16, 4>(...)", 1},
    {GS_NAME_COMM_KERNEL, "void tensorrt_llm::kernels::oneShotAllReduceKernel<half, 8, true, "
                          "false>(tensorrt_llm::kernels::AllReduceParams)",
     1},
    {GS_NAME_COMM_KERNEL, "void mscclpp::executionKernel<float, mscclpp::LL16Packet>(int, ...)", 1},
    {GS_NAME_KERNEL_COLLECTIVE, "void deep_ep::internode::dispatch<false, 4, 8>(int4*, ...)",
     GS_COLL_ALL_TO_ALL},
    {GS_NAME_KERNEL_COLLECTIVE, "void vllm::cross_device_reduce_1stage<float, 8>(...)",
     GS_COLL_ALL_REDUCE},
    {GS_NAME_KERNEL_COLLECTIVE, "void (anonymous namespace)::two_shot_all_reduce_kernel<float, 8>"
                                "(...)",
     GS_COLL_ALL_REDUCE},
    {GS_NAME_KERNEL_COLLECTIVE, "alltoall_float_on_stream_kernel(int, float*, float const*, "
                                "unsigned long)",
     GS_COLL_ALL_TO_ALL},

    /* convolution by word, not by letters: ConvertdQ and convert are no convolution */
    {GS_NAME_CONV_KERNEL, "void cudnn::cnn::conv2d_grouped_direct_kernel<false, true, float>(...)",
     1},
    {GS_NAME_CONV_KERNEL, "void at::native::conv_depthwise2d_forward_kernel<3, float, int>(...)", 1},
    {GS_NAME_CONV_KERNEL, "void cutlass::Kernel<cutlass_tensorop_h16816fprop_optimized_256x128_32x3>"
                          "(...)",
     1},
    {GS_NAME_CONV_KERNEL,
     "void cutlass::device_kernel<cutlass::conv::kernel::ConvUniversal<...Sm90...>>(...)", 1},
    {GS_NAME_CONV_KERNEL, "void cudnn::detail::implicit_convolve_sgemm<float, float, 128, 5, 5>(...)",
     1},
    {GS_NAME_CONV_KERNEL,
     "void cutlass::device_kernel<flash::FlashAttnBwdPostprocessConvertdQ<cute::tuple<cute::C<64>, "
     "cute::C<128>>, 3, cutlass::bfloat16_t>>(...)",
     0},
    {GS_NAME_CONV_KERNEL, "void vllm::convert_fp8<unsigned char, c10::BFloat16>(...)", 0},
    {GS_NAME_CONV_KERNEL, "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_"
                          "64x128x64_4x1x1_kernel0_0",
     0},

    /* the LAMB optimizer by word: PyTorch's lambdas are no optimizer */
    {GS_NAME_OPTIMIZER_KERNEL,
     "void multi_tensor_apply_kernel<TensorListMetadata<4>, LAMBStage1Functor<float>, float>(...)",
     1},
    {GS_NAME_OPTIMIZER_KERNEL, "void multi_tensor_lamb_stage2_cuda_kernel(float*, ...)", 1},
    {GS_NAME_OPTIMIZER_KERNEL,
     "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::"
     "launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::"
     "ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda("
     "float)#1}, std::array<char*, 2ul>>(int, ...)",
     0},
    {GS_NAME_OPTIMIZER_KERNEL, "lambda", 0},
};

static void test_modern_kernels(void)
{
    for (size_t i = 0; i < COUNT_OF(modern_kernels); i++) {
        const name_case *nc = &modern_kernels[i];
        unsigned got = gs_name_judge(nc->group, nc->name);
        if (got != nc->want)
            fprintf(stderr, "group %d of %s: %u, want %u\n", (int)nc->group, nc->name, got,
                    nc->want);
        CHECK_INT(got, nc->want);
    }
    /* PyTorch < 1.11 recorded the convolution's backward as two operators */
    CHECK_INT(gs_name_judge(GS_NAME_FLOP_KIND, "aten::cudnn_convolution_backward_input"),
              GS_FLOP_CONV);
    CHECK_INT(gs_name_judge(GS_NAME_FLOP_KIND, "aten::cudnn_convolution_backward_weight"),
              GS_FLOP_CONV);
    CHECK_INT(read_group(gs_name_judge_role(GS_ROLE_RANGE, "aten::cudnn_convolution_backward_input"),
                         GS_NAME_FLOP_KIND),
              GS_FLOP_CONV);
    CHECK_INT(gs_name_judge(GS_NAME_FLOP_KIND, "aten::addmm"), GS_FLOP_GEMM);
}

int main(void)
{
    test_layout();
    test_packed_equals_single();
    test_gpu_groups();
    test_modern_kernels();
    test_range_groups();
    test_api_and_argument_groups();
    test_classify_trace();
    return check_done("test_name_rules");
}
