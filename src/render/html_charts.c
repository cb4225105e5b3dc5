#include "render/html_charts.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/bootstrap.h"
#include "compare/diff.h"
#include "render/svg.h"
#include "render/units.h"

/* Every chart is drawn in this viewBox and scaled to the page's width. */
#define CHART_W 960
#define CHART_H 300
#define SMALL_H 240

/* ---- the average step ------------------------------------------------------------------------ */

void gs_html_breakdown_bar(FILE *out, const gs_bd_trace *b)
{
    fputs("<div class=\"bdbar\" role=\"img\" aria-label=\"average step by category\">", out);
    for (int c = 0; c < GS_BD__COUNT; c++) {
        if (b->avg_pct[c] < 0.05)
            continue;
        char v[GS_UNIT_BUF];
        gs_fmt_duration(v, sizeof v, (int64_t)llround(b->avg_ns[c]));
        fprintf(out, "<span class=\"k%d\" style=\"width:%.2f%%\" title=\"%s: %s (%.1f %%)\"></span>",
                c, b->avg_pct[c], gs_bd_cat_title((enum gs_bd_cat)c), v, b->avg_pct[c]);
    }
    fputs("</div>\n<ul class=\"legend\">", out);
    for (int c = 0; c < GS_BD__COUNT; c++) {
        char v[GS_UNIT_BUF];
        gs_fmt_duration(v, sizeof v, (int64_t)llround(b->avg_ns[c]));
        fprintf(out, "<li%s><i class=\"sw k%d\"></i>%s <b>%s</b> <span class=\"muted\">%.1f %%</span></li>",
                b->avg_pct[c] < 0.05 ? " class=\"zero\"" : "", c,
                gs_bd_cat_title((enum gs_bd_cat)c), v, b->avg_pct[c]);
    }
    fputs("</ul>\n", out);
}

/* ---- steps ----------------------------------------------------------------------------------- */

static void bar_title(char *buf, size_t size, const gs_step_bar *k)
{
    char v[GS_UNIT_BUF];
    gs_fmt_duration(v, sizeof v, (int64_t)llround(k->total));
    int n;
    if (k->first == k->last)
        n = snprintf(buf, size, "step %" PRId64 "%s: %s", k->first_number,
                     k->warm ? " (warm-up)" : "", v);
    else {
        char lo[GS_UNIT_BUF], hi[GS_UNIT_BUF];
        gs_fmt_duration(lo, sizeof lo, (int64_t)llround(k->min));
        gs_fmt_duration(hi, sizeof hi, (int64_t)llround(k->max));
        n = snprintf(buf, size, "steps %" PRId64 "-%" PRId64 ": mean %s, min %s, max %s",
                     k->first_number, k->last_number, v, lo, hi);
    }
    for (int c = 0; c < GS_BD__COUNT && n > 0 && (size_t)n < size; c++) {
        if (k->mean[c] < 0.005 * k->total)
            continue;
        gs_fmt_duration(v, sizeof v, (int64_t)llround(k->mean[c]));
        n += snprintf(buf + n, size - (size_t)n, "\n%s %s", gs_bd_cat_title((enum gs_bd_cat)c), v);
    }
}

/* The y range: the kept steps decide it, so that a warm-up step 50x the median does not flatten
 * the others; warm-up bars above it are cut at the top and labelled with their time. */
static double step_ymax(const gs_step_bar *k, size_t nb)
{
    double ymax = 0, all = 0;
    for (size_t i = 0; i < nb; i++) {
        all = fmax(all, k[i].max);
        if (!k[i].warm)
            ymax = fmax(ymax, k[i].max);
    }
    return ymax > 0 ? ymax : all;
}

static void draw_step_bars(gs_svg_chart *ch, const gs_step_bar *k, size_t nb, double scale,
                           bool warm, double pad)
{
    for (int c = 0; c < GS_BD__COUNT; c++) {
        char cls[16];
        snprintf(cls, sizeof cls, warm ? "k%d warm" : "k%d", c);
        gs_svg_rects_begin(ch, cls);
        for (size_t i = 0; i < nb; i++) {
            if (k[i].warm != warm)
                continue;
            double base = 0;
            for (int below = 0; below < c; below++)
                base += k[i].mean[below];
            gs_svg_rect(ch, (double)k[i].first - 0.5 + pad, (double)k[i].last + 0.5 - pad,
                        base / scale, (base + k[i].mean[c]) / scale);
        }
        gs_svg_rects_end(ch);
    }
}

