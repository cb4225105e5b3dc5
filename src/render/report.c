/* The report is sections of tables: what was profiled, then the top rows of three summaries. */
#include "render/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render/breakdown_tables.h"
#include "render/compute_lines.h"
#include "render/roofline_lines.h"
#include "render/json.h"
#include "render/report_context.h"
#include "render/report_tables.h"
#include "render/step_tables.h"
#include "render/units.h"
#include "render/verdict.h"
#include "render/verdict_ranks.h"

typedef struct event_class {
    const char *key;        /* JSON field */
    const char *one, *many; /* in the text summary line */
    uint64_t count;
} event_class;

enum { EVENT_CLASSES = 14 };

static void list_event_classes(const gs_event_counts *c, event_class out[EVENT_CLASSES])
{
    const event_class all[EVENT_CLASSES] = {
        {"kernels", "kernel", "kernels", c->kernels},
        {"memcpys", "memcpy", "memcpys", c->memcpys},
        {"memsets", "memset", "memsets", c->memsets},
        {"gpu_syncs", "GPU sync", "GPU syncs", c->gpu_syncs},
        {"api_calls", "API call", "API calls", c->api_calls},
        {"ops", "operator", "operators", c->ranges[GS_RANGE_OP]},
        {"annotations", "annotation", "annotations", c->ranges[GS_RANGE_ANNOTATION]},
        {"nvtx_ranges", "NVTX range", "NVTX ranges", c->ranges[GS_RANGE_NVTX]},
        {"python_functions", "Python function", "Python functions", c->ranges[GS_RANGE_PYTHON]},
        {"gpu_annotations", "GPU annotation", "GPU annotations",
         c->ranges[GS_RANGE_GPU_ANNOTATION]},
        {"other_ranges", "other range", "other ranges", c->ranges[GS_RANGE_OTHER]},
        {"instants", "instant mark", "instant marks", c->instants},
        {"memory_events", "memory event", "memory events", c->memory_events},
        {"counters", "counter sample", "counter samples", c->counters},
    };
    for (size_t i = 0; i < EVENT_CLASSES; i++)
        out[i] = all[i];
}

/* ---- events the readers skipped: a line of text, a JSON member, both only when there are any -- */

static void put_loss_line(FILE *out, const gs_event_counts *c)
{
    char note[256];
    if (*gs_loss_note(c->lost, note, sizeof note))
        fprintf(out, "%s\n", note);
}

/* "events_skipped": {"count": 12, "dropped_by_collector": 10, "time_out_of_range": 2} */
static void put_loss_json(gs_json_writer *w, const gs_event_counts *c)
{
    uint64_t total = gs_loss_total(c->lost);
    if (!total && !c->lost[GS_LOSS_CUT_SHORT])
        return;
    gs_json_begin_object(w, "events_skipped", GS_JSON_INLINE);
    gs_json_put_uint(w, "count", total);
    for (int i = 0; i < GS_LOSS__COUNT; i++)
        if (c->lost[i])
            gs_json_put_uint(w, gs_loss_key((enum gs_loss)i), c->lost[i]);
    gs_json_end(w);
}

/* ---- text ----------------------------------------------------------------------------------- */

