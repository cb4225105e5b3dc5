/* The diagnosis rules. Each rule reads named inputs, compares them with named thresholds
 * (thresholds.h), and fills a finding: severity, time at stake, evidence, and why it fired or
 * not. The time a rule puts at stake is a share of the step that no other rule also claims, so
 * the ranking compares like with like:
 *   data loading   = DataLoader time while the GPU idles (TensorBoard plugin category)
 *   sync           = GPU idle right after synchronizing calls (pipeline drained), at most the
 *                    time the host is blocked in them and the step less the GPU's work: the
 *                    host's own work and the GPU's stay when the syncs go
 *   graphs / launch / host
 *                  = the rest of the GPU-idle host time (runtime + CPU exec + untraced): CUDA
 *                    graphs' when graphs were instantiated but not replayed, else launch when
 *                    kernels are short, else host
 *   transfer       = copies and sets while no kernel runs
 *   communication  = collectives while no compute kernel runs (exposed), less the wait for a
 *                    straggler, which the straggler rule claims
 *   straggler      = this rank's wait for the straggler inside collectives (on the straggler
 *                    itself: the other ranks' mean wait, what it costs the job)
 *   compute        = kernel time, when the GPU is busy: only faster kernels help
 * The memory rules, which put no time at stake, are in diag_memory.c. */
#include "analysis/diagnosis/diagnose.h"

#include "analysis/diagnosis/diag_finding.h"
#include "analysis/diagnosis/diag_rules.h"

#include "analysis/crossrank/straggler.h"
#include "analysis/base/gpu_caps.h"
#include "analysis/base/thresholds.h"

/* ---- helpers -------------------------------------------------------------------------------- */

/* GPU work per step: the breakdown's GPU categories (each instant in one category). */
static gs_ns gpu_work(const gs_diag_inputs *in)
{
    return in->kernel_ns + in->memcpy_ns + in->memset_ns + in->comm_ns;
}

/* What removing the synchronizations can win: the GPU idle after them, but no more than the host
 * was blocked in them (the host's own work stays: step >= host work = step - blocked) nor than
 * the step less the GPU's work (step >= GPU work). Speed-up <= step / max(GPU work, host work). */
static gs_ns sync_claim(const gs_diag_inputs *in)
{
    gs_ns ns = in->sync_idle_ns;
    if (in->sync_blocked_ns < ns)
        ns = in->sync_blocked_ns;
    if (in->step_ns - gpu_work(in) < ns)
        ns = in->step_ns - gpu_work(in);
    return ns > 0 ? ns : 0;
}

/* GPU-idle host time not already explained by the DataLoader or by synchronization. */
static gs_ns host_idle(const gs_diag_inputs *in)
{
    gs_ns ns = in->runtime_ns + in->cpu_exec_ns + in->other_ns - sync_claim(in);
    return ns > 0 ? ns : 0;
}

/* Graphs were instantiated but (almost) no kernel ran from one: kernels went one by one. */
static bool graphs_unreplayed(const gs_diag_inputs *in)
{
    return in->graphs.instantiations > 0 &&
           (in->graphs.launches == 0 || gs_graph_kernel_share(&in->graphs) < GS_TH_GRAPH_REPLAYED_SHARE);
}

/* A trace of the capture itself (cuda_graphs.h): the replay comes after the trace. */
static bool capture_only(const gs_diag_inputs *in)
{
    return graphs_unreplayed(in) && gs_graphs_capture_only(&in->graphs);
}

/* The graphs rule claims the GPU-idle host time when it is a bottleneck, or when the trace holds
 * only the capture (its host time is the capture's): the launch and host rules then leave it
 * (one cause per share of the step). */
static bool graphs_claim_host_idle(const gs_diag_inputs *in)
{
    return in->gpu_activities > 0 && graphs_unreplayed(in) &&
           (capture_only(in) || share(in, host_idle(in)) > GS_TH_LAUNCH_HOSTWAIT_SHARE);
}

/* The host-side rules (launch overhead, host bound) read host time the profiler added to: the
 * profiler's estimated host time per step (trace_facts.h), as much of it as the GPU-idle host
 * time holds, is taken off their time at stake, and the gain is what remains against the step
 * without it. The rule fires on the trace as recorded; when what remains is below its threshold,
 * the finding is kept, as a finding, saying the profiler could explain it. */
static void set_stake_without_profiler(const gs_diag_inputs *in, gs_finding *f, gs_ns remaining,
                                       gs_ns profiler)
{
    gs_ns step = in->step_ns - profiler;
    f->at_stake_ns = remaining > 0 ? remaining : 0;
    f->at_stake_share = step > 0 ? (double)f->at_stake_ns / (double)step : 0.0;
    f->speedup_bound = f->at_stake_ns < step ? (double)step / (double)(step - f->at_stake_ns) : 0;
}

