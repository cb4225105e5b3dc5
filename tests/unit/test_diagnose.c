/* The diagnosis rules on hand-made inputs: each bottleneck alone is named first, with the time at
 * stake and the speed-up bound computed by hand; thresholds are honoured at their edges. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diagnosis/diagnose.h"
#include "analysis/base/thresholds.h"
#include "check.h"

#define MS 1000000LL

/* A healthy 100 ms step: GPU busy 80 %, nothing else to speak of. */
static gs_diag_inputs healthy(void)
{
    return (gs_diag_inputs){
        .steps = 10, .gpu_activities = 3000, .step_ns = 100 * MS, .kernel_ns = 80 * MS, .cpu_exec_ns = 5 * MS,
        .runtime_ns = 2 * MS, .other_ns = 1 * MS, .gpu_util = 0.80, .kernels_per_step = 300,
        .median_kernel_ns = 200000, .median_launch_ns = 5000, .short_kernel_share = 0.05,
        .mem_peak_share = 0.5, .mem_fragmentation = 1.1, .tensor_core_share = 0.8,
        .compute_major = 9,
    };
}

static const gs_finding *first(const gs_diagnosis *d)
{
    return d->nfired ? &d->findings[d->order[0]] : NULL;
}

static const gs_finding *by_id(const gs_diagnosis *d, const char *id)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->findings[i].rule->id, id))
            return &d->findings[i];
    return NULL;
}

static void expect_first(const gs_diag_inputs *in, const char *id, gs_ns at_stake)
{
    gs_diagnosis d;
    CHECK_INT(gs_diagnose(in, &d), 0);
    const gs_finding *f = first(&d);
    CHECK(f != NULL);
    if (f) {
        CHECK_STR(f->rule->id, id);
        CHECK_INT(f->at_stake_ns, at_stake);
    }
    gs_diagnosis_free(&d);
}

static void test_healthy(void)
{
    gs_diag_inputs in = healthy();
    gs_diagnosis d;
    gs_diagnose(&in, &d);
    CHECK_INT(d.nfired, 0);
    size_t n;
    gs_rules(&n);
    CHECK_INT(d.n, n);
    for (size_t i = 0; i < d.n; i++) {
        CHECK(d.findings[i].why[0] != '\0'); /* every rule says why, fired or not */
        CHECK(d.findings[i].evidence[0] != '\0');
    }
    gs_diagnosis_free(&d);
}

/* Removing synchronizations cannot make the step shorter than the host's own work (the step less
 * the time blocked in them) nor than the GPU's: a loop whose GPU idles after each sync while the
 * host launches the next kernels one by one gains little from dropping the sync. The numbers are
 * those of a torch.compile reduce-overhead loop whose graph never replayed: 0.834 ms steps, 0.073
 * ms of kernels, 0.577 ms of GPU idle after syncs, 0.014 ms blocked in them. */