/* The start-up phase of each rank: how long, and the CUDA calls that took the most of it. */
static void put_startup_lines(FILE *out, const gs_profile_facts *f)
{
    for (size_t i = 0; i < f->nfiles; i++) {
        const gs_startup *s = &f->files[i].startup;
        if (!gs_startup_noticeable(s, f->files[i].span))
            continue;
        char len[GS_UNIT_BUF], before[GS_UNIT_BUF], gpu[GS_UNIT_BUF];
        gs_fmt_duration(len, sizeof len, s->end - s->start);
        gs_fmt_duration(before, sizeof before, s->before_steps);
        gs_fmt_duration(gpu, sizeof gpu, s->gpu_busy);
        fprintf(out, "rank %" PRId32 ": start-up %s (%s before the first step", f->files[i].rank,
                len, before);
        if (s->warmup_steps)
            fprintf(out, ", then %zu warm-up step%s", s->warmup_steps,
                    s->warmup_steps == 1 ? "" : "s");
        fputs("), left out of the step statistics", out);
        /* The classes in order of time, those above 5 % of the phase. */
        bool listed[GS_STARTUP__COUNT] = {false};
        const char *sep = "; CUDA calls: ";
        for (int k = 0; k < GS_STARTUP__COUNT; k++) {
            int top = -1;
            for (int c = 0; c < GS_STARTUP__COUNT; c++)
                if (!listed[c] && (top < 0 || s->calls[c] > s->calls[top]))
                    top = c;
            if (top < 0 || (double)s->calls[top] < 0.05 * (double)(s->end - s->start))
                break;
            listed[top] = true;
            char v[GS_UNIT_BUF];
            gs_fmt_duration(v, sizeof v, s->calls[top]);
            fprintf(out, "%s%s %s", sep, gs_startup_class_name((enum gs_startup_class)top), v);
            sep = ", ";
        }
        fprintf(out, "; GPU busy %s\n", gpu);
    }
}

/* One line per trace that used CUDA graphs (doc/launch.md): captured, instantiated, launched, and
 * how many kernels ran from a graph, so a graph that was never replayed shows. */
static void put_graph_line(FILE *out, const gs_file_facts *file)
{
    const gs_graph_facts *g = &file->graphs;
    if (!file->has_graphs || !gs_graph_facts_any(g))
        return;
    fprintf(out, "rank %" PRId32 ": CUDA graphs: %" PRIu64 " captured (%" PRIu64
                 " kernel launch%s recorded), %" PRIu64 " instantiated, %" PRIu64 " launched",
            file->rank, g->captures, g->captured_launches, g->captured_launches == 1 ? "" : "es",
            g->instantiations, g->launches);
    if (g->launches)
        fprintf(out, " (%.1f kernels per launch)",
                (double)g->graph_kernels / (double)g->launches);
    fprintf(out, "; %" PRIu64 " of %" PRIu64 " kernels (%.1f %%) ran from a graph\n",
            g->graph_kernels, g->kernels, 100.0 * gs_graph_kernel_share(g));
}

static void put_profile_lines(FILE *out, const gs_profile_facts *f)
{
    char span[GS_UNIT_BUF];
    gs_fmt_duration(span, sizeof span, f->span);
    fprintf(out, "%zu trace%s, %zu rank%s", f->nfiles, f->nfiles == 1 ? "" : "s", f->nranks,
            f->nranks == 1 ? "" : "s");
    if (f->world_size)
        fprintf(out, " of world size %" PRId32, f->world_size);
    if (f->steps)
        fprintf(out, "; time span %s; %" PRIu64 " step%s (ProfilerStep#N)\n", span, f->steps,
                f->steps == 1 ? "" : "s");
    else
        fprintf(out, "; time span %s; no ProfilerStep#N range\n", span);
    event_class ev[EVENT_CLASSES];
    list_event_classes(&f->events, ev);
    bool any = false;
    fputs("events:", out);
    for (size_t i = 0; i < EVENT_CLASSES; i++) {
        if (ev[i].count)
            fprintf(out, "%s %" PRIu64 " %s", any ? "," : "", ev[i].count,
                    ev[i].count == 1 ? ev[i].one : ev[i].many);
        any |= ev[i].count > 0;
    }
    fputs(any ? "\n" : " none\n", out);
    put_loss_line(out, &f->events);
    /* What CUDA tracing cost the program, where it is a noticeable share of its trace: host-side
     * times include it (kernels run as they would). */
    put_startup_lines(out, f);
    for (size_t i = 0; i < f->nfiles; i++) {
        const gs_file_facts *file = &f->files[i];
        if (!gs_file_tracing_cost_noticeable(file))
            continue;
        char cost[GS_UNIT_BUF], file_span[GS_UNIT_BUF];
        gs_fmt_duration(cost, sizeof cost, file->tracing_cost);
        gs_fmt_duration(file_span, sizeof file_span, file->span);
        fprintf(out,
                "rank %" PRId32 ": CUDA tracing (gpuscope run) took %s of the program's time, "
                "%.1f %% of its %s trace; host-side times include it\n",
                file->rank, cost, 100.0 * (double)file->tracing_cost / (double)file->span,
                file_span);
    }
    for (size_t i = 0; i < f->nfiles; i++)
        put_graph_line(out, &f->files[i]);
}

