/* First use per shape: steps that meet an input shape, or load GPU code, for the first time run
 * slower than the steps whose shapes were all seen (lazy kernel loading, cuBLAS and cuDNN
 * heuristics, autotuning, torch.compile recompiling). Unlike warm-up, the cost comes back with
 * every new shape, so running more steps does not leave it behind: a decode loop whose sequence
 * length grows every token pays it on every token of its first pass. The time at stake is the
 * extra time of those steps over the seen median, per step compared. */
#include "analysis/diagnosis/diag_finding.h"
#include "analysis/diagnosis/diag_rules.h"

#include "analysis/base/thresholds.h"

/* The extra time per step compared, and its share of the mean step compared (warm-up included:
 * the steps with first uses are often the first ones, which the kept steps leave out). */
static gs_ns extra_per_step(const gs_diag_inputs *in)
{
    return in->first_use_steps ? in->first_use_extra_ns / (gs_ns)in->first_use_steps : 0;
}

static double extra_share(const gs_diag_inputs *in)
{
    return in->first_use_mean_ns > 0
               ? (double)extra_per_step(in) / (double)in->first_use_mean_ns
               : 0.0;
}

static double slowdown(const gs_diag_inputs *in)
{
    return in->first_use_seen_ns > 0
               ? (double)in->first_use_new_ns / (double)in->first_use_seen_ns
               : 0.0;
}

static double recurring_share(const gs_diag_inputs *in)
{
    return in->first_use_steps ? (double)in->first_use_new_steps / (double)in->first_use_steps
                               : 0.0;
}

bool diag_first_use_fires(const gs_diag_inputs *in)
{
    return in->first_use_new_steps >= GS_TH_FIRST_USE_MIN_STEPS &&
           recurring_share(in) >= GS_TH_FIRST_USE_MIN_SHARE &&
           slowdown(in) >= GS_TH_FIRST_USE_FACTOR && extra_share(in) >= GS_TH_FIRST_USE_FINDING;
}

void diag_rule_first_use(const gs_diag_inputs *in, gs_finding *f)
{
    add_input(f, "steps_compared", (double)in->first_use_steps, GS_UNIT_COUNT);
    add_input(f, "first_use_steps", (double)in->first_use_new_steps, GS_UNIT_COUNT);
    add_input(f, "new_shape_steps", (double)in->first_use_shape_steps, GS_UNIT_COUNT);
    add_input(f, "code_load_steps", (double)in->first_use_load_steps, GS_UNIT_COUNT);
    add_input(f, "first_use_step_ns", (double)in->first_use_new_ns, GS_UNIT_NS);
    add_input(f, "seen_step_ns", (double)in->first_use_seen_ns, GS_UNIT_NS);
    add_input(f, "extra_per_step_ns", (double)extra_per_step(in), GS_UNIT_NS);
    add_threshold(f, "first_use_steps", GS_TH_FIRST_USE_MIN_STEPS, GS_UNIT_COUNT);
    add_threshold(f, "first_use_share", GS_TH_FIRST_USE_MIN_SHARE, GS_UNIT_SHARE);
    add_threshold(f, "slowdown", GS_TH_FIRST_USE_FACTOR, GS_UNIT_RATIO);
    add_threshold(f, "finding_share", GS_TH_FIRST_USE_FINDING, GS_UNIT_SHARE);
    add_threshold(f, "bottleneck_share", GS_TH_FIRST_USE_BOTTLENECK, GS_UNIT_SHARE);
    if (in->first_use_new_steps == 0 || in->first_use_seen_ns == 0) {
        f->severity = GS_SEV_NONE;
        EVIDENCE(f, "%zu of %zu steps after the first met a new input shape or loaded GPU code%s",
                 in->first_use_new_steps, in->first_use_steps,
                 in->first_use_new_steps ? ", and none met only shapes seen before: nothing to "
                                           "compare them with"
                                         : "");
        WHY(f, "%s: the rule does not apply",
            !in->first_use_new_steps ? "no step after the first met a new shape or loaded GPU code"
                                     : "every step after the first met a new shape or loaded GPU "
                                       "code: none to compare them with");
        return;
    }
    /* The share of the mean step compared: set_stake's step is that step here. */
    gs_diag_inputs compared = *in;
    compared.step_ns = in->first_use_mean_ns;
    set_stake(&compared, f, extra_per_step(in), true);
    bool fires = diag_first_use_fires(in);
    f->severity = !fires ? GS_SEV_NONE
                  : extra_share(in) >= GS_TH_FIRST_USE_BOTTLENECK ? GS_SEV_BOTTLENECK
                                                                   : GS_SEV_FINDING;
    EVIDENCE(f,
             "%zu of %zu steps after the first met an input shape for the first time (%zu) or "
             "loaded GPU code (%zu) and ran %.3f ms on average, %.1fx the %.3f ms median of the "
             "steps whose shapes were all seen: %.3f ms more per step over the %.3f ms mean step",
             in->first_use_new_steps, in->first_use_steps, in->first_use_shape_steps,
             in->first_use_load_steps, ms(in->first_use_new_ns), slowdown(in),
             ms(in->first_use_seen_ns), ms(extra_per_step(in)), ms(in->first_use_mean_ns));
    WHY(f, "%zu steps with a first use (>= %d?), %.0f %% of the steps compared (>= %.0f %%?: "
           "else a start-up, warm-up), %.1fx the seen median (>= %.1fx?), extra %.1f %% of the "
           "step (>= %.0f %% finding, %.0f %% bottleneck)",
        in->first_use_new_steps, GS_TH_FIRST_USE_MIN_STEPS, 100 * recurring_share(in),
        100 * GS_TH_FIRST_USE_MIN_SHARE, slowdown(in), GS_TH_FIRST_USE_FACTOR,
        100 * extra_share(in), 100 * GS_TH_FIRST_USE_FINDING, 100 * GS_TH_FIRST_USE_BOTTLENECK);
}
