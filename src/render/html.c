/* The HTML page: head and style, then one section per part of the report, in the text report's
 * order, with charts where a picture says more than a table. */
#include "render/html.h"

#include <inttypes.h>
#include <math.h>

#include "render/breakdown_tables.h"
#include "render/html_charts.h"
#include "render/html_roofline.h"
#include "render/html_parts.h"
#include "render/report_tables.h"
#include "render/step_tables.h"
#include "render/svg.h"
#include "render/units.h"

/* One palette per colour scheme; charts use only these variables (through classes), so both
 * schemes need nothing else. Category colours k0..k7 follow enum gs_bd_cat and stay tellable
 * apart on either background. */
static const char page_style[] =
    ":root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--card:#f6f8fa;"
    "--border:#d1d9e0;--grid:#e4e8ec;--accent:#0969da;"
    "--k0:#4e79a7;--k1:#f28e2b;--k2:#d4b000;--k3:#b07aa1;--k4:#e15759;--k5:#59a14f;"
    "--k6:#76b7b2;--k7:#a39b96;--util:#4e79a7;--nvml:#d9480f;--alloc:#4e79a7;--res:#8e44ad;"
    "--peak:#d6336c;--risk:#cf222e;--bottleneck:#bc4c00;--finding:#9a6700;--note:#6e7781}\n"
    "@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;"
    "--card:#161b22;--border:#30363d;--grid:#262c34;--accent:#4493f8;"
    "--k0:#6d9fd6;--k1:#f7a24f;--k2:#ecd25e;--k3:#c99bc0;--k4:#f07b7d;--k5:#7cc36f;"
    "--k6:#8fd1cb;--k7:#8b949e;--util:#6d9fd6;--nvml:#ff922b;--alloc:#6d9fd6;--res:#d0a2e6;"
    "--peak:#ff6b9d;--risk:#ff7b72;--bottleneck:#f0883e;--finding:#d29922;--note:#8b949e}}\n"
    "body{margin:0;background:var(--bg);color:var(--fg);"
    "font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',sans-serif}\n"
    "main{max-width:1180px;margin:0 auto;padding:24px 28px 64px}\n"
    "h1{font-size:26px;margin:0 0 2px}h2{font-size:20px;margin:40px 0 12px;padding-bottom:6px;"
    "border-bottom:1px solid var(--border)}h3{font-size:16px;margin:22px 0 8px}\n"
    "a{color:var(--accent)}.muted{color:var(--muted)}code{font-size:90%}\n"
    ".sub{margin:0 0 12px;color:var(--muted);overflow-wrap:anywhere}\n"
    ".facts{display:flex;flex-wrap:wrap;gap:6px 22px;list-style:none;padding:0;margin:8px 0}\n"
    ".facts b{font-variant-numeric:tabular-nums}\n"
    "nav{display:flex;flex-wrap:wrap;gap:4px 14px;font-size:14px;padding:8px 0;"
    "border-top:1px solid var(--border);border-bottom:1px solid var(--border)}\n"
    ".finding{border:1px solid var(--border);border-left:6px solid var(--sev);border-radius:8px;"
    "padding:10px 16px;margin:12px 0;background:var(--card)}\n"
    ".sev-risk{--sev:var(--risk)}.sev-bottleneck{--sev:var(--bottleneck)}"
    ".sev-finding{--sev:var(--finding)}.sev-note{--sev:var(--note)}.sev-none{--sev:var(--grid)}\n"
    ".fhead{display:flex;align-items:center;gap:10px}.fhead h3{margin:0;font-size:17px}\n"
    ".fnum{font-weight:700;color:var(--muted)}\n"
    ".badge{background:var(--sev);color:var(--bg);border-radius:10px;padding:0 9px;"
    "font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.03em}\n"
    ".stake{margin:8px 0 4px}.stake p{margin:4px 0}\n"
    ".stakebar{height:8px;max-width:420px;background:var(--grid);border-radius:4px;overflow:hidden}"
    ".stakebar span{display:block;height:100%;background:var(--sev)}\n"
    ".evidence{margin:6px 0}.actions{margin:4px 0 2px;padding-left:22px}\n"
    ".sevtext{color:var(--sev);font-weight:600}.sev-none.sevtext{color:var(--muted);font-weight:400}\n"
    "table{border-collapse:collapse;width:100%;font-size:13px;font-variant-numeric:tabular-nums}\n"
    "th,td{padding:4px 8px;border-bottom:1px solid var(--border);text-align:left;"
    "white-space:nowrap;vertical-align:top}\n"
    /* Headers wrap ("Non-compute (%)" over two lines) so wide tables fit without scrolling. */
    "th{font-weight:600;background:var(--card);white-space:normal;vertical-align:bottom}\n"
    "td.n,th.n{text-align:right}td.wrap{white-space:normal;min-width:16em}\n"
    "td.name{max-width:26em;overflow:hidden;text-overflow:ellipsis}\n"
    ".tablewrap{overflow-x:auto;margin:8px 0}\n"
    "figure{margin:10px 0 18px;padding:12px 14px;border:1px solid var(--border);border-radius:8px}"
    "figcaption{font-size:14px;margin-bottom:6px}\n"
    "svg.chart{display:block;width:100%;height:auto;font-family:inherit;font-size:12px}\n"
    "svg text{fill:var(--muted)}svg .atitle{fill:var(--fg);font-size:13px}"
    "svg .mlabel{fill:var(--fg);font-weight:600;paint-order:stroke;stroke:var(--bg);"
    "stroke-width:4px;stroke-linejoin:round}\n"
    ".grid{stroke:var(--grid)}.axis{stroke:var(--muted)}\n"
    ".k0{fill:var(--k0);background:var(--k0)}.k1{fill:var(--k1);background:var(--k1)}"
    ".k2{fill:var(--k2);background:var(--k2)}.k3{fill:var(--k3);background:var(--k3)}"
    ".k4{fill:var(--k4);background:var(--k4)}.k5{fill:var(--k5);background:var(--k5)}"
    ".k6{fill:var(--k6);background:var(--k6)}.k7{fill:var(--k7);background:var(--k7)}\n"
    ".warm{opacity:.45}.whisker{fill:var(--fg);opacity:.4;background:var(--fg)}\n"
    ".meanline{stroke:var(--fg);stroke-width:1.2;stroke-dasharray:6 4}\n"
    ".hover{fill:transparent}.hover:hover{fill:var(--fg);fill-opacity:.08}\n"
    ".util{fill:var(--util);fill-opacity:.35;stroke:var(--util);stroke-width:1}"
    ".nvml{fill:none;stroke:var(--nvml);stroke-width:2}\n"
    ".memalloc{fill:var(--alloc);fill-opacity:.3;stroke:var(--alloc);stroke-width:1.5}"
    ".memres{fill:none;stroke:var(--res);stroke-width:2;stroke-dasharray:7 3}\n"
    ".devline{stroke:var(--risk);stroke-width:1.2;stroke-dasharray:2 3}"
    "circle.peak{fill:var(--peak);stroke:var(--bg);stroke-width:1.5}\n"
    ".roof{fill:none;stroke:var(--fg);stroke-width:1.8}.roof.fp32{stroke-dasharray:6 4}"
    ".roofpt{fill-opacity:.55;stroke-width:1.2}.roofpt.compute{fill:var(--k0);stroke:var(--k0);"
    "background:var(--k0)}.roofpt.memory{fill:var(--k1);stroke:var(--k1);background:var(--k1)}"
    ".roofpt.latency{fill:var(--k3);stroke:var(--k3);background:var(--k3)}"
    ".roofpt.unknown{fill:var(--k7);stroke:var(--k7)}\n"
    ".rankbar{fill:var(--k0)}.rankbar.slow{fill:var(--k4)}\n"
    ".tc{fill:var(--k0);background:var(--k0)}.tn{fill:var(--k3);background:var(--k3)}"
    ".ti{fill:var(--k7);background:var(--k7)}\n"
    ".legend{list-style:none;padding:0;margin:6px 0 0;display:flex;flex-wrap:wrap;"
    "gap:4px 18px;font-size:13px}.legend .zero{opacity:.55}\n"
    ".sw{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:6px;"
    "vertical-align:-1px}.sw.util,.sw.memalloc{background:var(--alloc)}"
    ".sw.nvml{background:var(--nvml)}.sw.memres{background:var(--res)}"
    ".sw.peak{background:var(--peak);border-radius:50%}\n"
    ".bdbar{display:flex;height:24px;border-radius:4px;overflow:hidden;margin:8px 0}"
    ".bdbar span{display:block;height:100%}\n"
    "details{margin:10px 0}summary{cursor:pointer;font-weight:600}\n"
    "footer{margin-top:48px;font-size:13px;color:var(--muted)}\n";