/* Adds to a host-side finding what the profiler's share means for it (to its evidence, being
 * built in `evidence`), and lowers its gain. */
static void take_off_profiler(const gs_diag_inputs *in, gs_finding *f, gs_ns idle, double th,
                              gs_strbuf *evidence)
{
    gs_ns prof = gs_profiler_within(in, idle);
    if (in->facts.known)
        add_input(f, "profiler_step_ns", (double)in->facts.profiler_step_ns, GS_UNIT_NS);
    if (f->severity == GS_SEV_NONE || prof <= 0)
        return;
    f->recorded_share = share(in, idle);
    f->profiler_ns = prof;
    set_stake_without_profiler(in, f, idle - prof, prof);
    if (f->at_stake_share <= th)
        f->severity = GS_SEV_FINDING;
    gs_strbuf_appendf(evidence,
                      "; about %.3f ms of it is the profiler's own host time (%s, estimated: "
                      "doc/diagnosis.md), leaving %.3f ms%s",
                      ms(prof), gs_collector_name(in->facts.collector), ms(idle - prof),
                      f->severity == GS_SEV_FINDING ? ": the profiler could explain this verdict"
                                                    : "");
}

/* Many kernels, short ones, shorter than their launch calls: the host's launch rate bounds them. */
static bool kernels_short(const gs_diag_inputs *in)
{
    return in->kernels_per_step >= GS_TH_LAUNCH_MIN_KERNELS_PER_STEP &&
           in->median_kernel_ns >= 0 && in->median_kernel_ns < GS_TH_SHORT_KERNEL_NS &&
           in->short_kernel_share >= GS_TH_SHORT_KERNEL_SHARE;
}

/* The rules about the GPU waiting need a GPU: on a CPU-only profile they say so and stay quiet. */
static bool without_gpu(const gs_diag_inputs *in, gs_finding *f)
{
    if (in->gpu_activities > 0)
        return false;
    f->severity = GS_SEV_NONE;
    set_stake(in, f, 0, true);
    EVIDENCE(f, "no GPU activity in the trace");
    WHY(f, "no GPU activity in the trace: the rule does not apply");
    return true;
}

/* ---- rules ---------------------------------------------------------------------------------- */

void diag_rule_data_loading(const gs_diag_inputs *in, gs_finding *f)
{
    add_input(f, "dataloader_ns", (double)in->dataloader_ns, GS_UNIT_NS);
    add_input(f, "step_ns", (double)in->step_ns, GS_UNIT_NS);
    add_threshold(f, "finding_share", GS_TH_DATALOADER_FINDING, GS_UNIT_SHARE);
    add_threshold(f, "bottleneck_share", GS_TH_DATALOADER_BOTTLENECK, GS_UNIT_SHARE);
    set_stake(in, f, in->dataloader_ns, true);
    double s = f->at_stake_share;
    f->severity = s > GS_TH_DATALOADER_BOTTLENECK ? GS_SEV_BOTTLENECK
                  : s > GS_TH_DATALOADER_FINDING  ? GS_SEV_FINDING
                                                  : GS_SEV_NONE;
    EVIDENCE(f, "the GPU waits on the DataLoader %.3f ms per step (%.1f %% of the %.3f ms step)",
             ms(in->dataloader_ns), 100 * s, ms(in->step_ns));
    WHY(f, "DataLoader share %.1f %% vs %.0f %% (finding) and %.0f %% (bottleneck)", 100 * s,
        100 * GS_TH_DATALOADER_FINDING, 100 * GS_TH_DATALOADER_BOTTLENECK);
}

void diag_rule_sync(const gs_diag_inputs *in, gs_finding *f)
{
    if (without_gpu(in, f))
        return;
    add_input(f, "sync_idle_ns", (double)in->sync_idle_ns, GS_UNIT_NS);
    add_input(f, "sync_blocked_ns", (double)in->sync_blocked_ns, GS_UNIT_NS);
    add_input(f, "gpu_work_ns", (double)gpu_work(in), GS_UNIT_NS);
    add_input(f, "step_ns", (double)in->step_ns, GS_UNIT_NS);
    add_threshold(f, "sync_idle_share", GS_TH_SYNC_SHARE, GS_UNIT_SHARE);
    gs_ns claim = sync_claim(in);
    set_stake(in, f, claim, true);
    f->severity = f->at_stake_share > GS_TH_SYNC_SHARE ? GS_SEV_BOTTLENECK : GS_SEV_NONE;
    gs_strbuf evidence;
    gs_strbuf_init(&evidence);
    gs_strbuf_appendf(&evidence,
                      "after synchronizing calls the GPU sits idle %.3f ms per step (%.1f %%); the "
                      "host is blocked in them %.3f ms per step",
                      ms(in->sync_idle_ns), 100 * share(in, in->sync_idle_ns),
                      ms(in->sync_blocked_ns));
    if (in->sync_top_op)
        gs_strbuf_appendf(&evidence, ", mostly under %s", in->sync_top_op);
    /* When the bound is below the idle, say which one holds it. */
    if (claim < in->sync_idle_ns)
        gs_strbuf_appendf(&evidence,
                          "; removing them wins at most %.3f ms per step (the host's own work, "
                          "%.3f ms, and the GPU's, %.3f ms, stay)",
                          ms(claim), ms(in->step_ns - in->sync_blocked_ns), ms(gpu_work(in)));
    keep_text(&f->evidence, &evidence);
    WHY(f, "idle after syncs %.1f %% of the step, of which removing them can win %.1f %% "
        "(at most the time blocked in them and the step less the GPU's work) vs %.0f %%",
        100 * share(in, in->sync_idle_ns), 100 * f->at_stake_share, 100 * GS_TH_SYNC_SHARE);
}

