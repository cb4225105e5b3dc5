/* The far_below_roof rule on hand-made inputs: it fires when the largest operator group holds at
 * least a tenth of the operators' GPU time and reaches under half its roof, not at the edges; its
 * gain is the group's kernels at half the roof, counted by hand, its expected step the replay's;
 * its advice follows the group's bound; it leaves a compute-bound GEMM step to low_mfu. */
#include <math.h>
#include <string.h>

#include "analysis/base/thresholds.h"
#include "analysis/diagnosis/diagnose.h"
#include "analysis/trace/roofline.h"
#include "check.h"

#define MS 1000000LL

/* A 100 ms step, GPU busy 80 %; its largest operator group, aten::mul, 40 % of the operators'
 * GPU time (20 ms per step), memory-bound at 0.25 FLOP/byte and 20 % of its roof. */
static gs_diag_inputs memory_bound(void)
{
    return (gs_diag_inputs){
        .steps = 10, .gpu_activities = 3000, .step_ns = 100 * MS, .kernel_ns = 80 * MS,
        .gpu_util = 0.80, .kernels_per_step = 300, .median_kernel_ns = 200000,
        .median_launch_ns = 5000, .mem_peak_share = 0.5, .mem_fragmentation = 1.1,
        .tensor_core_share = 0.8, .compute_major = 9, .mfu = -1, .flop_op_share = -1,
        .tc_eligible_share = -1, .tc_unused_share = -1, .replay_step_ns = -1,
        .roof_op = "aten::mul", .roof_op_share = 0.4, .roof_share = 0.2, .roof_intensity = 0.25,
        .roof_op_ns = 20 * MS, .roof_bound = GS_BOUND_MEMORY,
    };
}

static const gs_finding *rule(const gs_diagnosis *d)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->findings[i].rule->id, "far_below_roof"))
            return &d->findings[i];
    return NULL;
}

static bool gives(const gs_finding *f, const char *needle)
{
    for (size_t a = 0; a < f->nactions; a++)
        if (strstr(f->actions[a].text, needle))
            return true;
    return false;
}

static uint8_t severity_of(const gs_diag_inputs *in)
{
    gs_diagnosis d;
    CHECK_INT(gs_diagnose(in, &d), 0);
    uint8_t sev = rule(&d)->severity;
    gs_diagnosis_free(&d);
    return sev;
}

/* 20 ms at 20 % of the roof take 8 ms at 50 %: 12 ms to gain by the rule's estimate. The
 * expected step is the replay's: 96 ms without the profiler, 90 ms with the group brought up
 * (the replay's own), so 100 ms x 90 / 96 = 93.75 ms. */
static void test_memory_bound_fires(void)
{
    gs_diag_inputs in = memory_bound();
    in.replay_step_ns = 98 * MS;
    for (int a = 0; a < GS_REPLAY__COUNT; a++)
        in.replay_expected_ns[a] = -1;
    in.replay_expected_ns[GS_REPLAY_NO_PROFILER] = 96 * MS;
    in.replay_expected_ns[GS_REPLAY_ROOF_TARGET] = 90 * MS;
    gs_diagnosis d;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    const gs_finding *f = rule(&d);
    CHECK_INT(f->severity, GS_SEV_FINDING);
    CHECK_INT(f->at_stake_ns, 20 * MS);
    CHECK_INT(f->gain_ns, 12 * MS);
    CHECK_INT(f->gain_basis, GS_GAIN_ROOF_TARGET);
    CHECK_STR(gs_gain_basis_name(f->gain_basis), "roof_target");
    CHECK_INT(f->expected_step_ns, 93750000);
    CHECK(fabs(f->expected_speedup - 96.0 / 90.0) < 1e-9);
    CHECK(strstr(f->evidence, "aten::mul, 40 % of the operators' GPU time (20.000 ms per step), "
                              "is memory-bound at 0.25 FLOP/byte and reaches 20.0 % of its roof"));
    CHECK(gives(f, "torch.compile"));
    CHECK(gives(f, "contiguous"));
    CHECK(!gives(f, "Tensor Cores: bf16"));
    CHECK(!gives(f, "CUDA graphs"));
    gs_diagnosis_free(&d);
}

static void test_edges(void)
{
    gs_diag_inputs in = memory_bound();
    in.roof_share = GS_ROOF_TARGET_SHARE; /* at half the roof: not far below */
    CHECK_INT(severity_of(&in), GS_SEV_NONE);
    in = memory_bound();
    in.roof_op_share = 0.099; /* under a tenth of the GPU time: not worth it */
    CHECK_INT(severity_of(&in), GS_SEV_NONE);
    in = memory_bound();
    in.roof_share = -1; /* not modelled */
    CHECK_INT(severity_of(&in), GS_SEV_NONE);
    in = memory_bound();
    in.roof_op = NULL; /* no roofline: a summary of an earlier .gsum minor */
    CHECK_INT(severity_of(&in), GS_SEV_NONE);
    in = memory_bound();
    in.gpu_activities = 0;
    CHECK_INT(severity_of(&in), GS_SEV_NONE);
}

/* Compute-bound: Tensor Cores, precision, shapes; but a GEMM-dominated step under 30 % MFU is
 * low_mfu's finding. */
static void test_compute_bound(void)
{
    gs_diag_inputs in = memory_bound();
    in.roof_op = "aten::mm";
    in.roof_bound = GS_BOUND_COMPUTE;
    in.roof_intensity = 480;
    gs_diagnosis d;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    const gs_finding *f = rule(&d);
    CHECK_INT(f->severity, GS_SEV_FINDING);
    CHECK(gives(f, "Tensor Cores: bf16"));
    CHECK(gives(f, "multiples of 8"));
    CHECK(gives(f, "fp8"));
    CHECK(!gives(f, "contiguous"));
    gs_diagnosis_free(&d);
    in.mfu = 0.04;
    in.flop_op_share = GS_TH_GEMM_DOMINATED;
    CHECK_INT(severity_of(&in), GS_SEV_NONE);
    in.flop_op_share = GS_TH_GEMM_DOMINATED - 0.01; /* low_mfu does not fire: this one does */
    CHECK_INT(severity_of(&in), GS_SEV_FINDING);
}

static void test_latency_bound(void)
{
    gs_diag_inputs in = memory_bound();
    in.roof_bound = GS_BOUND_LATENCY;
    gs_diagnosis d;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    const gs_finding *f = rule(&d);
    CHECK_INT(f->severity, GS_SEV_FINDING);
    CHECK(gives(f, "CUDA graphs"));
    CHECK(gives(f, "fewer, larger kernels"));
    CHECK(!gives(f, "contiguous"));
    gs_diagnosis_free(&d);
}

int main(void)
{
    test_memory_bound_fires();
    test_edges();
    test_compute_bound();
    test_latency_bound();
    return check_done("test_diag_roofline");
}
