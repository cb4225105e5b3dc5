/* The verdict in the debug log: one line per rule with its decision and the --explain reason
 * (the key value against its threshold), at -vv its inputs and thresholds too. */
#include "analysis/diagnosis/diagnose.h"
#include "common/log.h"
#include "common/strbuf.h"
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
static void append_values(gs_strbuf *b, const gs_rule_value *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        size_t u = v[i].unit < COUNT_OF(units) ? v[i].unit : GS_UNIT_RATIO;
        gs_strbuf_appendf(b, "%s%s=%.*f%s", i ? ", " : "", v[i].name, units[u].decimals,
                          v[i].value * units[u].scale, units[u].suffix);
    }
}

/* A line of the verdict's log starts with whose verdict it is: "rank 3 of 8: ". */
static void start_line(gs_strbuf *line, const gs_diag_inputs *in)
{
    gs_strbuf_init(line);
    gs_strbuf_appendf(line, "rank %d", (int)in->rank);
    if (in->strag_ranks > 1)
        gs_strbuf_appendf(line, " of %zu", in->strag_ranks);
    gs_strbuf_append(line, ": ");
}

/* Logs the line and frees it. The log never fails the verdict: a line that ran out of memory is
 * written as far as it got, and says so. */
static void write_line(int level, gs_strbuf *line)
{
    GS_LOG(level, "%s%s", gs_strbuf_str(line),
           gs_strbuf_failed(line) ? " ... (cut: out of memory)" : "");
    gs_strbuf_free(line);
}

void gs_diagnosis_log(const gs_diag_inputs *in, const gs_diagnosis *d)
{
    gs_strbuf line;
    start_line(&line, in);
    gs_strbuf_appendf(&line, "verdict on %zu step(s) of %.3f ms (mean): %zu of %zu rules fired",
                      in->steps, (double)in->step_ns / 1e6, d->nfired, d->n);
    for (size_t k = 0; k < d->nfired && k < d->n; k++) {
        const gs_finding *f = &d->findings[d->order[k]];
        gs_strbuf_appendf(&line, "%s%s (%s)", k ? ", " : ": ", f->rule->id,
                          severity_names[f->severity]);
    }
    write_line(GS_LOG_INFO, &line);
    for (size_t i = 0; i < d->n; i++) {
        const gs_finding *f = &d->findings[i];
        start_line(&line, in);
        gs_strbuf_appendf(&line, "rule %s: %s", f->rule->id, severity_names[f->severity]);
        if (f->severity != GS_SEV_NONE && f->at_stake_ns > 0)
            gs_strbuf_appendf(&line, ", %.3f ms per step at stake (%.1f %%)",
                              (double)f->at_stake_ns / 1e6, 100 * f->at_stake_share);
        gs_strbuf_appendf(&line, ": %s", f->why);
        write_line(GS_LOG_INFO, &line);
        if (!gs_log_on(GS_LOG_DETAIL))
            continue;
        start_line(&line, in);
        gs_strbuf_appendf(&line, "rule %s: inputs: ", f->rule->id);
        append_values(&line, f->inputs, f->ninputs);
        if (f->nthresholds) {
            gs_strbuf_append(&line, "; thresholds: ");
            append_values(&line, f->thresholds, f->nthresholds);
        }
        write_line(GS_LOG_DETAIL, &line);
    }
}
