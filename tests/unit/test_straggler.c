/* Stragglers (analysis/crossrank/straggler.h) on hand-made ranks, and the diagnosis rule that reads them.
 * Times in µs. Each rank has 4 steps of 10 ms; in step k (from T = 10000 k):
 *   ProfilerStep#k+1 [T, T + 10000)
 *   compute kernel   [T + 100, T + 100 + C_r + d_r(k))             launched at T + 10
 *   all-reduce       [T + 100 + C_r + d_r(k), T + 100 + max C + 600)  launched at T + 20
 * so every all-reduce ends together and the rank with the longest compute arrives last. */
#include "analysis/crossrank/straggler.h"

#include <string.h>

#include "analysis/diagnosis/diagnose.h"
#include "check.h"
#include "profile_fold.h"
#include "trace_builder.h"

#define US 1000
#define AR "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
#define STEPS 4

static gs_trace *rank_trace(int32_t rank, gs_ns compute, const gs_ns *extra, gs_ns max_compute)
{
    gs_trace *t = tb_new("rank.json", rank);
    for (int k = 0; k < STEPS; k++) {
        gs_ns T = 10000 * (gs_ns)k;
        char name[32];
        snprintf(name, sizeof name, "ProfilerStep#%d", k + 1);
        tb_range(t, GS_RANGE_ANNOTATION, name, T * US, (T + 10000) * US, NULL);
        gs_ns arrive = T + 100 + compute + extra[k];
        tb_api(t, "cudaLaunchKernel", (T + 10) * US, (T + 15) * US, 10 * (uint64_t)k + 1);
        tb_kernel(t, "gemm", (T + 100) * US, arrive * US, 10 * (uint64_t)k + 1);
        tb_api(t, "cudaLaunchKernelExC", (T + 20) * US, (T + 25) * US, 10 * (uint64_t)k + 2);
        tb_kernel(t, AR, arrive * US, (T + 100 + max_compute + 600) * US, 10 * (uint64_t)k + 2);
    }
    return t;
}

static void build(gs_profile *p, const gs_ns *compute, const gs_ns (*extra)[STEPS])
{
    memset(p, 0, sizeof *p);
    gs_ns max = 0;
    for (int r = 0; r < 3; r++)
        for (int k = 0; k < STEPS; k++)
            max = compute[r] + extra[r][k] > max ? compute[r] + extra[r][k] : max;
    for (int r = 0; r < 3; r++)
        tb_add(p, rank_trace(r, compute[r], extra[r], max));
}

static void test_straggler_found(void)
{
    const gs_ns compute[] = {6000, 6000, 7000};
    const gs_ns extra[3][STEPS] = {{0}};
    gs_profile p;
    build(&p, compute, extra);
    gs_stragglers s;
    gs_error err;
    CHECK(fold_stragglers(&p, NULL, true, &s, &err) == 0);
    CHECK_INT(s.nranks, 3);
    CHECK_INT(s.n, STEPS);
    CHECK_INT(s.straggler, 2);
    CHECK_INT(s.candidate, 2);
    CHECK_INT(s.ranks[2].last, STEPS);
    CHECK(s.ranks[2].last_share == 1.0);
    CHECK_INT(s.ranks[2].mean_lateness_ns, 1000 * US); /* 7100 - median(6100, 6100) */
    CHECK_INT(s.ranks[0].wait_ns, 1000 * US);
    CHECK_INT(s.ranks[0].wait_straggler_ns, 1000 * US);
    CHECK_INT(s.ranks[2].wait_ns, 0);
    CHECK_INT(s.others_wait_ns, 1000 * US);
    CHECK_INT(s.ranks[0].compute_ns, 6000 * US);
    CHECK_INT(s.ranks[2].compute_ns, 7000 * US);
    CHECK_INT(s.ranks[0].steps, STEPS);
    CHECK_INT(s.ranks[0].step_ns, 10000 * US);
    CHECK_INT(s.median_step_ns, 10000 * US);
    CHECK_INT(s.median_compute_ns, 6000 * US);
    CHECK(s.compute_excess > 0.1666 && s.compute_excess < 0.1667);
    CHECK_INT(s.v[0].last, 2);
    CHECK_INT(s.v[0].step, 1);
    CHECK_INT(s.v[3].step, 4);
    CHECK_INT(s.v[0].skew_ns, 1000 * US);
    CHECK_INT(s.skew[GS_COLL_ALL_REDUCE].n, STEPS);
    CHECK_INT(s.skew[GS_COLL_ALL_REDUCE].med, 1000 * US);
    CHECK_INT(s.skew_all.p95, 1000 * US);
    CHECK_INT(gs_stragglers_rank_of(&s, &p.traces.v[1]->id), 1);
    CHECK_INT(gs_stragglers_rank_of(&s, &(gs_rank_id){.path = "rank.json", .rank = 7}), -1);
    CHECK(s.ranks[1].id != &p.traces.v[1]->id); /* the result's own copy */
    CHECK_INT(s.ranks[1].id->rank, 1);
    CHECK_STR(s.ranks[1].id->path, "rank.json");
    gs_stragglers_free(&s);
    gs_profile_free(&p);
}

