/* The expected gain of a finding, from the replay of its rule's action (doc/diagnosis.md, "The
 * gain at stake, and the order"): the replay's ratio applied to the measured step, and the verdict
 * ordered by it where the replay gave one, by the upper bound elsewhere. Replay inputs set by
 * hand. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diagnosis/diagnose.h"
#include "check.h"

#define MS 1000000LL

/* A healthy 100 ms step on a Hopper GPU, the replay unknown. */
static gs_diag_inputs healthy(void)
{
    gs_diag_inputs in = {
        .steps = 10, .gpu_activities = 3000, .step_ns = 100 * MS, .kernel_ns = 80 * MS,
        .cpu_exec_ns = 5 * MS, .runtime_ns = 2 * MS, .other_ns = 1 * MS, .gpu_util = 0.80,
        .kernels_per_step = 300, .median_kernel_ns = 200000, .median_launch_ns = 5000,
        .short_kernel_share = 0.05, .mem_peak_share = 0.5, .mem_fragmentation = 1.1,
        .tensor_core_share = 0.8, .compute_major = 9, .mfu = -1, .flop_op_share = -1,
        .tc_eligible_share = -1, .tc_unused_share = -1, .replay_step_ns = -1,
    };
    for (int a = 0; a < GS_REPLAY__COUNT; a++)
        in.replay_expected_ns[a] = -1;
    return in;
}

/* The replay's unchanged step, and the step with each action as given (the others unknown); no
 * profiler cost: the step without it is the unchanged one. */
static void set_replay(gs_diag_inputs *in, gs_ns unchanged, enum gs_replay_action a, gs_ns with)
{
    in->replay_step_ns = unchanged;
    in->replay_expected_ns[GS_REPLAY_NO_PROFILER] = unchanged;
    in->replay_expected_ns[a] = with;
}

static const gs_finding *by_id(const gs_diagnosis *d, const char *id)
{
    for (size_t i = 0; i < d->n; i++)
        if (!strcmp(d->findings[i].rule->id, id))
            return &d->findings[i];
    return NULL;
}

static const char *ranked(const gs_diagnosis *d, size_t k)
{
    return k < d->nfired ? d->findings[d->order[k]].rule->id : "";
}

/* The rules that a replay action estimates, by the table. */
static void test_rule_actions(void)
{
    static const struct {
        const char *id;
        enum gs_replay_action a;
    } want[] = {
        {"data_loading", GS_REPLAY_DATALOADER_WORKERS}, {"sync_bound", GS_REPLAY_REMOVE_SYNCS},
        {"launch_bound", GS_REPLAY_CUDA_GRAPHS},        {"graphs_unreplayed", GS_REPLAY_CUDA_GRAPHS},
        {"host_bound", GS_REPLAY_COMPILE},               {"transfer_bound", GS_REPLAY_PINNED_MEMORY},
        {"communication_bound", GS_REPLAY_OVERLAP_COMM},
        {"compute_bound", GS_REPLAY_MIXED_PRECISION},
        {"tensor_cores_unused", GS_REPLAY_MIXED_PRECISION},
        {"straggler", GS_REPLAY_NONE},                  {"low_mfu", GS_REPLAY_NONE},
        {"warmup", GS_REPLAY_NONE},
    };
    size_t n;
    const gs_rule *rules = gs_rules(&n);
    for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
        const gs_rule *r = NULL;
        for (size_t i = 0; i < n; i++)
            if (!strcmp(rules[i].id, want[w].id))
                r = &rules[i];
        CHECK(r != NULL);
        if (r)
            CHECK_INT(r->replay, want[w].a);
    }
}

/* Data loading, 30 ms of a 100 ms step: the replay measures 95 ms unchanged (its error -5 %) and
 * 76 ms with more workers, 1.25x; applied to the measured 100 ms, 80 ms expected. */
static void test_expected_speedup(void)
{
    gs_diag_inputs in = healthy();
    in.dataloader_ns = 30 * MS;
    in.kernel_ns = 50 * MS;
    in.gpu_util = 0.5;
    set_replay(&in, 95 * MS, GS_REPLAY_DATALOADER_WORKERS, 76 * MS);
    gs_diagnosis d;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    const gs_finding *f = by_id(&d, "data_loading");
    CHECK_INT(f->severity, GS_SEV_BOTTLENECK);
    CHECK(fabs(f->expected_speedup - 1.25) < 1e-12);
    CHECK_INT(f->expected_step_ns, 80 * MS);
    CHECK(fabs(f->speedup_bound - 100.0 / 70.0) < 1e-12); /* the bound stays */
    gs_diagnosis_free(&d);

    /* the action not replayed, or no replay at all: nothing expected */
    in.replay_expected_ns[GS_REPLAY_DATALOADER_WORKERS] = -1;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK(by_id(&d, "data_loading")->expected_speedup == 0.0);
    CHECK_INT(by_id(&d, "data_loading")->expected_step_ns, 0);
    gs_diagnosis_free(&d);
    in.replay_expected_ns[GS_REPLAY_NO_PROFILER] = -1;
    in.replay_expected_ns[GS_REPLAY_DATALOADER_WORKERS] = 76 * MS;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK(by_id(&d, "data_loading")->expected_speedup == 0.0);
    gs_diagnosis_free(&d);

    /* The profiler's host time is no action's: 100 ms replayed, 80 ms without the profiler, 64 ms
     * with more workers (and without the profiler): 80 / 64 = 1.25x, not 100 / 64. */
    in.replay_step_ns = 100 * MS;
    in.replay_expected_ns[GS_REPLAY_NO_PROFILER] = 80 * MS;
    in.replay_expected_ns[GS_REPLAY_DATALOADER_WORKERS] = 64 * MS;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK(fabs(by_id(&d, "data_loading")->expected_speedup - 1.25) < 1e-12);
    CHECK_INT(by_id(&d, "data_loading")->expected_step_ns, 80 * MS);
    gs_diagnosis_free(&d);
}

