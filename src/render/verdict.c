#include "render/verdict.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

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
void gs_render_gain_estimate(char *buf, size_t size, const char *lead, const gs_finding *f)
{
    char gain[GS_UNIT_BUF], expected[64] = "";
    gs_fmt_duration(gain, sizeof gain, f->gain_ns);
    /* The replay's estimate first where there is one: the rule's own estimate assumes the
     * kernels alone change. */
    if (f->expected_speedup > 0)
        snprintf(expected, sizeof expected, "expected %.2fx faster (replay); ", f->expected_speedup);
    if (f->gain_basis == GS_GAIN_ROOF_TARGET)
        snprintf(buf, size,
                 "%s%sabout %s per step to gain, %.1f %% of the step, %.2fx faster, if the "
                 "group's kernels reached %.0f %% of its roof",
                 lead, expected, gain, 100 * f->gain_share, f->gain_speedup,
                 100 * GS_ROOF_TARGET_SHARE);
    else if (f->gain_basis == GS_GAIN_TENSOR_CORES)
        snprintf(buf, size,
                 "%s%sabout %s per step to gain, %.1f %% of the step, %.2fx faster, if the "
                 "eligible kernels without Tensor Cores ran %.0fx faster",
                 lead, expected, gain, 100 * f->gain_share, f->gain_speedup, GS_TH_TC_SPEEDUP);
    else
        snprintf(buf, size,
                 "%s%sabout %s per step to gain, %.1f %% of the step, %.2fx faster, if the "
                 "FLOP-counted kernels reached %.0f %% of the GPU's peak",
                 lead, expected, gain, 100 * f->gain_share, f->gain_speedup, 100 * GS_TH_LOW_MFU);
}

static void fmt_speedup(char *buf, size_t size, double speedup, bool html)
{
    if (html)
        snprintf(buf, size, "<b>%.2f&times;</b>", speedup);
    else
        snprintf(buf, size, "%.2fx", speedup);
}

void gs_render_bound_gain(char *buf, size_t size, const gs_finding *f, bool html)
{
    char expected[48], bound[48];
    fmt_speedup(expected, sizeof expected, f->expected_speedup, html);
    fmt_speedup(bound, sizeof bound, f->speedup_bound, html);
    if (f->expected_speedup > f->speedup_bound)
        snprintf(buf, size, "expected %s faster (replay); %s faster with that time alone removed",
                 expected, bound);
    else if (f->expected_speedup > 0)
        snprintf(buf, size, "expected %s faster (replay), at most %s faster if removed", expected,
                 bound);
    else
        snprintf(buf, size, "up to %s faster if removed", bound);
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
        size_t width = gs_text_width(style);
        char head[512];
        int at = snprintf(head, sizeof head, " (%s", gs_severity_name(f->severity));
        /* With the profiler's host time taken off, the share and the bound are of the step
         * less that time: printed, so the share reads against the step it is of. */
        char base[GS_UNIT_BUF + 64] = "the step";
        if (f->profiler_ns > 0 && f->at_stake_share > 0) {
            char step[GS_UNIT_BUF];
            gs_fmt_duration(step, sizeof step,
                            (int64_t)llround((double)f->at_stake_ns / f->at_stake_share));
            snprintf(base, sizeof base, "the %s step without the profiler's host time", step);
        }
        char gain[192];
        gs_render_bound_gain(gain, sizeof gain, f, false);
        if (f->speedup_bound > 0 && f->at_stake_ns > 0 && at > 0 && (size_t)at < sizeof head)
            snprintf(head + at, sizeof head - (size_t)at, ": %s per step at stake, %.1f %% of %s; %s",
                     stake, 100 * f->at_stake_share, base, gain);
        else if (f->gain_basis != GS_GAIN_NONE && at > 0 && (size_t)at + 2 < sizeof head)
            gs_render_gain_estimate(head + at, sizeof head - (size_t)at, ": ", f);
        else if (f->expected_speedup > 0 && at > 0 && (size_t)at < sizeof head)
            snprintf(head + at, sizeof head - (size_t)at, ": expected %.2fx faster (replay)",
                     f->expected_speedup);
        fprintf(out, "%2zu. ", ++shown);
        put_bold(out, style, f->rule->title);
        /* Each part wrapped within the line, under its own start: the headline under the title,
         * the evidence, each action and its why. Evidence and actions name operators and kernels
         * of the trace: cleaned. */
        gs_text_put_wrapped(out, head, 4 + strlen(f->rule->title), 4, width);
        fputs(")\n    ", out);
        gs_text_put_wrapped(out, f->evidence, 4, 4, width);
        for (size_t a = 0; a < f->nactions; a++) {
            fputs("\n    - ", out);
            gs_text_put_wrapped(out, f->actions[a].text, 6, 6, width);
            if (f->actions[a].why[0]) {
                fputs("\n      why: ", out);
                gs_text_put_wrapped(out, f->actions[a].why, 11, 11, width);
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

/* What the replay of the finding's action read and gave: the measured step, the replay's
 * unchanged step and its error, the step without the profiler's cost and with the action too
 * (the expected speedup is their ratio). */
static void put_replay(FILE *out, const gs_diag_inputs *in, const gs_finding *f)
{
    const gs_replay_action_info *a = gs_replay_action_get(f->rule->replay);
    if (!a || f->expected_speedup <= 0)
        return;
    char measured[GS_UNIT_BUF], unchanged[GS_UNIT_BUF], base[GS_UNIT_BUF], with[GS_UNIT_BUF],
        expected[GS_UNIT_BUF];
    gs_fmt_duration(measured, sizeof measured, in->step_ns);
    gs_fmt_duration(unchanged, sizeof unchanged, in->replay_step_ns);
    gs_fmt_duration(base, sizeof base, in->replay_expected_ns[GS_REPLAY_NO_PROFILER]);
    gs_fmt_duration(with, sizeof with, in->replay_expected_ns[f->rule->replay]);
    gs_fmt_duration(expected, sizeof expected, f->expected_step_ns);
    fprintf(out,
            "    replay: %s (%s): measured step %s, replayed unchanged %s (error %+.1f %%), "
            "without the profiler's cost %s, and with the action %s; expected %.2fx faster, %s "
            "per step\n",
            a->name, a->title, measured, unchanged,
            100.0 * ((double)in->replay_step_ns / (double)in->step_ns - 1.0), base, with,
            f->expected_speedup, expected);
}

void gs_render_rules_text(FILE *out, const gs_diagnosis *d, const gs_diag_inputs *in)
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
            char gain[256];
            gs_render_gain_estimate(gain, sizeof gain, "", f);
            fprintf(out, "    gain: %s\n", gain);
        }
        put_replay(out, in, f);
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
    /* the replay's estimate of the rule's action (null without one): expected, not a bound */
    const gs_replay_action_info *replay = gs_replay_action_get(f->rule->replay);
    if (f->expected_speedup > 0 && replay) {
        gs_json_put_int(w, "expected_step_ns", f->expected_step_ns);
        gs_json_put_fixed(w, "expected_speedup", f->expected_speedup, 3);
        gs_json_put_str(w, "expected_by", replay->name);
    } else {
        gs_json_put_null(w, "expected_step_ns");
        gs_json_put_null(w, "expected_speedup");
        gs_json_put_null(w, "expected_by");
    }
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