static void test_sync_bound_by_host_and_gpu(void)
{
    gs_diag_inputs in = healthy();
    in.step_ns = 833820;
    in.kernel_ns = 72590;
    in.runtime_ns = 93700;
    in.cpu_exec_ns = 0;
    in.other_ns = 667520;
    in.gpu_util = 0.087;
    in.sync_idle_ns = 576740;
    in.sync_blocked_ns = 14000;
    in.kernels_per_step = 16;
    gs_diagnosis d;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    const gs_finding *sync = by_id(&d, "sync_bound");
    CHECK_INT(sync->severity, GS_SEV_NONE);
    CHECK_INT(sync->at_stake_ns, 14000); /* was 576740: "up to 3.24x" */
    CHECK(strstr(sync->evidence, "wins at most 0.014 ms") != NULL);
    /* The GPU idle the sync does not claim is the host's. */
    const gs_finding *host = by_id(&d, "host_bound");
    CHECK_INT(host->severity, GS_SEV_BOTTLENECK);
    CHECK_INT(host->at_stake_ns, 93700 + 667520 - 14000);
    CHECK(by_id(&d, "graphs_unreplayed")->severity == GS_SEV_NONE); /* no graph in the inputs */
    gs_diagnosis_free(&d);

    /* The same loop with a graph captured and instantiated, never launched: the graph rule claims
     * the host time and comes first; host and launch rules leave it. */
    in.graphs = (gs_graph_facts){.captures = 1, .instantiations = 1, .kernels = 323,
                                 .first_instantiation = 0};
    CHECK_INT(gs_diagnose(&in, &d), 0);
    const gs_finding *f = first(&d);
    CHECK_STR(f->rule->id, "graphs_unreplayed");
    CHECK_INT(f->severity, GS_SEV_BOTTLENECK);
    CHECK_INT(f->at_stake_ns, 93700 + 667520 - 14000);
    CHECK(strstr(f->evidence, "1 CUDA graph instantiated") != NULL);
    CHECK(strstr(f->evidence, "0 graph launches") != NULL);
    CHECK_INT(by_id(&d, "host_bound")->severity, GS_SEV_NONE);
    CHECK(strstr(by_id(&d, "host_bound")->why, "CUDA graphs") != NULL);
    gs_diagnosis_free(&d);

    /* Replayed graphs (most kernels from a graph) are no finding. */
    in.graphs.launches = 40;
    in.graphs.graph_kernels = 320;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK_INT(by_id(&d, "graphs_unreplayed")->severity, GS_SEV_NONE);
    CHECK_INT(by_id(&d, "host_bound")->severity, GS_SEV_BOTTLENECK);
    gs_diagnosis_free(&d);

    /* Launched, but hardly any kernel from a graph (< 1 %): still not replayed. */
    in.graphs.launches = 1;
    in.graphs.graph_kernels = 2;
    in.graphs.kernels = 1000;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK_INT(by_id(&d, "graphs_unreplayed")->severity, GS_SEV_BOTTLENECK);
    gs_diagnosis_free(&d);
}

static void test_each_class(void)
{
    gs_diag_inputs in = healthy();
    in.dataloader_ns = 30 * MS;
    in.kernel_ns = 50 * MS;
    in.gpu_util = 0.5;
    expect_first(&in, "data_loading", 30 * MS);

    in = healthy();
    in.sync_idle_ns = 25 * MS;
    in.sync_blocked_ns = 40 * MS;
    in.runtime_ns = 20 * MS; /* the idle after syncs is host time the plugin calls Runtime */
    in.cpu_exec_ns = 10 * MS;
    in.kernel_ns = 60 * MS;
    in.gpu_util = 0.6;
    expect_first(&in, "sync_bound", 25 * MS);

    in = healthy();
    in.kernels_per_step = 4000;
    in.median_kernel_ns = 3000;
    in.median_launch_ns = 6000;
    in.short_kernel_share = 0.9;
    in.runtime_ns = 40 * MS;
    in.cpu_exec_ns = 20 * MS;
    in.gpu_util = 0.35;
    expect_first(&in, "launch_bound", (40 + 20 + 1) * MS);

    in = healthy();
    in.cpu_exec_ns = 55 * MS;
    in.gpu_util = 0.35;
    expect_first(&in, "host_bound", (55 + 2 + 1) * MS);

    in = healthy();
    in.memcpy_ns = 40 * MS;
    in.pageable_copy_ns = 40 * MS;
    expect_first(&in, "transfer_bound", 40 * MS);

    in = healthy();
    in.comm_ns = 40 * MS;
    expect_first(&in, "communication_bound", 40 * MS);

    in = healthy();
    in.gpu_util = 0.97;
    in.kernel_ns = 97 * MS;
    in.tensor_core_share = 0.0;
    expect_first(&in, "compute_bound", 97 * MS);

    /* NCCL kernels make the GPU look utilized; exposed communication is what costs. */
    gs_diag_inputs comm = healthy();
    comm.gpu_util = 0.98;
    comm.kernel_ns = 58 * MS;
    comm.comm_ns = 40 * MS;
    expect_first(&comm, "communication_bound", 40 * MS);

    /* A leak outranks a busy GPU: the job will fail, not just run slowly. */
    in.mem_growth_per_step = 200e6;
    in.mem_growth_r2 = 0.99;
    in.mem_growth_steps = 10;
    expect_first(&in, "memory_growth", 0);
}

static void test_speedup_bound(void)
{
    gs_diag_inputs in = healthy();
    in.dataloader_ns = 31 * MS;
    gs_diagnosis d;
    gs_diagnose(&in, &d);
    const gs_finding *f = by_id(&d, "data_loading");
    CHECK_INT(f->severity, GS_SEV_BOTTLENECK);
    CHECK(fabs(f->at_stake_share - 0.31) < 1e-12);
    CHECK(fabs(f->speedup_bound - 100.0 / 69.0) < 1e-12);
    CHECK(strstr(f->evidence, "31.000 ms per step (31.0 % of the 100.000 ms step)") != NULL);
    gs_diagnosis_free(&d);
}