/* Data loading holds 30 ms, pageable copies 20 ms: by the bound, data loading first. The replay
 * says more workers save 5 ms and pinned memory 15 ms: the copies first, though their bound is
 * smaller. */
static void test_ranking_by_expected_gain(void)
{
    gs_diag_inputs in = healthy();
    in.dataloader_ns = 30 * MS;
    in.memcpy_ns = 20 * MS;
    in.pageable_copy_ns = 20 * MS;
    in.kernel_ns = 40 * MS;
    in.gpu_util = 0.4;
    gs_diagnosis d;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK_STR(ranked(&d, 0), "data_loading");
    CHECK_STR(ranked(&d, 1), "transfer_bound");
    gs_diagnosis_free(&d);

    set_replay(&in, 100 * MS, GS_REPLAY_DATALOADER_WORKERS, 95 * MS);
    set_replay(&in, 100 * MS, GS_REPLAY_PINNED_MEMORY, 85 * MS);
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK_STR(ranked(&d, 0), "transfer_bound");
    CHECK_STR(ranked(&d, 1), "data_loading");
    CHECK_INT(by_id(&d, "transfer_bound")->expected_step_ns, 85 * MS);
    CHECK_INT(by_id(&d, "data_loading")->gain_ns, 30 * MS); /* the bound is still said */
    gs_diagnosis_free(&d);
}

/* A replay that says the action gains nothing ranks its finding below one that has only its
 * bound: 7.3 ms of GEMMs below the MFU target outrank 30 ms of data loading that more workers
 * would not shorten. */
static void test_no_gain_ranks_low(void)
{
    gs_diag_inputs in = healthy();
    in.dataloader_ns = 30 * MS;
    in.kernel_ns = 40 * MS;
    in.gpu_util = 0.4;
    in.mfu = 0.05;
    in.flop_op_share = 0.6;
    gs_diagnosis d;
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK_STR(ranked(&d, 0), "data_loading");
    gs_diagnosis_free(&d);

    set_replay(&in, 100 * MS, GS_REPLAY_DATALOADER_WORKERS, 100 * MS);
    CHECK_INT(gs_diagnose(&in, &d), 0);
    CHECK(fabs(by_id(&d, "data_loading")->expected_speedup - 1.0) < 1e-12);
    CHECK_STR(ranked(&d, 0), "low_mfu");
    CHECK_STR(ranked(&d, 1), "data_loading");
    gs_diagnosis_free(&d);
}

/* Mixed precision is replayed only on a GPU whose Tensor Cores take a precision the advice gives
 * (bf16 on Ampere, fp16 on Volta); before Volta, or on a GPU the trace does not name, the finding
 * keeps its bound alone. */
static void test_mixed_precision_by_gpu(void)
{
    static const struct {
        int32_t major;
        bool expected;
    } cases[] = {{9, true}, {8, true}, {7, true}, {6, false}, {0, false}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gs_diag_inputs in = healthy();
        in.kernel_ns = 95 * MS;
        in.gpu_util = 0.97;
        in.tensor_core_share = 0.0;
        in.tc_eligible_share = 0.8;
        in.tc_unused_share = 1.0;
        in.compute_major = cases[i].major;
        set_replay(&in, 100 * MS, GS_REPLAY_MIXED_PRECISION, 50 * MS);
        gs_diagnosis d;
        CHECK_INT(gs_diagnose(&in, &d), 0);
        const gs_finding *cb = by_id(&d, "compute_bound");
        CHECK(cb->severity != GS_SEV_NONE);
        CHECK(cb->expected_speedup == (cases[i].expected ? 2.0 : 0.0));
        CHECK_INT(cb->expected_step_ns, cases[i].expected ? 50 * MS : 0);
        gs_diagnosis_free(&d);
    }
}

/* Overlapping collectives with the backward pass is the advice of a data-parallel job; a
 * tensor-parallel job's collectives sit in the forward, where the replay keeps them, and its
 * advice is another: its finding keeps its bound alone. */
static void test_overlap_by_parallelism(void)
{
    static const struct {
        uint8_t kinds;
        bool expected;
    } cases[] = {{1u << GS_PAR_DATA, true}, {1u << GS_PAR_SHARDED, true},
                 {1u << GS_PAR_TENSOR, false}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gs_diag_inputs in = healthy();
        in.comm_ns = 40 * MS;
        in.facts.known = true;
        in.facts.workload = GS_WORKLOAD_TRAINING;
        in.facts.backward_events = 10;
        in.facts.collectives = in.facts.all_reduces = 20;
        in.facts.parallel_kinds = cases[i].kinds;
        set_replay(&in, 100 * MS, GS_REPLAY_OVERLAP_COMM, 80 * MS);
        gs_diagnosis d;
        CHECK_INT(gs_diagnose(&in, &d), 0);
        const gs_finding *f = by_id(&d, "communication_bound");
        CHECK_INT(f->severity, GS_SEV_BOTTLENECK);
        CHECK(f->expected_speedup == (cases[i].expected ? 1.25 : 0.0));
        CHECK_INT(f->expected_step_ns, cases[i].expected ? 80 * MS : 0);
        gs_diagnosis_free(&d);
    }
}

int main(void)
{
    test_rule_actions();
    test_expected_speedup();
    test_ranking_by_expected_gain();
    test_no_gain_ranks_low();
    test_mixed_precision_by_gpu();
    test_overlap_by_parallelism();
    return check_done("test_diag_expected");
}
