/* Advice the trace's GPU, software or accelerator rules out (doc/diagnosis.md, "What the GPU can
 * run" and "What the advice is conditioned on"): no torch.compile before compute capability 7.0
 * (its Triton kernels need Volta or later), CUDA graphs there through torch.cuda.graphs alone;
 * no torch.compile for framework overhead when the step already replays CUDA graphs; and no
 * "profile CUDA" for a trace whose work ran on an MTIA accelerator. */
#include <stdbool.h>
#include <string.h>

#include "analysis/base/gpu_caps.h"
#include "analysis/diagnosis/diagnose.h"
#include "check.h"

#define MS 1000000LL

static const gs_trace_facts eager = {
    .known = true, .collector = GS_COLLECTOR_TORCH_PROFILER, .ops = 2000,
    .workload = GS_WORKLOAD_TRAINING, .backward_events = 500, .low_precision_share = 0.0,
    .conv_share = 0.0, .compiled_share = -1,
};

/* A step that fires compute_bound and launch_bound at once (short kernels); host_bound() is the
 * same step with long kernels, which fires compute_bound and host_bound. */
static gs_diag_inputs busy(int major, int minor, int32_t vendor)
{
    return (gs_diag_inputs){
        .steps = 10, .gpu_activities = 3000, .step_ns = 100 * MS, .kernel_ns = 95 * MS,
        .cpu_exec_ns = 40 * MS, .runtime_ns = 2 * MS, .gpu_util = 0.95, .kernels_per_step = 3000,
        .median_kernel_ns = 3000, .median_launch_ns = 6000, .short_kernel_share = 0.8,
        .compute_major = major, .compute_minor = minor, .gpu_vendor = vendor, .facts = eager,
        .roof_share = -1, .replay_step_ns = -1,
    };
}

static gs_diag_inputs host_bound(int major, int minor, int32_t vendor)
{
    gs_diag_inputs in = busy(major, minor, vendor);
    in.short_kernel_share = 0;
    in.median_kernel_ns = 50000;
    return in;
}

static const gs_finding *by_id(const gs_diagnosis *d, const char *id)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->findings[i].rule->id, id))
            return &d->findings[i];
    return NULL;
}

/* The action of finding `id` that holds `needle`, given (left false) or left out with its reason
 * (left true); NULL when there is none. */
static const gs_chosen_action *action(const gs_diagnosis *d, const char *id, const char *needle,
                                      bool left)
{
    const gs_finding *f = by_id(d, id);
    size_t n = !f ? 0 : left ? f->nleft_out : f->nactions;
    for (size_t a = 0; a < n; a++) {
        const gs_chosen_action *c = left ? &f->left_out[a] : &f->actions[a];
        if (strstr(c->text, needle))
            return c;
    }
    return NULL;
}

/* No action of any fired finding names torch.compile. */
static int compile_actions(const gs_diagnosis *d)
{
    int n = 0;
    for (size_t i = 0; i < d->n; i++)
        for (size_t a = 0; a < d->findings[i].nactions; a++)
            n += strstr(d->findings[i].actions[a].text, "torch.compile") != NULL;
    return n;
}

static void test_pascal(void)
{
    gs_diagnosis d;
    gs_diag_inputs in = host_bound(6, 0, GS_VENDOR_NVIDIA);
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK(by_id(&d, "compute_bound")->severity >= GS_SEV_FINDING);
    CHECK(by_id(&d, "host_bound")->severity >= GS_SEV_FINDING);
    CHECK_INT(compile_actions(&d), 0);
    const gs_chosen_action *c = action(&d, "host_bound", "torch.compile", true);
    CHECK(c && strstr(c->why, "compute capability 6.0 (Pascal): torch.compile's Triton kernels "
                              "need 7.0 or later") != NULL);
    CHECK(action(&d, "compute_bound", "torch.compile", true) != NULL);
    gs_diagnosis_free(&d);

    /* CUDA graphs without torch.compile: torch.cuda.graphs alone */
    in = busy(6, 1, GS_VENDOR_NVIDIA);
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK(by_id(&d, "launch_bound")->severity >= GS_SEV_FINDING);
    CHECK_INT(compile_actions(&d), 0);
    CHECK(action(&d, "launch_bound", "torch.cuda.graphs alone", false) != NULL);
    gs_diagnosis_free(&d);

    /* Volta, an AMD GPU and a GPU the trace does not name keep torch.compile; the Pascal-only
     * wording of the CUDA-graph action is not given them */
    const int gpus[][3] = {{7, 0, GS_VENDOR_NVIDIA}, {9, 0, GS_VENDOR_AMD}, {0, 0, GS_VENDOR_NVIDIA}};
    for (size_t g = 0; g < sizeof gpus / sizeof *gpus; g++) {
        in = host_bound(gpus[g][0], gpus[g][1], gpus[g][2]);
        CHECK_INT(gs_diagnose(&in, &d), 0);
        CHECK(action(&d, "host_bound", "torch.compile to cut framework overhead", false) != NULL);
        CHECK(action(&d, "compute_bound", "torch.compile to fuse", false) != NULL);
        gs_diagnosis_free(&d);
        in = busy(gpus[g][0], gpus[g][1], gpus[g][2]);
        CHECK_INT(gs_diagnose(&in, &d), 0);
        CHECK(action(&d, "launch_bound", "torch.compile(mode=\"reduce-overhead\") or", false) !=
              NULL);
        CHECK(action(&d, "launch_bound", "torch.cuda.graphs alone", false) == NULL);
        CHECK(action(&d, "launch_bound", "torch.cuda.graphs alone", true) == NULL);
        gs_diagnosis_free(&d);
    }
}