static void put_text(FILE *out, const char *tag, const char *text)
{
    fprintf(out, "<%s>", tag);
    gs_xml_text(out, text);
    fprintf(out, "</%s>\n", tag);
}

/* What the page cannot show because a rank summary (.gsum) it was drawn from does not hold it. */
static void put_missing(FILE *out, const char *what)
{
    fprintf(out, "<p class=\"muted\">Not in the rank summaries (.gsum) this page was written "
                 "from: %s.</p>\n",
            what);
}

/* ---- header and what was profiled ------------------------------------------------------------ */

static void put_header(FILE *out, const gs_report *r)
{
    const gs_profile_facts *f = &r->facts;
    fputs("<header>\n<h1>gpuscope report</h1>\n<p class=\"sub\">", out);
    for (size_t i = 0; i < f->nfiles && i < 3; i++) {
        fputs(i ? ", " : "", out);
        gs_xml_text(out, f->files[i].path);
    }
    if (f->nfiles > 3)
        fprintf(out, " and %zu more", f->nfiles - 3);
    char span[GS_UNIT_BUF];
    gs_fmt_duration(span, sizeof span, f->span);
    fprintf(out, "</p>\n<ul class=\"facts\"><li>traces <b>%zu</b></li><li>ranks <b>%zu</b></li>",
            f->nfiles, f->nranks);
    if (f->world_size)
        fprintf(out, "<li>world size <b>%" PRId32 "</b></li>", f->world_size);
    fprintf(out, "<li>time span <b>%s</b></li><li>steps <b>%" PRIu64 "</b></li>", span, f->steps);
    for (size_t i = 0; r->has_devices && i < f->ndevices && i < 4; i++) {
        fprintf(out, "<li>GPU %" PRId32 " <b>", f->devices[i].id);
        gs_xml_text(out, f->devices[i].name ? f->devices[i].name : "?");
        fputs("</b></li>", out);
    }
    fputs("</ul>\n</header>\n", out);
    fputs("<nav><a href=\"#verdict\">Verdict</a><a href=\"#profiled\">What was profiled</a>", out);
    if (r->breakdown.n > 1)
        fputs("<a href=\"#ranks\">Ranks</a>", out);
    fputs("<a href=\"#steps\">Steps</a><a href=\"#gpu\">GPU utilization</a>"
          "<a href=\"#memory\">Memory</a><a href=\"#idle\">Idle gaps</a>"
          "<a href=\"#kernels\">Kernels</a><a href=\"#ops\">Operators</a>"
          "<a href=\"#copies\">Copies</a><a href=\"#rules\">Every rule</a></nav>\n",
          out);
}

