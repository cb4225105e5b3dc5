/* The roofline rule (doc/diagnosis.md, "far_below_roof"): the operator group with the most GPU
 * time reached well under its roof (doc/roofline.md). Its advice depends on what bounds the
 * group: memory-bound work moves fewer bytes when fused or in a smaller type, compute-bound work
 * wants Tensor Cores and shapes they tile, latency-bound work fewer, larger kernels. */
#include "analysis/diagnosis/diag_finding.h"
#include "analysis/diagnosis/diag_rules.h"

#include "analysis/base/thresholds.h"
#include "analysis/trace/roofline.h"

/* The group must hold a tenth of the operators' GPU time to be worth a finding, and reach less
 * than GS_ROOF_TARGET_SHARE of its roof (diagnose.h), the share its gain is estimated at: what
 * reaching "not far below" would buy, not the ideal, as low_mfu does. */
#define ROOF_MIN_OP_SHARE 0.10
#define ROOF_LOW_SHARE GS_ROOF_TARGET_SHARE
#define ROOF_TARGET_SHARE GS_ROOF_TARGET_SHARE

/* A compute-bound group on a GEMM-dominated step under GS_TH_LOW_MFU of the peak: low_mfu
 * fires on the same kernels with the same advice, so this rule leaves it the finding. */
static bool said_by_low_mfu(const gs_diag_inputs *in)
{
    return in->roof_bound == GS_BOUND_COMPUTE && in->mfu >= 0 && in->mfu < GS_TH_LOW_MFU &&
           in->flop_op_share >= GS_TH_GEMM_DOMINATED;
}

void diag_rule_roofline(const gs_diag_inputs *in, gs_finding *f)
{
    add_input(f, "roof_op_share", in->roof_op_share, GS_UNIT_SHARE);
    add_input(f, "roof_share", in->roof_share, GS_UNIT_SHARE);
    add_threshold(f, "roof_op_share", ROOF_MIN_OP_SHARE, GS_UNIT_SHARE);
    add_threshold(f, "roof_share", ROOF_LOW_SHARE, GS_UNIT_SHARE);
    add_threshold(f, "roof_target_share", ROOF_TARGET_SHARE, GS_UNIT_SHARE);
    set_stake(in, f, 0, false);
    if (in->gpu_activities == 0 || !in->roof_op || in->roof_share < 0) {
        f->severity = GS_SEV_NONE;
        EVIDENCE(f, "the largest operator group is not on the roofline (no recorded shapes, no "
                    "traffic model, or a GPU without known roofs: doc/roofline.md)");
        WHY(f, "not known from this trace: the rule does not apply");
        return;
    }
    add_input(f, "roof_intensity", in->roof_intensity, GS_UNIT_RATIO);
    const char *bound = gs_roof_bound_name((enum gs_roof_bound)in->roof_bound);
    bool fires = in->roof_op_share >= ROOF_MIN_OP_SHARE && in->roof_share < ROOF_LOW_SHARE;
    if (fires && said_by_low_mfu(in)) {
        f->severity = GS_SEV_NONE;
        EVIDENCE(f, "%s is compute-bound at %.1f %% of its roof, as low_mfu says of the step's "
                    "matrix work",
                 in->roof_op, 100 * in->roof_share);
        WHY(f, "the largest group is compute-bound on a step whose low MFU low_mfu reports: "
               "said there");
        return;
    }
    f->severity = fires ? GS_SEV_FINDING : GS_SEV_NONE;
    /* the same work at the target share takes roof_share / target of its time */
    double at_target = (double)in->roof_op_ns * in->roof_share / ROOF_TARGET_SHARE;
    gs_ns gain = fires ? (gs_ns)((double)in->roof_op_ns - at_target) : 0;
    set_stake(in, f, fires ? in->roof_op_ns : 0, false);
    if (fires)
        set_gain(in, f, gain, GS_GAIN_ROOF_TARGET);
    EVIDENCE(f, "%s, %.0f %% of the operators' GPU time (%.3f ms per step), is %s-bound at "
             "%.2f FLOP/byte and reaches %.1f %% of its roof",
             in->roof_op, 100 * in->roof_op_share, ms(in->roof_op_ns), bound,
             in->roof_intensity, 100 * in->roof_share);
    WHY(f, "largest group %s: %.1f %% of operator GPU time (>= %.0f %%?), %.1f %% of its roof "
        "(< %.0f %%?)",
        in->roof_op, 100 * in->roof_op_share, 100 * ROOF_MIN_OP_SHARE, 100 * in->roof_share,
        100 * ROOF_LOW_SHARE);
}