int gs_html_step_chart(FILE *out, const gs_steps *steps, const gs_step_bar *k, size_t nb)
{
    size_t n = steps->n;
    if (n == 0 || nb == 0)
        return 0;
    size_t per = k[0].last - k[0].first + 1;
    bool any_warm = false;
    for (size_t i = 0; i < nb; i++)
        any_warm |= k[i].warm;
    double ymax = step_ymax(k, nb), scale;
    const char *unit = gs_svg_duration_unit(ymax, &scale);
    char ytitle[48], xtitle[96];
    snprintf(ytitle, sizeof ytitle, "step time (%s)", unit);
    if (per > 1)
        snprintf(xtitle, sizeof xtitle, "step (each bar: mean of %zu steps; whisker: min to max)",
                 per);
    else
        snprintf(xtitle, sizeof xtitle, "step");
    gs_svg_axis x = {.lo = -0.5, .hi = (double)n - 0.5, .title = xtitle, .integer = true,
                     .label_offset = (double)k[0].first_number};
    gs_svg_axis y = {.lo = 0, .hi = ymax * 1.12 / scale, .title = ytitle};
    gs_svg_chart ch;
    gs_svg_begin(&ch, out, "step time per step, stacked by category", CHART_W, CHART_H, &x, &y);
    /* A gap between bars while they are wide enough to show one; dense bars touch, or the
     * gaps read as stripes. */
    double pad = nb <= 120 ? 0.12 * (double)per : 0;
    draw_step_bars(&ch, k, nb, scale, false, pad);
    if (any_warm)
        draw_step_bars(&ch, k, nb, scale, true, pad);
    if (per > 1) {
        /* Whiskers: a thin bar from the bucket's fastest to its slowest step. */
        double half = 0.8 * (x.hi - x.lo) / (CHART_W - ch.left - ch.right);
        gs_svg_rects_begin(&ch, "whisker");
        for (size_t i = 0; i < nb; i++) {
            double mid = ((double)k[i].first + (double)k[i].last) / 2;
            gs_svg_rect(&ch, mid - half, mid + half, k[i].min / scale, k[i].max / scale);
        }
        gs_svg_rects_end(&ch);
    }
    for (size_t i = 0; i < nb; i++) /* warm-up steps cut at the top say how long they took */
        if (k[i].warm && k[i].max / scale > y.hi) {
            char v[GS_UNIT_BUF + 8];
            gs_fmt_duration(v, sizeof v, (int64_t)llround(k[i].max));
            char label[GS_UNIT_BUF + 16];
            snprintf(label, sizeof label, "\u2191 %s", v);
            gs_svg_label(&ch, "mlabel", ((double)k[i].first + (double)k[i].last) / 2, y.hi, -14,
                         label);
        }
    if (steps->stats.n) {
        char v[GS_UNIT_BUF], label[GS_UNIT_BUF + 32];
        gs_fmt_duration(v, sizeof v, steps->stats.mean);
        snprintf(label, sizeof label, "mean %s", v);
        gs_svg_hline(&ch, "meanline", (double)steps->stats.mean / scale, label);
    }
    for (size_t i = 0; i < nb; i++) {
        char title[512];
        bar_title(title, sizeof title, &k[i]);
        gs_svg_hover(&ch, (double)k[i].first - 0.5, (double)k[i].last + 0.5, title);
    }
    gs_svg_end(&ch);
    return 0;
}

/* ---- GPU utilization over time --------------------------------------------------------------- */