static void put_profiled(FILE *out, const gs_report *r, const gs_report_tables *t)
{
    fputs("<section id=\"profiled\"><h2>What was profiled</h2>\n", out);
    char note[256];
    if (*gs_loss_note(r->facts.events.lost, note, sizeof note))
        fprintf(out, "<p class=\"muted\">%s.</p>\n", note); /* digits and words: no markup */
    gs_html_table(out, &t->files);
    if (r->has_devices)
        gs_html_table(out, &t->devices);
    else
        put_missing(out, "the GPU list");
    fputs("</section>\n", out);
}

/* ---- per rank -------------------------------------------------------------------------------- */

/* A subtitle naming the rank, when there are several. */
static void put_rank_title(FILE *out, const gs_report *r, const gs_bd_trace *b)
{
    if (r->breakdown.n > 1)
        fprintf(out, "<h3>Rank %" PRId32 "</h3>\n", b->id.rank);
}

static size_t charted_ranks(const gs_report *r)
{
    return r->breakdown.n < GS_HTML_MAX_RANK_CHARTS ? r->breakdown.n : GS_HTML_MAX_RANK_CHARTS;
}

static void put_more_ranks(FILE *out, const gs_report *r)
{
    if (r->breakdown.n > GS_HTML_MAX_RANK_CHARTS)
        fprintf(out, "<p class=\"muted\">Charts for the first %d of %zu ranks; "
                     "<code>--rank R</code> draws another.</p>\n",
                GS_HTML_MAX_RANK_CHARTS, r->breakdown.n);
}

static void put_verdicts(FILE *out, const gs_report *r)
{
    fputs("<section id=\"verdict\"><h2>Verdict</h2>\n", out);
    for (size_t i = 0; i < r->nranks; i++) {
        if (r->nranks > 1)
            fprintf(out, "<details%s><summary>Rank %" PRId32 "</summary>\n", i ? "" : " open",
                    r->ranks[i].summary->inputs.rank);
        gs_html_verdict(out, &r->ranks[i].diagnosis);
        if (r->nranks > 1)
            fputs("</details>\n", out);
    }
    fputs("</section>\n", out);
}

