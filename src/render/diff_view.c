#include "render/diff_view.h"

#include <stdbool.h>
#include <string.h>

#include "common/util.h"
#include "render/json.h"
#include "render/step_tables.h"
#include "render/units.h"

#define METHOD "bootstrap of medians"

/* ---- the verdict ---------------------------------------------------------------------------- */

static const char *direction(const gs_rank_change *rc)
{
    if (!rc->has_ci)
        return "unknown";
    if (!rc->significant)
        return "none";
    return rc->ci.diff_lo > 0 ? "slower" : "faster";
}

static void format_p_phrase(char *buf, size_t size, double p)
{
    if (p < 0.001)
        snprintf(buf, size, "p < 0.001");
    else
        snprintf(buf, size, "p = %.3f", p);
}

void gs_diff_verdict(char *buf, size_t size, const gs_diff *d)
{
    const gs_rank_change *rc = &d->pairs[d->headline];
    char rank[32] = "", p[24];
    if (d->npairs > 1)
        snprintf(rank, sizeof rank, "rank %d: ", (int)rc->bd[GS_SIDE_BASE]->id.rank);
    if (!rc->has_ci) {
        snprintf(buf, size,
                 "%sno verdict: BASE has %zu kept step%s and NEW %zu; a confidence interval "
                 "needs at least %d on each side",
                 rank, rc->kept[GS_SIDE_BASE], rc->kept[GS_SIDE_BASE] == 1 ? "" : "s",
                 rc->kept[GS_SIDE_NEW], GS_DIFF_MIN_STEPS);
        return;
    }
    format_p_phrase(p, sizeof p, rc->mw.p);
    const gs_boot_ci *ci = &rc->ci;
    if (!rc->significant) {
        snprintf(buf, size,
                 "%sno significant change (NEW %+.1f %%, 95 %% CI %+.1f %% to %+.1f %%, "
                 "includes 0; " METHOD "; Mann-Whitney %s)",
                 rank, ci->pct, ci->pct_lo, ci->pct_hi, p);
    } else if (ci->diff_lo > 0) {
        snprintf(buf, size, "%sNEW is %.1f %% slower (95 %% CI %.1f–%.1f %%, " METHOD
                 "; Mann-Whitney %s)", rank, ci->pct, ci->pct_lo, ci->pct_hi, p);
    } else {
        snprintf(buf, size, "%sNEW is %.1f %% faster (95 %% CI %.1f–%.1f %%, " METHOD
                 "; Mann-Whitney %s)", rank, -ci->pct, -ci->pct_hi, -ci->pct_lo, p);
    }
}

bool gs_diff_gate_refused(const gs_diff_view *v)
{
    return v->gate_pct >= 0 && v->diff->setup.differs && !v->force;
}

/* "tripped: ...", "passed: ...", "refused: ..." or NULL without a gate. */
static void format_gate_phrase(char *buf, size_t size, const gs_diff_view *v)
{
    const gs_rank_change *rc = &v->diff->pairs[v->diff->headline];
    if (gs_diff_gate_refused(v))
        snprintf(buf, size, "refused: the setups differ (%s); --force judges anyway",
                 v->diff->setup.summary);
    else if (!rc->has_ci)
        snprintf(buf, size, "passed: no confidence interval to judge by");
    else if (gs_diff_gate(v->diff, (double)v->gate_pct))
        snprintf(buf, size, "tripped: the 95 %% CI's lower bound, %+.1f %%, exceeds %ld %%",
                 rc->ci.pct_lo, v->gate_pct);
    else
        snprintf(buf, size, "passed: the 95 %% CI's lower bound, %+.1f %%, does not exceed %ld %%",
                 rc->ci.pct_lo, v->gate_pct);
}

/* ---- sections ------------------------------------------------------------------------------- */

typedef struct section {
    const char *key;   /* JSON member and CSV block name */
    const char *title; /* table format heading */
    gs_table *table;
    bool limited;      /* --limit applies */
} section;

static size_t make_sections(gs_diff_tables *t, section *s)
{
    const section all[] = {
        {"breakdown", "Breakdown shift (mean per kept step)", &t->breakdown, false},
        {"kernels", "Kernel deltas per kept step (matched by name, then by launch shape)",
         &t->kernels, true},
        {"operators", "Operator deltas per kept step (CPU total; matched by name)", &t->ops, true},
        {"added_removed", "Added and removed kernels and operators (per kept step)", &t->only,
         true},
        {"memory", "Memory peaks", &t->memory, false},
    };
    memcpy(s, all, sizeof all);
    return COUNT_OF(all);
}

/* ---- text ----------------------------------------------------------------------------------- */

