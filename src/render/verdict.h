/* Writing a diagnosis (src/analysis/diagnosis/diagnose.h): the verdict for people, every rule with its
 * inputs for `report --explain`, and both as JSON. */
#ifndef GS_RENDER_VERDICT_H
#define GS_RENDER_VERDICT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/diagnosis/diagnose.h"
#include "common/json_write.h"
#include "render/render.h"

const char *gs_severity_name(enum gs_severity s);

/* The fired findings in rank order, each with evidence, gain and actions. */
void gs_render_verdict_text(FILE *out, const gs_diagnosis *d, const gs_text_style *style);

/* lead + ["expected 1.12x faster (replay); "] + "about 61.098 ms per step to gain, 18.4 % of the step, 1.23x faster, if ...": a finding's
 * gain estimated otherwise than by removing its time at stake (gain_basis not "removed"). */
void gs_render_gain_estimate(char *buf, size_t size, const char *lead, const gs_finding *f);

/* A time-bound finding's gain into buf: the replay's expected speedup where it gave one, and the
 * bound as "at most", or, where the replay gives more (the host catching up on more than the time
 * at stake), as what removing that time alone would give; "up to" the bound without a replay.
 * html: the speedups in bold with a times sign, as the HTML page writes them. */
void gs_render_bound_gain(char *buf, size_t size, const gs_finding *f, bool html);

/* Every rule: fired or not, inputs, thresholds, why, and what the replay of its action read and
 * gave (in: the inputs d was diagnosed from). */
void gs_render_rules_text(FILE *out, const gs_diagnosis *d, const gs_diag_inputs *in);

/* The members "verdict": [...fired, ranked...] and "rules": [...every rule, with its inputs and
 * thresholds...]. */
void gs_render_diagnosis_json(gs_json_writer *w, const gs_diagnosis *d);

#endif