static void put_step_stats(FILE *out, const gs_bd_trace *b)
{
    const gs_steps *s = &b->steps;
    char v[5][GS_UNIT_BUF];
    const gs_ns stats[5] = {s->stats.mean, s->stats.med, s->stats.p95, s->stats.min, s->stats.max};
    for (int i = 0; i < 5; i++)
        gs_fmt_duration(v[i], sizeof v[i], stats[i]);
    fprintf(out, "<ul class=\"facts\"><li><b>%zu</b> step%s (%s)", s->n, s->n == 1 ? "" : "s",
            gs_step_source_title(s->source));
    if (s->nwarmup)
        fprintf(out, ", %zu warm-up %s", s->nwarmup,
                s->keep_warmup ? "kept in the statistics" : "left out (faded)");
    fprintf(out, "</li><li>mean <b>%s</b></li><li>median <b>%s</b></li><li>p95 <b>%s</b></li>"
                 "<li>min <b>%s</b></li><li>max <b>%s</b></li></ul>\n",
            v[0], v[1], v[2], v[3], v[4]);
}

static int put_steps(FILE *out, const gs_report *r)
{
    fputs("<section id=\"steps\"><h2>Step time and where it goes</h2>\n<p class=\"muted\">Each "
          "instant of a step goes to the first category active then, in the legend's order "
          "(TensorBoard profiler semantics). Hover a bar for its numbers.</p>\n",
          out);
    for (size_t i = 0; i < charted_ranks(r); i++) {
        const gs_bd_trace *b = &r->breakdown.v[i];
        const gs_rank_series *s = &r->ranks[i].summary->series;
        put_rank_title(out, r, b);
        put_step_stats(out, b);
        fputs("<figure><figcaption>Average kept step</figcaption>\n", out);
        gs_html_breakdown_bar(out, b);
        fputs("</figure>\n", out);
        if (b->steps.n < 2)
            continue;
        if (!s->has_steps) {
            put_missing(out, "the time of each step by category");
            continue;
        }
        fputs("<figure><figcaption>Step time per step, by category</figcaption>\n", out);
        if (gs_html_step_chart(out, &b->steps, s->bars, s->nbars) != 0)
            return -1;
        fputs("</figure>\n", out);
    }
    put_more_ranks(out, r);
    fputs("</section>\n", out);
    return 0;
}

static void put_gpu_metrics(FILE *out, const gs_bd_trace *b)
{
    fputs("<ul class=\"facts\">", out);
    for (size_t d = 0; d < b->gpu.n; d++) {
        const gs_gpu_device_metrics *m = &b->gpu.v[d];
        fprintf(out, "<li>GPU %" PRId32 ": utilization <b>%.1f %%</b>", m->device,
                100 * m->utilization);
        if (m->has_sm_efficiency)
            fprintf(out, ", est. SM efficiency <b>%.1f %%</b>", 100 * m->sm_efficiency);
        if (m->has_occupancy)
            fprintf(out, ", est. achieved occupancy <b>%.1f %%</b>", m->occupancy_pct);
        fputs(" <span class=\"muted\">(over the kept steps)</span></li>", out);
    }
    fputs("</ul>\n", out);
}

static int put_gpu(FILE *out, const gs_report *r, const gs_idle_tables *it)
{
    fputs("<section id=\"gpu\"><h2>GPU utilization over time</h2>\n", out);
    for (size_t i = 0; i < charted_ranks(r); i++) {
        const gs_bd_trace *b = &r->breakdown.v[i];
        const gs_rank_series *s = &r->ranks[i].summary->series;
        put_rank_title(out, r, b);
        put_gpu_metrics(out, b);
        if (!s->has_util) {
            put_missing(out, "GPU utilization over time");
            continue;
        }
        if (!s->util.kernels) {
            fputs("<p class=\"muted\">No GPU kernels in this trace.</p>\n", out);
            continue;
        }
        fputs("<figure><figcaption>Share of time a kernel was running</figcaption>\n", out);
        if (gs_html_util_chart(out, &s->util) != 0)
            return -1;
        fputs("</figure>\n", out);
    }
    put_more_ranks(out, r);
    put_text(out, "h3", "GPU time per rank over the kept steps (idle, compute, non-compute; HTA semantics)");
    gs_html_table(out, &it->temporal);
    fputs("</section>\n", out);
    return 0;
}

