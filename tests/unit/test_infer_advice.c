/* Advice by workload (doc/diagnosis.md, "What the advice is conditioned on"): an inference trace
 * gets inference advice (batching requests, half precision without GradScaler, fp8 inference
 * quantization) and no training-only action; a decoding one gets CUDA graphs for the decode step
 * and a capped KV cache; a training trace keeps its training wording, and a summary that does
 * not record the workload gets that wording as before. */
#include <stdbool.h>
#include <string.h>

#include "analysis/diagnosis/diagnose.h"
#include "check.h"

#define MS 1000000LL

/* A step that fires compute_bound, host_bound, launch_bound and memory_capacity at once. */
static gs_diag_inputs busy(int major, int minor, const gs_trace_facts *facts)
{
    return (gs_diag_inputs){
        .steps = 10, .gpu_activities = 3000, .step_ns = 100 * MS, .kernel_ns = 95 * MS,
        .cpu_exec_ns = 40 * MS, .runtime_ns = 2 * MS, .gpu_util = 0.95, .kernels_per_step = 3000,
        .median_kernel_ns = 3000, .median_launch_ns = 6000, .short_kernel_share = 0.8,
        .mem_peak_share = 0.97, .mem_fragmentation = 1.1, .tensor_core_share = 0.0,
        .compute_major = major, .compute_minor = minor, .facts = *facts,
    };
}

static const gs_finding *by_id(const gs_diagnosis *d, const char *id)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->findings[i].rule->id, id))
            return &d->findings[i];
    return NULL;
}

static bool gives(const gs_diagnosis *d, const char *id, const char *needle, const char **why)
{
    const gs_finding *f = by_id(d, id);
    for (size_t a = 0; f && a < f->nactions; a++)
        if (strstr(f->actions[a].text, needle)) {
            if (why)
                *why = f->actions[a].why;
            return true;
        }
    return false;
}

/* Words of training-only advice: none may reach an inference trace, in any rule. */
static const char *const training_only[] = {
    "GradScaler", "fused optimizers", "convert_to_float8_training", "gradient", "micro-batch",
    "checkpointing", "no_sync",
};

static void expect_no_training_advice(const gs_diagnosis *d)
{
    for (size_t i = 0; i < d->n; i++)
        for (size_t a = 0; a < d->findings[i].nactions; a++)
            for (size_t w = 0; w < sizeof training_only / sizeof *training_only; w++)
                if (strstr(d->findings[i].actions[a].text, training_only[w])) {
                    fprintf(stderr, "%s gives inference \"%s\"\n", d->findings[i].rule->id,
                            d->findings[i].actions[a].text);
                    CHECK(false);
                }
}

static const gs_trace_facts inference = {
    .known = true, .collector = GS_COLLECTOR_TORCH_PROFILER, .ops = 2000,
    .workload = GS_WORKLOAD_INFERENCE, .low_precision_share = 0.0, .conv_share = 0.0,
};

static void test_inference(void)
{
    gs_diagnosis d;
    const char *why = NULL;
    /* fp32 inference on an H100 */
    gs_diag_inputs in = busy(9, 0, &inference);
    CHECK_INT(gs_diagnose(&in, &d), 0);
    expect_no_training_advice(&d);
    CHECK(gives(&d, "launch_bound", "batch requests together", &why));
    CHECK_STR(why, "no backward operator or optimizer step among 2000 operators: inference");
    CHECK(!gives(&d, "launch_bound", "raise the batch size", NULL));
    CHECK(!gives(&d, "launch_bound", "decode step", NULL));
    CHECK(gives(&d, "compute_bound", "float8 inference quantization", NULL));
    CHECK(gives(&d, "compute_bound", "with bfloat16", NULL)); /* any workload's */
    CHECK(gives(&d, "host_bound", "next batch of requests", NULL));
    CHECK(gives(&d, "memory_capacity", "torch.inference_mode()", NULL));
    CHECK(!gives(&d, "memory_capacity", "cap the KV cache", NULL));
    gs_diagnosis_free(&d);

    /* on a Turing GPU: float16 without GradScaler */
    in = busy(7, 5, &inference);
    CHECK_INT(gs_diagnose(&in, &d), 0);
    expect_no_training_advice(&d);
    CHECK(gives(&d, "compute_bound", "run the model in float16", &why));
    CHECK(strstr(why, "inference") != NULL && strstr(why, "Turing") != NULL);
    CHECK(gives(&d, "tensor_cores_unused", "model.half()", NULL));
    gs_diagnosis_free(&d);

    /* on a GPU the trace does not name: the by-GPU wording, without GradScaler */
    in = busy(0, 0, &inference);
    CHECK_INT(gs_diagnose(&in, &d), 0);
    expect_no_training_advice(&d);
    CHECK(gives(&d, "compute_bound", "half precision so matmuls", NULL));
    gs_diagnosis_free(&d);
}

static void test_decode(void)
{
    gs_trace_facts decode = inference;
    decode.decode_events = 64;
    gs_diag_inputs in = busy(9, 0, &decode);
    gs_diagnosis d;
    const char *why = NULL;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    expect_no_training_advice(&d);
    CHECK(gives(&d, "launch_bound", "capture the decode step in a CUDA graph", &why));
    CHECK(strstr(why, "64 decode steps and kernels: autoregressive decoding") != NULL);
    CHECK(gives(&d, "launch_bound", "cache_implementation=\"static\"", NULL));
    CHECK(gives(&d, "host_bound", "a CUDA graph per decode step", NULL));
    CHECK(gives(&d, "memory_capacity", "cap the KV cache", NULL));
    gs_diagnosis_free(&d);
}

static void test_training_and_unknown(void)
{
    gs_trace_facts training = inference;
    training.workload = GS_WORKLOAD_TRAINING;
    training.backward_events = 500;
    gs_diag_inputs in = busy(7, 5, &training);
    gs_diagnosis d;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK(gives(&d, "compute_bound", "torch.amp.GradScaler when training", NULL));
    CHECK(!gives(&d, "compute_bound", "run the model in float16", NULL));
    CHECK(gives(&d, "launch_bound", "fused optimizers", NULL));
    CHECK(gives(&d, "launch_bound", "raise the batch size", NULL));
    CHECK(!gives(&d, "launch_bound", "batch requests", NULL));
    CHECK(!gives(&d, "launch_bound", "decode step", NULL));
    gs_diagnosis_free(&d);

    /* a summary without the context (an earlier .gsum minor): the training wording, as before */
    gs_trace_facts unknown = {0};
    in = busy(7, 5, &unknown);
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK(gives(&d, "compute_bound", "torch.amp.GradScaler when training", NULL));
    CHECK(!gives(&d, "compute_bound", "run the model in float16", NULL));
    CHECK(gives(&d, "launch_bound", "fused optimizers", NULL));
    CHECK(!gives(&d, "launch_bound", "batch requests", NULL));
    gs_diagnosis_free(&d);
}

int main(void)
{
    test_inference();
    test_decode();
    test_training_and_unknown();
    return check_done("test_infer_advice");
}