void diag_rule_launch(const gs_diag_inputs *in, gs_finding *f)
{
    if (without_gpu(in, f))
        return;
    gs_ns idle = host_idle(in);
    add_input(f, "host_idle_ns", (double)idle, GS_UNIT_NS);
    add_input(f, "kernels_per_step", in->kernels_per_step, GS_UNIT_COUNT);
    add_input(f, "median_kernel_ns", (double)in->median_kernel_ns, GS_UNIT_NS);
    add_input(f, "median_launch_ns", (double)in->median_launch_ns, GS_UNIT_NS);
    add_input(f, "short_kernel_share", in->short_kernel_share, GS_UNIT_SHARE);
    add_threshold(f, "kernels_per_step", GS_TH_LAUNCH_MIN_KERNELS_PER_STEP, GS_UNIT_COUNT);
    add_threshold(f, "median_kernel_ns", GS_TH_SHORT_KERNEL_NS, GS_UNIT_NS);
    add_threshold(f, "short_kernel_share", GS_TH_SHORT_KERNEL_SHARE, GS_UNIT_SHARE);
    add_threshold(f, "host_idle_share", GS_TH_LAUNCH_HOSTWAIT_SHARE, GS_UNIT_SHARE);
    set_stake(in, f, idle, true);
    bool fires = kernels_short(in) && f->at_stake_share > GS_TH_LAUNCH_HOSTWAIT_SHARE &&
                 !graphs_claim_host_idle(in);
    f->severity = fires ? GS_SEV_BOTTLENECK : GS_SEV_NONE;
    if (!fires)
        set_stake(in, f, 0, true);
    gs_strbuf evidence;
    gs_strbuf_init(&evidence);
    gs_strbuf_appendf(&evidence,
                      "%.0f kernels per step, median %.1f us, %.0f %% of them shorter than their "
                      "launch call (median %.1f us); the GPU waits on the host %.3f ms per step "
                      "(%.1f %%)",
                      in->kernels_per_step, (double)in->median_kernel_ns / 1e3,
                      100 * in->short_kernel_share, (double)in->median_launch_ns / 1e3, ms(idle),
                      100 * share(in, idle));
    WHY(f, "%.0f kernels per step (>= %d?), median kernel %.1f us (< %.0f us?), short kernels "
        "%.0f %% (>= %.0f %%?), GPU waiting on the host %.1f %% (> %.0f %%?)",
        in->kernels_per_step, GS_TH_LAUNCH_MIN_KERNELS_PER_STEP,
        (double)in->median_kernel_ns / 1e3, GS_TH_SHORT_KERNEL_NS / 1e3,
        100 * in->short_kernel_share, 100 * GS_TH_SHORT_KERNEL_SHARE, 100 * share(in, idle),
        100 * GS_TH_LAUNCH_HOSTWAIT_SHARE);
    take_off_profiler(in, f, idle, GS_TH_LAUNCH_HOSTWAIT_SHARE, &evidence);
    keep_text(&f->evidence, &evidence);
}

/* CUDA graphs captured and instantiated, then (almost) never launched: the step's kernels were
 * launched one by one, so the host time the graph would have saved is at stake. */
