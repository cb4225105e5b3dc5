#include "render/verdict.h"

#include <inttypes.h>
#include <math.h>

#include "render/json.h"
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

static void fmt_value(char *buf, size_t size, const gs_rule_value *v)
{
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
        if (f->speedup_bound > 0)
            fprintf(out, ": %s per step at stake, %.1f %% of the step; up to %.2fx faster if "
                         "removed",
                    stake, 100 * f->at_stake_share, f->speedup_bound);
        fprintf(out, ")\n    %s\n", f->evidence);
        for (size_t a = 0; a < f->nactions; a++) {
            fprintf(out, "    - %s\n", f->actions[a].text);
            if (f->actions[a].why[0])
                fprintf(out, "      why: %s\n", f->actions[a].why);
        }
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
        fprintf(out, "    why: %s\n", f->why);
        for (size_t a = 0; a < f->nleft_out; a++)
            fprintf(out, "    action left out: %s (%s)\n", f->left_out[a].text,
                    f->left_out[a].why);
    }
}

static void json_values(FILE *out, const gs_rule_value *v, size_t n)
{
    fputc('{', out);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s", i ? ", " : "");
        gs_json_string(out, v[i].name);
        fputs(": ", out);
        gs_json_number(out, v[i].value, v[i].unit == GS_UNIT_NS || v[i].unit == GS_UNIT_BYTES ||
                                                 v[i].unit == GS_UNIT_COUNT
                                             ? 0
                                             : 4);
    }
    fputc('}', out);
}

static void json_finding(FILE *out, const gs_finding *f, const char *indent, bool details)
{
    fprintf(out, "%s{\"class\": ", indent);
    gs_json_string(out, f->rule->id);
    fputs(", \"title\": ", out);
    gs_json_string(out, f->rule->title);
    fprintf(out, ", \"severity\": \"%s\", \"at_stake_ns\": %" PRId64 ", \"at_stake_pct\": ",
            gs_severity_name(f->severity), f->at_stake_ns);
    gs_json_number(out, 100 * f->at_stake_share, 2);
    fputs(", \"speedup_bound\": ", out);
    gs_json_number(out, f->speedup_bound, 3);
    if (f->profiler_ns > 0) { /* only then, so findings without it keep their shape */
        fprintf(out, ", \"profiler_ns\": %" PRId64 ", \"recorded_at_stake_pct\": ", f->profiler_ns);
        gs_json_number(out, 100 * f->recorded_share, 2);
    }
    fputs(", \"evidence\": ", out);
    gs_json_string(out, f->evidence);
    if (details) {
        fputs(", \"inputs\": ", out);
        json_values(out, f->inputs, f->ninputs);
        fputs(", \"thresholds\": ", out);
        json_values(out, f->thresholds, f->nthresholds);
        fputs(", \"why\": ", out);
        gs_json_string(out, f->why);
        fputs(", \"source\": ", out);
        gs_json_string(out, f->rule->source);
        fputs(", \"actions_left_out\": [", out);
        for (size_t a = 0; a < f->nleft_out; a++) {
            fputs(a ? ", {\"action\": " : "{\"action\": ", out);
            gs_json_string(out, f->left_out[a].text);
            fputs(", \"why\": ", out);
            gs_json_string(out, f->left_out[a].why);
            fputc('}', out);
        }
        fputc(']', out);
    } else {
        fputs(", \"actions\": [", out);
        for (size_t a = 0; a < f->nactions; a++) {
            fputs(a ? ", " : "", out);
            gs_json_string(out, f->actions[a].text);
        }
        /* why each applies, in the same order: null when it applies to any trace */
        fputs("], \"actions_why\": [", out);
        for (size_t a = 0; a < f->nactions; a++) {
            fputs(a ? ", " : "", out);
            if (f->actions[a].why[0])
                gs_json_string(out, f->actions[a].why);
            else
                fputs("null", out);
        }
        fputc(']', out);
    }
    fputc('}', out);
}

void gs_render_diagnosis_json(FILE *out, const gs_diagnosis *d, const char *indent)
{
    fprintf(out, "%s\"verdict\": [", indent);
    size_t shown = 0;
    char inner[64];
    snprintf(inner, sizeof inner, "%s  ", indent);
    for (size_t i = 0; i < d->n; i++) {
        const gs_finding *f = &d->findings[d->order[i]];
        if (f->severity == GS_SEV_NONE)
            continue;
        fputs(shown++ ? ",\n" : "\n", out);
        json_finding(out, f, inner, false);
    }
    fprintf(out, "%s],\n%s\"rules\": [", shown ? "\n" : "", indent);
    for (size_t i = 0; i < d->n; i++) {
        fputs(i ? ",\n" : "\n", out);
        json_finding(out, &d->findings[i], inner, true);
    }
    fprintf(out, "\n%s]", indent);
}
