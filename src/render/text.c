/* The "table" output format: aligned columns for people. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "render/text_cut.h"
#include "render/units.h"
#include "common/utf8.h"

enum { COLUMN_GAP = 2 }; /* spaces between columns */
/* A text column is never cut narrower than this, however many numbers share the line. */
#define MIN_TEXT_COLUMNS 24
#define BOLD "\033[1m"
#define PLAIN "\033[0m"

/* ---- text cells: cleaned for a terminal, measured in columns, cut with an ellipsis ---------- */

/* C0 and C1 control characters could move the cursor or start escape sequences. */
static bool is_control(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7f && cp < 0xa0);
}

/* Writes s in at most `cols` columns, ending with "…" when it had to be cut. */
static void put_text(FILE *out, const char *s, size_t cols)
{
    size_t width = gs_text_columns(s);
    size_t keep = width <= cols ? width : (cols ? cols - 1 : 0);
    size_t len = strlen(s), i = 0;
    for (size_t w = 0; w < keep; w++) {
        uint32_t cp;
        size_t n = gs_utf8_decode(s + i, len - i, &cp);
        if (n == 0 || is_control(cp))
            fputs(GS_UTF8_REPLACEMENT, out);
        else
            fwrite(s + i, 1, n, out);
        i += n ? n : 1;
    }
    if (keep < width)
        fputs("…", out);
}

void gs_text_put_clean(FILE *out, const char *s)
{
    put_text(out, s, gs_text_columns(s));
}

static void pad(FILE *out, size_t n)
{
    while (n--)
        putc(' ', out);
}

size_t gs_text_width(const gs_text_style *style)
{
    return style && style->width ? style->width : GS_TEXT_DEFAULT_WIDTH;
}

void gs_text_put_wrapped(FILE *out, const char *s, size_t at, size_t hang, size_t width)
{
    char *words = strdup(s);
    if (!words || at + gs_text_columns(s) <= width) { /* out of memory: one long line, still clean */
        gs_text_put_clean(out, s);
        free(words);
        return;
    }
    size_t col = at;
    char *w = words;
    for (bool first = true;; first = false) {
        char *space = strchr(w, ' ');
        if (space)
            *space = '\0';
        size_t ww = gs_text_columns(w);
        if (!first && col + 1 + ww > width && col > hang) {
            putc('\n', out);
            pad(out, hang);
            col = hang;
        } else if (!first) {
            putc(' ', out);
            col++;
        }
        put_text(out, w, ww);
        col += ww;
        if (!space)
            break;
        w = space + 1;
    }
    free(words);
}

/* ---- numeric cells: one formatter per column type ------------------------------------------- */

typedef void (*cell_formatter)(char *buf, size_t size, const gs_cell *c);

/* A measure the trace cannot give (NaN, e.g. occupancy of kernels CUPTI did not rate, or
 * GS_CELL_UNKNOWN in an integer column) shows as "-", as JSON shows null and CSV an empty field. */
static bool unknown(char *buf, size_t size, const gs_cell *c)
{
    if (isfinite(c->f))
        return false;
    snprintf(buf, size, "-");
    return true;
}
static bool unknown_int(char *buf, size_t size, const gs_cell *c)
{
    if (c->i != GS_CELL_UNKNOWN)
        return false;
    snprintf(buf, size, "-");
    return true;
}

static void fmt_count(char *buf, size_t size, const gs_cell *c)
{
    if (!unknown_int(buf, size, c))
        gs_fmt_count(buf, size, c->i);
}
static void fmt_ns(char *buf, size_t size, const gs_cell *c)
{
    if (!unknown_int(buf, size, c))
        gs_fmt_duration(buf, size, c->i);
}

static void fmt_pct(char *buf, size_t size, const gs_cell *c)
{
    if (!unknown(buf, size, c))
        snprintf(buf, size, "%.1f", c->f);
}
static void fmt_bytes(char *buf, size_t size, const gs_cell *c)
{
    if (!unknown_int(buf, size, c))
        gs_fmt_bytes(buf, size, c->i);
}
static void fmt_gbps(char *buf, size_t size, const gs_cell *c)
{
    if (!unknown(buf, size, c))
        gs_fmt_bandwidth(buf, size, c->f);
}
static void fmt_float(char *buf, size_t size, const gs_cell *c)
{
    if (!unknown(buf, size, c))
        snprintf(buf, size, "%.2f", c->f);
}
static void fmt_xyz(char *buf, size_t size, const gs_cell *c)
{
    snprintf(buf, size, "%" PRId32 "x%" PRId32 "x%" PRId32, c->xyz[0], c->xyz[1], c->xyz[2]);
}

