#include "render/svg.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/utf8.h"

void gs_xml_text(FILE *out, const char *s)
{
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = gs_utf8_decode(s + i, len - i, &cp);
        if (n == 0) { /* not UTF-8: the page declares UTF-8, so show the replacement */
            fputs(GS_UTF8_REPLACEMENT, out);
            i++;
            continue;
        }
        switch (cp) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            /* XML 1.0 forbids most C0 controls even as references; tabs and newlines are fine. */
            if ((cp < 0x20 && cp != '\t' && cp != '\n') || (cp >= 0x7f && cp < 0xa0))
                fputs(GS_UTF8_REPLACEMENT, out);
            else
                fwrite(s + i, 1, n, out);
        }
        i += n;
    }
}

/* ---- axes ------------------------------------------------------------------------------------ */

enum { X_TICKS = 8, Y_TICKS = 5 };

/* 1, 2 or 5 × 10^k: the smallest such step that cuts `range` into at most `ticks` parts. */
static double nice_step(double range, int ticks, bool integer)
{
    if (!(range > 0))
        return 1;
    double raw = range / ticks;
    double mag = pow(10, floor(log10(raw)));
    double step = mag * 10;
    if (raw <= mag)
        step = mag;
    else if (raw <= 2 * mag)
        step = 2 * mag;
    else if (raw <= 5 * mag)
        step = 5 * mag;
    return integer && step < 1 ? 1 : step;
}

/* As few decimals as the step needs, so ticks read "0.5 1 1.5", never "0.500000". */
static void put_tick_value(FILE *out, double v, double step, bool log)
{
    if (log) { /* v is an exponent: the value it stands for */
        fprintf(out, "%g", pow(10, round(v)));
        return;
    }
    int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    if (fabs(v) < step * 1e-6)
        v = 0; /* no "-0" */
    fprintf(out, "%.*f", decimals, v);
}

double gs_svg_x(const gs_svg_chart *c, double v)
{
    double span = c->x.hi - c->x.lo;
    double f = span > 0 ? (v - c->x.lo) / span : 0;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return c->left + f * (c->width - c->left - c->right);
}

double gs_svg_y(const gs_svg_chart *c, double v)
{
    double span = c->y.hi - c->y.lo;
    double f = span > 0 ? (v - c->y.lo) / span : 0;
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return c->height - c->bottom - f * (c->height - c->top - c->bottom);
}