void diag_rule_graphs(const gs_diag_inputs *in, gs_finding *f)
{
    if (without_gpu(in, f))
        return;
    const gs_graph_facts *g = &in->graphs;
    gs_ns idle = host_idle(in);
    add_input(f, "graph_captures", (double)g->captures, GS_UNIT_COUNT);
    add_input(f, "graph_instantiations", (double)g->instantiations, GS_UNIT_COUNT);
    add_input(f, "graph_launches", (double)g->launches, GS_UNIT_COUNT);
    add_input(f, "captured_launches", (double)g->captured_launches, GS_UNIT_COUNT);
    add_input(f, "graph_kernel_share", gs_graph_kernel_share(g), GS_UNIT_SHARE);
    add_input(f, "host_idle_ns", (double)idle, GS_UNIT_NS);
    add_threshold(f, "graph_kernel_share", GS_TH_GRAPH_REPLAYED_SHARE, GS_UNIT_SHARE);
    add_threshold(f, "host_idle_share", GS_TH_LAUNCH_HOSTWAIT_SHARE, GS_UNIT_SHARE);
    bool fires = graphs_unreplayed(in);
    set_stake(in, f, fires && !capture_only(in) ? idle : 0, true);
    f->severity = !fires                   ? GS_SEV_NONE
                  : capture_only(in)       ? GS_SEV_NOTE
                  : graphs_claim_host_idle(in) ? GS_SEV_BOTTLENECK
                                               : GS_SEV_FINDING;
    if (fires && capture_only(in)) {
        EVIDENCE(f, "the trace holds the capture: %llu kernel launch%s recorded into %llu CUDA "
                 "graph%s, %llu kernel%s run, no graph launched; the graphs are replayed after "
                 "it, outside the trace (a server capturing at start-up), so neither their replay "
                 "nor the steady state is in it",
                 (unsigned long long)g->captured_launches, g->captured_launches == 1 ? "" : "es",
                 (unsigned long long)g->instantiations, g->instantiations == 1 ? "" : "s",
                 (unsigned long long)g->kernels, g->kernels == 1 ? "" : "s");
        WHY(f, "no graph launched and %llu captured launches >= %llu kernels run: a trace of the "
            "capture, a note",
            (unsigned long long)g->captured_launches, (unsigned long long)g->kernels);
        return;
    }
    if (!g->instantiations) {
        EVIDENCE(f, "no CUDA graph instantiated; %llu of %llu kernels ran from a graph",
                 (unsigned long long)g->graph_kernels, (unsigned long long)g->kernels);
        WHY(f, "no graph instantiated (> 0?): the rule does not apply");
        return;
    }
    gs_strbuf evidence;
    gs_strbuf_init(&evidence);
    gs_strbuf_appendf(&evidence, "%llu CUDA graph%s instantiated",
                      (unsigned long long)g->instantiations, g->instantiations == 1 ? "" : "s");
    if (g->captures)
        gs_strbuf_appendf(&evidence, " (%llu kernel launch%s recorded in %llu capture%s)",
                          (unsigned long long)g->captured_launches,
                          g->captured_launches == 1 ? "" : "es", (unsigned long long)g->captures,
                          g->captures == 1 ? "" : "s");
    gs_strbuf_appendf(&evidence,
                      ", %llu graph launch%s: %llu of %llu kernels (%.1f %%) ran from a graph, the "
                      "rest were launched one by one; the GPU waits on the host %.3f ms per step "
                      "(%.1f %%)",
                      (unsigned long long)g->launches, g->launches == 1 ? "" : "es",
                      (unsigned long long)g->graph_kernels, (unsigned long long)g->kernels,
                      100 * gs_graph_kernel_share(g), ms(idle), 100 * share(in, idle));
    keep_text(&f->evidence, &evidence);
    WHY(f, "%llu graph(s) instantiated (> 0?), %llu launched (0?) or %.1f %% of kernels from a "
        "graph (< %.0f %%?); GPU waiting on the host %.1f %% (> %.0f %% for a bottleneck?)",
        (unsigned long long)g->instantiations, (unsigned long long)g->launches,
        100 * gs_graph_kernel_share(g), 100 * GS_TH_GRAPH_REPLAYED_SHARE, 100 * share(in, idle),
        100 * GS_TH_LAUNCH_HOSTWAIT_SHARE);
}