static void test_graph_replay(void)
{
    gs_diagnosis d;
    gs_diag_inputs in = host_bound(9, 0, GS_VENDOR_NVIDIA);
    in.graphs = (gs_graph_facts){.instantiations = 2, .launches = 40, .graph_kernels = 2700,
                                 .kernels = 3000, .first_instantiation = -1};
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK(by_id(&d, "host_bound")->severity >= GS_SEV_FINDING);
    CHECK(action(&d, "host_bound", "torch.compile", false) == NULL);
    const gs_chosen_action *c = action(&d, "host_bound", "torch.compile", true);
    CHECK(c && strstr(c->why, "90 % of the kernels run from CUDA graphs (2700 of 3000)") != NULL);
    /* nor a CUDA graph per decode step, which it has */
    in.facts.workload = GS_WORKLOAD_INFERENCE;
    in.facts.backward_events = 0;
    in.facts.decode_events = 12;
    gs_diagnosis_free(&d);
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK(action(&d, "host_bound", "a CUDA graph per decode step", false) == NULL);
    CHECK(action(&d, "host_bound", "a CUDA graph per decode step", true) != NULL);
    CHECK(action(&d, "host_bound", "torch.compile to cut", false) == NULL);
    /* fusing kernels is another matter than launching them: compute_bound keeps it */
    CHECK(action(&d, "compute_bound", "torch.compile to fuse", false) != NULL);
    gs_diagnosis_free(&d);

    /* under half from graphs: the advice stands */
    in.graphs.graph_kernels = 1000;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK(action(&d, "host_bound", "torch.compile to cut framework overhead", false) != NULL);
    CHECK(action(&d, "host_bound", "a CUDA graph per decode step", false) != NULL);
    gs_diagnosis_free(&d);
}

static void test_mtia(void)
{
    gs_diag_inputs in = {.steps = 1, .facts = eager, .roof_share = -1, .replay_step_ns = -1};
    in.facts.gpu_activities = 0;
    in.facts.accelerator_events = 1313;
    gs_diagnosis d;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    const gs_finding *f = by_id(&d, "no_gpu");
    CHECK_INT(f->severity, GS_SEV_NOTE);
    CHECK(strstr(f->evidence, "1313 events of an MTIA accelerator (mtia_ccp_events)") != NULL);
    CHECK(strstr(f->evidence, "CPU-only") == NULL);
    CHECK(action(&d, "no_gpu", "ProfilerActivity.CUDA", false) == NULL);
    const gs_chosen_action *c = action(&d, "no_gpu", "ProfilerActivity.CUDA", true);
    CHECK(c && strstr(c->why, "MTIA") != NULL);
    gs_diagnosis_free(&d);

    /* a CPU-only trace is still told to profile CUDA */
    in.facts.accelerator_events = 0;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK(strstr(by_id(&d, "no_gpu")->evidence, "CPU-only") != NULL);
    CHECK(action(&d, "no_gpu", "ProfilerActivity.CUDA", false) != NULL);
    gs_diagnosis_free(&d);
}

int main(void)
{
    test_pascal();
    test_graph_replay();
    test_mtia();
    return check_done("test_advice_scope");
}