static void put_side_line(FILE *out, const char *label, const gs_bd_trace *b, size_t kept)
{
    const gs_steps *s = &b->steps;
    fprintf(out, "%-4s  %s (rank %d): %zu step%s from %s", label,
            b->id.path ? b->id.path : "-", (int)b->id.rank, s->n, s->n == 1 ? "" : "s",
            gs_step_source_title(s->source));
    if (s->nwarmup)
        fprintf(out, ", %zu warm-up %s", s->nwarmup,
                s->keep_warmup ? "kept (--keep-warmup)" : "left out");
    if (kept) {
        const gs_step_stats *st = &s->stats;
        char med[GS_UNIT_BUF], mean[GS_UNIT_BUF], min[GS_UNIT_BUF], max[GS_UNIT_BUF];
        gs_fmt_duration(med, sizeof med, st->med);
        gs_fmt_duration(mean, sizeof mean, st->mean);
        gs_fmt_duration(min, sizeof min, st->min);
        gs_fmt_duration(max, sizeof max, st->max);
        fprintf(out, "; %zu kept: med %s, mean %s, min %s, max %s", kept, med, mean, min, max);
    }
    fputc('\n', out);
}

/* What differs in the setup, and what is not compared because one side did not record it. */
static void put_setup_lines(FILE *out, const gs_diff_setup *s)
{
    if (s->differs) {
        fputs("setups differ, so a change in step time is not only the code's:\n", out);
        for (int k = 0; k < GS_SETUP__COUNT; k++)
            if (s->rows[k].differs)
                fprintf(out, "  %-22s BASE %s, NEW %s\n", s->rows[k].name, s->rows[k].value[0],
                        s->rows[k].value[1]);
    }
    for (int c = 0; c < GS_REC__COUNT; c++)
        if (!s->comparable[c])
            fprintf(out, "not compared: %s\n", s->why_not[c]);
}

static void text_header(FILE *out, const gs_diff_view *v, const gs_text_style *style)
{
    const gs_diff *d = v->diff;
    const gs_rank_change *rc = &d->pairs[d->headline];
    put_side_line(out, "BASE", rc->bd[GS_SIDE_BASE], rc->kept[GS_SIDE_BASE]);
    put_side_line(out, "NEW", rc->bd[GS_SIDE_NEW], rc->kept[GS_SIDE_NEW]);
    if (d->npairs > 1)
        fprintf(out, "%zu rank pairs; the verdict is about the one with the strongest evidence of "
                     "a slowdown\n", d->npairs);
    if (d->unpaired[GS_SIDE_BASE] || d->unpaired[GS_SIDE_NEW])
        fprintf(out, "left out, with no trace of the same rank on the other side: %zu of BASE, "
                     "%zu of NEW\n", d->unpaired[GS_SIDE_BASE], d->unpaired[GS_SIDE_NEW]);
    put_setup_lines(out, &d->setup);
    fputc('\n', out);
    char title[200];
    snprintf(title, sizeof title,
             "Step time (median of the kept steps; 95 %% CI: percentile bootstrap of the "
             "difference of medians, %d resamples; Mann-Whitney U, two-sided)", GS_BOOT_RESAMPLES);
    gs_put_title(out, style, title, 1, 1);
}

static int render_text(FILE *out, const gs_diff_view *v, const gs_text_style *style,
                       const section *s, size_t n, const size_t *totals)
{
    char verdict[512], gate[600];
    text_header(out, v, style);
    int rc = gs_render_text(out, &v->tables->steps, style);
    gs_diff_verdict(verdict, sizeof verdict, v->diff);
    fprintf(out, "\n%s\n", verdict);
    if (v->gate_pct >= 0) {
        format_gate_phrase(gate, sizeof gate, v);
        fprintf(out, "gate --fail-if-slower %ld: %s\n", v->gate_pct, gate);
    }
    for (size_t i = 0; i < n; i++) {
        fputc('\n', out);
        gs_put_title(out, style, s[i].title, s[i].table->nrows, totals[i]);
        rc |= gs_render_text(out, s[i].table, style);
    }
    return rc ? -1 : 0;
}

/* ---- csv and json --------------------------------------------------------------------------- */

static void render_csv(FILE *out, const gs_diff_view *v, const section *s, size_t n)
{
    fputs("# step_time\n", out);
    gs_render_csv(out, &v->tables->steps);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "\n# %s\n", s[i].key);
        gs_render_csv(out, s[i].table);
    }
}

static void json_number_or_null(FILE *out, bool known, double v, int decimals)
{
    if (known)
        gs_json_number(out, v, decimals);
    else
        fputs("null", out);
}