int gs_html_util_chart(FILE *out, const gs_util_series *u)
{
    size_t nb = u->nbusy;
    if (nb == 0)
        return 0;
    double *buf = calloc(2 * nb + 2 * (u->nnvml ? u->nnvml : 1), sizeof *buf);
    if (!buf)
        return -1;
    double *xs = buf, *ys = buf + nb, *nx = buf + 2 * nb, *ny = nx + (u->nnvml ? u->nnvml : 1);
    double w = (double)(u->last - u->first) / (double)nb, scale;
    const char *unit = gs_svg_duration_unit((double)(u->last - u->first), &scale);
    for (size_t i = 0; i < nb; i++) {
        xs[i] = ((double)i + 0.5) * w / scale;
        ys[i] = u->busy_pct[i];
    }
    for (size_t i = 0; i < u->nnvml; i++) {
        nx[i] = ((double)u->nvml[i].bucket + 0.5) * w / scale;
        ny[i] = u->nvml[i].pct;
    }
    char xtitle[64];
    snprintf(xtitle, sizeof xtitle, "time since the trace began (%s)", unit);
    gs_svg_axis x = {.lo = 0, .hi = (double)(u->last - u->first) / scale, .title = xtitle};
    gs_svg_axis y = {.lo = 0, .hi = 100, .title = "GPU busy (%)"};
    gs_svg_chart ch;
    gs_svg_begin(&ch, out, "GPU utilization over time", CHART_W, SMALL_H, &x, &y);
    gs_svg_area(&ch, "util", xs, ys, nb);
    if (u->nnvml)
        gs_svg_line(&ch, "nvml", nx, ny, u->nnvml);
    gs_svg_end(&ch);
    char bucket[GS_UNIT_BUF];
    gs_fmt_duration(bucket, sizeof bucket, (int64_t)llround(w));
    fprintf(out, "<ul class=\"legend\"><li><i class=\"sw util\"></i>kernels running (|union of "
                 "kernel intervals| per %s)</li>",
            bucket);
    if (u->nnvml)
        fputs("<li><i class=\"sw nvml\"></i>NVML gpu_util_pct (sampled by gpuscope run)</li>", out);
    fputs("</ul>\n", out);
    free(buf);
    return 0;
}

/* ---- memory ---------------------------------------------------------------------------------- */

/* s cut to at most max bytes at a character boundary, with "…" when cut. */
static void short_name(char *buf, size_t size, const char *s, size_t max)
{
    size_t len = strlen(s);
    if (len <= max) {
        snprintf(buf, size, "%s", s);
        return;
    }
    while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80)
        max--;
    snprintf(buf, size, "%.*s\u2026", (int)max, s);
}

