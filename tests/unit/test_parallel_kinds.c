/* The kinds of parallelism a trace shows (analysis/trace/trace_facts.h), as a set, on traces built
 * by hand: DDP's annotation and all-to-alls run by NCCL's SendRecv kernel (data + expert), the
 * same with fbgemm's embedding kernels (data + embedding tables), FSDP's ranges, all-reduces in a
 * training step's forward (tensor), a pipeline's sends; and the communication advice each set
 * gets (doc/diagnosis.md, "What the advice is conditioned on"). */
#include <string.h>

#include "analysis/diagnosis/diagnose.h"
#include "analysis/trace/trace_facts.h"
#include "check.h"
#include "trace_builder.h"

#define US 1000
#define MS 1000000LL

/* One collective at `at`: the operator, its annotation, the launch and the kernel. */
static void collective(gs_trace *t, gs_ns at, const char *op, const char *annotation,
                       const char *kernel, uint64_t corr)
{
    tb_range(t, GS_RANGE_OP, op, at, at + 50 * US, NULL);
    tb_range(t, GS_RANGE_ANNOTATION, annotation, at + 1 * US, at + 40 * US, NULL);
    tb_api(t, "cudaLaunchKernel", at + 2 * US, at + 3 * US, corr);
    tb_kernel(t, kernel, at + 10 * US, at + 20 * US, corr);
}

static void compute(gs_trace *t, gs_ns at, const char *op, const char *kernel, uint64_t corr)
{
    tb_range(t, GS_RANGE_OP, op, at, at + 50 * US, NULL);
    tb_api(t, "cudaLaunchKernel", at + 2 * US, at + 3 * US, corr);
    tb_kernel(t, kernel, at + 10 * US, at + 40 * US, corr);
}

static const char *const SENDRECV = "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)";
static const char *const ALLREDUCE = "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)";

enum shape { MOE_DDP, EMBEDDING_DDP, FSDP, TENSOR_TRAINING, PIPELINE };

/* A training step of each shape: a forward (in DDP's or FSDP's range where it has one), a backward
 * operator, the collectives. */
static gs_trace *step_of(enum shape s)
{
    gs_trace *t = tb_new("par.json", 0);
    uint64_t corr = 1;
    const char *wrapper = s == FSDP ? "FullyShardedDataParallel.forward"
                                    : "DistributedDataParallel.forward";
    if (s != TENSOR_TRAINING && s != PIPELINE)
        tb_range(t, GS_RANGE_ANNOTATION, wrapper, 0, 900 * US, NULL);
    compute(t, 100 * US, "aten::mm", "ampere_sgemm_128x64_nn", corr++);
    if (s == EMBEDDING_DDP)
        compute(t, 200 * US, "fbgemm::split_embedding_codegen_lookup_rowwise_adagrad_function",
                "split_embedding_codegen_forward_unweighted_kernel", corr++);
    if (s == MOE_DDP || s == EMBEDDING_DDP)
        for (int i = 0; i < 3; i++)
            collective(t, (300 + 100 * i) * US, "c10d::alltoall_base_", "nccl:all_to_all",
                       SENDRECV, corr++);
    if (s == FSDP) {
        collective(t, 300 * US, "c10d::_allgather_base_", "nccl:_all_gather_base",
                   "ncclDevKernel_AllGather_RING_LL", corr++);
        collective(t, 400 * US, "c10d::_reduce_scatter_base_", "nccl:_reduce_scatter_base",
                   "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL", corr++);
    }
    if (s == TENSOR_TRAINING) /* row-parallel linears all-reduce in the forward */
        for (int i = 0; i < 4; i++)
            collective(t, (300 + 100 * i) * US, "c10d::allreduce_", "nccl:all_reduce", ALLREDUCE,
                       corr++);
    if (s == PIPELINE)
        collective(t, 300 * US, "c10d::send", "nccl:send", SENDRECV, corr++);
    tb_range(t, GS_RANGE_OP, "autograd::engine::evaluate_function: MmBackward0", 1000 * US,
             1400 * US, NULL);
    tb_api(t, "cudaLaunchKernel", 1002 * US, 1003 * US, corr);
    tb_kernel(t, "ampere_sgemm_128x64_nt", 1010 * US, 1050 * US, corr++);
    if (s == MOE_DDP || s == TENSOR_TRAINING) { /* DDP's (or the TP backward's) all-reduce */
        tb_range(t, GS_RANGE_OP, "c10d::allreduce_", 1100 * US, 1150 * US, NULL);
        tb_api(t, "cudaLaunchKernel", 1102 * US, 1103 * US, corr);
        tb_kernel(t, ALLREDUCE, 1110 * US, 1120 * US, corr++);
    }
    return t;
}

static gs_trace_facts facts_of(enum shape s)
{
    gs_trace *t = step_of(s);
    gs_profile p = {0};
    tb_add(&p, t);
    gs_trace_ctx c = tb_ctx(t, NULL);
    gs_trace_facts f;
    gs_error err;
    CHECK_INT(gs_trace_facts_build(&c, &f, &err), 0);
    gs_trace_ctx_free(&c);
    gs_profile_free(&p);
    return f;
}

#define KIND(k) (1u << (k))

