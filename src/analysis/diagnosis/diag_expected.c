/* A finding's expected gain from the replay of its rule's action (doc/diagnosis.md, "The gain at
 * stake, and the order"): the replay's ratio, unchanged step / step with the action, applied to
 * the measured step, so that the unchanged model's own error cancels. */
#include "analysis/diagnosis/diag_expected.h"

#include <math.h>

/* The GPU conditions of the advice that a mixed-precision replay stands for: a precision the
 * GPU's Tensor Cores take (bf16, TF32; fp16 on Volta and Turing). Shapes (any Tensor Cores), FP8
 * and the by-GPU wording of an unknown GPU are not it. */
static const bool usable_precision[GS_GPU__COUNT] = {
    [GS_GPU_BF16] = true, [GS_GPU_TF32] = true, [GS_GPU_FP16_ONLY] = true,
};

/* Replay actions that apply only where the finding gives such advice: mixed precision speeds up
 * nothing on a GPU without Tensor Cores for it, which the actions' GPU conditions already know. */
static const bool needs_precision[GS_REPLAY__COUNT] = {
    [GS_REPLAY_MIXED_PRECISION] = true,
};

static bool gives_precision(const gs_finding *f)
{
    for (size_t c = 0; c < f->nactions; c++)
        for (size_t a = 0; a < GS_RULE_MAX_ACTIONS && f->rule->actions[a].text; a++)
            if (f->rule->actions[a].text == f->actions[c].text &&
                f->rule->actions[a].gpu < GS_GPU__COUNT &&
                usable_precision[f->rule->actions[a].gpu])
                return true;
    return false;
}

void diag_fill_expected(const gs_diag_inputs *in, gs_finding *f)
{
    f->expected_step_ns = 0;
    f->expected_speedup = 0.0;
    uint8_t a = f->rule->replay;
    if (a == GS_REPLAY_NONE || a >= GS_REPLAY__COUNT || f->severity == GS_SEV_NONE ||
        in->step_ns <= 0 || in->replay_step_ns <= 0 || in->replay_expected_ns[a] <= 0)
        return;
    if (needs_precision[a] && !gives_precision(f))
        return;
    f->expected_speedup = (double)in->replay_step_ns / (double)in->replay_expected_ns[a];
    f->expected_step_ns = (gs_ns)llround((double)in->step_ns / f->expected_speedup);
}

gs_ns diag_expected_gain(const gs_diag_inputs *in, const gs_finding *f)
{
    return f->expected_speedup > 0 ? in->step_ns - f->expected_step_ns : f->gain_ns;
}