static void draw_x_tick(gs_svg_chart *c, double at, const char *label, double value, double step)
{
    double px = gs_svg_x(c, at), base = c->height - c->bottom;
    fprintf(c->out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", px,
            base, px, base + 4);
    fprintf(c->out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", px, base + 17);
    if (label)
        gs_xml_text(c->out, label);
    else
        put_tick_value(c->out, value, step, c->x.log10);
    fputs("</text>", c->out);
}

static void draw_x_axis(gs_svg_chart *c)
{
    const gs_svg_axis *a = &c->x;
    if (a->labels) {
        size_t every = a->label_every ? a->label_every : 1;
        for (size_t i = 0; i < a->nlabels; i += every)
            draw_x_tick(c, (double)i + 0.5, a->labels[i], 0, 1);
        return;
    }
    double step = a->log10 ? 1 : nice_step(a->hi - a->lo, X_TICKS, a->integer);
    for (double v = ceil((a->lo + a->label_offset) / step) * step; v - a->label_offset <= a->hi;
         v += step)
        draw_x_tick(c, v - a->label_offset, NULL, v, step);
}

static void draw_y_axis(gs_svg_chart *c)
{
    const gs_svg_axis *a = &c->y;
    double step = a->log10 ? 1 : nice_step(a->hi - a->lo, Y_TICKS, a->integer);
    for (double v = ceil(a->lo / step) * step; v <= a->hi + step * 1e-9; v += step) {
        double py = gs_svg_y(c, v);
        fprintf(c->out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>",
                c->left, py, c->width - c->right, py);
        fprintf(c->out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">", c->left - 6, py + 4);
        put_tick_value(c->out, v + a->label_offset, step, a->log10);
        fputs("</text>", c->out);
    }
}

void gs_svg_begin(gs_svg_chart *c, FILE *out, const char *name, double width, double height,
                  const gs_svg_axis *x, const gs_svg_axis *y)
{
    *c = (gs_svg_chart){.out = out, .width = width, .height = height, .left = 64, .right = 18,
                        .top = 14, .bottom = 46, .x = *x, .y = *y};
    fprintf(out, "<svg class=\"chart\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"", width,
            height);
    gs_xml_text(out, name);
    fputs("\">\n", out);
    draw_y_axis(c);
    draw_x_axis(c);
    double base = height - c->bottom;
    fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
            c->left, base, width - c->right, base);
    if (x->title) {
        fprintf(out, "<text class=\"atitle\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                (c->left + width - c->right) / 2, height - 6);
        gs_xml_text(out, x->title);
        fputs("</text>", out);
    }
    if (y->title) {
        fprintf(out,
                "<text class=\"atitle\" transform=\"rotate(-90)\" x=\"%.1f\" y=\"14\" "
                "text-anchor=\"middle\">",
                -(c->top + base) / 2);
        gs_xml_text(out, y->title);
        fputs("</text>", out);
    }
    fputc('\n', out);
}

void gs_svg_end(gs_svg_chart *c)
{
    fputs("</svg>\n", c->out);
}

/* ---- shapes ---------------------------------------------------------------------------------- */

void gs_svg_rects_begin(gs_svg_chart *c, const char *cls)
{
    fprintf(c->out, "<path class=\"%s\" d=\"", cls);
}

void gs_svg_rect(gs_svg_chart *c, double x0, double x1, double y0, double y1)
{
    double px0 = gs_svg_x(c, x0), px1 = gs_svg_x(c, x1);
    double py0 = gs_svg_y(c, y0), py1 = gs_svg_y(c, y1);
    if (fabs(py0 - py1) < 0.05 || px1 - px0 < 0.05)
        return;
    fprintf(c->out, "M%.1f %.1fH%.1fV%.1fH%.1fz", px0, py0, px1, py1, px0);
}

void gs_svg_rects_end(gs_svg_chart *c)
{
    fputs("\"/>\n", c->out);
}

void gs_svg_line(gs_svg_chart *c, const char *cls, const double *xs, const double *ys, size_t n)
{
    fprintf(c->out, "<path class=\"%s\" d=\"", cls);
    bool pen = false;
    for (size_t i = 0; i < n; i++) {
        if (isnan(ys[i])) {
            pen = false;
            continue;
        }
        fprintf(c->out, "%c%.1f %.1f", pen ? 'L' : 'M', gs_svg_x(c, xs[i]), gs_svg_y(c, ys[i]));
        pen = true;
    }
    fputs("\"/>\n", c->out);
}

void gs_svg_area(gs_svg_chart *c, const char *cls, const double *xs, const double *ys, size_t n)
{
    if (n < 2)
        return;
    fprintf(c->out, "<path class=\"%s\" d=\"", cls);
    for (size_t i = 0; i < n; i++)
        fprintf(c->out, "%c%.1f %.1f", i ? 'L' : 'M', gs_svg_x(c, xs[i]), gs_svg_y(c, ys[i]));
    double base = gs_svg_y(c, c->y.lo);
    fprintf(c->out, "L%.1f %.1fL%.1f %.1fz\"/>\n", gs_svg_x(c, xs[n - 1]), base, gs_svg_x(c, xs[0]),
            base);
}

void gs_svg_hline(gs_svg_chart *c, const char *cls, double y, const char *label)
{
    double py = gs_svg_y(c, y);
    fprintf(c->out, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", cls,
            c->left, py, c->width - c->right, py);
    if (label) {
        fprintf(c->out, "<text class=\"mlabel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
                c->width - c->right - 4, py - 5);
        gs_xml_text(c->out, label);
        fputs("</text>", c->out);
    }
    fputc('\n', c->out);
}

void gs_svg_marker(gs_svg_chart *c, const char *cls, double x, double y, const char *label)
{
    double px = gs_svg_x(c, x), py = gs_svg_y(c, y);
    fprintf(c->out, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\"/>", cls, px, py);
    /* Beside the dot on the side with more room, below it when it sits at the top edge. */
    bool right_half = px > (c->left + c->width - c->right) / 2;
    double ty = py - c->top < 16 ? py + 18 : py - 9;
    fprintf(c->out, "<text class=\"mlabel\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">",
            right_half ? px - 8 : px + 8, ty, right_half ? "end" : "start");
    gs_xml_text(c->out, label);
    fputs("</text>\n", c->out);
}

void gs_svg_label(gs_svg_chart *c, const char *cls, double x, double y, double dy,
                  const char *text)
{
    fprintf(c->out, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", cls,
            gs_svg_x(c, x), gs_svg_y(c, y) - dy);
    gs_xml_text(c->out, text);
    fputs("</text>\n", c->out);
}

void gs_svg_hover(gs_svg_chart *c, double x0, double x1, const char *title)
{
    double px0 = gs_svg_x(c, x0), px1 = gs_svg_x(c, x1);
    fprintf(c->out, "<rect class=\"hover\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
                    "<title>",
            px0, c->top, px1 - px0, c->height - c->top - c->bottom);
    gs_xml_text(c->out, title);
    fputs("</title></rect>\n", c->out);
}

/* ---- helpers --------------------------------------------------------------------------------- */

static const char *pick_unit(double max, const char *const *names, const double *scales,
                             size_t n, double *scale)
{
    size_t k = 0;
    while (k + 1 < n && max >= scales[k + 1])
        k++;
    *scale = scales[k];
    return names[k];
}

const char *gs_svg_duration_unit(double max_ns, double *scale)
{
    static const char *const names[] = {"ns", "µs", "ms", "s"};
    static const double scales[] = {1, 1e3, 1e6, 1e9};
    return pick_unit(max_ns, names, scales, 4, scale);
}

const char *gs_svg_bytes_unit(double max_bytes, double *scale)
{
    static const char *const names[] = {"B", "kB", "MB", "GB", "TB"};
    static const double scales[] = {1, 1e3, 1e6, 1e9, 1e12};
    return pick_unit(max_bytes, names, scales, 5, scale);
}