/* A section title, after a blank line that separates it from the section before. */
static void put_title(FILE *out, const gs_text_style *style, const char *title, size_t shown,
                      size_t total)
{
    bool bold = style && style->tty;
    fprintf(out, "\n%s%s", bold ? "\033[1m" : "", title);
    if (shown < total)
        fprintf(out, " (top %zu of %zu)", shown, total);
    fputs(bold ? "\033[0m\n" : "\n", out);
}

/* The profile's sentences (what was profiled, the steps), each line wrapped within the width with
 * a hanging indent: written whole, then cut at spaces. */
typedef void (*prose_fn)(FILE *out, const gs_report *r);

static int put_prose(FILE *out, const gs_report *r, prose_fn fn, size_t width)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return -1;
    fn(mem, r);
    if (fclose(mem) != 0) {
        free(text);
        return -1;
    }
    for (char *line = text, *end; line && *line; line = end ? end + 1 : NULL) {
        end = strchr(line, '\n');
        if (end)
            *end = '\0';
        gs_text_put_wrapped(out, line, 0, 4, width);
        putc('\n', out);
    }
    free(text);
    return 0;
}

static void put_steps_line(FILE *out, const gs_bd_trace *b)
{
    const gs_steps *s = &b->steps;
    char v[7][GS_UNIT_BUF];
    const gs_ns stats[7] = {s->stats.mean, s->stats.std, s->stats.min, s->stats.med,
                            s->stats.p95,  s->stats.p99, s->stats.max};
    for (int i = 0; i < 7; i++)
        gs_fmt_duration(v[i], sizeof v[i], stats[i]);
    char how[160];
    fprintf(out, "rank %" PRId32 ": %zu step%s (%s)", b->id.rank, s->n, s->n == 1 ? "" : "s",
            gs_step_source_text(s, how, sizeof how));
    if (s->nwarmup)
        fprintf(out, ", %zu warm-up %s", s->nwarmup,
                s->keep_warmup ? "kept in the statistics" : "left out");
    fprintf(out, "\n  mean %s  std %s  min %s  med %s  p95 %s  p99 %s  max %s\n", v[0], v[1],
            v[2], v[3], v[4], v[5], v[6]);
}

/* One line per rank that communicates: how much, how much of it compute hides, what is exposed
 * per step (doc/comm.md has the definitions; `gpuscope comm` the details). */
static void put_comm_line(FILE *out, const gs_comm_rank *c)
{
    char comm[GS_UNIT_BUF], exposed[GS_UNIT_BUF], per_step[GS_UNIT_BUF];
    gs_fmt_duration(comm, sizeof comm, c->communication);
    gs_fmt_duration(exposed, sizeof exposed, c->exposed);
    gs_fmt_duration(per_step, sizeof per_step, c->exposed_per_step);
    fprintf(out, "rank %" PRId32 ": communication %s in %zu collective%s, %.1f %% under compute; "
            "exposed %s (%.1f %% of the GPU window), %s per step (%.1f %% of the step)\n",
            c->rank, comm, c->collectives, c->collectives == 1 ? "" : "s",
            c->overlap_pct < 0 ? 0.0 : c->overlap_pct, exposed, c->exposed_pct, per_step,
            c->exposed_step_pct);
}