void diag_rule_host(const gs_diag_inputs *in, gs_finding *f)
{
    if (without_gpu(in, f))
        return;
    gs_ns idle = host_idle(in);
    add_input(f, "host_idle_ns", (double)idle, GS_UNIT_NS);
    add_input(f, "cpu_exec_ns", (double)in->cpu_exec_ns, GS_UNIT_NS);
    add_input(f, "runtime_ns", (double)in->runtime_ns, GS_UNIT_NS);
    add_input(f, "other_ns", (double)in->other_ns, GS_UNIT_NS);
    add_input(f, "sync_idle_ns", (double)in->sync_idle_ns, GS_UNIT_NS);
    add_input(f, "gpu_util", in->gpu_util, GS_UNIT_SHARE);
    add_threshold(f, "host_idle_share", GS_TH_HOST_WAIT_SHARE, GS_UNIT_SHARE);
    set_stake(in, f, idle, true);
    bool fires = !kernels_short(in) && f->at_stake_share > GS_TH_HOST_WAIT_SHARE &&
                 !graphs_claim_host_idle(in);
    f->severity = fires ? GS_SEV_BOTTLENECK : GS_SEV_NONE;
    if (!fires)
        set_stake(in, f, 0, true);
    gs_strbuf evidence;
    gs_strbuf_init(&evidence);
    gs_strbuf_appendf(&evidence,
                      "the GPU waits on host work %.3f ms per step (%.1f %%): CPU operators %.3f "
                      "ms + runtime calls %.3f ms + untraced host time %.3f ms",
                      ms(idle), 100 * share(in, idle), ms(in->cpu_exec_ns), ms(in->runtime_ns),
                      ms(in->other_ns));
    /* The parts add up to the total: the GPU idle after synchronizing calls, which the
     * synchronization rule claims, is named as what is taken off (host_idle). */
    if (sync_claim(in) > 0)
        gs_strbuf_appendf(&evidence,
                          ", less %.3f ms after synchronizing calls (Synchronization's)",
                          ms(sync_claim(in)));
    gs_strbuf_appendf(&evidence, "; GPU utilization %.0f %%", 100 * in->gpu_util);
    WHY(f, "GPU waiting on the host %.1f %% of the step (> %.0f %%?)%s", 100 * share(in, idle),
        100 * GS_TH_HOST_WAIT_SHARE,
        graphs_claim_host_idle(in)
            ? "; CUDA graphs were instantiated but not replayed, so this is theirs instead"
        : kernels_short(in) ? "; kernels are short, so this is launch overhead instead"
                            : "");
    take_off_profiler(in, f, idle, GS_TH_HOST_WAIT_SHARE, &evidence);
    keep_text(&f->evidence, &evidence);
}

void diag_rule_transfer(const gs_diag_inputs *in, gs_finding *f)
{
    if (without_gpu(in, f))
        return;
    gs_ns copies = in->memcpy_ns + in->memset_ns;
    add_input(f, "memcpy_ns", (double)in->memcpy_ns, GS_UNIT_NS);
    add_input(f, "memset_ns", (double)in->memset_ns, GS_UNIT_NS);
    add_input(f, "pageable_copy_ns", (double)in->pageable_copy_ns, GS_UNIT_NS);
    add_threshold(f, "copy_share", GS_TH_TRANSFER_SHARE, GS_UNIT_SHARE);
    set_stake(in, f, copies, true);
    f->severity = f->at_stake_share > GS_TH_TRANSFER_SHARE ? GS_SEV_BOTTLENECK : GS_SEV_NONE;
    EVIDENCE(f,
             "copies and sets keep the GPU from computing %.3f ms per step (%.1f %%); %.3f ms "
             "per step of copies use pageable host memory",
             ms(copies), 100 * f->at_stake_share, ms(in->pageable_copy_ns));
    WHY(f, "copies not hidden behind kernels %.1f %% of the step vs %.0f %%",
        100 * f->at_stake_share, 100 * GS_TH_TRANSFER_SHARE);
}

/* Whether the straggler rule fires (the test is straggler.h's, shared with the view). */
static bool straggler_found(const gs_diag_inputs *in)
{
    double wait = in->strag_step_ns > 0
                      ? (double)in->strag_others_wait_ns / (double)in->strag_step_ns
                      : 0.0;
    return in->strag_ranks > 1 && in->strag_rank >= 0 &&
           gs_straggler_qualifies(in->strag_collectives, in->strag_last_share, wait);
}

/* Exposed communication, less the time this rank waited inside collectives for a straggler:
 * that wait is the straggler's, and the straggler rule claims it. */
void diag_rule_communication(const gs_diag_inputs *in, gs_finding *f)
{
    gs_ns waited = straggler_found(in) ? in->strag_wait_ns : 0;
    gs_ns exposed = in->comm_ns - waited > 0 ? in->comm_ns - waited : 0;
    add_input(f, "comm_exposed_ns", (double)in->comm_ns, GS_UNIT_NS);
    if (waited > 0)
        add_input(f, "straggler_wait_ns", (double)waited, GS_UNIT_NS);
    add_threshold(f, "exposed_share", GS_TH_COMM_EXPOSED, GS_UNIT_SHARE);
    set_stake(in, f, exposed, true);
    f->severity = f->at_stake_share > GS_TH_COMM_EXPOSED ? GS_SEV_BOTTLENECK : GS_SEV_NONE;
    if (waited > 0)
        EVIDENCE(f, "communication not overlapped with compute takes %.3f ms per step (%.1f %%) "
                    "besides %.3f ms waiting for the straggler",
                 ms(exposed), 100 * f->at_stake_share, ms(waited));
    else
        EVIDENCE(f, "communication not overlapped with compute takes %.3f ms per step (%.1f %%)",
                 ms(exposed), 100 * f->at_stake_share);
    WHY(f, "exposed communication %.1f %% of the step vs %.0f %%", 100 * f->at_stake_share,
        100 * GS_TH_COMM_EXPOSED);
}

