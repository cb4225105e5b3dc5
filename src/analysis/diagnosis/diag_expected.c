/* A finding's expected gain from the replay of its rule's action (doc/diagnosis.md, "The gain at
 * stake, and the order"): the replay's ratio, step without the profiler's cost / step with the
 * action (and without that cost), applied to the measured step, so that the unchanged model's
 * own error cancels and no action is credited with the profiler's host time. */
#include "analysis/diagnosis/diag_expected.h"

#include <math.h>

/* The advice a replay action stands for, where the rule gives other advice it does not model:
 * the finding's chosen actions must hold one with a trace condition in `when` or a GPU condition
 * in `gpu` (bits of enum gs_action_when, gs_action_gpu); both 0: the rule's main action, always.
 * Mixed precision speeds up nothing on a GPU without Tensor Cores for a precision the model can
 * use (bf16, TF32; fp16 on Volta and Turing), which the actions' GPU conditions know; shapes,
 * FP8 and the by-GPU wording of an unknown GPU are not it. torch.compile stands for nothing where
 * the step is compiled already (its advice is then left out). Overlapping collectives with the
 * backward pass is advice for data and sharded data parallel jobs; the replay keeps forward
 * (tensor-parallel) collectives in place, so it would say nothing of the advice those get. */
_Static_assert(GS_WHEN__COUNT <= 32 && GS_GPU__COUNT <= 32, "a condition is a bit of a uint32_t");
static const struct {
    uint32_t when, gpu;
} stands_for[GS_REPLAY__COUNT] = {
    [GS_REPLAY_MIXED_PRECISION] = {0, (1u << GS_GPU_BF16) | (1u << GS_GPU_TF32) |
                                          (1u << GS_GPU_FP16_ONLY)},
    [GS_REPLAY_OVERLAP_COMM] = {(1u << GS_WHEN_DATA_PARALLEL) | (1u << GS_WHEN_SHARDED), 0},
    [GS_REPLAY_COMPILE] = {1u << GS_WHEN_NOT_COMPILED, 0},
};

static bool gives_modelled_advice(const gs_finding *f, uint8_t replay)
{
    uint32_t when = stands_for[replay].when, gpu = stands_for[replay].gpu;
    if (!when && !gpu)
        return true;
    for (size_t c = 0; c < f->nactions; c++)
        for (size_t a = 0; a < GS_RULE_MAX_ACTIONS && f->rule->actions[a].text; a++) {
            const gs_action *act = &f->rule->actions[a];
            if (act->text == f->actions[c].text &&
                (((when >> act->when) & 1u) || ((gpu >> act->gpu) & 1u)))
                return true;
        }
    return false;
}

void diag_fill_expected(const gs_diag_inputs *in, gs_finding *f)
{
    f->expected_step_ns = 0;
    f->expected_speedup = 0.0;
    uint8_t a = f->rule->replay;
    gs_ns base = in->replay_expected_ns[GS_REPLAY_NO_PROFILER];
    if (a == GS_REPLAY_NONE || a >= GS_REPLAY__COUNT || f->severity == GS_SEV_NONE ||
        in->step_ns <= 0 || base <= 0 || in->replay_expected_ns[a] <= 0)
        return;
    if (!gives_modelled_advice(f, a))
        return;
    f->expected_speedup = (double)base / (double)in->replay_expected_ns[a];
    f->expected_step_ns = (gs_ns)llround((double)in->step_ns / f->expected_speedup);
}

gs_ns diag_expected_gain(const gs_diag_inputs *in, const gs_finding *f)
{
    return f->expected_speedup > 0 ? in->step_ns - f->expected_step_ns : f->gain_ns;
}
