/* The "csv" output format (RFC 4180 quoting, "\n" line ends): full names, integer ns and bytes,
 * so that a spreadsheet or a script gets exact numbers, and names that cannot run as formulas. */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "render/render.h"

/* A field is quoted when it holds a separator, a quote or a line break; quotes are doubled.
 * `prefix` goes first, inside the quotes. */
static void put_field(FILE *out, const char *prefix, const char *s)
{
    if (!s[strcspn(s, ",\"\r\n")]) {
        fputs(prefix, out);
        fputs(s, out);
        return;
    }
    putc('"', out);
    fputs(prefix, out);
    for (; *s; s++) {
        if (*s == '"')
            putc('"', out);
        putc(*s, out);
    }
    putc('"', out);
}

/* A plain decimal number ("-3", "+1.5e3"): a spreadsheet reads it as the number it is. */
static bool plain_number(const char *s)
{
    static const char digits[] = "0123456789";
    s += *s == '-' || *s == '+';
    size_t whole = strspn(s, digits), frac = 0;
    s += whole;
    if (*s == '.') {
        frac = strspn(s + 1, digits);
        s += 1 + frac;
    }
    if (whole + frac == 0)
        return false;
    if (*s == 'e' || *s == 'E') {
        s += 1 + (s[1] == '-' || s[1] == '+');
        size_t exp = strspn(s, digits);
        if (exp == 0)
            return false;
        s += exp;
    }
    return !*s;
}

/* A name a spreadsheet would run as a formula when the file is opened (a kernel called
 * "=HYPERLINK(...)"): one that starts with = + - @, a tab or a carriage return gets a ' in front,
 * which makes it text (OWASP, "CSV Injection"). A plain number keeps its sign. */
static const char *formula_guard(const char *s)
{
    return s[0] && strchr("=+-@\t\r", s[0]) && !plain_number(s) ? "'" : "";
}

static void put_cell(FILE *out, const gs_column *col, const gs_cell *c)
{
    enum gs_col_type type = col->type;
    switch (type) {
    case GS_COL_TEXT:
        if (!c->text) /* unknown: an empty field */
            break;
        /* figures gpuscope formatted itself ("-", "87 %") are not names */
        put_field(out, col->flags & GS_COL_FIGURES ? "" : formula_guard(c->text), c->text);
        break;
    case GS_COL_COUNT:
    case GS_COL_NS:
    case GS_COL_BYTES:
        if (c->i != GS_CELL_UNKNOWN) /* unknown: an empty field */
            fprintf(out, "%" PRId64, c->i);
        break;
    case GS_COL_PCT:
    case GS_COL_GBPS:
    case GS_COL_FLOAT:
        if (isfinite(c->f)) /* unknown (NaN): an empty field */
            fprintf(out, type == GS_COL_PCT ? "%.2f" : type == GS_COL_GBPS ? "%.3f" : "%.6g", c->f);
        break;
    case GS_COL_XYZ:
        fprintf(out, "%" PRId32 "x%" PRId32 "x%" PRId32, c->xyz[0], c->xyz[1], c->xyz[2]);
        break;
    }
}

void gs_render_csv(FILE *out, const gs_table *t)
{
    const char *sep = "";
    for (size_t c = 0; c < t->ncols; c++) {
        if (t->cols[c].flags & GS_COL_JSON_ONLY)
            continue;
        fputs(sep, out);
        put_field(out, "", t->cols[c].csv);
        sep = ",";
    }
    putc('\n', out);
    gs_render_csv_rows(out, t);
}

void gs_render_csv_rows(FILE *out, const gs_table *t)
{
    for (size_t r = 0; r < t->nrows; r++) {
        const char *sep = "";
        for (size_t c = 0; c < t->ncols; c++) {
            if (t->cols[c].flags & GS_COL_JSON_ONLY)
                continue;
            fputs(sep, out);
            put_cell(out, &t->cols[c], gs_table_cell(t, r, c));
            sep = ",";
        }
        putc('\n', out);
    }
}
