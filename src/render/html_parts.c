#include "render/html_parts.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "render/svg.h"
#include "render/units.h"
#include "render/verdict.h"

/* ---- tables ---------------------------------------------------------------------------------- */

/* Text longer than this is cut by CSS (with the whole text in a hover title): kernel names run
 * to hundreds of characters. */
#define LONG_TEXT 48

static void fmt_number(char *buf, size_t size, enum gs_col_type type, const gs_cell *c)
{
    /* A measure the trace cannot give is NaN or GS_CELL_UNKNOWN: "-", as in the text table. */
    bool real = type == GS_COL_PCT || type == GS_COL_GBPS || type == GS_COL_FLOAT;
    bool integer = type == GS_COL_COUNT || type == GS_COL_NS || type == GS_COL_BYTES;
    if ((real && !isfinite(c->f)) || (integer && c->i == GS_CELL_UNKNOWN)) {
        snprintf(buf, size, "-");
        return;
    }
    switch (type) {
    case GS_COL_COUNT: gs_fmt_count(buf, size, c->i); break;
    case GS_COL_NS: gs_fmt_duration(buf, size, c->i); break;
    case GS_COL_PCT: snprintf(buf, size, "%.1f", c->f); break;
    case GS_COL_BYTES: gs_fmt_bytes(buf, size, c->i); break;
    case GS_COL_GBPS: gs_fmt_bandwidth(buf, size, c->f); break;
    case GS_COL_FLOAT: snprintf(buf, size, "%.2f", c->f); break;
    case GS_COL_XYZ:
        snprintf(buf, size, "%" PRId32 "x%" PRId32 "x%" PRId32, c->xyz[0], c->xyz[1], c->xyz[2]);
        break;
    case GS_COL_TEXT: snprintf(buf, size, "?"); break;
    }
}