/* The last rank changes from step to step (by 10 µs): rank 0 is last at 2 of 4, not most. */
static void test_balanced(void)
{
    const gs_ns compute[] = {6000, 6000, 6000};
    const gs_ns extra[3][STEPS] = {{10, 0, 0, 10}, {0, 10, 0, 0}, {0, 0, 10, 0}};
    gs_profile p;
    build(&p, compute, extra);
    gs_stragglers s;
    gs_error err;
    CHECK(fold_stragglers(&p, NULL, true, &s, &err) == 0);
    CHECK_INT(s.candidate, 0);
    CHECK(s.ranks[0].last_share == 0.5);
    CHECK_INT(s.straggler, -1);
    gs_stragglers_free(&s);
    gs_profile_free(&p);
}

/* Always last, but by 100 µs of a 10 ms step: 1 %, not material. */
static void test_not_material(void)
{
    const gs_ns compute[] = {6000, 6000, 6100};
    const gs_ns extra[3][STEPS] = {{0}};
    gs_profile p;
    build(&p, compute, extra);
    gs_stragglers s;
    gs_error err;
    CHECK(fold_stragglers(&p, NULL, true, &s, &err) == 0);
    CHECK_INT(s.candidate, 2);
    CHECK_INT(s.others_wait_ns, 100 * US);
    CHECK_INT(s.straggler, -1);
    gs_stragglers_free(&s);

    /* one rank selected: nothing to compare */
    gs_select only1 = {.by_rank = true, .rank = 1};
    CHECK(fold_stragglers(&p, &only1, true, &s, &err) == 0);
    CHECK_INT(s.nranks, 1);
    CHECK_INT(s.n, 0);
    CHECK_INT(s.candidate, -1);
    CHECK_INT(s.straggler, -1);
    gs_stragglers_free(&s);
    gs_profile_free(&p);
}

/* The rule: fires with the straggler's numbers; the wait it claims leaves the communication
 * rule; on the straggler itself the stake is the others' wait. */
static const gs_finding *finding(const gs_diagnosis *d, const char *id)
{
    for (size_t i = 0; i < d->n; i++)
        if (strcmp(d->findings[i].rule->id, id) == 0)
            return &d->findings[i];
    return NULL;
}

static void test_rule(void)
{
    gs_diag_inputs in = {.steps = 10, .gpu_activities = 100, .step_ns = 10000 * US,
                         .kernel_ns = 6000 * US, .comm_ns = 1500 * US,
                         .mem_peak_share = -1, .mem_fragmentation = -1, .mem_growth_r2 = -1,
                         .strag_ranks = 4, .strag_collectives = 20, .strag_rank = 3,
                         .strag_last_share = 0.95, .strag_compute_excess = 0.11,
                         .strag_lateness_ns = 1200 * US, .strag_others_wait_ns = 1100 * US,
                         .strag_step_ns = 10000 * US, .strag_wait_ns = 1200 * US};
    gs_diagnosis d;
    CHECK(gs_diagnose(&in, &d) == 0);
    const gs_finding *f = finding(&d, "straggler"), *c = finding(&d, "communication_bound");
    CHECK(f && f->severity == GS_SEV_BOTTLENECK);
    CHECK(f && f->at_stake_ns == 1200 * US);
    CHECK(f && strstr(f->evidence, "rank 3 arrived last at 95 % of 20 collectives") != NULL);
    CHECK(f && strstr(f->evidence, "11 % longer than the median rank's") != NULL);
    CHECK(c && c->at_stake_ns == 300 * US && c->severity == GS_SEV_NONE);
    CHECK_STR(d.findings[d.order[0]].rule->id, "straggler");
    gs_diagnosis_free(&d);

    in.strag_is_self = true;
    in.strag_wait_ns = 0;
    CHECK(gs_diagnose(&in, &d) == 0);
    f = finding(&d, "straggler");
    CHECK(f && f->at_stake_ns == 1100 * US);
    CHECK(f && strstr(f->evidence, "rank 3 (this rank)") != NULL);
    gs_diagnosis_free(&d);

    in.strag_last_share = 0.55; /* not most: no finding, communication keeps its time */
    CHECK(gs_diagnose(&in, &d) == 0);
    CHECK(finding(&d, "straggler")->severity == GS_SEV_NONE);
    CHECK(finding(&d, "communication_bound")->at_stake_ns == 1500 * US);
    gs_diagnosis_free(&d);

    in.strag_ranks = 1; /* one rank */
    CHECK(gs_diagnose(&in, &d) == 0);
    CHECK(finding(&d, "straggler")->severity == GS_SEV_NONE);
    gs_diagnosis_free(&d);
}

int main(void)
{
    test_straggler_found();
    test_balanced();
    test_not_material();
    test_rule();
    return check_done("straggler");
}
