/* The JSON writer every output shares (json_write.h): commas, brackets and indents from each
 * container's layout, strings made safe, numbers that stay JSON. */
#include "common/json_write.h"

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "common/utf8.h"

/* ---- strings -------------------------------------------------------------------------------- */

/* Short escapes JSON defines; other control characters are written as \u00XX. */
static const char *const short_escapes[128] = {
    ['"'] = "\\\"", ['\\'] = "\\\\", ['\b'] = "\\b", ['\f'] = "\\f",
    ['\n'] = "\\n", ['\r'] = "\\r",  ['\t'] = "\\t",
};

/* Printable ASCII but the quote and the backslash: copied as they are. */
static bool plain(unsigned char c)
{
    return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

static void put_string(FILE *out, const char *s)
{
    if (!s) {
        fputs("null", out);
        return;
    }
    size_t len = strlen(s);
    putc('"', out);
    for (size_t i = 0; i < len;) {
        /* Names and keys are mostly plain: a run of plain bytes goes out in one write. */
        size_t run = i;
        while (run < len && plain((unsigned char)s[run]))
            run++;
        if (run > i) {
            fwrite(s + i, 1, run - i, out);
            i = run;
            continue;
        }
        unsigned char c = (unsigned char)s[i];
        uint32_t cp;
        size_t n = gs_utf8_decode(s + i, len - i, &cp);
        if (n == 0)
            fputs("\\ufffd", out);
        else if (c < 0x80 && short_escapes[c])
            fputs(short_escapes[c], out);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fwrite(s + i, 1, n, out);
        i += n ? n : 1;
    }
    putc('"', out);
}

/* ---- containers ----------------------------------------------------------------------------- */

static void put_indent(FILE *out, int n)
{
    static const char spaces[] = "                                ";
    for (; n > 0; n -= (int)sizeof spaces - 1)
        fwrite(spaces, 1, n < (int)sizeof spaces - 1 ? (size_t)n : sizeof spaces - 1, out);
}

void gs_json_writer_init(gs_json_writer *w, FILE *out)
{
    *w = (gs_json_writer){.out = out};
}

/* What precedes a value: the comma, the line break and indent its container's layout asks for,
 * and its key in an object. False when the value is dropped (inside a container too deep). */
static bool begin_member(gs_json_writer *w, const char *key)
{
    if (w->dropped)
        return false;
    if (w->depth == 0)
        return true; /* the document itself */
    gs_json_level *c = &w->level[w->depth - 1];
    const gs_json_layout *l = &c->layout;
    bool own_line = l->lines && c->members >= l->head;
    if (c->members)
        fputs(own_line || l->compact ? "," : ", ", w->out);
    if (own_line) {
        c->member_line = c->line + l->indent > 0 ? c->line + l->indent : 0;
        putc('\n', w->out);
        put_indent(w->out, c->member_line);
    }
    c->members++;
    if (!c->array) {
        put_string(w->out, key);
        fputs(l->compact ? ":" : ": ", w->out);
    }
    return true;
}

static void begin(gs_json_writer *w, const char *key, gs_json_layout layout, bool array)
{
    if (!begin_member(w, key)) {
        w->dropped++;
        return;
    }
    if (w->depth == GS_JSON_MAX_DEPTH) {
        fputs("null", w->out);
        w->too_deep = true;
        w->dropped = 1;
        return;
    }
    int line = w->depth ? w->level[w->depth - 1].member_line : 0;
    w->level[w->depth++] = (gs_json_level){layout, array, 0, line, line};
    putc(array ? '[' : '{', w->out);
}

void gs_json_begin_object(gs_json_writer *w, const char *key, gs_json_layout layout)
{
    begin(w, key, layout, false);
}

void gs_json_begin_array(gs_json_writer *w, const char *key, gs_json_layout layout)
{
    begin(w, key, layout, true);
}

void gs_json_end(gs_json_writer *w)
{
    if (w->dropped) {
        w->dropped--;
        return;
    }
    if (w->depth == 0)
        return;
    const gs_json_level *c = &w->level[--w->depth];
    const gs_json_layout *l = &c->layout;
    bool own_line = l->lines && (c->members ? c->members > l->head && !l->hang : l->open_empty);
    if (own_line) {
        putc('\n', w->out);
        put_indent(w->out, l->margin_close ? 0 : c->line);
    }
    putc(c->array ? ']' : '}', w->out);
    if (w->depth == 0)
        putc('\n', w->out);
}

/* ---- values --------------------------------------------------------------------------------- */

void gs_json_put_str(gs_json_writer *w, const char *key, const char *s)
{
    if (begin_member(w, key))
        put_string(w->out, s);
}

void gs_json_put_int(gs_json_writer *w, const char *key, int64_t v)
{
    if (begin_member(w, key))
        fprintf(w->out, "%" PRId64, v);
}

void gs_json_put_uint(gs_json_writer *w, const char *key, uint64_t v)
{
    if (begin_member(w, key))
        fprintf(w->out, "%" PRIu64, v);
}

void gs_json_put_fixed(gs_json_writer *w, const char *key, double v, int decimals)
{
    if (!begin_member(w, key))
        return;
    if (isfinite(v))
        fprintf(w->out, "%.*f", decimals, v);
    else
        fputs("null", w->out); /* JSON has no NaN or infinity */
}

void gs_json_put_real(gs_json_writer *w, const char *key, double v, int digits)
{
    if (!begin_member(w, key))
        return;
    if (isfinite(v))
        fprintf(w->out, "%.*g", digits, v);
    else
        fputs("null", w->out);
}

void gs_json_put_known_real(gs_json_writer *w, const char *key, double v, int digits, bool known)
{
    gs_json_put_real(w, key, known ? v : NAN, digits);
}

void gs_json_put_bool(gs_json_writer *w, const char *key, bool v)
{
    if (begin_member(w, key))
        fputs(v ? "true" : "false", w->out);
}

void gs_json_put_null(gs_json_writer *w, const char *key)
{
    if (begin_member(w, key))
        fputs("null", w->out);
}

void gs_json_put_raw(gs_json_writer *w, const char *key, const char *json)
{
    if (begin_member(w, key))
        fputs(json, w->out);
}

void gs_json_put_rawf(gs_json_writer *w, const char *key, const char *fmt, ...)
{
    if (!begin_member(w, key))
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(w->out, fmt, ap);
    va_end(ap);
}