/* The verdict follows the gain, not the severity: a data-loading finding (8 % of the step,
 * removable) outranks Tensor Cores unused, a bottleneck of 10 ms of fp32 matmuls that would
 * gain two thirds of that (GS_TH_TC_SPEEDUP = 3); the low-MFU finding, worth more than both,
 * comes first. Equal gains: the bottleneck first. */
static void test_ranking_by_gain(void)
{
    gs_diag_inputs in = healthy();
    in.dataloader_ns = 8 * MS;
    in.kernel_ns = 40 * MS;
    in.tc_eligible_share = 0.25; /* 10 ms of eligible kernel time, all without Tensor Cores */
    in.tc_unused_share = 1.0;
    in.mfu = -1;
    in.flop_op_share = -1;
    gs_diagnosis d;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    const gs_finding *tc = by_id(&d, "tensor_cores_unused"), *dl = by_id(&d, "data_loading");
    CHECK_INT(tc->severity, GS_SEV_BOTTLENECK);
    CHECK_INT(tc->at_stake_ns, 10 * MS);
    CHECK(tc->speedup_bound == 0.0);
    CHECK_INT(tc->gain_ns, 6666666);
    CHECK_INT(tc->gain_basis, GS_GAIN_TENSOR_CORES);
    CHECK(fabs(tc->gain_speedup - 100.0 / (100.0 - 6.666666)) < 1e-6);
    CHECK_INT(dl->severity, GS_SEV_FINDING);
    CHECK_INT(dl->gain_ns, 8 * MS);
    CHECK_INT(dl->gain_basis, GS_GAIN_REMOVED);
    CHECK_STR(first(&d)->rule->id, "data_loading");
    CHECK_STR(d.findings[d.order[1]].rule->id, "tensor_cores_unused");
    gs_diagnosis_free(&d);

    /* 60 % of the kernel time in GEMMs at 5 % MFU: at the rule's 30 % they would take
     * 0.05 / 0.30 of the 100 ms step, 16.7 ms, instead of 24 ms: 7.3 ms to gain, above 6.7 */
    in.dataloader_ns = 0;
    in.mfu = 0.05;
    in.flop_op_share = 0.6;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    const gs_finding *mfu = by_id(&d, "low_mfu");
    CHECK_INT(mfu->severity, GS_SEV_FINDING);
    CHECK_INT(mfu->gain_basis, GS_GAIN_MFU_TARGET);
    CHECK(llabs(mfu->gain_ns - (24 * MS - 100 * MS / 6)) <= 1);
    CHECK_STR(first(&d)->rule->id, "low_mfu");
    gs_diagnosis_free(&d);

    /* the same gain: the bottleneck (sync, > 5 %) before the finding (data loading, 5-10 %),
     * though data loading comes first in the rule table */
    in = healthy();
    in.dataloader_ns = 8 * MS;
    in.sync_idle_ns = 8 * MS;
    in.sync_blocked_ns = 20 * MS;
    in.runtime_ns = 10 * MS;
    in.kernel_ns = 60 * MS;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK_INT(by_id(&d, "sync_bound")->gain_ns, 8 * MS);
    CHECK_INT(by_id(&d, "data_loading")->severity, GS_SEV_FINDING);
    CHECK_STR(first(&d)->rule->id, "sync_bound");
    CHECK_STR(d.findings[d.order[1]].rule->id, "data_loading");
    gs_diagnosis_free(&d);
}