static void put_comm_prose(FILE *out, const gs_report *r)
{
    for (size_t i = 0; i < r->comm.nranks; i++)
        if (r->comm.ranks[i].collectives > 0)
            put_comm_line(out, &r->comm.ranks[i]);
}

static void put_steps_prose(FILE *out, const gs_report *r)
{
    for (size_t i = 0; i < r->breakdown.n; i++)
        put_steps_line(out, &r->breakdown.v[i]);
    for (size_t i = 0; i < r->nranks; i++) {
        const gs_rank_summary *s = r->ranks[i].summary;
        if (s->has_compute && gs_compute_worth_text(&s->compute))
            gs_render_compute_text(out, s->inputs.rank, &s->compute);
        if (s->has_roofline)
            gs_render_roofline_text(out, s->inputs.rank, &s->roof);
    }
}

static int render_analyses_text(FILE *out, const gs_report *r, const gs_report_tables *t,
                                const gs_text_style *style)
{
    put_title(out, style, "Steps", 0, 0);
    int rc = put_prose(out, r, put_steps_prose, gs_text_width(style));
    for (size_t i = 0; i < r->breakdown.n; i++) {
        const gs_bd_trace *b = &r->breakdown.v[i];
        char title[96];
        snprintf(title, sizeof title, "Step breakdown, rank %" PRId32 " (average kept step)",
                 b->id.rank);
        put_title(out, style, title, 0, 0);
        gs_table avg = {0}, gpu = {0};
        rc |= gs_bd_avg_table(b, &avg);
        if (rc == 0)
            rc |= gs_render_text(out, &avg, style);
        rc |= gs_bd_gpu_table(b, &gpu);
        if (rc == 0 && gpu.nrows) {
            putc('\n', out);
            rc |= gs_render_text(out, &gpu, style);
        }
        gs_table_free(&avg);
        gs_table_free(&gpu);
    }
    /* Over the kept steps, as the step breakdown's utilization above (gs_rank_summary). */
    put_title(out, style, "GPU time per rank over the kept steps (idle, compute, non-compute)", 0,
              0);
    rc |= gs_render_text(out, &t->idle.temporal, style);
    if (t->has_comm) {
        put_title(out, style, "Communication per rank (gpuscope comm)", 0, 0);
        rc |= put_prose(out, r, put_comm_prose, gs_text_width(style));
    }
    if (t->idle.gaps.nrows) {
        put_title(out, style,
                  "Largest GPU idle gaps in the kept steps, and what the host was doing", 0, 0);
        rc |= gs_render_text(out, &t->idle.gaps, style);
    }
    return rc ? -1 : 0;
}

static int render_verdicts_text(FILE *out, const gs_report *r, const gs_text_style *style,
                                bool explain)
{
    /* Several ranks read together, unless each rank's rules follow its verdict (--explain). */
    if (r->nranks > 1 && !explain)
        return gs_render_verdicts_by_rank(out, r, style);
    for (size_t i = 0; i < r->nranks; i++) {
        char title[64];
        if (r->nranks > 1)
            snprintf(title, sizeof title, "Verdict, rank %" PRId32,
                     r->ranks[i].summary->inputs.rank);
        else
            snprintf(title, sizeof title, "Verdict");
        fprintf(out, "%s%s%s\n", style && style->tty ? "\033[1m" : "", title,
                style && style->tty ? "\033[0m" : "");
        gs_render_verdict_text(out, &r->ranks[i].diagnosis, style);
        if (explain) {
            fputs("\nRules (report --explain)\n", out);
            gs_render_rules_text(out, &r->ranks[i].diagnosis, &r->ranks[i].summary->inputs);
        }
        putc('\n', out);
    }
    return 0;
}

/* What the report lacks, when some of its ranks come from .gsum summaries: "no GPU list, idle
 * gaps, copies, or kernel medians and deviations". */