static const cell_formatter number_formatters[] = {
    [GS_COL_COUNT] = fmt_count, [GS_COL_NS] = fmt_ns,       [GS_COL_PCT] = fmt_pct,
    [GS_COL_BYTES] = fmt_bytes, [GS_COL_GBPS] = fmt_gbps,   [GS_COL_FLOAT] = fmt_float,
    [GS_COL_XYZ] = fmt_xyz,
};

/* ---- layout --------------------------------------------------------------------------------- */

/* Text is left-aligned and may be cut to fit the line; numbers and figures are neither. */
static bool is_text(const gs_column *col)
{
    return col->type == GS_COL_TEXT && !(col->flags & GS_COL_FIGURES);
}

typedef struct layout {
    size_t *shown; /* indexes of the columns shown, in order */
    size_t nshown;
    size_t *width; /* per shown column */
    char **cut; /* per row and shown column: the cell cut to its width, NULL when not cut */
    char *numbers; /* formatted numeric cells: [row][shown column][GS_UNIT_BUF] */
} layout;

static const char *cell_text(const gs_table *t, const layout *l, size_t row, size_t k)
{
    size_t c = l->shown[k];
    if (t->cols[c].type == GS_COL_TEXT) {
        const char *s = gs_table_cell(t, row, c)->text;
        return s ? s : "-";
    }
    return &l->numbers[(row * l->nshown + k) * GS_UNIT_BUF];
}

/* Text columns share what the numbers leave of the line: narrow ones keep their width and the
 * rest is split evenly among the wider ones (water filling). No text column is cut narrower than
 * MIN_TEXT_COLUMNS or its header. */
static void fit_text_columns(const gs_table *t, layout *l, size_t line_width)
{
    size_t fixed = 0, ntext = 0;
    for (size_t k = 0; k < l->nshown; k++) {
        fixed += k ? COLUMN_GAP : 0;
        if (is_text(&t->cols[l->shown[k]]))
            ntext++;
        else
            fixed += l->width[k];
    }
    size_t left = line_width > fixed ? line_width - fixed : 0;
    bool *capped = calloc(l->nshown + 1, sizeof *capped);
    if (!capped)
        return; /* uncut is a fine answer too */
    /* Each pass settles the columns narrower than an even share of what is left. */
    for (bool settled = true; ntext && settled;) {
        settled = false;
        size_t share = left / ntext;
        for (size_t k = 0; k < l->nshown; k++) {
            if (!is_text(&t->cols[l->shown[k]]) || capped[k] || l->width[k] > share)
                continue;
            capped[k] = settled = true;
            left -= l->width[k];
            ntext--;
        }
    }
    size_t share = ntext ? left / ntext : 0;
    if (share < MIN_TEXT_COLUMNS)
        share = MIN_TEXT_COLUMNS;
    for (size_t k = 0; k < l->nshown; k++) {
        const gs_column *col = &t->cols[l->shown[k]];
        size_t cap = share > gs_text_columns(col->title) ? share : gs_text_columns(col->title);
        if (is_text(col) && !capped[k] && l->width[k] > cap)
            l->width[k] = cap;
    }
    free(capped);
}

/* The narrowest line the shown columns make: numbers whole, text cut as far as it may be. */
static size_t narrowest_line(const gs_table *t, const layout *l)
{
    size_t sum = 0;
    for (size_t k = 0; k < l->nshown; k++) {
        const gs_column *col = &t->cols[l->shown[k]];
        size_t w = l->width[k], floor = gs_text_columns(col->title);
        if (floor < MIN_TEXT_COLUMNS)
            floor = MIN_TEXT_COLUMNS;
        sum += (k ? COLUMN_GAP : 0) + (is_text(col) && w > floor ? floor : w);
    }
    return sum;
}

/* Measures the shown columns (formatting the numbers) and says whether the line fits; when it
 * does not, leaves out the rightmost column that may be (GS_COL_NARROW_DROP) and returns false
 * to be measured again. */
static bool measure_columns(const gs_table *t, size_t line_width, bool *dropped, layout *l)
{
    l->nshown = 0;
    for (size_t c = 0; c < t->ncols; c++)
        if (!(t->cols[c].flags & GS_COL_JSON_ONLY) && !dropped[c])
            l->shown[l->nshown++] = c;
    for (size_t k = 0; k < l->nshown; k++) {
        const gs_column *col = &t->cols[l->shown[k]];
        l->width[k] = gs_text_columns(col->title);
        for (size_t r = 0; r < t->nrows; r++) {
            if (col->type != GS_COL_TEXT)
                number_formatters[col->type](&l->numbers[(r * l->nshown + k) * GS_UNIT_BUF],
                                             GS_UNIT_BUF, gs_table_cell(t, r, l->shown[k]));
            size_t w = gs_text_columns(cell_text(t, l, r, k));
            if (w > l->width[k])
                l->width[k] = w;
        }
    }
    if (narrowest_line(t, l) <= line_width)
        return true;
    for (size_t k = l->nshown; k-- > 0;)
        if (t->cols[l->shown[k]].flags & GS_COL_NARROW_DROP) {
            dropped[l->shown[k]] = true;
            return false;
        }
    return true; /* nothing more to leave out: the numbers make the line */
}