static void test_thresholds(void)
{
    /* DataLoader: 5 % exactly is not a finding, just above is; 10 % is a finding, above is a
     * bottleneck. */
    const struct {
        gs_ns ns;
        int severity;
    } cases[] = {
        {5 * MS, GS_SEV_NONE},
        {5 * MS + 1, GS_SEV_FINDING},
        {10 * MS, GS_SEV_FINDING},
        {10 * MS + 1, GS_SEV_BOTTLENECK},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gs_diag_inputs in = healthy();
        in.dataloader_ns = cases[i].ns;
        gs_diagnosis d;
        gs_diagnose(&in, &d);
        CHECK_INT(by_id(&d, "data_loading")->severity, cases[i].severity);
        gs_diagnosis_free(&d);
    }

    /* Short kernels turn GPU-idle host time into launch overhead instead of host work. */
    gs_diag_inputs in = healthy();
    in.cpu_exec_ns = 30 * MS;
    in.median_kernel_ns = GS_TH_SHORT_KERNEL_NS - 1;
    in.short_kernel_share = GS_TH_SHORT_KERNEL_SHARE;
    in.kernels_per_step = GS_TH_LAUNCH_MIN_KERNELS_PER_STEP;
    gs_diagnosis d;
    gs_diagnose(&in, &d);
    CHECK_INT(by_id(&d, "launch_bound")->severity, GS_SEV_BOTTLENECK);
    CHECK_INT(by_id(&d, "host_bound")->severity, GS_SEV_NONE);
    CHECK_INT(by_id(&d, "host_bound")->at_stake_ns, 0);
    gs_diagnosis_free(&d);

    /* A handful of short kernels is not launch overhead: the host does something else. */
    in.kernels_per_step = GS_TH_LAUNCH_MIN_KERNELS_PER_STEP - 1;
    gs_diagnose(&in, &d);
    CHECK_INT(by_id(&d, "launch_bound")->severity, GS_SEV_NONE);
    CHECK_INT(by_id(&d, "host_bound")->severity, GS_SEV_BOTTLENECK);
    gs_diagnosis_free(&d);

    /* Memory: a full device is a risk, fragmentation alone a finding. */
    in = healthy();
    in.mem_fragmentation = 1.6;
    gs_diagnose(&in, &d);
    CHECK_INT(by_id(&d, "memory_capacity")->severity, GS_SEV_FINDING);
    gs_diagnosis_free(&d);
    in.mem_peak_share = 0.95;
    gs_diagnose(&in, &d);
    CHECK_INT(by_id(&d, "memory_capacity")->severity, GS_SEV_RISK);
    gs_diagnosis_free(&d);

    /* Warm-up is a note and never outranks a bottleneck. */
    in = healthy();
    in.warmup_steps = 1;
    in.warmup_ratio = 12.0;
    in.comm_ns = 20 * MS;
    gs_diagnose(&in, &d);
    CHECK_INT(d.nfired, 2);
    CHECK_STR(d.findings[d.order[0]].rule->id, "communication_bound");
    CHECK_STR(d.findings[d.order[1]].rule->id, "warmup");
    gs_diagnosis_free(&d);
}

/* A CPU-only profile: the GPU rules stay quiet and a note says why; data loading still counts. */
static void test_no_gpu(void)
{
    gs_diag_inputs in = healthy();
    in.gpu_activities = 0;
    in.kernel_ns = 0;
    in.gpu_util = 0;
    in.cpu_exec_ns = 70 * MS;
    in.dataloader_ns = 20 * MS;
    gs_diagnosis d;
    gs_diagnose(&in, &d);
    CHECK_INT(by_id(&d, "host_bound")->severity, GS_SEV_NONE);
    CHECK(strstr(by_id(&d, "host_bound")->why, "no GPU activity") != NULL);
    CHECK_INT(by_id(&d, "no_gpu")->severity, GS_SEV_NOTE);
    CHECK_STR(d.findings[d.order[0]].rule->id, "data_loading");
    CHECK_STR(d.findings[d.order[1]].rule->id, "no_gpu");
    gs_diagnosis_free(&d);
}

/* Whether a finding gives an action whose text holds `needle`; its why in *why. */
static bool gives(const gs_finding *f, const char *needle, const char **why)
{
    for (size_t a = 0; a < f->nactions; a++)
        if (strstr(f->actions[a].text, needle)) {
            if (why)
                *why = f->actions[a].why;
            return true;
        }
    return false;
}

static bool leaves_out(const gs_finding *f, const char *needle)
{
    for (size_t a = 0; a < f->nleft_out; a++)
        if (strstr(f->left_out[a].text, needle))
            return true;
    return false;
}

/* The text is as long as what it says: an operator name of a thousand characters (a long
 * Python call site) leaves the rest of the sentence after it. */
