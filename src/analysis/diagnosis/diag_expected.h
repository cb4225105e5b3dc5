/* A finding's expected gain from the replay (diag_expected.c); private to this folder. */
#ifndef GS_DIAG_EXPECTED_H
#define GS_DIAG_EXPECTED_H

#include "analysis/diagnosis/diagnose.h"

/* Fills f->expected_step_ns and f->expected_speedup from in's replay of f's rule's action, once
 * f's severity and actions are known; both 0 when nothing is expected. */
void diag_fill_expected(const gs_diag_inputs *in, gs_finding *f);

/* What the verdict is ordered by: the replay's expected gain per step where it gave one (0 or
 * less when it says the action gains nothing), else the finding's gain_ns, an upper bound. */
gs_ns diag_expected_gain(const gs_diag_inputs *in, const gs_finding *f);

#endif