/* Per text column with cells too wide, each cell as shown: cut so that no two rows read the same
 * (paths from the left first, other names from the right first). */
static int choose_cuts(const gs_table *t, layout *l)
{
    l->cut = calloc(t->nrows * l->nshown + 1, sizeof *l->cut);
    const char **cells = malloc((t->nrows + 1) * sizeof *cells);
    char **shown = malloc((t->nrows + 1) * sizeof *shown);
    int rc = l->cut && cells && shown ? 0 : -1;
    for (size_t k = 0; rc == 0 && k < l->nshown; k++) {
        const gs_column *col = &t->cols[l->shown[k]];
        bool too_wide = false;
        for (size_t r = 0; is_text(col) && r < t->nrows; r++) {
            cells[r] = cell_text(t, l, r, k);
            too_wide |= gs_text_columns(cells[r]) > l->width[k];
        }
        if (!too_wide)
            continue;
        rc = gs_text_cut_column(cells, t->nrows, l->width[k],
                                col->flags & GS_COL_CUT_START ? GS_CUT_START : GS_CUT_END, shown);
        for (size_t r = 0; rc == 0 && r < t->nrows; r++)
            l->cut[r * l->nshown + k] = shown[r];
    }
    free(cells);
    free(shown);
    return rc;
}

static int make_layout(const gs_table *t, size_t line_width, layout *l)
{
    memset(l, 0, sizeof *l);
    l->shown = malloc((t->ncols + 1) * sizeof *l->shown);
    l->width = malloc((t->ncols + 1) * sizeof *l->width);
    l->numbers = malloc((t->nrows * t->ncols + 1) * GS_UNIT_BUF);
    bool *dropped = calloc(t->ncols + 1, sizeof *dropped);
    if (!l->shown || !l->width || !l->numbers || !dropped) {
        free(dropped);
        return -1;
    }
    while (!measure_columns(t, line_width, dropped, l))
        ;
    free(dropped);
    fit_text_columns(t, l, line_width);
    return choose_cuts(t, l);
}

static void free_layout(layout *l, size_t nrows)
{
    for (size_t i = 0; l->cut && i < nrows * l->nshown; i++)
        free(l->cut[i]);
    free(l->shown);
    free(l->width);
    free(l->cut);
    free(l->numbers);
}

/* Text is left-aligned, numbers right-aligned. Spaces are held back until something follows
 * them, so no line ends in spaces (an empty last cell, a short name in the last column). */
static void put_line(FILE *out, const gs_table *t, const layout *l, const char *const *cells)
{
    size_t pending = 0;
    for (size_t k = 0; k < l->nshown; k++) {
        bool text = is_text(&t->cols[l->shown[k]]);
        size_t w = gs_text_columns(cells[k]);
        if (w > l->width[k])
            w = l->width[k];
        pending += (k ? COLUMN_GAP : 0) + (text ? 0 : l->width[k] - w);
        if (w) {
            pad(out, pending);
            put_text(out, cells[k], l->width[k]); /* too wide still (no memory to cut): its end */
            pending = 0;
        }
        if (text)
            pending += l->width[k] - w;
    }
}

int gs_render_text(FILE *out, const gs_table *t, const gs_text_style *style)
{
    if (t->nrows == 0 && t->empty_note) {
        fprintf(out, "%s\n", t->empty_note);
        return 0;
    }
    layout l;
    size_t line_width = style && style->width ? style->width : GS_TEXT_DEFAULT_WIDTH;
    const char **cells = malloc((t->ncols + 1) * sizeof *cells);
    if (make_layout(t, line_width, &l) != 0 || !cells) {
        free(cells);
        free_layout(&l, t->nrows);
        return -1;
    }
    bool bold = style && style->tty;
    for (size_t k = 0; k < l.nshown; k++)
        cells[k] = t->cols[l.shown[k]].title;
    fputs(bold ? BOLD : "", out);
    put_line(out, t, &l, cells);
    fputs(bold ? PLAIN "\n" : "\n", out);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t k = 0; k < l.nshown; k++) {
            const char *cut = l.cut[r * l.nshown + k];
            cells[k] = cut ? cut : cell_text(t, &l, r, k);
        }
        put_line(out, t, &l, cells);
        putc('\n', out);
    }
    free(cells);
    free_layout(&l, t->nrows);
    return 0;
}