static void test_long_text_kept_whole(void)
{
    enum { NAME = 1000 };
    char name[NAME + 1];
    memset(name, 'n', NAME);
    name[NAME] = '\0';
    gs_diag_inputs in = healthy();
    in.sync_top_op = name;
    in.sync_idle_ns = 30 * MS;
    in.sync_blocked_ns = 10 * MS;
    gs_diagnosis d;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    const char *evidence = by_id(&d, "sync_bound")->evidence;
    const char *under = strstr(evidence, ", mostly under nnn");
    CHECK(under != NULL);
    if (under)
        CHECK(strncmp(under + strlen(", mostly under "), name, NAME) == 0);
    CHECK(strstr(evidence, "; removing them wins at most 10.000 ms per step") != NULL);
    CHECK(strlen(evidence) > NAME + 200);
    gs_diagnosis_free(&d);

    /* An FSDP job's collectives in three process groups: the reason for the FSDP advice is
     * longer than the 160 bytes it once had, and ends whole. */
    in = healthy();
    in.facts = (gs_trace_facts){.known = true, .collector = GS_COLLECTOR_TORCH_PROFILER,
                                .ops = 1000, .workload = GS_WORKLOAD_TRAINING,
                                .backward_events = 10, .parallel_kinds = 1u << GS_PAR_SHARDED,
                                .collectives = 1234, .process_groups = 3, .all_gathers = 617,
                                .reduce_scatters = 617, .low_precision_share = 0.8};
    CHECK_INT(gs_diagnose(&in, &d), 0);
    const char *why = NULL;
    CHECK(gives(by_id(&d, "communication_bound"), "overlap FSDP", &why));
    CHECK_STR(why, "1234 collectives in 3 process groups (0 all-reduce, 617 all-gather, 617 "
                   "reduce-scatter, 0 send/recv, 0 all-to-all), training: sharded data parallel "
                   "(FSDP, ZeRO)");
    gs_diagnosis_free(&d);
}

/* Every action is conditioned on what the trace shows, and says why. */
static void test_actions_by_context(void)
{
    gs_diag_inputs in = healthy();
    in.kernel_ns = 95 * MS; /* compute-bound */
    in.cpu_exec_ns = 40 * MS;
    in.comm_ns = 30 * MS;
    in.steps = 2; /* the warm-up note */
    gs_diagnosis d;
    const char *why = NULL;

    /* Context not known (an older .gsum): every action, no reason, as before. */
    gs_diagnose(&in, &d);
    /* ... but the GPU's: its compute capability is in every summary */
    CHECK(gives(by_id(&d, "compute_bound"), "with bfloat16", &why) &&
          strcmp(why, "compute capability 9.0 (Hopper)") == 0);
    CHECK(gives(by_id(&d, "compute_bound"), "channels_last", &why) && why[0] == '\0');
    CHECK(gives(by_id(&d, "warmup"), "torch.profiler.schedule", NULL));
    CHECK(gives(by_id(&d, "warmup"), "ProfilerStep#N", NULL));
    CHECK_INT(by_id(&d, "communication_bound")->nleft_out, 0);
    gs_diagnosis_free(&d);

    /* Tensor-parallel bf16 inference from torch.profiler with stacks, without ProfilerStep. */
    in.facts = (gs_trace_facts){.known = true, .collector = GS_COLLECTOR_TORCH_PROFILER,
                                .ops = 1000, .python_functions = 500,
                                .workload = GS_WORKLOAD_INFERENCE,
                                .parallel_kinds = 1u << GS_PAR_TENSOR,
                                .collectives = 19, .all_gathers = 10, .reduce_scatters = 9,
                                .low_precision_share = 0.77, .conv_share = 0};
    gs_diagnose(&in, &d);
    const gs_finding *comm = by_id(&d, "communication_bound");
    CHECK(!gives(comm, "DDP", NULL) && leaves_out(comm, "DDP"));
    CHECK(!gives(comm, "no_sync", NULL));
    CHECK(gives(comm, "tensor-parallel", &why) && strstr(why, "tensor parallel") != NULL);
    const gs_finding *compute = by_id(&d, "compute_bound");
    CHECK(!gives(compute, "mixed precision", NULL) && leaves_out(compute, "mixed precision"));
    CHECK(!gives(compute, "channels_last", NULL));
    CHECK(!gives(by_id(&d, "launch_bound"), "fused optimizers", NULL));
    const gs_finding *host = by_id(&d, "host_bound");
    CHECK(!gives(host, "with_stack=True", NULL) && gives(host, "Python functions the trace", &why));
    CHECK(strstr(why, "500 Python function events") != NULL);
    CHECK(gives(by_id(&d, "warmup"), "torch.profiler.schedule", &why));
    CHECK(strstr(why, "without ProfilerStep#N") != NULL);
    CHECK(!gives(by_id(&d, "warmup"), "ProfilerStep#N (torch.cuda.nvtx", NULL));
    gs_diagnosis_free(&d);

    /* A gpuscope run trace of DDP fp32 training, no steps marked: no torch.profiler advice. */
    in.facts = (gs_trace_facts){.known = true, .collector = GS_COLLECTOR_GPUSCOPE_RUN,
                                .workload = GS_WORKLOAD_TRAINING, .backward_events = 50,
                                .parallel_kinds = 1u << GS_PAR_DATA, .collectives = 40, .all_reduces = 40,
                                .low_precision_share = 0.0, .conv_share = 0.3};
    size_t steps = in.steps;
    in.steps = 1; /* one window: no range marked the steps and none were detected */
    gs_diagnose(&in, &d);
    CHECK(gives(by_id(&d, "communication_bound"), "DDP", &why) && strstr(why, "DDP") != NULL);
    CHECK(!gives(by_id(&d, "communication_bound"), "tensor-parallel", NULL));
    CHECK(gives(by_id(&d, "compute_bound"), "mixed precision", NULL));
    CHECK(gives(by_id(&d, "compute_bound"), "channels_last", NULL));
    CHECK(!gives(by_id(&d, "warmup"), "torch.profiler", NULL));
    CHECK(gives(by_id(&d, "warmup"), "NVTX range named ProfilerStep#N", &why));
    CHECK(strstr(why, "gpuscope run") != NULL);
    CHECK(gives(by_id(&d, "host_bound"), "with_stack=True", &why));
    CHECK(strstr(why, "gpuscope run records none") != NULL);
    gs_diagnosis_free(&d);

    /* The same trace with its steps detected from the repeating kernel sequence: told to run
     * more steps, not to mark them. */
    in.steps = steps;
    gs_diagnose(&in, &d);
    CHECK(!gives(by_id(&d, "warmup"), "NVTX range named ProfilerStep#N", NULL));
    CHECK(gives(by_id(&d, "warmup"), "run more steps under gpuscope run", &why));
    CHECK(strstr(why, "detected from its repeating kernel sequence") != NULL);
    gs_diagnosis_free(&d);
}

