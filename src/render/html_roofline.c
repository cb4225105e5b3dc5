#include "render/html_roofline.h"

#include <math.h>
#include <stdbool.h>

#include "render/svg.h"

/* Groups named beside their point: the largest by GPU time; the rest say theirs on hover. */
#define LABELLED 6
/* Points' radii in viewBox units: the largest group's, and the least any gets. */
#define R_MAX 16.0
#define R_MIN 3.0

/* The values the axes take: 10^-6 to 10^9 FLOP/byte or TFLOP/s, wider than any GPU's (a
 * .gsum is not trusted: an infinity or 10^300 would make hundreds of decades). */
static bool on_axis(double v)
{
    return v >= 1e-6 && v <= 1e9; /* false for NaN */
}

static bool placed(const gs_sum_roof *g)
{
    return on_axis(g->intensity) && on_axis(g->tflops);
}

/* A .gsum may hold more rows than a summary keeps: the chart draws as many as one would. */
static size_t shown(const gs_rank_roof *r)
{
    return r->nrows < GS_RANK_ROOF_ROWS ? r->nrows : GS_RANK_ROOF_ROWS;
}

size_t gs_html_roofline_points(const gs_rank_roof *r)
{
    size_t n = 0;
    for (size_t i = 0; i < shown(r); i++)
        n += placed(&r->rows[i]);
    return n;
}

typedef struct range {
    double lo, hi; /* log10 */
} range;

static void widen(range *g, double v)
{
    if (!on_axis(v))
        return;
    double e = log10(v);
    g->lo = e < g->lo ? e : g->lo;
    g->hi = e > g->hi ? e : g->hi;
}

/* The decades that hold every point and the roofs' corners, with room for the flat roofs to be
 * seen and named: up to 3 x the highest peak, and a decade past the Tensor Cores' ridge. */
static void axes(const gs_rank_roof *r, range *x, range *y)
{
    *x = (range){INFINITY, -INFINITY};
    *y = *x;
    for (size_t i = 0; i < shown(r); i++)
        if (placed(&r->rows[i])) {
            widen(x, r->rows[i].intensity);
            widen(y, r->rows[i].tflops);
        }
    if (on_axis(r->peak_tbps)) {
        widen(x, 10 * r->tc_tflops / r->peak_tbps);
        widen(x, r->fp32_tflops / r->peak_tbps);
    }
    widen(y, 3 * r->tc_tflops);
    widen(y, r->fp32_tflops);
    x->lo = floor(x->lo), x->hi = ceil(x->hi);
    y->lo = floor(y->lo), y->hi = ceil(y->hi);
    x->hi += x->hi <= x->lo; /* one decade at least */
    y->hi += y->hi <= y->lo;
}

/* A compute roof at `peak` TFLOP/s, met by the memory roof at its ridge; with the memory roof
 * drawn from the left edge (or where it enters the plot) when `with_memory`. */
static void draw_roof(gs_svg_chart *c, const char *cls, double bw, double peak, bool with_memory,
                      const char *label)
{
    if (!on_axis(peak) || !on_axis(bw) || !on_axis(peak / bw))
        return;
    double ridge = log10(peak / bw), top = log10(peak), slope_at = log10(bw);
    double x0 = c->x.lo > c->y.lo - slope_at ? c->x.lo : c->y.lo - slope_at;
    double xs[3] = {x0, ridge, c->x.hi}, ys[3] = {x0 + slope_at, top, top};
    size_t from = with_memory && x0 < ridge ? 0 : 1;
    gs_svg_line(c, cls, xs + from, ys + from, 3 - from);
    gs_svg_label(c, "mlabel", c->x.hi - 0.5 * (c->x.hi - ridge), top, 6, label);
}

static void draw_point(gs_svg_chart *c, const gs_sum_roof *g, double rmax_ns, bool labelled)
{
    double x = gs_svg_x(c, log10(g->intensity)), y = gs_svg_y(c, log10(g->tflops));
    double part = g->gpu_ns > 0 ? (double)g->gpu_ns / rmax_ns : 0;
    double rad = R_MIN + (R_MAX - R_MIN) * sqrt(part > 1 ? 1 : part);
    fprintf(c->out, "<circle class=\"roofpt %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"><title>",
            gs_roof_bound_name(g->bound), x, y, rad);
    gs_xml_text(c->out, g->name);
    fprintf(c->out, ": %.3f ms, %.2f FLOP/byte, %.3g TFLOP/s, %.1f %% of its roof, %s-bound"
                    "</title></circle>\n",
            (double)g->gpu_ns / 1e6, g->intensity, g->tflops, 100 * g->roof_share,
            gs_roof_bound_name(g->bound));
    if (labelled)
        gs_svg_label(c, "mlabel", log10(g->intensity), log10(g->tflops), rad + 3, g->name);
}

void gs_html_roofline_chart(FILE *out, const gs_rank_roof *r)
{
    if (!gs_html_roofline_points(r))
        return;
    range x, y;
    axes(r, &x, &y);
    gs_svg_axis xa = {.lo = x.lo, .hi = x.hi, .title = "arithmetic intensity (FLOP/byte)",
                      .log10 = true};
    gs_svg_axis ya = {.lo = y.lo, .hi = y.hi, .title = "achieved TFLOP/s", .log10 = true};
    gs_svg_chart c;
    gs_svg_begin(&c, out, "Roofline: operator groups by intensity and achieved TFLOP/s", 760, 360,
                 &xa, &ya);
    char label[64];
    snprintf(label, sizeof label, "fp32 cores %.0f TFLOP/s", r->fp32_tflops);
    draw_roof(&c, "roof fp32", r->peak_tbps, r->fp32_tflops, false, label);
    snprintf(label, sizeof label, "%s Tensor %.0f TFLOP/s", gs_dtype_name(r->tc_dtype),
             r->tc_tflops);
    draw_roof(&c, "roof", r->peak_tbps, r->tc_tflops, true, label);
    double rmax_ns = 1;
    for (size_t i = 0; i < shown(r); i++)
        if (placed(&r->rows[i]) && (double)r->rows[i].gpu_ns > rmax_ns)
            rmax_ns = (double)r->rows[i].gpu_ns;
    size_t named = 0;
    for (size_t i = 0; i < shown(r); i++) /* rows by GPU time: the largest are named */
        if (placed(&r->rows[i]))
            draw_point(&c, &r->rows[i], rmax_ns, named++ < LABELLED);
    gs_svg_end(&c);
    fprintf(out, "<ul class=\"legend\"><li><span class=\"sw roofpt compute\"></span>compute-bound"
                 "</li><li><span class=\"sw roofpt memory\"></span>memory-bound</li>"
                 "<li><span class=\"sw roofpt latency\"></span>latency-bound</li>"
                 "<li>memory roof %.2f TB/s</li><li>point area: GPU time</li></ul>\n",
            r->peak_tbps);
}
