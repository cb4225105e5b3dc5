#include "render/verdict.h"

#include <inttypes.h>
#include <math.h>

#include "analysis/base/thresholds.h"
#include "common/json_write.h"
#include "render/units.h"

const char *gs_severity_name(enum gs_severity s)
{
    static const char *const names[] = {
        [GS_SEV_NONE] = "none",           [GS_SEV_NOTE] = "note",
        [GS_SEV_FINDING] = "finding",     [GS_SEV_BOTTLENECK] = "bottleneck",
        [GS_SEV_RISK] = "risk",
    };
    return (unsigned)s <= GS_SEV_RISK ? names[s] : "?";
}

/* A share below 0 is the analyses' "not known from this trace" (a share is never negative):
 * shown as "-" and written null, never as -100 %. */
static bool unknown_share(const gs_rule_value *v)
{
    return v->unit == GS_UNIT_SHARE && v->value < 0;
}

static void fmt_value(char *buf, size_t size, const gs_rule_value *v)
{
    if (unknown_share(v)) {
        snprintf(buf, size, "-");
        return;
    }
    switch ((enum gs_unit)v->unit) {
    case GS_UNIT_NS:
        gs_fmt_duration(buf, size, (int64_t)llround(v->value));
        return;
    case GS_UNIT_SHARE:
        snprintf(buf, size, "%.1f %%", 100 * v->value);
        return;
    case GS_UNIT_BYTES:
        gs_fmt_bytes(buf, size, (int64_t)llround(v->value));
        return;
    case GS_UNIT_COUNT:
        snprintf(buf, size, "%.0f", v->value);
        return;
    case GS_UNIT_RATIO:
        snprintf(buf, size, "%.2f", v->value);
        return;
    }
    snprintf(buf, size, "%g", v->value);
}

/* A gain that is not a removed time: how it was estimated (doc/diagnosis.md, "The gain at
 * stake, and the order"). */
void gs_render_gain_estimate(FILE *out, const gs_finding *f)
{
    char gain[GS_UNIT_BUF];
    gs_fmt_duration(gain, sizeof gain, f->gain_ns);
    fprintf(out, "about %s per step to gain, %.1f %% of the step, %.2fx faster, ", gain,
            100 * f->gain_share, f->gain_speedup);
    if (f->gain_basis == GS_GAIN_TENSOR_CORES)
        fprintf(out, "if the eligible kernels without Tensor Cores ran %.0fx faster",
                GS_TH_TC_SPEEDUP);
    else
        fprintf(out, "if the FLOP-counted kernels reached %.0f %% of the GPU's peak",
                100 * GS_TH_LOW_MFU);
}

static void put_estimated_gain(FILE *out, const gs_finding *f)
{
    fputs(": ", out);
    gs_render_gain_estimate(out, f);
}

static void put_bold(FILE *out, const gs_text_style *style, const char *text)
{
    bool bold = style && style->tty;
    fprintf(out, "%s%s%s", bold ? "\033[1m" : "", text, bold ? "\033[0m" : "");
}

void gs_render_verdict_text(FILE *out, const gs_diagnosis *d, const gs_text_style *style)
{
    size_t shown = 0;
    for (size_t i = 0; i < d->n; i++) {
        const gs_finding *f = &d->findings[d->order[i]];
        if (f->severity == GS_SEV_NONE)
            continue;
        char stake[GS_UNIT_BUF];
        gs_fmt_duration(stake, sizeof stake, f->at_stake_ns);
        fprintf(out, "%2zu. ", ++shown);
        put_bold(out, style, f->rule->title);
        fprintf(out, " (%s", gs_severity_name(f->severity));
        if (f->speedup_bound > 0 && f->at_stake_ns > 0)
            fprintf(out, ": %s per step at stake, %.1f %% of the step; up to %.2fx faster if "
                         "removed",
                    stake, 100 * f->at_stake_share, f->speedup_bound);
        else if (f->gain_basis != GS_GAIN_NONE)
            put_estimated_gain(out, f);
        /* evidence and actions name operators and kernels of the trace */
        fputs(")\n    ", out);
        gs_text_put_clean(out, f->evidence);
        for (size_t a = 0; a < f->nactions; a++) {
            fputs("\n    - ", out);
            gs_text_put_clean(out, f->actions[a].text);
            if (f->actions[a].why[0]) {
                fputs("\n      why: ", out);
                gs_text_put_clean(out, f->actions[a].why);
            }
        }
        putc('\n', out);
    }
    if (!shown)
        fputs("No rule fired: no bottleneck stands out in this trace "
              "('report --explain' shows every rule and its numbers).\n",
              out);
}

static void put_values(FILE *out, const char *label, const gs_rule_value *v, size_t n)
{
    fprintf(out, "    %s:", label);
    for (size_t i = 0; i < n; i++) {
        char buf[GS_UNIT_BUF];
        fmt_value(buf, sizeof buf, &v[i]);
        fprintf(out, "%s %s = %s", i ? "," : "", v[i].name, buf);
    }
    fputs(n ? "\n" : " none\n", out);
}