/* The profiler's estimated host time is taken off a host-side verdict's gain, and said. */
static void test_profiler_share(void)
{
    gs_diag_inputs in = healthy();
    in.kernel_ns = 40 * MS;
    in.cpu_exec_ns = 50 * MS; /* host-bound: 53 ms of GPU-idle host time */
    in.facts = (gs_trace_facts){.known = true, .collector = GS_COLLECTOR_TORCH_PROFILER,
                                .python_functions = 1, .workload = GS_WORKLOAD_TRAINING,
                                .low_precision_share = 0.5, .profiler_step_ns = 30 * MS};
    gs_diagnosis d;
    gs_diagnose(&in, &d);
    const gs_finding *f = by_id(&d, "host_bound");
    CHECK_INT(f->severity, GS_SEV_BOTTLENECK);
    CHECK_INT(f->profiler_ns, 30 * MS);
    CHECK_INT(f->at_stake_ns, 23 * MS);
    /* of the 70 ms step without the profiler: 23 / 70, bound 70 / 47 */
    CHECK(fabs(f->at_stake_share - 23.0 / 70.0) < 1e-9);
    CHECK(fabs(f->speedup_bound - 70.0 / 47.0) < 1e-9);
    CHECK(fabs(f->recorded_share - 0.53) < 1e-9);
    CHECK(strstr(f->evidence, "profiler's own host time") != NULL);
    CHECK(gives(f, "profile again with less recording", NULL));
    gs_diagnosis_free(&d);

    /* Most of it the profiler's: a finding that says so, not a bottleneck. */
    in.facts.profiler_step_ns = 45 * MS;
    gs_diagnose(&in, &d);
    f = by_id(&d, "host_bound");
    CHECK_INT(f->severity, GS_SEV_FINDING);
    CHECK_INT(f->at_stake_ns, 8 * MS);
    CHECK(strstr(f->evidence, "the profiler could explain this verdict") != NULL);
    gs_diagnosis_free(&d);

    /* Below 5 % of the step: nothing taken off, no advice to profile with less. */
    in.facts.profiler_step_ns = 4 * MS;
    gs_diagnose(&in, &d);
    f = by_id(&d, "host_bound");
    CHECK_INT(f->profiler_ns, 0);
    CHECK_INT(f->at_stake_ns, 53 * MS);
    CHECK(!gives(f, "profile again with less recording", NULL));
    gs_diagnosis_free(&d);
}

