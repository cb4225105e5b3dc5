/* The diagnosis rules. Each rule reads named inputs, compares them with named thresholds
 * (thresholds.h), and fills a finding: severity, time at stake, evidence, and why it fired or
 * not. The time a rule puts at stake is a share of the step that no other rule also claims, so
 * the ranking compares like with like:
 *   data loading   = DataLoader time while the GPU idles (TensorBoard plugin category)
 *   sync           = GPU idle right after synchronizing calls (pipeline drained)
 *   launch / host  = the rest of the GPU-idle host time (runtime + CPU exec + untraced), the
 *                    first when kernels are short, the second when they are not
 *   transfer       = copies and sets while no kernel runs
 *   communication  = collectives while no compute kernel runs (exposed), less the wait for a
 *                    straggler, which the straggler rule claims
 *   straggler      = this rank's wait for the straggler inside collectives (on the straggler
 *                    itself: the other ranks' mean wait, what it costs the job)
 *   compute        = kernel time, when the GPU is busy: only faster kernels help */
#include "analysis/diagnosis/diagnose.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/crossrank/straggler.h"
#include "analysis/base/thresholds.h"
#include "common/log.h"

/* ---- helpers -------------------------------------------------------------------------------- */

static void add_input(gs_finding *f, const char *name, double value, enum gs_unit unit)
{
    if (f->ninputs < GS_RULE_MAX_VALUES)
        f->inputs[f->ninputs++] = (gs_rule_value){name, value, (uint8_t)unit};
}

static void add_threshold(gs_finding *f, const char *name, double value, enum gs_unit unit)
{
    if (f->nthresholds < GS_RULE_MAX_VALUES)
        f->thresholds[f->nthresholds++] = (gs_rule_value){name, value, (uint8_t)unit};
}

static void say(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *buf, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, cap, fmt, ap);
    va_end(ap);
}

#define EVIDENCE(f, ...) say((f)->evidence, sizeof (f)->evidence, __VA_ARGS__)
#define WHY(f, ...) say((f)->why, sizeof (f)->why, __VA_ARGS__)

static double share(const gs_diag_inputs *in, gs_ns ns)
{
    return in->step_ns > 0 ? (double)ns / (double)in->step_ns : 0.0;
}

/* Time at stake per step, and the speed-up if it all went away. */
static void set_stake(const gs_diag_inputs *in, gs_finding *f, gs_ns ns, bool time_bound)
{
    f->at_stake_ns = ns > 0 ? ns : 0;
    f->at_stake_share = share(in, f->at_stake_ns);
    f->speedup_bound = time_bound && f->at_stake_ns < in->step_ns
                           ? (double)in->step_ns / (double)(in->step_ns - f->at_stake_ns)
                           : 0.0;
}

static double ms(gs_ns ns)
{
    return (double)ns / 1e6;
}