static void test_kinds(void)
{
    static const struct {
        enum shape s;
        unsigned want;
        const char *name;
    } cases[] = {
        {MOE_DDP, KIND(GS_PAR_DATA) | KIND(GS_PAR_EXPERT),
         "data parallel (DDP) + expert parallel (all-to-all)"},
        {EMBEDDING_DDP, KIND(GS_PAR_DATA) | KIND(GS_PAR_EMBEDDING),
         "data parallel (DDP) + sharded embedding tables (all-to-all)"},
        {FSDP, KIND(GS_PAR_SHARDED), "sharded data parallel (FSDP, ZeRO)"},
        {TENSOR_TRAINING, KIND(GS_PAR_DATA) | KIND(GS_PAR_TENSOR),
         "data parallel (DDP) + tensor parallel (collectives in the forward)"},
        {PIPELINE, KIND(GS_PAR_PIPELINE), "pipeline parallel (send/recv)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gs_trace_facts f = facts_of(cases[i].s);
        char name[GS_PAR_NAMES_MAX];
        CHECK_INT(f.workload, GS_WORKLOAD_TRAINING);
        CHECK_INT(f.parallel_kinds, cases[i].want);
        CHECK_STR(gs_parallel_kinds_name(f.parallel_kinds, f.collectives, name, sizeof name),
                  cases[i].name);
    }
    gs_trace_facts moe = facts_of(MOE_DDP);
    CHECK_INT(moe.all_to_alls, 3);
    CHECK_INT(moe.send_recvs, 0);
    CHECK_INT(moe.all_reduces, 1);
    CHECK_INT(moe.forward_all_reduces, 0); /* DDP's is launched after the backward began */
    CHECK_INT(moe.ddp_ranges, 1);
    CHECK_INT(facts_of(TENSOR_TRAINING).forward_all_reduces, 4);
    char name[GS_PAR_NAMES_MAX];
    CHECK_STR(gs_parallel_kinds_name(0, 0, name, sizeof name), "none");
    CHECK_STR(gs_parallel_kinds_name(0, 5, name, sizeof name),
              "collectives of an unrecognized pattern");
}

static bool gives(const gs_finding *f, const char *needle)
{
    for (size_t a = 0; a < f->nactions; a++)
        if (strstr(f->actions[a].text, needle))
            return true;
    return false;
}

static bool leaves_out(const gs_finding *f, const char *needle, const char *why)
{
    for (size_t a = 0; a < f->nleft_out; a++)
        if (strstr(f->left_out[a].text, needle))
            return !why || strstr(f->left_out[a].why, why);
    return false;
}

/* The communication finding of a step with 30 % exposed communication and these facts. */
static const gs_finding *communication(const gs_trace_facts *f, gs_diagnosis *d)
{
    gs_diag_inputs in = {
        .steps = 10, .gpu_activities = 3000, .step_ns = 100 * MS, .kernel_ns = 80 * MS,
        .cpu_exec_ns = 5 * MS, .runtime_ns = 2 * MS, .other_ns = 1 * MS, .gpu_util = 0.80,
        .kernels_per_step = 300, .median_kernel_ns = 200000, .median_launch_ns = 5000,
        .short_kernel_share = 0.05, .mem_peak_share = 0.5, .mem_fragmentation = 1.1,
        .tensor_core_share = 0.8, .compute_major = 9, .comm_ns = 30 * MS, .facts = *f,
    };
    CHECK_INT(gs_diagnose(&in, d), 0);
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->findings[i].rule->id, "communication_bound"))
            return &d->findings[i];
    CHECK(!"no communication rule");
    return NULL;
}

static void test_advice(void)
{
    gs_diagnosis d;
    /* a mixture of experts under DDP: the experts' and DDP's advice, never the pipeline's */
    gs_trace_facts f = facts_of(MOE_DDP);
    const gs_finding *c = communication(&f, &d);
    if (c) {
        CHECK(gives(c, "expert-parallel all-to-all"));
        CHECK(gives(c, "DDP bucket_cap_mb"));
        CHECK(!gives(c, "interleaved schedule") &&
              leaves_out(c, "interleaved schedule",
                         "3 all-to-all), 1 DistributedDataParallel ranges"));
        CHECK(leaves_out(c, "embedding all-to-all", "expert parallel (all-to-all)"));
    }
    gs_diagnosis_free(&d);
    /* sharded embedding tables: the embedding exchange's advice */
    f = facts_of(EMBEDDING_DDP);
    c = communication(&f, &d);
    if (c) {
        CHECK(gives(c, "embedding all-to-all") && !gives(c, "expert-parallel"));
        CHECK(!gives(c, "interleaved schedule"));
    }
    gs_diagnosis_free(&d);
    /* a pipeline's sends keep the pipeline advice */
    f = facts_of(PIPELINE);
    c = communication(&f, &d);
    if (c) {
        CHECK(gives(c, "interleaved schedule") && !gives(c, "all-to-all:"));
        CHECK(leaves_out(c, "DDP bucket_cap_mb", "pipeline parallel (send/recv)"));
    }
    gs_diagnosis_free(&d);
}

int main(void)
{
    test_kinds();
    test_advice();
    return check_done("test_parallel_kinds");
}