/* A profile-level finding in every rank's verdict: each rank names the same straggler, and its
 * time at stake is what that rank loses (its wait), or on the straggler what the job loses (the
 * others' mean wait): the step shortens by that much if the straggler keeps up. */
void diag_rule_straggler(const gs_diag_inputs *in, gs_finding *f)
{
    double wait = in->strag_step_ns > 0
                      ? (double)in->strag_others_wait_ns / (double)in->strag_step_ns
                      : 0.0;
    add_input(f, "ranks", (double)in->strag_ranks, GS_UNIT_COUNT);
    add_input(f, "collectives", (double)in->strag_collectives, GS_UNIT_COUNT);
    add_input(f, "last_share", in->strag_last_share, GS_UNIT_SHARE);
    add_input(f, "lateness_ns", (double)in->strag_lateness_ns, GS_UNIT_NS);
    add_input(f, "others_wait_ns", (double)in->strag_others_wait_ns, GS_UNIT_NS);
    add_input(f, "wait_ns", (double)in->strag_wait_ns, GS_UNIT_NS);
    add_input(f, "compute_excess", in->strag_compute_excess, GS_UNIT_SHARE);
    add_threshold(f, "last_share", GS_TH_STRAGGLER_LAST_SHARE, GS_UNIT_SHARE);
    add_threshold(f, "collectives", GS_TH_STRAGGLER_MIN_COLLECTIVES, GS_UNIT_COUNT);
    add_threshold(f, "wait_share", GS_TH_STRAGGLER_WAIT_SHARE, GS_UNIT_SHARE);
    if (in->strag_ranks < 2 || in->strag_rank < 0) {
        f->severity = GS_SEV_NONE;
        EVIDENCE(f, "%s", in->strag_ranks < 2 ? "one rank: no other rank to wait for"
                                              : "no collective on every rank");
        WHY(f, "%s: the rule does not apply",
            in->strag_ranks < 2 ? "one rank in the profile" : "no collective matched on every rank");
        return;
    }
    bool fires = straggler_found(in);
    f->severity = fires ? GS_SEV_BOTTLENECK : GS_SEV_NONE;
    set_stake(in, f, fires ? (in->strag_is_self ? in->strag_others_wait_ns : in->strag_wait_ns) : 0,
              true);
    EVIDENCE(f,
             "rank %d%s arrived last at %.0f %% of %zu collectives, on average %.3f ms after the "
             "others: its compute per step is %.0f %% %s than the median rank's; the others wait "
             "for it %.3f ms per step",
             in->strag_rank, in->strag_is_self ? " (this rank)" : "", 100 * in->strag_last_share,
             in->strag_collectives, ms(in->strag_lateness_ns),
             100 * (in->strag_compute_excess < 0 ? -in->strag_compute_excess
                                                 : in->strag_compute_excess),
             in->strag_compute_excess < 0 ? "shorter" : "longer", ms(in->strag_others_wait_ns));
    WHY(f, "rank %d last at %.0f %% (> %.0f %%?) of %zu collectives (>= %d?); the others wait "
        "%.1f %% of the step (> %.0f %%?)",
        in->strag_rank, 100 * in->strag_last_share, 100 * GS_TH_STRAGGLER_LAST_SHARE,
        in->strag_collectives, GS_TH_STRAGGLER_MIN_COLLECTIVES, 100 * wait,
        100 * GS_TH_STRAGGLER_WAIT_SHARE);
}

/* What faster kernels would gain (doc/diagnosis.md, "The gain at stake, and the order"): the
 * eligible kernels without Tensor Cores GS_TH_TC_SPEEDUP x faster, and the FLOP-counted kernels
 * brought up to GS_TH_LOW_MFU of the peak. 0 when the trace does not tell. */
static bool gpu_without_tensor_cores(const gs_diag_inputs *in)
{
    const gs_gpu_caps *gpu = gs_gpu_caps_find(in->gpu_vendor, in->compute_major, in->compute_minor);
    return gpu && !gpu->tensor_core;
}

/* The eligible operators' kernel time per step without Tensor Cores; -1 when the trace does not
 * tell, or the GPU (known to the capability table) has no Tensor Cores to use. */
static gs_ns tensor_cores_unused_ns(const gs_diag_inputs *in)
{
    if (in->tc_unused_share < 0 || in->tc_eligible_share < 0 || gpu_without_tensor_cores(in))
        return -1;
    return (gs_ns)(in->tc_unused_share * in->tc_eligible_share * (double)in->kernel_ns);
}

static gs_ns tensor_core_gain(const gs_diag_inputs *in)
{
    gs_ns unused = tensor_cores_unused_ns(in);
    return unused > 0 ? (gs_ns)((double)unused * (1.0 - 1.0 / GS_TH_TC_SPEEDUP)) : 0;
}