int gs_html_memory_chart(FILE *out, const gs_mem_chart *d, const gs_mem_point *points)
{
    size_t n = d->npoints;
    double span = (double)(d->end - d->origin);
    /* CUDA's own allocations (a gpuscope run trace) have no reserved figure: they are what the
     * device gave out. Nor do PyTorch's records that carry only their sizes (1.9 and earlier),
     * whose peak reserved is 0. */
    bool has_reserved = !d->cuda_allocator && d->peak_reserved > 0;
    int64_t held = has_reserved ? d->peak_reserved : d->peak_allocated;
    bool show_device = d->device_memory && (double)held >= 0.5 * (double)d->device_memory;
    double ymax = (double)(d->peak_reserved > d->peak_allocated ? d->peak_reserved
                                                                : d->peak_allocated);
    if (show_device)
        ymax = fmax(ymax, (double)d->device_memory);
    double tscale, bscale;
    const char *tunit = gs_svg_duration_unit(span, &tscale);
    const char *bunit = gs_svg_bytes_unit(ymax, &bscale);
    /* A total holds until the next record: steps, not slopes, or a short allocation would look
     * like a ramp. Each point but the last gives two: its own and the next one's time. */
    size_t m = 2 * n - 1;
    double *xs = malloc(3 * m * sizeof *xs);
    if (!xs)
        return -1;
    double *alloc = xs + m, *reserved = xs + 2 * m;
    for (size_t i = 0; i < n; i++) {
        const gs_mem_point *p = &points[i];
        for (size_t k = 2 * i; k <= 2 * i + 1 && k < m; k++) {
            const gs_mem_point *at = k == 2 * i ? p : &points[i + 1];
            xs[k] = (double)(at->ts - d->origin) / tscale;
            alloc[k] = (double)p->allocated / bscale;
            reserved[k] = (double)p->reserved / bscale;
        }
    }
    char xtitle[64], ytitle[32];
    snprintf(xtitle, sizeof xtitle, "time since the trace began (%s)", tunit);
    snprintf(ytitle, sizeof ytitle, "memory (%s)", bunit);
    /* Headroom above the highest line for the peak's label. */
    gs_svg_axis x = {.lo = 0, .hi = span > 0 ? span / tscale : 1, .title = xtitle};
    gs_svg_axis y = {.lo = 0, .hi = ymax > 0 ? ymax * 1.18 / bscale : 1, .title = ytitle};
    gs_svg_chart ch;
    gs_svg_begin(&ch, out, "allocated and reserved memory over time", CHART_W, SMALL_H, &x, &y);
    gs_svg_area(&ch, "memalloc", xs, alloc, m);
    if (has_reserved)
        gs_svg_line(&ch, "memres", xs, reserved, m);
    if (show_device) {
        char v[GS_UNIT_BUF], label[GS_UNIT_BUF + 16];
        gs_fmt_bytes(v, sizeof v, (int64_t)d->device_memory);
        snprintf(label, sizeof label, "device memory %s", v);
        gs_svg_hline(&ch, "devline", (double)d->device_memory / bscale, label);
    }
    char v[GS_UNIT_BUF], op[64], label[160];
    gs_fmt_bytes(v, sizeof v, d->peak_allocated);
    int len = snprintf(label, sizeof label, "peak %s allocated", v);
    if (d->peak_step >= 0)
        len += snprintf(label + len, sizeof label - (size_t)len, ", step %" PRId64, d->peak_step);
    if (d->peak_op) {
        short_name(op, sizeof op, d->peak_op, 48);
        snprintf(label + len, sizeof label - (size_t)len, ", in %s", op);
    }
    gs_svg_marker(&ch, "peak", (double)(d->peak_ts - d->origin) / tscale,
                  (double)d->peak_allocated / bscale, label);
    gs_svg_end(&ch);
    if (d->cuda_allocator)
        fputs("<ul class=\"legend\"><li><i class=\"sw memalloc\"></i>allocated through CUDA "
              "(cudaMalloc and the like: for PyTorch, its caching allocator's pool)</li>"
              "<li><i class=\"sw peak\"></i>peak allocated</li></ul>\n",
              out);
    else
        fprintf(out,
                "<ul class=\"legend\"><li><i class=\"sw memalloc\"></i>allocated</li>%s"
                "<li><i class=\"sw peak\"></i>peak allocated</li></ul>\n",
                has_reserved
                    ? "<li><i class=\"sw memres\"></i>reserved by the caching allocator</li>"
                    : "");
    free(xs);
    return 0;
}

/* ---- ranks ----------------------------------------------------------------------------------- */

/* One label per bar, thinned so that 128 ranks stay legible. */
typedef struct rank_labels {
    char (*text)[16];
    const char **v;
    size_t n, every;
} rank_labels;

static int make_labels(rank_labels *l, const gs_report *r)
{
    l->n = r->breakdown.n;
    l->every = (l->n + 23) / 24;
    l->text = malloc(l->n * sizeof *l->text);
    l->v = malloc(l->n * sizeof *l->v);
    if (!l->text || !l->v)
        return -1;
    for (size_t i = 0; i < l->n; i++) {
        snprintf(l->text[i], sizeof l->text[i], "%" PRId32, r->breakdown.v[i].id.rank);
        l->v[i] = l->text[i];
    }
    return 0;
}

/* Durations of a rank's kept steps; *n of them. NULL out of memory. */
static gs_ns *kept_steps(const gs_steps *s, size_t *n)
{
    gs_ns *v = malloc((s->n + 1) * sizeof *v);
    *n = 0;
    for (size_t i = 0; v && i < s->n; i++)
        if (gs_step_kept(s, i))
            v[(*n)++] = s->v[i].end - s->v[i].start;
    return v;
}

/* The slowest and the fastest rank by mean step, and whether the slowest is slower beyond the
 * noise of their steps: the test gpuscope diff uses (the 95 % bootstrap interval of the
 * difference of medians excludes 0, at least GS_DIFF_MIN_STEPS kept steps each). */
typedef struct rank_spread {
    size_t slow, fast;
    bool significant;
    gs_boot_ci ci;
} rank_spread;

