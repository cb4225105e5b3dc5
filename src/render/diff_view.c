#include "render/diff_view.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "common/util.h"
#include "render/json.h"
#include "render/step_tables.h"
#include "render/units.h"
#include "analysis/trace/trace_facts.h"

#define METHOD "bootstrap of medians"

/* ---- the verdict ---------------------------------------------------------------------------- */

static const char *direction(bool has_ci, bool significant, const gs_boot_ci *ci)
{
    if (!has_ci)
        return "unknown";
    if (!significant)
        return "none";
    return ci->diff_lo > 0 ? "slower" : "faster";
}

static void format_p_phrase(char *buf, size_t size, double p)
{
    if (p < 0.001)
        snprintf(buf, size, "p < 0.001");
    else
        snprintf(buf, size, "p = %.3f", p);
}

/* "GPU work per step: the same within 0.2 % (...)" or "NEW has 5.20 % more GPU work per step
 * (...)": GPU work moves by tenths of a percent, hence two decimals. */
static size_t put_gpu_work_phrase(char *buf, size_t size, const gs_collector_change *w)
{
    char p[24];
    const gs_boot_ci *ci = &w->gpu_ci;
    format_p_phrase(p, sizeof p, w->gpu_mw.p);
    int n;
    if (!w->gpu_significant)
        n = snprintf(buf, size, "GPU work per step: the same within %.2f %% (NEW %+.2f %%, 95 %% CI "
                     "%+.2f %% to %+.2f %%; Mann-Whitney %s)",
                     fabs(ci->pct_lo) > fabs(ci->pct_hi) ? fabs(ci->pct_lo) : fabs(ci->pct_hi),
                     ci->pct, ci->pct_lo, ci->pct_hi, p);
    else
        n = snprintf(buf, size, "NEW has %.2f %% %s GPU work per step (95 %% CI %+.2f %% to %+.2f %%; "
                     "Mann-Whitney %s)", fabs(ci->pct), ci->diff_lo > 0 ? "more" : "less",
                     ci->pct_lo, ci->pct_hi, p);
    return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* The verdict between runs recorded differently: on the GPU work, with the step-time change set
 * beside the collectors' own cost (compare/collectors.h). */
static void gpu_work_verdict(char *buf, size_t size, const char *rank, const gs_rank_change *rc)
{
    const gs_collector_change *w = &rc->work;
    char cost[GS_SIDES][GS_UNIT_BUF], left[GS_UNIT_BUF];
    gs_fmt_duration(cost[GS_SIDE_BASE], sizeof cost[0], w->cost[GS_SIDE_BASE]);
    gs_fmt_duration(cost[GS_SIDE_NEW], sizeof cost[1], w->cost[GS_SIDE_NEW]);
    gs_fmt_duration(left, sizeof left, w->unexplained_ns < 0 ? -w->unexplained_ns
                                                              : w->unexplained_ns);
    size_t len = (size_t)snprintf(buf, size, "%s", rank);
    len += put_gpu_work_phrase(buf + len, size - len, w);
    if (w->explained)
        snprintf(buf + len, size - len, "; the step-time change (NEW %+.1f %%) is within what the "
                 "collectors' own cost explains: BASE %s vs NEW %s per step (estimated)",
                 rc->ci.pct, cost[GS_SIDE_BASE], cost[GS_SIDE_NEW]);
    else
        snprintf(buf + len, size - len, "; the step-time change (NEW %+.1f %%, 95 %% CI %+.1f %% to "
                 "%+.1f %%) is not what the collectors' own cost explains (BASE %s vs NEW %s per "
                 "step, estimated): %s%s per step is left", rc->ci.pct, rc->ci.pct_lo,
                 rc->ci.pct_hi, cost[GS_SIDE_BASE], cost[GS_SIDE_NEW],
                 w->unexplained_ns < 0 ? "-" : "+", left);
}

void gs_diff_verdict(char *buf, size_t size, const gs_diff *d)
{
    const gs_rank_change *rc = &d->pairs[d->headline];
    char rank[32] = "", p[24];
    if (d->npairs > 1)
        snprintf(rank, sizeof rank, "rank %d: ", (int)rc->bd[GS_SIDE_BASE]->id.rank);
    if (gs_diff_on_gpu_work(d)) {
        gpu_work_verdict(buf, size, rank, rc);
        return;
    }
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

/* What differs in the setup (with the collectors' own cost when they differ), and what is not
 * compared because one side did not record it. */
static void put_setup_lines(FILE *out, const gs_diff *d)
{
    const gs_diff_setup *s = &d->setup;
    if (s->differs) {
        fputs("setups differ, so a change in step time is not only the code's:\n", out);
        for (int k = 0; k < GS_SETUP__COUNT; k++)
            if (s->rows[k].differs)
                fprintf(out, "  %-22s BASE %s, NEW %s\n", s->rows[k].name, s->rows[k].value[0],
                        s->rows[k].value[1]);
    }
    if (s->collection_differs) {
        const gs_collector_change *w = &d->pairs[d->headline].work;
        char cost[GS_SIDES][GS_UNIT_BUF];
        gs_fmt_duration(cost[GS_SIDE_BASE], sizeof cost[0], w->cost[GS_SIDE_BASE]);
        gs_fmt_duration(cost[GS_SIDE_NEW], sizeof cost[1], w->cost[GS_SIDE_NEW]);
        fprintf(out, "  %-22s BASE %s, NEW %s per kept step (estimated: doc/diagnosis.md)%s\n",
                "own host time", cost[GS_SIDE_BASE], cost[GS_SIDE_NEW],
                gs_diff_on_gpu_work(d) ? "; the verdict rests on the GPU work" : "");
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
    put_setup_lines(out, d);
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
    char verdict[768], gate[600];
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

static void put_pct_or_null(gs_json_writer *w, const char *key, bool known, double v)
{
    if (known)
        gs_json_put_fixed(w, key, v, 3);
    else
        gs_json_put_null(w, key);
}

/* The setup object: whether it differs and its items on the first line, the items one per line
 * under it and closed on the last one's line; then what is not compared. */
static const gs_json_layout setup_layout = {.lines = true, .head = 2, .indent = 2, .hang = true};
static const gs_json_layout setup_items_layout = {.lines = true, .indent = 2, .hang = true};

/* "setup": {"differs": true, "items": [...], "not_compared": [{"category", "why"}]} */
static void put_setup_json(gs_json_writer *w, const gs_diff_setup *s)
{
    gs_json_begin_object(w, "setup", setup_layout);
    gs_json_put_bool(w, "differs", s->differs);
    gs_json_begin_array(w, "items", setup_items_layout);
    for (int k = 0; k < GS_SETUP__COUNT; k++) {
        const gs_setup_row *r = &s->rows[k];
        gs_json_begin_object(w, NULL, GS_JSON_INLINE);
        gs_json_put_str(w, "item", r->key);
        gs_json_put_str(w, "base", r->known[0] ? r->value[0] : NULL);
        gs_json_put_str(w, "new", r->known[1] ? r->value[1] : NULL);
        gs_json_put_bool(w, "differs", r->differs);
        gs_json_end(w);
    }
    gs_json_end(w);
    gs_json_begin_array(w, "not_compared", GS_JSON_INLINE);
    for (int c = 0; c < GS_REC__COUNT; c++) {
        if (s->comparable[c])
            continue;
        gs_json_begin_object(w, NULL, GS_JSON_INLINE);
        gs_json_put_str(w, "category", gs_setup_category_key((enum gs_setup_category)c));
        gs_json_put_str(w, "why", s->why_not[c]);
        gs_json_end(w);
    }
    gs_json_end(w);
    gs_json_end(w);
}

static void put_method_json(gs_json_writer *w)
{
    gs_json_begin_object(w, "method", GS_JSON_INLINE);
    gs_json_put_str(w, "interval", "percentile bootstrap of the difference of medians");
    gs_json_put_fixed(w, "level", GS_BOOT_LEVEL, 2);
    gs_json_put_int(w, "resamples", GS_BOOT_RESAMPLES);
    gs_json_put_uint(w, "seed", GS_BOOT_SEED);
    gs_json_put_str(w, "median", "nearest-rank");
    gs_json_put_str(w, "test", "Mann-Whitney U, two-sided");
    gs_json_put_int(w, "min_steps", GS_DIFF_MIN_STEPS);
    gs_json_end(w);
}

/* direction, change_pct, ci_low_pct, ci_high_pct, p_value of one comparison. */
static void put_change_json(gs_json_writer *w, bool has_ci, bool significant, const gs_boot_ci *ci,
                            const gs_mw *mw)
{
    gs_json_put_str(w, "direction", direction(has_ci, significant, ci));
    put_pct_or_null(w, "change_pct", has_ci, ci->pct);
    put_pct_or_null(w, "ci_low_pct", has_ci, ci->pct_lo);
    put_pct_or_null(w, "ci_high_pct", has_ci, ci->pct_hi);
    if (has_ci)
        gs_json_put_real(w, "p_value", mw->p, 6);
    else
        gs_json_put_null(w, "p_value");
}

/* The verdict's numbers are those of what it rests on (basis): the step time, or the GPU work
 * when the two sides were recorded differently. */
static void put_verdict_json(gs_json_writer *w, const gs_diff *d)
{
    const gs_rank_change *rc = &d->pairs[d->headline];
    const gs_collector_change *g = &rc->work;
    bool on_gpu = gs_diff_on_gpu_work(d);
    char verdict[768];
    gs_diff_verdict(verdict, sizeof verdict, d);
    gs_json_begin_object(w, "verdict", GS_JSON_INLINE);
    gs_json_put_str(w, "text", verdict);
    gs_json_put_str(w, "basis", on_gpu ? "gpu_work" : "step_time");
    gs_json_put_int(w, "base_rank", rc->bd[GS_SIDE_BASE]->id.rank);
    gs_json_put_int(w, "new_rank", rc->bd[GS_SIDE_NEW]->id.rank);
    if (on_gpu)
        put_change_json(w, g->has_ci, g->gpu_significant, &g->gpu_ci, &g->gpu_mw);
    else
        put_change_json(w, rc->has_ci, rc->significant, &rc->ci, &rc->mw);
    gs_json_end(w);
}

/* "gpu_work": the headline pair's GPU work per kept step (medians, change, interval, test);
 * "collectors": who recorded each side, their estimated own host time per kept step, and how
 * much of the step-time change that explains. */
static void put_gpu_work_json(gs_json_writer *w, const gs_diff *d)
{
    const gs_rank_change *rc = &d->pairs[d->headline];
    const gs_collector_change *g = &rc->work;
    gs_json_begin_object(w, "gpu_work", GS_JSON_INLINE);
    if (g->has_ci) {
        gs_json_put_int(w, "base_med_ns", g->gpu_ci.base_med);
        gs_json_put_int(w, "new_med_ns", g->gpu_ci.new_med);
        gs_json_put_int(w, "change_ns", g->gpu_ci.diff);
    } else {
        gs_json_put_null(w, "base_med_ns");
        gs_json_put_null(w, "new_med_ns");
        gs_json_put_null(w, "change_ns");
    }
    put_change_json(w, g->has_ci, g->gpu_significant, &g->gpu_ci, &g->gpu_mw);
    gs_json_end(w);
    gs_json_begin_object(w, "collectors", GS_JSON_INLINE);
    gs_json_put_bool(w, "differ", d->setup.collection_differs);
    gs_json_put_str(w, "base", gs_collector_name(g->collector[GS_SIDE_BASE]));
    gs_json_put_str(w, "new", gs_collector_name(g->collector[GS_SIDE_NEW]));
    gs_json_put_int(w, "base_own_ns", g->cost[GS_SIDE_BASE]);
    gs_json_put_int(w, "new_own_ns", g->cost[GS_SIDE_NEW]);
    gs_json_put_int(w, "own_change_ns", g->cost[GS_SIDE_NEW] - g->cost[GS_SIDE_BASE]);
    if (rc->has_ci) {
        gs_json_put_bool(w, "explains_step_change", g->explained);
        gs_json_put_int(w, "unexplained_ns", g->unexplained_ns);
    } else {
        gs_json_put_null(w, "explains_step_change");
        gs_json_put_null(w, "unexplained_ns");
    }
    gs_json_end(w);
}

static void put_gate_json(gs_json_writer *w, const gs_diff_view *v)
{
    if (v->gate_pct < 0) {
        gs_json_put_null(w, "gate");
        return;
    }
    bool refused = gs_diff_gate_refused(v);
    gs_json_begin_object(w, "gate", GS_JSON_INLINE);
    gs_json_put_int(w, "fail_if_slower_pct", v->gate_pct);
    gs_json_put_bool(w, "tripped", !refused && gs_diff_gate(v->diff, (double)v->gate_pct));
    gs_json_put_str(w, "refused", refused ? v->diff->setup.summary : NULL);
    gs_json_end(w);
}

static void render_json(FILE *out, const gs_diff_view *v, const section *s, size_t n,
                        const size_t *totals)
{
    const gs_diff *d = v->diff;
    gs_json_writer w;
    gs_json_writer_init(&w, out);
    gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
    gs_json_put_str(&w, "command", "diff");
    gs_json_put_str(&w, "base", v->path[GS_SIDE_BASE]);
    gs_json_put_str(&w, "new", v->path[GS_SIDE_NEW]);
    put_method_json(&w);
    gs_json_put_uint(&w, "pairs", d->npairs);
    gs_json_put_uint(&w, "unpaired_base", d->unpaired[GS_SIDE_BASE]);
    gs_json_put_uint(&w, "unpaired_new", d->unpaired[GS_SIDE_NEW]);
    put_verdict_json(&w, d);
    put_gpu_work_json(&w, d);
    put_gate_json(&w, v);
    put_setup_json(&w, &d->setup);
    gs_json_rows(&w, "step_time", &v->tables->steps);
    for (size_t i = 0; i < n; i++) {
        if (s[i].limited) {
            char key[64];
            snprintf(key, sizeof key, "%s_total", s[i].key);
            gs_json_put_uint(&w, key, totals[i]);
        }
        gs_json_rows(&w, s[i].key, s[i].table);
    }
    gs_json_end(&w);
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