static void put_missing_line(FILE *out, const gs_report *r)
{
    const char *missing[4];
    size_t n = 0;
    if (!r->has_devices)
        missing[n++] = "GPU list";
    if (!r->has_gaps)
        missing[n++] = "idle gaps";
    if (!r->has_copies)
        missing[n++] = "copies";
    bool copy_spread = !r->has_copies || r->copy_spread || r->memcpy.nrows == 0;
    if (!r->kernel_spread)
        missing[n++] = copy_spread ? "kernel medians and deviations"
                                   : "kernel and copy medians and deviations";
    else if (!copy_spread)
        missing[n++] = "copy medians and deviations";
    if (n == 0)
        return;
    fputs("from rank summaries (.gsum): no ", out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s%s", i == 0 ? "" : n == 2 ? " or " : i + 1 == n ? ", or " : ", ",
                missing[i]);
    putc('\n', out);
}

static void put_profile_prose(FILE *out, const gs_report *r)
{
    put_profile_lines(out, &r->facts);
    gs_put_context_lines(out, r);
    put_missing_line(out, r);
}

static int render_text(FILE *out, const gs_report *r, const gs_report_tables *t,
                       const gs_text_style *style, bool explain)
{
    int rc = render_verdicts_text(out, r, style, explain);
    fprintf(out, "%sWhat was profiled%s\n", style && style->tty ? "\033[1m" : "",
            style && style->tty ? "\033[0m" : "");
    rc |= put_prose(out, r, put_profile_prose, gs_text_width(style));
    putc('\n', out);
    rc |= gs_render_text(out, &t->files, style);
    if (r->has_devices) {
        putc('\n', out);
        rc |= gs_render_text(out, &t->devices, style);
    }
    rc |= render_analyses_text(out, r, t, style);
    put_title(out, style,
              r->kernel_spread ? "Top kernels over the whole trace, by total GPU time"
                               : "Top kernels over the whole trace, by total GPU time (from "
                                 "summaries)",
              t->kernels.nrows, t->kernel_rows);
    rc |= gs_render_text(out, &t->kernels, style);
    put_title(out, style,
              r->ops.has_gpu ? "Top operators over the whole trace, by CUDA total"
                             : "Top operators over the whole trace, by CPU total",
              t->ops.nrows, t->op_rows);
    rc |= gs_render_text(out, &t->ops, style);
    if (r->has_copies) {
        put_title(out, style,
                  r->copy_spread
                      ? "Memory copies and sets over the whole trace, by total time"
                      : "Memory copies and sets over the whole trace, by total time (from "
                        "summaries)",
                  t->memcpy.nrows, t->memcpy_rows);
        rc |= gs_render_text(out, &t->memcpy, style);
    }
    return rc ? -1 : 0;
}

/* ---- JSON ----------------------------------------------------------------------------------- */

/* A rank of the diagnosis: which rank and trace on the brace's line, the rest aligned one past
 * the brace, the brace closed on the last member's line. */
static const gs_json_layout rank_layout = {.lines = true, .head = 2, .indent = 1, .hang = true};

/* The kept steps' statistics, and beside their mean the replay's unchanged mean step (null
 * when there was nothing to replay): how far the model is from the trace. */
static void put_steps_json(gs_json_writer *w, const gs_steps *st, const gs_diag_inputs *in)
{
    gs_json_begin_object(w, "steps", GS_JSON_INLINE);
    gs_json_put_str(w, "source", gs_step_source_key(st->source));
    gs_json_put_uint(w, "count", st->n);
    gs_json_put_uint(w, "warmup", st->nwarmup);
    gs_json_put_uint(w, "kept", st->stats.n);
    gs_json_put_int(w, "mean_ns", st->stats.mean);
    if (in->replay_step_ns > 0)
        gs_json_put_int(w, "replay_step_ns", in->replay_step_ns);
    else
        gs_json_put_null(w, "replay_step_ns");
    gs_json_put_int(w, "std_ns", st->stats.std);
    gs_json_put_int(w, "min_ns", st->stats.min);
    gs_json_put_int(w, "med_ns", st->stats.med);
    gs_json_put_int(w, "p95_ns", st->stats.p95);
    gs_json_put_int(w, "p99_ns", st->stats.p99);
    gs_json_put_int(w, "max_ns", st->stats.max);
    gs_json_end(w);
}

