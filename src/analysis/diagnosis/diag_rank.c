/* The verdict's order (doc/diagnosis.md, "The gain at stake, and the order"): every
 * rule of the table evaluated, its actions chosen for the trace, then ranked. */
#include "analysis/diagnosis/diagnose.h"
#include "analysis/diagnosis/diag_expected.h"

#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/vec.h"

/* ---- ranking -------------------------------------------------------------------------------- */

/* Risks first (a job that runs out of memory matters more than a slow one), then bottlenecks
 * and findings together by their expected gain (the replay's where it gave one, else the
 * estimate or bound of gain_ns), then notes. Severity only breaks ties: a finding worth 1.5x
 * outranks a bottleneck worth less. */
static int group_of(const gs_finding *f)
{
    static const int by_severity[] = {
        [GS_SEV_NONE] = 3, [GS_SEV_NOTE] = 2, [GS_SEV_FINDING] = 1, [GS_SEV_BOTTLENECK] = 1,
        [GS_SEV_RISK] = 0,
    };
    return by_severity[f->severity];
}

static bool ranks_before(const gs_diag_inputs *in, const gs_finding *a, const gs_finding *b)
{
    int ga = group_of(a), gb = group_of(b);
    if (ga != gb)
        return ga < gb;
    gs_ns ea = diag_expected_gain(in, a), eb = diag_expected_gain(in, b);
    if (ea != eb)
        return ea > eb;
    return a->severity > b->severity;
}

/* A time bound's gain is its time at stake, removed: the rules that estimate otherwise (faster
 * kernels) set their own. */
static void fill_gain(gs_finding *f)
{
    if (f->gain_basis != GS_GAIN_NONE || f->speedup_bound <= 0 || f->at_stake_ns <= 0 ||
        f->severity == GS_SEV_NONE)
        return;
    f->gain_ns = f->at_stake_ns;
    f->gain_share = f->at_stake_share;
    f->gain_speedup = f->speedup_bound;
    f->gain_basis = GS_GAIN_REMOVED;
}

const char *gs_gain_basis_name(uint8_t basis)
{
    static const char *const names[GS_GAIN__COUNT] = {
        [GS_GAIN_NONE] = "none", [GS_GAIN_REMOVED] = "removed",
        [GS_GAIN_TENSOR_CORES] = "tensor_cores", [GS_GAIN_MFU_TARGET] = "mfu_target",
        [GS_GAIN_ROOF_TARGET] = "roof_target",
    };
    return basis < GS_GAIN__COUNT ? names[basis] : "none";
}

/* One rule on the trace, its actions chosen. -1 when out of memory: every rule says its evidence
 * and why on every path (diag_finding.h), so a text left NULL is one that could not be built. */
static int evaluate(const gs_rule *rule, const gs_diag_inputs *in, gs_finding *f)
{
    f->rule = rule;
    rule->eval(in, f);
    if (!f->evidence || !f->why || gs_choose_actions(in, f) != 0)
        return -1;
    if (f->profiler_ns == 0)
        f->recorded_share = f->at_stake_share;
    fill_gain(f);
    diag_fill_expected(in, f);
    return 0;
}

int gs_diagnose(const gs_diag_inputs *in, gs_diagnosis *out)
{
    size_t n;
    const gs_rule *table = gs_rules(&n);
    out->findings = gs_array_zeroed(n, sizeof *out->findings);
    out->order = gs_array_zeroed(n, sizeof *out->order);
    out->n = n;
    if (!out->findings || !out->order) {
        gs_diagnosis_free(out);
        return -1;
    }
    out->nfired = 0;
    for (size_t i = 0; i < n; i++) {
        if (evaluate(&table[i], in, &out->findings[i]) != 0) {
            gs_diagnosis_free(out);
            return -1;
        }
        out->nfired += out->findings[i].severity != GS_SEV_NONE;
        /* Insertion keeps ties in rule-table order; there are ten rules. */
        size_t k = i;
        while (k > 0 && ranks_before(in, &out->findings[i], &out->findings[out->order[k - 1]])) {
            out->order[k] = out->order[k - 1];
            k--;
        }
        out->order[k] = i;
    }
    if (gs_log_on(GS_LOG_INFO))
        gs_diagnosis_log(in, out);
    return 0;
}

static void finding_free(gs_finding *f)
{
    free(f->evidence);
    free(f->why);
    for (size_t a = 0; a < f->nactions; a++)
        free(f->actions[a].why);
    for (size_t a = 0; a < f->nleft_out; a++)
        free(f->left_out[a].why);
}

void gs_diagnosis_free(gs_diagnosis *d)
{
    for (size_t i = 0; d->findings && i < d->n; i++)
        finding_free(&d->findings[i]);
    free(d->findings);
    free(d->order);
    memset(d, 0, sizeof *d);
}