static gs_ns mfu_gain(const gs_diag_inputs *in)
{
    if (in->mfu < 0 || in->flop_op_share < 0 || in->mfu >= GS_TH_LOW_MFU)
        return 0;
    /* the same FLOPs at GS_TH_LOW_MFU of the peak take mfu / GS_TH_LOW_MFU of the step */
    double flop_ns = in->flop_op_share * (double)in->kernel_ns;
    double at_target = in->mfu / GS_TH_LOW_MFU * (double)in->step_ns;
    return flop_ns > at_target ? (gs_ns)(flop_ns - at_target) : 0;
}

/* Busy means compute kernels: collectives keep the GPU "utilized" while it waits on the network,
 * so the TensorBoard plugin's utilization (all kernels) would call a communication-bound step
 * compute-bound. The Kernel category of the breakdown holds compute kernels only. */
void diag_rule_compute(const gs_diag_inputs *in, gs_finding *f)
{
    if (without_gpu(in, f))
        return;
    double busy = share(in, in->kernel_ns);
    add_input(f, "compute_busy_share", busy, GS_UNIT_SHARE);
    add_input(f, "gpu_util", in->gpu_util, GS_UNIT_SHARE);
    add_input(f, "tensor_core_share", in->tensor_core_share, GS_UNIT_SHARE);
    add_threshold(f, "compute_busy_share", GS_TH_UTIL_BUSY, GS_UNIT_SHARE);
    bool fires = busy >= GS_TH_UTIL_BUSY;
    set_stake(in, f, fires ? in->kernel_ns : 0, false);
    f->severity = fires ? GS_SEV_BOTTLENECK : GS_SEV_NONE;
    /* its actions make kernels faster: the larger of the two estimates of that */
    gs_ns tc = tensor_core_gain(in), mfu = mfu_gain(in);
    if (fires)
        set_gain(in, f, tc >= mfu ? tc : mfu, tc >= mfu ? GS_GAIN_TENSOR_CORES : GS_GAIN_MFU_TARGET);
    EVIDENCE(f,
             "compute kernels run %.0f %% of the step; %.0f %% of kernel time is in Tensor "
             "Core kernels: only faster kernels make the step faster",
             100 * busy, 100 * (in->tensor_core_share > 0 ? in->tensor_core_share : 0));
    WHY(f, "compute kernels busy %.1f %% of the step vs %.0f %%", 100 * busy,
        100 * GS_TH_UTIL_BUSY);
}

/* Eligible operators whose kernels are not Tensor Core kernels (by name): fp32 matmuls on a GPU
 * or setting without TF32, or shapes the libraries cannot tile (the TensorBoard plugin's
 * tc_eligible / tc_ratio). At stake: that kernel time. */
void diag_rule_tensor_cores(const gs_diag_inputs *in, gs_finding *f)
{
    if (without_gpu(in, f))
        return;
    double unused = in->tc_unused_share, eligible = in->tc_eligible_share;
    add_input(f, "tc_eligible_share", eligible, GS_UNIT_SHARE);
    add_input(f, "tc_eligible_unused_share", unused, GS_UNIT_SHARE);
    add_input(f, "tensor_core_share", in->tensor_core_share, GS_UNIT_SHARE);
    add_threshold(f, "tc_eligible_unused_share", GS_TH_TC_UNUSED_SHARE, GS_UNIT_SHARE);
    add_threshold(f, "unused_step_share", GS_TH_TC_UNUSED_STEP, GS_UNIT_SHARE);
    gs_ns unused_ns = tensor_cores_unused_ns(in);
    bool known = unused_ns >= 0;
    gs_ns at_stake = known ? unused_ns : 0;
    bool fires = known && unused >= GS_TH_TC_UNUSED_SHARE &&
                 share(in, at_stake) >= GS_TH_TC_UNUSED_STEP;
    set_stake(in, f, fires ? at_stake : 0, false);
    f->severity = fires ? GS_SEV_BOTTLENECK : GS_SEV_NONE;
    if (fires)
        set_gain(in, f, tensor_core_gain(in), GS_GAIN_TENSOR_CORES);
    if (!known) {
        EVIDENCE(f, "no Tensor-Core-eligible operator with kernels%s",
                 gpu_without_tensor_cores(in) ? " (a GPU without Tensor Cores)" : "");
        WHY(f, "not known from this trace: the rule does not apply");
        return;
    }
    EVIDENCE(f, "%.0f %% of the kernel time of Tensor-Core-eligible operators (matmul, "
             "convolution, attention) is in kernels without Tensor Cores: %.3f ms per step",
             100 * unused, ms(at_stake));
    WHY(f, "eligible time without Tensor Cores %.1f %% (>= %.0f %%?), %.1f %% of the step "
        "(>= %.0f %%?)",
        100 * unused, 100 * GS_TH_TC_UNUSED_SHARE, 100 * share(in, at_stake),
        100 * GS_TH_TC_UNUSED_STEP);
}