void gs_render_rules_text(FILE *out, const gs_diagnosis *d)
{
    for (size_t i = 0; i < d->n; i++) {
        const gs_finding *f = &d->findings[i];
        fprintf(out, "%s [%s] %s (source: %s)\n", f->rule->id, gs_severity_name(f->severity),
                f->rule->title, f->rule->source);
        put_values(out, "inputs", f->inputs, f->ninputs);
        put_values(out, "thresholds", f->thresholds, f->nthresholds);
        fputs("    why: ", out);
        gs_text_put_clean(out, f->why);
        putc('\n', out);
        if (f->gain_basis == GS_GAIN_REMOVED) {
            char gain[GS_UNIT_BUF];
            gs_fmt_duration(gain, sizeof gain, f->gain_ns);
            fprintf(out, "    gain: %s per step, the time at stake removed (an upper bound)\n", gain);
        } else if (f->gain_basis != GS_GAIN_NONE) {
            fputs("    gain: ", out);
            gs_render_gain_estimate(out, f);
            putc('\n', out);
        }
        for (size_t a = 0; a < f->nleft_out; a++)
            fprintf(out, "    action left out: %s (%s)\n", f->left_out[a].text,
                    f->left_out[a].why);
    }
}

/* Inputs and thresholds: amounts of ns, bytes and counts whole, ratios and shares to 4 places. */
static void json_values(gs_json_writer *w, const char *key, const gs_rule_value *v, size_t n)
{
    gs_json_begin_object(w, key, GS_JSON_INLINE);
    for (size_t i = 0; i < n; i++) {
        bool whole = v[i].unit == GS_UNIT_NS || v[i].unit == GS_UNIT_BYTES ||
                     v[i].unit == GS_UNIT_COUNT;
        if (unknown_share(&v[i]))
            gs_json_put_null(w, v[i].name);
        else
            gs_json_put_fixed(w, v[i].name, v[i].value, whole ? 0 : 4);
    }
    gs_json_end(w);
}

static void json_finding(gs_json_writer *w, const gs_finding *f, bool details)
{
    gs_json_begin_object(w, NULL, GS_JSON_INLINE);
    gs_json_put_str(w, "class", f->rule->id);
    gs_json_put_str(w, "title", f->rule->title);
    gs_json_put_str(w, "severity", gs_severity_name(f->severity));
    gs_json_put_int(w, "at_stake_ns", f->at_stake_ns);
    gs_json_put_fixed(w, "at_stake_pct", 100 * f->at_stake_share, 2);
    gs_json_put_fixed(w, "speedup_bound", f->speedup_bound, 3);
    gs_json_put_int(w, "gain_ns", f->gain_ns);
    gs_json_put_fixed(w, "gain_pct", 100 * f->gain_share, 2);
    gs_json_put_fixed(w, "gain_speedup", f->gain_speedup, 3);
    gs_json_put_str(w, "gain_basis", gs_gain_basis_name(f->gain_basis));
    if (f->profiler_ns > 0) { /* only then, so findings without it keep their shape */
        gs_json_put_int(w, "profiler_ns", f->profiler_ns);
        gs_json_put_fixed(w, "recorded_at_stake_pct", 100 * f->recorded_share, 2);
    }
    gs_json_put_str(w, "evidence", f->evidence);
    if (details) {
        json_values(w, "inputs", f->inputs, f->ninputs);
        json_values(w, "thresholds", f->thresholds, f->nthresholds);
        gs_json_put_str(w, "why", f->why);
        gs_json_put_str(w, "source", f->rule->source);
        gs_json_begin_array(w, "actions_left_out", GS_JSON_INLINE);
        for (size_t a = 0; a < f->nleft_out; a++) {
            gs_json_begin_object(w, NULL, GS_JSON_INLINE);
            gs_json_put_str(w, "action", f->left_out[a].text);
            gs_json_put_str(w, "why", f->left_out[a].why);
            gs_json_end(w);
        }
        gs_json_end(w);
    } else {
        gs_json_begin_array(w, "actions", GS_JSON_INLINE);
        for (size_t a = 0; a < f->nactions; a++)
            gs_json_put_str(w, NULL, f->actions[a].text);
        gs_json_end(w);
        /* why each applies, in the same order: null when it applies to any trace */
        gs_json_begin_array(w, "actions_why", GS_JSON_INLINE);
        for (size_t a = 0; a < f->nactions; a++)
            gs_json_put_str(w, NULL, f->actions[a].why[0] ? f->actions[a].why : NULL);
        gs_json_end(w);
    }
    gs_json_end(w);
}

/* The fired findings, one per line; the list's closing bracket has always started its line. */
static const gs_json_layout verdict_layout = {.lines = true, .indent = 2, .margin_close = true};

void gs_render_diagnosis_json(gs_json_writer *w, const gs_diagnosis *d)
{
    gs_json_begin_array(w, "verdict", verdict_layout);
    for (size_t i = 0; i < d->n; i++) {
        const gs_finding *f = &d->findings[d->order[i]];
        if (f->severity != GS_SEV_NONE)
            json_finding(w, f, false);
    }
    gs_json_end(w);
    gs_json_begin_array(w, "rules", GS_JSON_BLOCK);
    for (size_t i = 0; i < d->n; i++)
        json_finding(w, &d->findings[i], true);
    gs_json_end(w);
}