static void measure_spread(const gs_report *r, rank_spread *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 1; i < r->breakdown.n; i++) {
        gs_ns mean = r->breakdown.v[i].steps.stats.mean;
        if (mean > r->breakdown.v[out->slow].steps.stats.mean)
            out->slow = i;
        if (mean < r->breakdown.v[out->fast].steps.stats.mean)
            out->fast = i;
    }
    size_t nf, ns;
    gs_ns *f = kept_steps(&r->breakdown.v[out->fast].steps, &nf);
    gs_ns *s = kept_steps(&r->breakdown.v[out->slow].steps, &ns);
    if (f && s && out->slow != out->fast && nf >= GS_DIFF_MIN_STEPS && ns >= GS_DIFF_MIN_STEPS &&
        gs_bootstrap_median_diff(f, nf, s, ns, GS_BOOT_RESAMPLES, GS_BOOT_SEED, &out->ci) == 0)
        out->significant = out->ci.diff_lo > 0;
    free(f);
    free(s);
}

static void draw_rank_step_chart(FILE *out, const gs_report *r, const rank_labels *l,
                                 const rank_spread *spread)
{
    double ymax = 0, slowest = 0;
    for (size_t i = 0; i < l->n; i++) {
        const gs_step_stats *st = &r->breakdown.v[i].steps.stats;
        ymax = fmax(ymax, (double)st->max);
        slowest = fmax(slowest, (double)st->mean);
    }
    double scale;
    const char *unit = gs_svg_duration_unit(ymax, &scale);
    char ytitle[48];
    snprintf(ytitle, sizeof ytitle, "step time (%s)", unit);
    gs_svg_axis x = {.lo = 0, .hi = (double)l->n, .title = "rank",
                     .labels = l->v, .nlabels = l->n, .label_every = l->every};
    gs_svg_axis y = {.lo = 0, .hi = ymax > 0 ? ymax * 1.1 / scale : 1, .title = ytitle};
    gs_svg_chart ch;
    gs_svg_begin(&ch, out, "mean step time per rank", CHART_W, SMALL_H, &x, &y);
    /* The slowest rank stands out only when it is slower beyond the noise of its steps. */
    bool mark = spread->significant;
    for (int slow = 0; slow < 2; slow++) {
        gs_svg_rects_begin(&ch, slow ? "rankbar slow" : "rankbar");
        for (size_t i = 0; i < l->n; i++) {
            double mean = (double)r->breakdown.v[i].steps.stats.mean;
            if ((mark && mean == slowest) == (slow == 1))
                gs_svg_rect(&ch, (double)i + 0.15, (double)i + 0.85, 0, mean / scale);
        }
        gs_svg_rects_end(&ch);
    }
    double half = 1.0 * (x.hi - x.lo) / (CHART_W - ch.left - ch.right); /* about 2 px */
    gs_svg_rects_begin(&ch, "whisker");
    for (size_t i = 0; i < l->n; i++) {
        const gs_step_stats *st = &r->breakdown.v[i].steps.stats;
        gs_svg_rect(&ch, (double)i + 0.5 - half, (double)i + 0.5 + half,
                    (double)st->min / scale, (double)st->max / scale);
    }
    gs_svg_rects_end(&ch);
    for (size_t i = 0; i < l->n; i++) {
        const gs_step_stats *st = &r->breakdown.v[i].steps.stats;
        char mean[GS_UNIT_BUF], lo[GS_UNIT_BUF], hi[GS_UNIT_BUF], title[256];
        gs_fmt_duration(mean, sizeof mean, st->mean);
        gs_fmt_duration(lo, sizeof lo, st->min);
        gs_fmt_duration(hi, sizeof hi, st->max);
        snprintf(title, sizeof title, "rank %s: mean step %s over %zu steps (min %s, max %s)",
                 l->v[i], mean, st->n, lo, hi);
        gs_svg_hover(&ch, (double)i, (double)i + 1, title);
    }
    gs_svg_end(&ch);
    fprintf(out, "<ul class=\"legend\"><li><i class=\"sw k0\"></i>mean step</li>%s"
                 "<li><i class=\"sw whisker\"></i>fastest to slowest step</li></ul>\n",
            mark ? "<li><i class=\"sw k4\"></i>slowest rank, slower than the fastest beyond the "
                   "noise of their steps</li>"
                 : "");
}