/* Most kernel time in matrix multiplies, convolutions and attention, yet far below the GPU's
 * peak: the kernels are small, badly shaped or waiting on memory. No time bound; the gain is
 * estimated as those kernels reaching the rule's own threshold of the peak. */
void diag_rule_low_mfu(const gs_diag_inputs *in, gs_finding *f)
{
    if (without_gpu(in, f))
        return;
    add_input(f, "mfu", in->mfu, GS_UNIT_SHARE);
    add_input(f, "flop_op_share", in->flop_op_share, GS_UNIT_SHARE);
    add_threshold(f, "mfu", GS_TH_LOW_MFU, GS_UNIT_SHARE);
    add_threshold(f, "flop_op_share", GS_TH_GEMM_DOMINATED, GS_UNIT_SHARE);
    set_stake(in, f, 0, false);
    if (in->mfu < 0 || in->flop_op_share < 0) {
        f->severity = GS_SEV_NONE;
        EVIDENCE(f, "MFU not known from this trace (no input shapes, or a GPU without a known "
                 "peak: doc/flops.md)");
        WHY(f, "not known from this trace: the rule does not apply");
        return;
    }
    bool fires = in->flop_op_share >= GS_TH_GEMM_DOMINATED && in->mfu < GS_TH_LOW_MFU;
    f->severity = fires ? GS_SEV_FINDING : GS_SEV_NONE;
    if (fires)
        set_gain(in, f, mfu_gain(in), GS_GAIN_MFU_TARGET);
    EVIDENCE(f, "matrix multiplies, convolutions and attention take %.0f %% of kernel time, and "
             "the step reaches %.1f %% of the GPU's dense peak (MFU)",
             100 * in->flop_op_share, 100 * in->mfu);
    WHY(f, "kernel time in FLOP-counted operators %.1f %% (>= %.0f %%?), MFU %.1f %% "
        "(< %.0f %%?)",
        100 * in->flop_op_share, 100 * GS_TH_GEMM_DOMINATED, 100 * in->mfu, 100 * GS_TH_LOW_MFU);
}

void diag_rule_no_gpu(const gs_diag_inputs *in, gs_finding *f)
{
    add_input(f, "gpu_activities", (double)in->gpu_activities, GS_UNIT_COUNT);
    f->severity = in->gpu_activities == 0 ? GS_SEV_NOTE : GS_SEV_NONE;
    if (in->gpu_activities == 0 && in->facts.accelerator_events)
        EVIDENCE(f, "the trace records no GPU kernels, copies or sets but %llu events of an MTIA "
                    "accelerator (mtia_ccp_events), whose work gpuscope does not read; the rules "
                    "about the GPU do not apply",
                 (unsigned long long)in->facts.accelerator_events);
    else if (in->gpu_activities == 0)
        EVIDENCE(f, "the trace records no GPU kernels, copies or sets: a CPU-only run, or the "
                    "profiler was not asked for CUDA activity; the rules about the GPU do not apply");
    else
        EVIDENCE(f, "%llu GPU kernels, copies and sets", (unsigned long long)in->gpu_activities);
    WHY(f, "%llu GPU activities", (unsigned long long)in->gpu_activities);
}

void diag_rule_warmup(const gs_diag_inputs *in, gs_finding *f)
{
    add_input(f, "steps", (double)in->steps, GS_UNIT_COUNT);
    add_input(f, "warmup_steps", (double)in->warmup_steps, GS_UNIT_COUNT);
    add_input(f, "warmup_ratio", in->warmup_ratio, GS_UNIT_RATIO);
    add_threshold(f, "min_steps", GS_TH_MIN_STEPS, GS_UNIT_COUNT);
    if (diag_first_use_fires(in)) {
        f->severity = GS_SEV_NONE;
        EVIDENCE(f, "the slow steps are first uses of new input shapes (first_use_per_shape), "
                    "which more steps would not leave behind");
        WHY(f, "first uses of new shapes explain the %zu slow step(s): first_use_per_shape says it",
            in->warmup_steps);
        return;
    }
    bool few = in->steps < GS_TH_MIN_STEPS;
    f->severity = in->warmup_steps > 0 || few ? GS_SEV_NOTE : GS_SEV_NONE;
    if (in->warmup_steps > 0)
        EVIDENCE(f, "the first %zu step(s) ran up to %.1fx slower than the median and are left "
                 "out of the statistics%s",
                 in->warmup_steps, in->warmup_ratio, few ? "; too few steps remain" : "");
    else
        EVIDENCE(f, "%zu step(s) profiled%s", in->steps,
                 few ? ": too few for reliable statistics" : "");
    WHY(f, "%zu warm-up step(s); %zu steps (< %d is too few)", in->warmup_steps, in->steps,
        GS_TH_MIN_STEPS);
}