/* The mixed-precision advice is the GPU's (analysis/base/gpu_caps.h): float16 with GradScaler on
 * Volta and Turing, bf16 and TF32 from Ampere, FP8 from Ada, both said when the GPU is unknown. */
static void test_actions_by_gpu(void)
{
    static const struct {
        int32_t major, minor;
        const char *given, *not_given;
        bool left_out; /* not given, and said why (the GPU lacks it); else another GPU's version */
    } cases[] = {
        {7, 0, "dtype=torch.float16", "dtype=torch.bfloat16", true},
        {7, 5, "dtype=torch.float16", "allow_tf32", true},
        {8, 0, "dtype=torch.bfloat16", "dtype=torch.float16", false},
        {8, 6, "allow_tf32", "FP8", true},
        {8, 9, "FP8", "by GPU", false},
        {9, 0, "FP8", "dtype=torch.float16", false},
        {0, 0, "by GPU", "dtype=torch.bfloat16) around", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gs_diag_inputs in = healthy();
        in.kernel_ns = 95 * MS; /* compute-bound, and eligible time without Tensor Cores */
        in.tc_eligible_share = 0.8;
        in.tc_unused_share = 1.0;
        in.compute_major = cases[i].major;
        in.compute_minor = cases[i].minor;
        gs_diagnosis d;
        CHECK_INT(gs_diagnose(&in, &d), 0);
        const gs_finding *tc = by_id(&d, "tensor_cores_unused"), *cb = by_id(&d, "compute_bound");
        CHECK(gives(tc, cases[i].given, NULL) || gives(cb, cases[i].given, NULL));
        CHECK(!gives(tc, cases[i].not_given, NULL) && !gives(cb, cases[i].not_given, NULL));
        CHECK((leaves_out(tc, cases[i].not_given) || leaves_out(cb, cases[i].not_given)) ==
              cases[i].left_out);
        gs_diagnosis_free(&d);
    }
    /* before Volta: no Tensor Cores, no rule about them, no mixed-precision advice */
    gs_diag_inputs in = healthy();
    in.kernel_ns = 95 * MS;
    in.tc_eligible_share = 0.8;
    in.tc_unused_share = 1.0;
    in.compute_major = 6;
    gs_diagnosis d;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK_INT(by_id(&d, "tensor_cores_unused")->severity, GS_SEV_NONE);
    CHECK(!gives(by_id(&d, "compute_bound"), "autocast", NULL));
    gs_diagnosis_free(&d);
}

/* The profiler's host time can lengthen the step by at most the step's GPU-idle host time: on a
 * 100 ms step whose GPU is busy 90 ms, 100 ms of profiler host time (capped at the step) lengthen
 * it by at most 10 ms, 10 %, not 100 %. Below the noticeable share: 0. */
static void test_profiler_lengthening(void)
{
    gs_diag_inputs in = healthy();
    in.step_ns = 100000000;
    in.kernel_ns = 85000000, in.memcpy_ns = 3000000, in.memset_ns = 0, in.comm_ns = 2000000;
    in.runtime_ns = 4000000, in.dataloader_ns = 0, in.cpu_exec_ns = 5000000, in.other_ns = 1000000;
    in.facts.known = true;
    in.facts.profiler_step_ns = 100000000;
    CHECK_INT(gs_profiler_step_lengthening(&in), 10000000);
    in.facts.profiler_step_ns = 7000000; /* less than the idle time: all of it */
    CHECK_INT(gs_profiler_step_lengthening(&in), 7000000);
    in.facts.profiler_step_ns = 1000000; /* 1 %: not noticeable */
    CHECK_INT(gs_profiler_step_lengthening(&in), 0);
}

int main(void)
{
    test_profiler_lengthening();
    test_actions_by_context();
    test_actions_by_gpu();
    test_profiler_share();
    test_no_gpu();
    test_healthy();
    test_long_text_kept_whole();
    test_each_class();
    test_sync_bound_by_host_and_gpu();
    test_speedup_bound();
    test_ranking_by_gain();
    test_thresholds();
    return check_done("test_diagnose");
}