static void put_profile_json(gs_json_writer *w, const gs_report *r, const gs_report_tables *t)
{
    const gs_profile_facts *f = &r->facts;
    gs_json_begin_object(w, "profile", GS_JSON_BLOCK);
    gs_json_put_uint(w, "traces", f->nfiles);
    gs_json_put_uint(w, "ranks", f->nranks);
    gs_json_put_int(w, "world_size", f->world_size);
    gs_json_put_int(w, "span_ns", f->span);
    gs_json_put_uint(w, "steps", f->steps);
    event_class ev[EVENT_CLASSES];
    list_event_classes(&f->events, ev);
    gs_json_begin_object(w, "events", GS_JSON_INLINE);
    for (size_t i = 0; i < EVENT_CLASSES; i++)
        gs_json_put_uint(w, ev[i].key, ev[i].count);
    gs_json_end(w);
    put_loss_json(w, &f->events);
    gs_json_rows(w, "files", &t->files);
    if (r->has_devices)
        gs_json_rows(w, "devices", &t->devices);
    gs_json_end(w);
}

static int put_rank_json(gs_json_writer *w, const gs_report_rank *rr)
{
    gs_json_begin_object(w, NULL, rank_layout);
    gs_json_put_int(w, "rank", rr->summary->inputs.rank);
    gs_json_put_str(w, "path", rr->breakdown->id.path);
    put_steps_json(w, &rr->breakdown->steps, &rr->summary->inputs);
    gs_table avg = {0};
    int rc = gs_bd_avg_table(rr->breakdown, &avg);
    if (rc == 0)
        gs_json_rows(w, "breakdown", &avg);
    gs_table_free(&avg);
    gs_put_context_json(w, &rr->summary->inputs);
    if (rr->summary->has_compute)
        gs_render_compute_json(w, &rr->summary->compute);
    if (rr->summary->has_roofline)
        gs_render_roofline_json(w, &rr->summary->roof);
    gs_render_diagnosis_json(w, &rr->diagnosis);
    gs_json_end(w);
    return rc;
}

static int render_json(FILE *out, const gs_report *r, const gs_report_tables *t)
{
    gs_json_writer w;
    gs_json_writer_init(&w, out);
    gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
    gs_json_put_str(&w, "command", "report");
    if (r->from_gsum)
        gs_json_put_bool(&w, "from_summaries", true);
    put_profile_json(&w, r, t);
    int rc = 0;
    gs_json_begin_array(&w, "diagnosis", GS_JSON_BLOCK);
    for (size_t i = 0; i < r->nranks; i++)
        rc |= put_rank_json(&w, &r->ranks[i]);
    gs_json_end(&w);
    gs_json_rows(&w, "temporal", &t->idle.temporal);
    if (t->has_comm) /* only then, so reports of single-GPU jobs keep their shape */
        gs_json_rows(&w, "communication", &t->comm.ranks);
    if (r->has_gaps)
        gs_json_rows(&w, "gaps", &t->idle.gaps);
    gs_json_rows(&w, "kernels", &t->kernels);
    gs_json_rows(&w, "ops", &t->ops);
    if (r->has_copies)
        gs_json_rows(&w, "memcpy", &t->memcpy);
    gs_json_end(&w);
    return rc ? -1 : 0;
}

int gs_render_report(FILE *out, const gs_report *r, enum gs_format format,
                     const gs_text_style *style, size_t limit, bool explain)
{
    gs_report_tables t;
    int rc = gs_report_tables_make(r, limit, &t);
    if (rc == 0 && format == GS_FORMAT_JSON)
        rc = render_json(out, r, &t);
    else if (rc == 0)
        rc = render_text(out, r, &t, style, explain);
    gs_report_tables_free(&t);
    return rc;
}
