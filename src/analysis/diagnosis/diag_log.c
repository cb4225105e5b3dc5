/* The verdict in the debug log: one line per rule with its decision and the --explain reason
 * (the key value against its threshold), at -vv its inputs and thresholds too. */
#include <stdio.h>
#include <string.h>

#include "analysis/diagnosis/diagnose.h"
#include "common/log.h"
#include "common/util.h"

static const char *const severity_names[] = {
    [GS_SEV_NONE] = "not fired",      [GS_SEV_NOTE] = "note",
    [GS_SEV_FINDING] = "finding",     [GS_SEV_BOTTLENECK] = "bottleneck",
    [GS_SEV_RISK] = "risk",
};

/* How each unit is shown: value × scale with so many decimals, then the suffix. */
static const struct {
    double scale;
    int decimals;
    const char *suffix;
} units[] = {
    [GS_UNIT_NS] = {1e-6, 3, " ms"},  [GS_UNIT_SHARE] = {100, 1, " %"},
    [GS_UNIT_COUNT] = {1, 0, ""},     [GS_UNIT_BYTES] = {1e-6, 1, " MB"},
    [GS_UNIT_RATIO] = {1, 2, ""},
};

/* name=value pairs in the units the rules think in. */
static void append_values(char *buf, size_t cap, const gs_rule_value *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t u = v[i].unit < COUNT_OF(units) ? v[i].unit : GS_UNIT_RATIO;
        gs_log_append(buf, cap, "%s%s=%.*f%s", i ? ", " : "", v[i].name, units[u].decimals,
                      v[i].value * units[u].scale, units[u].suffix);
    }
}

void gs_diagnosis_log(const gs_diag_inputs *in, const gs_diagnosis *d)
{
    char who[48];
    if (in->strag_ranks > 1)
        snprintf(who, sizeof who, "rank %d of %zu", (int)in->rank, in->strag_ranks);
    else
        snprintf(who, sizeof who, "rank %d", (int)in->rank);
    char fired[512] = "";
    for (size_t k = 0; k < d->nfired && k < d->n; k++) {
        const gs_finding *f = &d->findings[d->order[k]];
        gs_log_append(fired, sizeof fired, "%s%s (%s)", k ? ", " : ": ", f->rule->id,
                      severity_names[f->severity]);
    }
    GS_LOG(GS_LOG_INFO, "%s: verdict on %zu step(s) of %.3f ms (mean): %zu of %zu rules fired%s",
           who, in->steps, (double)in->step_ns / 1e6, d->nfired, d->n, fired);
    for (size_t i = 0; i < d->n; i++) {
        const gs_finding *f = &d->findings[i];
        char stake[96] = "";
        if (f->severity != GS_SEV_NONE && f->at_stake_ns > 0)
            snprintf(stake, sizeof stake, ", %.3f ms per step at stake (%.1f %%)",
                     (double)f->at_stake_ns / 1e6, 100 * f->at_stake_share);
        GS_LOG(GS_LOG_INFO, "%s: rule %s: %s%s: %s", who, f->rule->id,
               severity_names[f->severity], stake, f->why);
        if (!gs_log_on(GS_LOG_DETAIL))
            continue;
        char values[768] = "";
        append_values(values, sizeof values, f->inputs, f->ninputs);
        if (f->nthresholds) {
            gs_log_append(values, sizeof values, "; thresholds: ");
            append_values(values, sizeof values, f->thresholds, f->nthresholds);
        }
        GS_LOG(GS_LOG_DETAIL, "%s: rule %s: inputs: %s", who, f->rule->id, values);
    }
}