/* GPU-idle host time not already explained by the DataLoader or by synchronization. */
static gs_ns host_idle(const gs_diag_inputs *in)
{
    gs_ns ns = in->runtime_ns + in->cpu_exec_ns + in->other_ns - in->sync_idle_ns;
    return ns > 0 ? ns : 0;
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

/* The memory rules need allocator records ([memory] events); without them they say so. */
static bool without_memory_records(double known, gs_finding *f)
{
    if (known >= 0)
        return false;
    f->severity = GS_SEV_NONE;
    EVIDENCE(f, "no allocator records in the trace");
    WHY(f, "no allocator records in the trace (torch.profiler records them with "
           "profile_memory=True, gpuscope run with --trace memory, its default): the rule does "
           "not apply");
    return true;
}

/* ---- rules ---------------------------------------------------------------------------------- */

static void rule_data_loading(const gs_diag_inputs *in, gs_finding *f)
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

static void rule_sync(const gs_diag_inputs *in, gs_finding *f)
{
    if (without_gpu(in, f))
        return;
    add_input(f, "sync_idle_ns", (double)in->sync_idle_ns, GS_UNIT_NS);
    add_input(f, "sync_blocked_ns", (double)in->sync_blocked_ns, GS_UNIT_NS);
    add_input(f, "step_ns", (double)in->step_ns, GS_UNIT_NS);
    add_threshold(f, "sync_idle_share", GS_TH_SYNC_SHARE, GS_UNIT_SHARE);
    set_stake(in, f, in->sync_idle_ns, true);
    f->severity = f->at_stake_share > GS_TH_SYNC_SHARE ? GS_SEV_BOTTLENECK : GS_SEV_NONE;
    EVIDENCE(f,
             "after synchronizing calls the GPU sits idle %.3f ms per step (%.1f %%); the host "
             "is blocked in them %.3f ms per step%s%s",
             ms(in->sync_idle_ns), 100 * f->at_stake_share, ms(in->sync_blocked_ns),
             in->sync_top_op ? ", mostly under " : "", in->sync_top_op ? in->sync_top_op : "");
    WHY(f, "idle after syncs %.1f %% of the step vs %.0f %%", 100 * f->at_stake_share,
        100 * GS_TH_SYNC_SHARE);
}

static void rule_launch(const gs_diag_inputs *in, gs_finding *f)
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
    bool fires = kernels_short(in) && f->at_stake_share > GS_TH_LAUNCH_HOSTWAIT_SHARE;
    f->severity = fires ? GS_SEV_BOTTLENECK : GS_SEV_NONE;
    if (!fires)
        set_stake(in, f, 0, true);
    EVIDENCE(f,
             "%.0f kernels per step, median %.1f us, %.0f %% of them shorter than their launch "
             "call (median %.1f us); the GPU waits on the host %.3f ms per step (%.1f %%)",
             in->kernels_per_step, (double)in->median_kernel_ns / 1e3,
             100 * in->short_kernel_share, (double)in->median_launch_ns / 1e3, ms(idle),
             100 * share(in, idle));
    WHY(f, "%.0f kernels per step (>= %d?), median kernel %.1f us (< %.0f us?), short kernels "
        "%.0f %% (>= %.0f %%?), GPU waiting on the host %.1f %% (> %.0f %%?)",
        in->kernels_per_step, GS_TH_LAUNCH_MIN_KERNELS_PER_STEP,
        (double)in->median_kernel_ns / 1e3, GS_TH_SHORT_KERNEL_NS / 1e3,
        100 * in->short_kernel_share, 100 * GS_TH_SHORT_KERNEL_SHARE, 100 * share(in, idle),
        100 * GS_TH_LAUNCH_HOSTWAIT_SHARE);
}

static void rule_host(const gs_diag_inputs *in, gs_finding *f)
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
    bool fires = !kernels_short(in) && f->at_stake_share > GS_TH_HOST_WAIT_SHARE;
    f->severity = fires ? GS_SEV_BOTTLENECK : GS_SEV_NONE;
    if (!fires)
        set_stake(in, f, 0, true);
    /* The parts add up to the total: the GPU idle after synchronizing calls, which the
     * synchronization rule claims, is named as what is taken off (host_idle). */
    char less[96] = "";
    if (in->sync_idle_ns > 0)
        snprintf(less, sizeof less, ", less %.3f ms after synchronizing calls (Synchronization's)",
                 ms(in->sync_idle_ns));
    EVIDENCE(f,
             "the GPU waits on host work %.3f ms per step (%.1f %%): CPU operators %.3f ms + "
             "runtime calls %.3f ms + untraced host time %.3f ms%s; GPU utilization %.0f %%",
             ms(idle), 100 * share(in, idle), ms(in->cpu_exec_ns), ms(in->runtime_ns),
             ms(in->other_ns), less, 100 * in->gpu_util);
    WHY(f, "GPU waiting on the host %.1f %% of the step (> %.0f %%?)%s", 100 * share(in, idle),
        100 * GS_TH_HOST_WAIT_SHARE,
        kernels_short(in) ? "; kernels are short, so this is launch overhead instead" : "");
}

static void rule_transfer(const gs_diag_inputs *in, gs_finding *f)
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
static void rule_communication(const gs_diag_inputs *in, gs_finding *f)
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
static void rule_straggler(const gs_diag_inputs *in, gs_finding *f)
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

/* Busy means compute kernels: collectives keep the GPU "utilized" while it waits on the network,
 * so the TensorBoard plugin's utilization (all kernels) would call a communication-bound step
 * compute-bound. The Kernel category of the breakdown holds compute kernels only. */