/* The roofline chart of each rank with operator groups to place (doc/roofline.md). */
static void put_roofline(FILE *out, const gs_report *r)
{
    fputs("<section id=\"roofline\"><h2>Roofline per operator group</h2>\n", out);
    for (size_t i = 0; i < charted_ranks(r); i++) {
        const gs_rank_summary *s = r->ranks[i].summary;
        put_rank_title(out, r, &r->breakdown.v[i]);
        if (!s->has_roofline) {
            put_missing(out, "the roofline");
            continue;
        }
        if (!gs_html_roofline_points(&s->roof)) {
            fputs("<p class=\"muted\">No operator group with FLOPs and bytes known: the trace "
                  "needs record_shapes=True, and a GPU gpuscope knows the roofs of.</p>\n", out);
            continue;
        }
        fprintf(out, "<figure><figcaption>Operator groups over the kept steps: %.0f %% of their "
                     "GPU time has a traffic model; groups without FLOPs (copies) or without a "
                     "model are not drawn</figcaption>\n",
                s->roof.gpu_ns > 0 ? 100.0 * (double)s->roof.modelled_ns / (double)s->roof.gpu_ns
                                   : 0.0);
        gs_html_roofline_chart(out, &s->roof);
        fputs("</figure>\n", out);
    }
    put_more_ranks(out, r);
    fputs("</section>\n", out);
}

static void put_memory_facts(FILE *out, const gs_mem_chart *d)
{
    char v[4][GS_UNIT_BUF];
    gs_fmt_bytes(v[0], sizeof v[0], d->peak_allocated);
    gs_fmt_bytes(v[1], sizeof v[1], d->reserved_at_peak);
    gs_fmt_bytes(v[2], sizeof v[2], (int64_t)llround(d->slope));
    gs_fmt_bytes(v[3], sizeof v[3], d->headroom);
    fprintf(out, "<ul class=\"facts\"><li>peak allocated <b>%s</b></li>", v[0]);
    if (d->reserved_at_peak > 0)
        fprintf(out, "<li>reserved at the peak <b>%s</b> (%.2f&times; allocated%s)</li>", v[1],
                d->fragmentation, d->fragmented ? ": fragmented" : "");
    if (d->device_memory)
        fprintf(out, "<li>headroom <b>%s</b> (peak reserved %.1f %% of the device)</li>", v[3],
                d->peak_pct);
    /* Growth under a kB per step is noise from the batch, not worth a number. */
    if (d->fit_steps >= 2 && (d->leak || fabs(d->slope) >= 1000))
        fprintf(out, "<li>growth per step <b>%s</b> (R&sup2; %.2f%s)</li>", v[2], d->r2,
                d->leak ? ", a leak" : "");
    fputs("</ul>\n", out);
}

static int put_memory(FILE *out, const gs_report *r)
{
    fputs("<section id=\"memory\"><h2>Memory</h2>\n", out);
    size_t shown = 0, missing = 0;
    for (size_t i = 0; i < charted_ranks(r); i++) {
        const gs_bd_trace *b = &r->breakdown.v[i];
        const gs_rank_series *s = &r->ranks[i].summary->series;
        missing += !s->has_memory;
        for (size_t k = 0; k < s->nmemory; k++) {
            const gs_mem_chart *d = &s->memory[k];
            if (r->breakdown.n > 1)
                fprintf(out, "<h3>Rank %" PRId32 ", ", b->id.rank);
            else
                fputs("<h3>", out);
            if (d->device_type == GS_MEM_DEVICE_CUDA)
                fprintf(out, "GPU %" PRId32 "</h3>\n", d->device);
            else
                fputs(d->device_type == GS_MEM_DEVICE_CPU ? "host</h3>\n" : "other device</h3>\n",
                      out);
            put_memory_facts(out, d);
            fputs("<figure><figcaption>Allocated and reserved over time</figcaption>\n", out);
            if (gs_html_memory_chart(out, d, s->mem_points + d->first) != 0)
                return -1;
            fputs("</figure>\n", out);
            shown++;
        }
    }
    if (missing)
        put_missing(out, "memory over time");
    else if (!shown)
        fputs("<p class=\"muted\">No allocator records in the trace: profile with "
              "<code>profile_memory=True</code> to see memory over time.</p>\n",
              out);
    fputs("</section>\n", out);
    return 0;
}

/* ---- tables ---------------------------------------------------------------------------------- */