void gs_html_table(FILE *out, const gs_table *t)
{
    if (t->nrows == 0) {
        fputs("<p class=\"muted\">", out);
        gs_xml_text(out, t->empty_note ? t->empty_note : "none");
        fputs("</p>\n", out);
        return;
    }
    fputs("<div class=\"tablewrap\"><table>\n<thead><tr>", out);
    for (size_t c = 0; c < t->ncols; c++) {
        if (t->cols[c].flags & GS_COL_JSON_ONLY)
            continue;
        fprintf(out, "<th%s>", t->cols[c].type == GS_COL_TEXT ? "" : " class=\"n\"");
        gs_xml_text(out, t->cols[c].title);
        fputs("</th>", out);
    }
    fputs("</tr></thead>\n<tbody>\n", out);
    for (size_t r = 0; r < t->nrows; r++) {
        fputs("<tr>", out);
        for (size_t c = 0; c < t->ncols; c++) {
            const gs_column *col = &t->cols[c];
            if (col->flags & GS_COL_JSON_ONLY)
                continue;
            const gs_cell *cell = gs_table_cell(t, r, c);
            if (col->type != GS_COL_TEXT) {
                char buf[GS_UNIT_BUF];
                fmt_number(buf, sizeof buf, col->type, cell);
                fprintf(out, "<td class=\"n\">%s</td>", buf);
            } else if (!cell->text) {
                fputs("<td>-</td>", out);
            } else if (strlen(cell->text) > LONG_TEXT) {
                fputs("<td class=\"name\" title=\"", out);
                gs_xml_text(out, cell->text);
                fputs("\">", out);
                gs_xml_text(out, cell->text);
                fputs("</td>", out);
            } else {
                fputs("<td>", out);
                gs_xml_text(out, cell->text);
                fputs("</td>", out);
            }
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
}

/* ---- the verdict ----------------------------------------------------------------------------- */

static void put_finding(FILE *out, const gs_finding *f, size_t number)
{
    const char *sev = gs_severity_name(f->severity);
    fprintf(out, "<article class=\"finding sev-%s\">\n<div class=\"fhead\"><span class=\"fnum\">%zu"
                 "</span><h3>",
            sev, number);
    gs_xml_text(out, f->rule->title);
    fprintf(out, "</h3><span class=\"badge\">%s</span></div>\n", sev);
    if (f->speedup_bound > 0 && f->at_stake_ns > 0) {
        char stake[GS_UNIT_BUF];
        gs_fmt_duration(stake, sizeof stake, f->at_stake_ns);
        double pct = 100 * f->at_stake_share;
        char gain[256];
        gs_render_bound_gain(gain, sizeof gain, f, true);
        fprintf(out,
                "<div class=\"stake\"><div class=\"stakebar\"><span style=\"width:%.1f%%\"></span>"
                "</div><p><b>%s</b> per step at stake (%.1f %% of the step) &middot; %s</p></div>\n",
                pct < 0 ? 0 : pct > 100 ? 100 : pct, stake, pct, gain);
    } else if (f->gain_basis != GS_GAIN_NONE) {
        double pct = 100 * f->gain_share;
        fprintf(out, "<div class=\"stake\"><div class=\"stakebar\"><span style=\"width:%.1f%%\">"
                     "</span></div><p>",
                pct < 0 ? 0 : pct > 100 ? 100 : pct);
        char gain[256];
        gs_render_gain_estimate(gain, sizeof gain, "", f);
        fprintf(out, "%s</p></div>\n", gain); /* numbers and fixed words: nothing to escape */
    } else if (f->expected_speedup > 0) {
        fprintf(out, "<div class=\"stake\"><p>expected <b>%.2f&times;</b> faster (replay)</p>"
                     "</div>\n", f->expected_speedup);
    }
    fputs("<p class=\"evidence\">", out);
    gs_xml_text(out, f->evidence);
    fputs("</p>\n<ul class=\"actions\">", out);
    for (size_t a = 0; a < f->nactions; a++) {
        fputs("<li>", out);
        gs_xml_text(out, f->actions[a].text);
        if (f->actions[a].why[0]) {
            fputs("<br><small>why: ", out);
            gs_xml_text(out, f->actions[a].why);
            fputs("</small>", out);
        }
        fputs("</li>", out);
    }
    fputs("</ul>\n</article>\n", out);
}

void gs_html_verdict(FILE *out, const gs_diagnosis *d)
{
    size_t shown = 0;
    for (size_t i = 0; i < d->n; i++) {
        const gs_finding *f = &d->findings[d->order[i]];
        if (f->severity != GS_SEV_NONE)
            put_finding(out, f, ++shown);
    }
    if (!shown)
        fputs("<p>No rule fired: no bottleneck stands out in this trace (every rule and its "
              "numbers are under <a href=\"#rules\">Every rule</a>).</p>\n",
              out);
}

void gs_html_rules(FILE *out, const gs_diagnosis *d)
{
    fputs("<div class=\"tablewrap\"><table class=\"rules\">\n<thead><tr><th>Rule</th>"
          "<th>Severity</th><th class=\"n\">At stake</th><th>Why</th><th>Source</th></tr></thead>"
          "\n<tbody>\n",
          out);
    for (size_t i = 0; i < d->n; i++) {
        const gs_finding *f = &d->findings[i];
        char stake[GS_UNIT_BUF];
        gs_fmt_duration(stake, sizeof stake, f->at_stake_ns);
        fputs("<tr><td>", out);
        gs_xml_text(out, f->rule->title);
        fprintf(out, "</td><td><span class=\"sevtext sev-%s\">%s</span></td><td class=\"n\">%s"
                     "</td><td class=\"wrap\">",
                gs_severity_name(f->severity), gs_severity_name(f->severity), stake);
        gs_xml_text(out, f->why);
        fputs("</td><td class=\"wrap muted\">", out);
        gs_xml_text(out, f->rule->source);
        fputs("</td></tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
}