static void draw_rank_time_chart(FILE *out, const gs_report *r, const rank_labels *l)
{
    gs_svg_axis x = {.lo = 0, .hi = (double)l->n, .title = "rank",
                     .labels = l->v, .nlabels = l->n, .label_every = l->every};
    gs_svg_axis y = {.lo = 0, .hi = 100, .title = "share of GPU window (%)"};
    gs_svg_chart ch;
    gs_svg_begin(&ch, out, "GPU time per rank: compute, non-compute, idle", CHART_W, SMALL_H, &x,
                 &y);
    static const char *const cls[3] = {"tc", "tn", "ti"};
    for (int part = 0; part < 3; part++) {
        gs_svg_rects_begin(&ch, cls[part]);
        for (size_t i = 0; i < r->temporal.nrows && i < l->n; i++) {
            const gs_temporal_row *row = &r->temporal.rows[i];
            double v[3] = {row->compute_pct, row->non_compute_pct, row->idle_pct};
            double base = 0;
            for (int p = 0; p < part; p++)
                base += v[p];
            gs_svg_rect(&ch, (double)i + 0.15, (double)i + 0.85, base, base + v[part]);
        }
        gs_svg_rects_end(&ch);
    }
    for (size_t i = 0; i < r->temporal.nrows && i < l->n; i++) {
        const gs_temporal_row *row = &r->temporal.rows[i];
        char title[160];
        snprintf(title, sizeof title,
                 "rank %s: compute %.1f %%, non-compute %.1f %%, idle %.1f %% of the GPU window",
                 l->v[i], row->compute_pct, row->non_compute_pct, row->idle_pct);
        gs_svg_hover(&ch, (double)i, (double)i + 1, title);
    }
    gs_svg_end(&ch);
    fputs("<ul class=\"legend\"><li><i class=\"sw tc\"></i>compute kernels</li>"
          "<li><i class=\"sw tn\"></i>non-compute (communication, copies, sets not under "
          "compute)</li><li><i class=\"sw ti\"></i>idle</li></ul>\n",
          out);
}

/* The straggler in words: the slowest rank against the fastest, and whether that is beyond noise. */
static void put_rank_caption(FILE *out, const gs_report *r, const rank_spread *spread)
{
    const gs_bd_trace *s = &r->breakdown.v[spread->slow], *f = &r->breakdown.v[spread->fast];
    if (f->steps.stats.mean <= 0)
        return;
    char vs[GS_UNIT_BUF], vf[GS_UNIT_BUF];
    gs_fmt_duration(vs, sizeof vs, s->steps.stats.mean);
    gs_fmt_duration(vf, sizeof vf, f->steps.stats.mean);
    fprintf(out, ": the slowest, rank %" PRId32 " (%s), is %.1f %% slower than the fastest, rank %"
                 PRId32 " (%s)",
            s->id.rank, vs,
            100.0 * (double)(s->steps.stats.mean - f->steps.stats.mean) /
                (double)f->steps.stats.mean,
            f->id.rank, vf);
    if (spread->significant)
        fprintf(out, ", beyond the noise of their steps (95 %% CI of the difference of median "
                     "steps %.1f to %.1f %%)",
                spread->ci.pct_lo, spread->ci.pct_hi);
    else
        fputs(", within the noise of their steps (the test of gpuscope diff finds no "
              "significant difference)", out);
}

int gs_html_rank_charts(FILE *out, const gs_report *r)
{
    if (r->breakdown.n < 2)
        return 0;
    rank_labels l = {0};
    int rc = make_labels(&l, r);
    if (rc == 0) {
        fputs("<figure><figcaption>Mean step time per rank", out);
        rank_spread spread;
        measure_spread(r, &spread);
        put_rank_caption(out, r, &spread);
        fputs("</figcaption>\n", out);
        draw_rank_step_chart(out, r, &l, &spread);
        fputs("</figure>\n<figure><figcaption>GPU time per rank, as shares of each rank's GPU "
              "window (first to last GPU activity)</figcaption>\n",
              out);
        draw_rank_time_chart(out, r, &l);
        fputs("</figure>\n", out);
    }
    free(l.text);
    free(l.v);
    return rc;
}