static void put_table_section(FILE *out, const char *id, const char *title, gs_table *t,
                              size_t limit)
{
    size_t total = t->nrows;
    gs_table_limit(t, limit);
    fprintf(out, "<section id=\"%s\"><h2>", id);
    gs_xml_text(out, title);
    if (t->nrows < total)
        fprintf(out, " <span class=\"muted\">(top %zu of %zu)</span>", t->nrows, total);
    fputs("</h2>\n", out);
    gs_html_table(out, t);
    fputs("</section>\n", out);
}

static void put_tables(FILE *out, const gs_report *r, gs_report_tables *t, size_t limit)
{
    put_table_section(out, "kernels",
                      r->kernel_spread ? "Top kernels over the whole trace, by total GPU time"
                                       : "Top kernels over the whole trace (from summaries)",
                      &t->kernels, limit);
    put_table_section(out, "ops",
                      r->ops.has_gpu ? "Top operators over the whole trace, by CUDA total"
                                     : "Top operators over the whole trace, by CPU total",
                      &t->ops, limit);
    if (r->has_copies) {
        put_table_section(out, "copies",
                          r->copy_spread
                              ? "Memory copies and sets over the whole trace"
                              : "Memory copies and sets over the whole trace (from summaries)",
                          &t->memcpy, limit);
        return;
    }
    fputs("<section id=\"copies\"><h2>Memory copies and sets</h2>\n", out);
    put_missing(out, "the copies table");
    fputs("</section>\n", out);
}

static void put_rules(FILE *out, const gs_report *r)
{
    fputs("<section id=\"rules\"><h2>Every rule</h2>\n<p class=\"muted\">What each rule read and "
          "why it fired or not (<code>gpuscope report --explain</code>; thresholds in "
          "doc/diagnosis.md).</p>\n",
          out);
    size_t n = r->nranks < GS_HTML_MAX_RANK_CHARTS ? r->nranks : GS_HTML_MAX_RANK_CHARTS;
    for (size_t i = 0; i < n; i++) {
        fputs("<details><summary>", out);
        if (r->nranks > 1)
            fprintf(out, "Rank %" PRId32 ": ", r->ranks[i].summary->inputs.rank);
        fprintf(out, "%zu rules, %zu fired</summary>\n", r->ranks[i].diagnosis.n,
                r->ranks[i].diagnosis.nfired);
        gs_html_rules(out, &r->ranks[i].diagnosis);
        fputs("</details>\n", out);
    }
    fputs("</section>\n", out);
}

/* ---- the page -------------------------------------------------------------------------------- */

int gs_render_html(FILE *out, const gs_report *r, size_t limit)
{
    gs_report_tables t;
    if (gs_report_tables_make(r, 0, &t) != 0) {
        gs_report_tables_free(&t);
        return -1;
    }
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
          "<meta name=\"color-scheme\" content=\"light dark\">\n"
          /* The browser itself enforces what the page promises: no script, no request. */
          "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
          "style-src 'unsafe-inline'\">\n<title>gpuscope report: ",
          out);
    gs_xml_text(out, r->facts.nfiles ? r->facts.files[0].path : "");
    fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", page_style);
    put_header(out, r);
    put_verdicts(out, r);
    put_profiled(out, r, &t);
    int rc = 0;
    if (r->breakdown.n > 1) {
        fputs("<section id=\"ranks\"><h2>Ranks side by side</h2>\n", out);
        rc = gs_html_rank_charts(out, r);
        fputs("</section>\n", out);
    }
    if (rc == 0)
        rc = put_steps(out, r);
    if (rc == 0)
        rc = put_gpu(out, r, &t.idle);
    if (rc == 0) {
        put_roofline(out, r);
        rc = put_memory(out, r);
    }
    if (rc == 0) {
        fputs("<section id=\"idle\"><h2>Largest GPU idle gaps in the kept steps, and what the "
              "host was doing</h2>\n",
              out);
        if (r->has_gaps)
            gs_html_table(out, &t.idle.gaps);
        else
            put_missing(out, "the idle gaps");
        fputs("</section>\n", out);
        put_tables(out, r, &t, limit);
        put_rules(out, r);
    }
    fputs("<footer>Written by <code>gpuscope report --html</code>: one self-contained page, no "
          "scripts, no network. Charts are bucketed to a few hundred points; the tables and "
          "<code>gpuscope report --format json</code> give exact numbers.</footer>\n"
          "</main>\n</body>\n</html>\n",
          out);
    gs_report_tables_free(&t);
    return rc;
}
