/* A tiny SVG chart writer for the HTML report: a plot area with numeric or labelled axes,
 * gridlines, bars (one <path> per series, so a chart of hundreds of bars stays a few kB), lines,
 * areas, markers and hover titles. Every colour is a CSS class the page styles, so charts follow
 * the page's light or dark palette. Coordinates are written with one decimal: charts are drawn in
 * a fixed viewBox and scaled by the browser.
 *
 * Charts never carry more points than the caller gives; the series they draw are bucketed
 * beforehand (analysis/pipeline/series.h), so a 10 000-step trace draws the same few hundred shapes
 * as a short one. */
#ifndef GS_RENDER_SVG_H
#define GS_RENDER_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Writes s with &, <, >, " and ' escaped, control characters and invalid UTF-8 replaced (the
 * page is UTF-8 and a trace's names are not trusted). For element text and attribute values. */
void gs_xml_text(FILE *out, const char *s);

typedef struct gs_svg_axis {
    double lo, hi;         /* data range shown */
    const char *title;     /* under the x axis, beside the y axis: with the unit, "time (s)" */
    double label_offset;   /* added to a tick's value when it is printed (step index -> number) */
    bool integer;          /* ticks at whole numbers only */
    /* Logarithmic: lo, hi and every coordinate drawn are log10 of the value; ticks at the
     * powers of ten between, labelled with the value (0.1, 1, 10, 1e+04). */
    bool log10;
    /* Categorical axis: when labels is set, ticks sit at i + 0.5 for i < nlabels, every
     * label_every-th one labelled (1 when 0). */
    const char *const *labels;
    size_t nlabels, label_every;
} gs_svg_axis;

typedef struct gs_svg_chart {
    FILE *out;
    double width, height;             /* the viewBox */
    double left, right, top, bottom;  /* the plot area, in viewBox units */
    gs_svg_axis x, y;
} gs_svg_chart;

/* Opens <svg> with an accessible name and draws the grid, ticks, tick labels and axis titles. */
void gs_svg_begin(gs_svg_chart *c, FILE *out, const char *name, double width, double height,
                  const gs_svg_axis *x, const gs_svg_axis *y);
void gs_svg_end(gs_svg_chart *c);

/* Data to viewBox coordinates, clamped to the plot area. */
double gs_svg_x(const gs_svg_chart *c, double v);
double gs_svg_y(const gs_svg_chart *c, double v);

/* Rectangles of one series as one <path class="cls">: begin, any number of rects, end. A rect
 * with no height is skipped. */
void gs_svg_rects_begin(gs_svg_chart *c, const char *cls);
void gs_svg_rect(gs_svg_chart *c, double x0, double x1, double y0, double y1);
void gs_svg_rects_end(gs_svg_chart *c);

/* A polyline through (xs[i], ys[i]); a NaN y breaks the line. */
void gs_svg_line(gs_svg_chart *c, const char *cls, const double *xs, const double *ys, size_t n);

/* The area between the x axis and (xs[i], ys[i]), for n >= 2 points. */
void gs_svg_area(gs_svg_chart *c, const char *cls, const double *xs, const double *ys, size_t n);

/* A horizontal reference line across the plot with a label at its right end. */
void gs_svg_hline(gs_svg_chart *c, const char *cls, double y, const char *label);

/* A dot at (x, y) with a label beside it, kept inside the plot. */
void gs_svg_marker(gs_svg_chart *c, const char *cls, double x, double y, const char *label);

/* A text label at data coordinates (centred, dy viewBox units above). */
void gs_svg_label(gs_svg_chart *c, const char *cls, double x, double y, double dy,
                  const char *text);

/* An invisible rectangle over [x0, x1] × the plot height that shows `title` on hover. */
void gs_svg_hover(gs_svg_chart *c, double x0, double x1, const char *title);

/* A "nice" unit for values up to max: divides values by *scale and names the unit. Durations
 * in ns -> "ns", "µs", "ms", "s"; bytes -> "B", "kB", "MB", "GB", "TB". */
const char *gs_svg_duration_unit(double max_ns, double *scale);
const char *gs_svg_bytes_unit(double max_bytes, double *scale);

#endif