/* ,"setup": {"differs": true, "items": [...], "not_compared": [{"category", "why"}]} */
static void put_setup_json(FILE *out, const gs_diff_setup *s)
{
    fprintf(out, ",\n  \"setup\": {\"differs\": %s, \"items\": [", s->differs ? "true" : "false");
    for (int k = 0; k < GS_SETUP__COUNT; k++) {
        const gs_setup_row *r = &s->rows[k];
        fprintf(out, "%s\n    {\"item\": \"%s\", \"base\": ", k ? "," : "", r->key);
        if (r->known[0])
            gs_json_string(out, r->value[0]);
        else
            fputs("null", out);
        fputs(", \"new\": ", out);
        if (r->known[1])
            gs_json_string(out, r->value[1]);
        else
            fputs("null", out);
        fprintf(out, ", \"differs\": %s}", r->differs ? "true" : "false");
    }
    fputs("],\n    \"not_compared\": [", out);
    bool first = true;
    for (int c = 0; c < GS_REC__COUNT; c++) {
        if (s->comparable[c])
            continue;
        fprintf(out, "%s{\"category\": \"%s\", \"why\": ", first ? "" : ", ",
                gs_setup_category_key((enum gs_setup_category)c));
        gs_json_string(out, s->why_not[c]);
        fputc('}', out);
        first = false;
    }
    fputs("]}", out);
}

static void render_json(FILE *out, const gs_diff_view *v, const section *s, size_t n,
                        const size_t *totals)
{
    const gs_diff *d = v->diff;
    const gs_rank_change *rc = &d->pairs[d->headline];
    char verdict[512];
    gs_diff_verdict(verdict, sizeof verdict, d);
    fputs("{\n  \"command\": \"diff\",\n  \"base\": ", out);
    gs_json_string(out, v->path[GS_SIDE_BASE]);
    fputs(",\n  \"new\": ", out);
    gs_json_string(out, v->path[GS_SIDE_NEW]);
    fprintf(out, ",\n  \"method\": {\"interval\": \"percentile bootstrap of the difference of "
                 "medians\", \"level\": %.2f, \"resamples\": %d, \"seed\": %llu, \"median\": "
                 "\"nearest-rank\", \"test\": \"Mann-Whitney U, two-sided\", \"min_steps\": %d},\n",
            GS_BOOT_LEVEL, GS_BOOT_RESAMPLES, (unsigned long long)GS_BOOT_SEED, GS_DIFF_MIN_STEPS);
    fprintf(out, "  \"pairs\": %zu,\n  \"unpaired_base\": %zu,\n  \"unpaired_new\": %zu,\n",
            d->npairs, d->unpaired[GS_SIDE_BASE], d->unpaired[GS_SIDE_NEW]);
    fputs("  \"verdict\": {\"text\": ", out);
    gs_json_string(out, verdict);
    fprintf(out, ", \"base_rank\": %d, \"new_rank\": %d, \"direction\": \"%s\", \"change_pct\": ",
            (int)rc->bd[GS_SIDE_BASE]->id.rank, (int)rc->bd[GS_SIDE_NEW]->id.rank, direction(rc));
    json_number_or_null(out, rc->has_ci, rc->ci.pct, 3);
    fputs(", \"ci_low_pct\": ", out);
    json_number_or_null(out, rc->has_ci, rc->ci.pct_lo, 3);
    fputs(", \"ci_high_pct\": ", out);
    json_number_or_null(out, rc->has_ci, rc->ci.pct_hi, 3);
    fputs(", \"p_value\": ", out);
    if (rc->has_ci)
        fprintf(out, "%.6g", rc->mw.p);
    else
        fputs("null", out);
    fputs("},\n  \"gate\": ", out);
    if (v->gate_pct < 0) {
        fputs("null", out);
    } else {
        bool refused = gs_diff_gate_refused(v);
        fprintf(out, "{\"fail_if_slower_pct\": %ld, \"tripped\": %s, \"refused\": ", v->gate_pct,
                !refused && gs_diff_gate(d, (double)v->gate_pct) ? "true" : "false");
        if (refused)
            gs_json_string(out, d->setup.summary);
        else
            fputs("null", out);
        fputc('}', out);
    }
    put_setup_json(out, &d->setup);
    fputs(",\n  \"step_time\": ", out);
    gs_json_rows(out, &v->tables->steps, "  ");
    for (size_t i = 0; i < n; i++) {
        if (s[i].limited)
            fprintf(out, ",\n  \"%s_total\": %zu", s[i].key, totals[i]);
        fprintf(out, ",\n  \"%s\": ", s[i].key);
        gs_json_rows(out, s[i].table, "  ");
    }
    fputs("\n}\n", out);
}

int gs_render_diff(FILE *out, const gs_diff_view *v, enum gs_format format,
                   const gs_text_style *style, size_t limit)
{
    section s[8];
    size_t n = make_sections(v->tables, s), totals[8];
    for (size_t i = 0; i < n; i++) {
        totals[i] = s[i].table->nrows;
        if (s[i].limited)
            gs_table_limit(s[i].table, limit);
    }
    switch (format) {
    case GS_FORMAT_JSON:
        render_json(out, v, s, n, totals);
        return 0;
    case GS_FORMAT_CSV:
        render_csv(out, v, s, n);
        return 0;
    case GS_FORMAT_TABLE:
        break;
    }
    return render_text(out, v, style, s, n, totals);
}