static void rule_compute(const gs_diag_inputs *in, gs_finding *f)
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
static void rule_tensor_cores(const gs_diag_inputs *in, gs_finding *f)
{
    if (without_gpu(in, f))
        return;
    double unused = in->tc_unused_share, eligible = in->tc_eligible_share;
    add_input(f, "tc_eligible_share", eligible, GS_UNIT_SHARE);
    add_input(f, "tc_eligible_unused_share", unused, GS_UNIT_SHARE);
    add_input(f, "tensor_core_share", in->tensor_core_share, GS_UNIT_SHARE);
    add_threshold(f, "tc_eligible_unused_share", GS_TH_TC_UNUSED_SHARE, GS_UNIT_SHARE);
    add_threshold(f, "unused_step_share", GS_TH_TC_UNUSED_STEP, GS_UNIT_SHARE);
    bool known = unused >= 0 && eligible >= 0 && (in->compute_major == 0 || in->compute_major >= 7);
    gs_ns at_stake = known ? (gs_ns)(unused * eligible * (double)in->kernel_ns) : 0;
    bool fires = known && unused >= GS_TH_TC_UNUSED_SHARE &&
                 share(in, at_stake) >= GS_TH_TC_UNUSED_STEP;
    set_stake(in, f, fires ? at_stake : 0, false);
    f->severity = fires ? GS_SEV_BOTTLENECK : GS_SEV_NONE;
    if (!known) {
        EVIDENCE(f, "no Tensor-Core-eligible operator with kernels%s",
                 in->compute_major > 0 && in->compute_major < 7 ? " (a GPU without Tensor Cores)"
                                                                : "");
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
 * peak: the kernels are small, badly shaped or waiting on memory. No time bound: what a better
 * kernel would save is not known from the trace. */
static void rule_low_mfu(const gs_diag_inputs *in, gs_finding *f)
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
    EVIDENCE(f, "matrix multiplies, convolutions and attention take %.0f %% of kernel time, and "
             "the step reaches %.1f %% of the GPU's dense peak (MFU)",
             100 * in->flop_op_share, 100 * in->mfu);
    WHY(f, "kernel time in FLOP-counted operators %.1f %% (>= %.0f %%?), MFU %.1f %% "
        "(< %.0f %%?)",
        100 * in->flop_op_share, 100 * GS_TH_GEMM_DOMINATED, 100 * in->mfu, 100 * GS_TH_LOW_MFU);
}

static void rule_memory_growth(const gs_diag_inputs *in, gs_finding *f)
{
    if (without_memory_records(in->mem_growth_r2, f))
        return;
    add_input(f, "growth_bytes_per_step", in->mem_growth_per_step, GS_UNIT_BYTES);
    add_input(f, "fit_r2", in->mem_growth_r2, GS_UNIT_RATIO);
    add_input(f, "steps", (double)in->mem_growth_steps, GS_UNIT_COUNT);
    add_threshold(f, "growth_bytes_per_step", (double)GS_TH_MEM_LEAK_MIN_GROWTH, GS_UNIT_BYTES);
    add_threshold(f, "fit_r2", GS_TH_MEM_LEAK_R2, GS_UNIT_RATIO);
    add_threshold(f, "steps", GS_TH_MEM_LEAK_MIN_STEPS, GS_UNIT_COUNT);
    bool fires = in->mem_growth_steps >= GS_TH_MEM_LEAK_MIN_STEPS &&
                 in->mem_growth_r2 >= GS_TH_MEM_LEAK_R2 &&
                 in->mem_growth_per_step >= (double)GS_TH_MEM_LEAK_MIN_GROWTH;
    f->severity = fires ? GS_SEV_RISK : GS_SEV_NONE;
    EVIDENCE(f, "allocated memory grows %.1f MB per step (linear fit R^2 %.2f over %zu steps)",
             in->mem_growth_per_step / 1e6, in->mem_growth_r2, in->mem_growth_steps);
    WHY(f, "growth %.1f MB/step (>= %.0f MB?), R^2 %.2f (>= %.2f?), %zu steps (>= %d?)",
        in->mem_growth_per_step / 1e6, (double)GS_TH_MEM_LEAK_MIN_GROWTH / 1e6,
        in->mem_growth_r2, GS_TH_MEM_LEAK_R2, in->mem_growth_steps, GS_TH_MEM_LEAK_MIN_STEPS);
}

/* "0.93", or "not recorded" for a ratio the trace cannot give (-1). */
static const char *ratio_text(char *buf, size_t cap, double v)
{
    if (v < 0)
        return "not recorded";
    snprintf(buf, cap, "%.2f", v);
    return buf;
}

static void rule_memory_capacity(const gs_diag_inputs *in, gs_finding *f)
{
    if (without_memory_records(in->mem_peak_share > in->mem_fragmentation ? in->mem_peak_share
                                                                          : in->mem_fragmentation,
                               f))
        return;
    /* A figure the records cannot give (reserved of CUDA's own allocations, a device of unknown
     * size) is no input: the rule reads what is there. */
    if (in->mem_peak_share >= 0)
        add_input(f, "peak_share", in->mem_peak_share, GS_UNIT_SHARE);
    if (in->mem_fragmentation >= 0)
        add_input(f, "fragmentation", in->mem_fragmentation, GS_UNIT_RATIO);
    add_threshold(f, "peak_share", GS_TH_MEM_PEAK_SHARE, GS_UNIT_SHARE);
    add_threshold(f, "fragmentation", GS_TH_MEM_FRAGMENTATION, GS_UNIT_RATIO);
    bool full = in->mem_peak_share > GS_TH_MEM_PEAK_SHARE;
    bool fragmented = in->mem_fragmentation > GS_TH_MEM_FRAGMENTATION;
    f->severity = full ? GS_SEV_RISK : fragmented ? GS_SEV_FINDING : GS_SEV_NONE;
    char frag[32];
    const char *frag_text = ratio_text(frag, sizeof frag, in->mem_fragmentation);
    if (in->mem_peak_share >= 0)
        EVIDENCE(f, "peak memory held is %.0f %% of the device; reserved / allocated at the "
                 "peak is %s",
                 100 * in->mem_peak_share, frag_text);
    else
        EVIDENCE(f, "device memory unknown; reserved / allocated at the peak is %s", frag_text);
    if (in->mem_peak_share >= 0)
        WHY(f, "peak %.1f %% of the device (> %.0f %%?), fragmentation %s (> %.1f?)",
            100 * in->mem_peak_share, 100 * GS_TH_MEM_PEAK_SHARE, frag_text,
            GS_TH_MEM_FRAGMENTATION);
    else
        WHY(f, "device memory unknown, fragmentation %s (> %.1f?)", frag_text,
            GS_TH_MEM_FRAGMENTATION);
}

static void rule_no_gpu(const gs_diag_inputs *in, gs_finding *f)
{
    add_input(f, "gpu_activities", (double)in->gpu_activities, GS_UNIT_COUNT);
    f->severity = in->gpu_activities == 0 ? GS_SEV_NOTE : GS_SEV_NONE;
    if (in->gpu_activities == 0)
        EVIDENCE(f, "the trace records no GPU kernels, copies or sets: a CPU-only run, or the "
                    "profiler was not asked for CUDA activity; the rules about the GPU do not apply");
    else
        EVIDENCE(f, "%llu GPU kernels, copies and sets", (unsigned long long)in->gpu_activities);
    WHY(f, "%llu GPU activities", (unsigned long long)in->gpu_activities);
}

static void rule_warmup(const gs_diag_inputs *in, gs_finding *f)
{
    add_input(f, "steps", (double)in->steps, GS_UNIT_COUNT);
    add_input(f, "warmup_steps", (double)in->warmup_steps, GS_UNIT_COUNT);
    add_input(f, "warmup_ratio", in->warmup_ratio, GS_UNIT_RATIO);
    add_threshold(f, "min_steps", GS_TH_MIN_STEPS, GS_UNIT_COUNT);
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

static const gs_rule rules[] = {
    {"data_loading", "Data loading",
     "TensorBoard profiler plugin, DataLoader rule (5 %); 10 %: doc/diagnosis.md#thresholds",
     rule_data_loading,
     {"raise DataLoader num_workers (with persistent_workers=True) so batches are ready in time",
      "pin_memory=True and .to(device, non_blocking=True)",
      "move decoding and augmentation off the critical path: GPU transforms, pre-processed data",
      "raise prefetch_factor"}},
    {"sync_bound", "Synchronization",
     "PyTorch performance tuning guide (avoid CPU-GPU synchronization); 5 %: "
     "doc/diagnosis.md#thresholds",
     rule_sync,
     {"remove .item(), .cpu(), print(tensor) and other host reads of GPU values from the loop: "
      "accumulate on the GPU and read every N steps",
      "use non_blocking=True copies into pinned memory instead of synchronous ones",
      "drop explicit torch.cuda.synchronize() outside timing code",
      "avoid data-dependent shapes (nonzero, masked_select, boolean indexing) in the hot loop"}},
    {"launch_bound", "Kernel launch overhead",
     "HTA kernel launch statistics; thresholds: doc/diagnosis.md#thresholds", rule_launch,
     {"capture the step in a CUDA graph (torch.compile(mode=\"reduce-overhead\") or "
      "torch.cuda.graphs)",
      "fuse small operations: torch.compile, fused optimizers (foreach=True / fused=True)",
      "raise the batch size so each kernel does more work"}},
    {"host_bound", "Host (CPU) bound",
     "doc/diagnosis.md#thresholds (GPU waiting on the host > 15 %)", rule_host,
     {"profile the host (torch.profiler with_stack=True, py-spy) and move per-step Python work "
      "out of the loop",
      "torch.compile to cut framework overhead between kernels",
      "overlap host work with GPU work: prefetch, asynchronous logging and checkpointing"}},
    {"transfer_bound", "Host-device transfers",
     "CUDA C++ Best Practices Guide (host-device transfers); 10 %: doc/diagnosis.md#thresholds",
     rule_transfer,
     {"pin host memory (DataLoader pin_memory=True, tensor.pin_memory()) so copies are "
      "asynchronous",
      "copy with non_blocking=True and overlap copies with compute on a side stream",
      "keep tensors on the GPU between steps; avoid .cpu() round trips"}},
    {"communication_bound", "Communication",
     "TensorBoard profiler plugin, communication rule (10 %)", rule_communication,
     {"overlap gradient all-reduce with backward (DDP bucket_cap_mb, FSDP prefetch)",
      "accumulate gradients over micro-batches (no_sync) to communicate less often",
      "raise the per-rank batch, or all-reduce in bf16/fp16 (communication hooks)",
      "look for a straggler rank: the others wait for it inside the collective"}},
    {"straggler", "Straggler rank", "HTA straggler analysis (late-starting collectives)",
     rule_straggler,
     {"check the straggler's GPU and host: clocks, power and thermal throttling (gpuscope "
      "monitor, nvidia-smi -q -d PERFORMANCE), other processes on its GPU or CPUs",
      "look at its input pipeline: gpuscope report --rank N (N = the straggler) for data "
      "loading and host time the other ranks do not have",
      "check for uneven sharding: batch sizes, sequence lengths or experts per rank",
      "compare it with a rank that keeps up: gpuscope diff on their two traces",
      "gpuscope stragglers for every collective, the clock offsets and the skew"}},
    {"compute_bound", "GPU compute",
     "doc/diagnosis.md#thresholds (compute kernels >= 90 % of the step)", rule_compute,
     {"mixed precision (torch.autocast with bfloat16) so matmuls and convolutions use Tensor "
      "Cores; allow TF32 for the rest",
      "Tensor-Core-friendly shapes: batch, channel and hidden sizes multiples of 8",
      "torch.compile, and channels_last for convolutions",
      "start from the top kernels (gpuscope kernels): the largest single wins are there"}},
    {"tensor_cores_unused", "Tensor Cores unused",
     "TensorBoard profiler plugin (tc_eligible, tc_ratio); thresholds: doc/diagnosis.md#thresholds",
     rule_tensor_cores,
     {"mixed precision: torch.autocast(\"cuda\", dtype=torch.bfloat16) around the forward pass",
      "for fp32: torch.backends.cuda.matmul.allow_tf32 = True and torch.backends.cudnn.allow_tf32 "
      "= True (or torch.set_float32_matmul_precision(\"high\"))",
      "Tensor-Core-friendly shapes: batch, channel, hidden and vocabulary sizes multiples of 8",
      "gpuscope kernels: the eligible operators' kernels without Tensor Cores"}},
    {"low_mfu", "Low MFU", "doc/diagnosis.md#thresholds (MFU < 30 % on a GEMM-dominated step)",
     rule_low_mfu,
     {"larger matrices per kernel: raise the batch or micro-batch, fuse small matmuls",
      "pad dimensions to multiples of 64 (vocabulary, hidden, heads x head size)",
      "torch.compile (mode=\"max-autotune\") to pick faster GEMM kernels and fuse the rest",
      "gpuscope ops: FLOPs and TFLOP/s per operator show which ones run slowest"}},
    {"memory_growth", "Memory growth", "doc/diagnosis.md#thresholds (leak fit)", rule_memory_growth,
     {"look for tensors kept across steps: losses summed without .item()/.detach(), lists of "
      "outputs, caches that never shrink",
      "gpuscope memory shows the operators that allocate most"}},
    {"memory_capacity", "Memory capacity",
     "TensorBoard profiler plugin, memory rule (90 %); 1.5x: doc/diagnosis.md#thresholds",
     rule_memory_capacity,
     {"activation checkpointing, mixed precision, or a smaller micro-batch with gradient "
      "accumulation",
      "against fragmentation: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"}},
    {"no_gpu", "No GPU activity", "PyTorch profiler recipe (ProfilerActivity.CUDA)", rule_no_gpu,
     {"profile with activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA] to see the GPU",
      "with gpuscope run: check the summary's notes (no driver, CUPTI held by another tool)"}},
    {"warmup", "Warm-up",
     "PyTorch profiler recipe (schedule warmup); 1.5x: doc/diagnosis.md#thresholds", rule_warmup,
     {"profile with a schedule that skips warm-up: torch.profiler.schedule(wait=1, warmup=1, "
      "active=5)"}},
};

const gs_rule *gs_rules(size_t *n)
{
    *n = sizeof rules / sizeof rules[0];
    return rules;
}

/* ---- ranking -------------------------------------------------------------------------------- */

/* Risks first (a job that runs out of memory matters more than a slow one), then bottlenecks
 * and findings by time at stake, then notes. */
static int rank_of(const gs_finding *f)
{
    static const int by_severity[] = {
        [GS_SEV_NONE] = 4, [GS_SEV_NOTE] = 3, [GS_SEV_FINDING] = 2, [GS_SEV_BOTTLENECK] = 1,
        [GS_SEV_RISK] = 0,
    };
    return by_severity[f->severity];
}

static bool ranks_before(const gs_finding *a, const gs_finding *b)
{
    int ra = rank_of(a), rb = rank_of(b);
    if (ra != rb)
        return ra < rb;
    return a->at_stake_ns > b->at_stake_ns;
}

int gs_diagnose(const gs_diag_inputs *in, gs_diagnosis *out)
{
    size_t n;
    const gs_rule *table = gs_rules(&n);
    out->findings = calloc(n, sizeof *out->findings);
    out->order = calloc(n, sizeof *out->order);
    if (!out->findings || !out->order) {
        gs_diagnosis_free(out);
        return -1;
    }
    out->n = n;
    out->nfired = 0;
    for (size_t i = 0; i < n; i++) {
        out->findings[i].rule = &table[i];
        table[i].eval(in, &out->findings[i]);
        out->nfired += out->findings[i].severity != GS_SEV_NONE;
        /* Insertion keeps ties in rule-table order; there are ten rules. */
        size_t k = i;
        while (k > 0 && ranks_before(&out->findings[i], &out->findings[out->order[k - 1]])) {
            out->order[k] = out->order[k - 1];
            k--;
        }
        out->order[k] = i;
    }
    if (gs_log_on(GS_LOG_INFO))
        gs_diagnosis_log(in, out);
    return 0;
}

void gs_diagnosis_free(gs_diagnosis *d)
{
    free(d->findings);
    free(d->order);
    memset(d, 0, sizeof *d);
}
