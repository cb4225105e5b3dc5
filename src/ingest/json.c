#include "ingest/json.h"
#include "ingest/json_digits.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum { WINDOW_INITIAL = 1 << 20, READ_CHUNK = 1 << 20 };

int gs_json_init(gs_json *j, gs_source *src, gs_error *err)
{
    memset(j, 0, sizeof *j);
    j->src = src;
    j->err = err;
    /* Small inputs get a small window (fuzzing runs millions of them); it grows on demand. */
    uint64_t size = gs_source_file_size(src);
    j->cap = size + 64 < WINDOW_INITIAL ? (size_t)size + 64 : WINDOW_INITIAL;
    j->buf = malloc(j->cap);
    if (!j->buf)
        return gs_fail_oom(err);
    return 0;
}

int gs_json_init_at(gs_json *j, gs_source *src, uint64_t offset, const char *text, size_t n,
                    gs_error *err)
{
    if (gs_json_init(j, src, err) != 0)
        return -1;
    if (n > j->cap) {
        char *buf = realloc(j->buf, n);
        if (!buf) {
            gs_json_free(j);
            return gs_fail_oom(err);
        }
        j->buf = buf;
        j->cap = n;
    }
    memcpy(j->buf, text, n);
    j->len = n;
    j->buf_offset = offset;
    return 0;
}

void gs_json_free(gs_json *j)
{
    free(j->buf);
    j->buf = NULL;
}

int gs_json_fail(gs_json *j, const char *fmt, ...)
{
    if (j->failed)
        return -1; /* keep the first, most precise message */
    char msg[384];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    j->failed = true;
    return gs_fail(j->err, GS_EXIT_INPUT, "%s: byte %llu: %s", gs_source_name(j->src),
                   (unsigned long long)j->tok_offset, msg);
}

/* Appends input after buf[len), keeping the window from `mark` on (it moves to index 0, and pos
 * with it). Returns the number of bytes added: 0 at the end of input, -1 on error. */
static ssize_t refill(gs_json *j)
{
    if (j->failed)
        return -1;
    if (j->eof)
        return 0;
    if (j->mark > 0) {
        memmove(j->buf, j->buf + j->mark, j->len - j->mark);
        j->buf_offset += j->mark;
        j->len -= j->mark;
        j->pos -= j->mark;
        j->mark = 0;
    }
    if (j->cap - j->len < READ_CHUNK / 4) {
        if (j->cap >= GS_JSON_MAX_TOKEN)
            return gs_json_fail(j, "a single JSON value is longer than %zu MB",
                                GS_JSON_MAX_TOKEN >> 20);
        size_t ncap = j->cap * 2;
        char *nbuf = realloc(j->buf, ncap);
        if (!nbuf) {
            j->failed = true;
            return gs_fail_oom(j->err);
        }
        j->buf = nbuf;
        j->cap = ncap;
    }
    ssize_t got = gs_source_read(j->src, j->buf + j->len, j->cap - j->len, j->err);
    if (got < 0) {
        j->failed = true;
        return -1;
    }
    if (got == 0)
        j->eof = true;
    j->len += (size_t)got;
    return got;
}

/* Makes buf[i] available (i may move by a refill: pass it relative to mark). */
static bool have(gs_json *j, size_t rel)
{
    while (j->mark + rel >= j->len)
        if (refill(j) <= 0)
            return false;
    return true;
}

/* What the scanner's inner loops stop at, a byte at a time: one table lookup instead of a chain
 * of comparisons. */
enum {
    BYTE_SPACE = 1,  /* JSON whitespace */
    BYTE_COMMA = 2,  /* skipped between tokens like whitespace (commas are optional) */
    BYTE_NUMBER = 4, /* may continue a number: digits, sign, point, exponent */
    BYTE_STRING_STOP = 8, /* ends a run of plain string bytes: a quote or a backslash */
    BYTE_AFTER_STRING = 16, /* may follow a string's closing quote: , : } ] */
};

static const unsigned char byte_class[256] = {
    [' '] = BYTE_SPACE, ['\n'] = BYTE_SPACE, ['\r'] = BYTE_SPACE, ['\t'] = BYTE_SPACE,
    [','] = BYTE_COMMA | BYTE_AFTER_STRING,
    ['0'] = BYTE_NUMBER, ['1'] = BYTE_NUMBER, ['2'] = BYTE_NUMBER, ['3'] = BYTE_NUMBER,
    ['4'] = BYTE_NUMBER, ['5'] = BYTE_NUMBER, ['6'] = BYTE_NUMBER, ['7'] = BYTE_NUMBER,
    ['8'] = BYTE_NUMBER, ['9'] = BYTE_NUMBER, ['-'] = BYTE_NUMBER, ['+'] = BYTE_NUMBER,
    ['.'] = BYTE_NUMBER, ['e'] = BYTE_NUMBER, ['E'] = BYTE_NUMBER,
    ['"'] = BYTE_STRING_STOP, ['\\'] = BYTE_STRING_STOP,
    [':'] = BYTE_AFTER_STRING, ['}'] = BYTE_AFTER_STRING, [']'] = BYTE_AFTER_STRING,
};

static bool byte_is(char c, unsigned classes)
{
    return (byte_class[(unsigned char)c] & classes) != 0;
}

static bool is_space(char c)
{
    return byte_is(c, BYTE_SPACE);
}

/* The first byte from pos on that is not a blank or a comma (len when there is none). */
static size_t past_blanks(const char *buf, size_t pos, size_t len)
{
    while (pos < len && byte_is(buf[pos], BYTE_SPACE | BYTE_COMMA))
        pos++;
    return pos;
}

/* The first byte that is not whitespace, from pos on, keeping the window from mark (the token
 * being scanned); pos moves onto it. -1 at the end of input. */
static int peek(gs_json *j)
{
    for (;;) {
        while (j->pos < j->len) {
            char c = j->buf[j->pos];
            if (!is_space(c))
                return (unsigned char)c;
            j->pos++;
        }
        if (refill(j) <= 0)
            return -1;
    }
}

/* Moves pos and mark onto the first byte of the next token, past whitespace and commas. */
static int start_token(gs_json *j)
{
    for (;;) {
        while (j->pos < j->len) {
            char c = j->buf[j->pos];
            if (!byte_is(c, BYTE_SPACE | BYTE_COMMA)) {
                j->mark = j->pos;
                return (unsigned char)c;
            }
            j->pos++;
        }
        j->mark = j->pos;
        if (refill(j) <= 0)
            return -1;
    }
}

static bool ends_string(int c)
{
    return c < 0 || byte_is((char)c, BYTE_AFTER_STRING);
}

/* The first quote or backslash in [p, end), or end. With SSE2 (every x86-64), 16 bytes are
 * compared at once while 16 are left: most strings of a trace (names, categories, kernel names)
 * are 8 to 300 bytes, which a byte at a time took a fifth of the scanner's time over. */
static const char *string_stop(const char *p, const char *end)
{
#ifdef __SSE2__
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    for (; end - p >= 16; p += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
        unsigned stops = (unsigned)_mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
        if (stops)
            return p + __builtin_ctz(stops);
    }
#endif
    while (p < end && !byte_is(*p, BYTE_STRING_STOP))
        p++;
    return p;
}

/* The next quote that is not escaped, from buf[mark + *scan] on (relative to mark, which a refill
 * keeps): *scan ends on it. Backslashes seen set *escaped. false at the end of input or on an
 * error. Each byte is looked at once, however many backslashes come before it. */
static bool find_quote(gs_json *j, size_t *scan, bool *escaped)
{
    for (;;) {
        if (j->mark + *scan >= j->len) {
            ssize_t got = refill(j);
            if (got == 0)
                gs_json_fail(j, "unterminated string");
            if (got <= 0)
                return false;
            continue;
        }
        const char *base = j->buf + j->mark, *end = j->buf + j->len;
        const char *p = string_stop(base + *scan, end);
        *scan = (size_t)(p - base);
        if (p == end)
            continue; /* more input */
        if (*p == '"')
            return true;
        *escaped = true; /* a backslash: the byte after it is the string's, whatever it is */
        *scan += 2;
    }
}

/* Scans the string whose opening quote is at buf[mark]. The body is buf[mark+1, mark+1+len);
 * pos ends after the closing quote and any whitespace, on the next significant byte. */
static bool scan_string(gs_json *j, size_t *body_len, bool *escaped)
{
    size_t scan = 1; /* relative to mark: where to look for the next quote */
    *escaped = false;
    for (;;) {
        if (!find_quote(j, &scan, escaped))
            return false;
        j->pos = j->mark + scan + 1;
        int next = peek(j);
        if (j->failed)
            return false;
        if (ends_string(next)) {
            *body_len = scan - 1;
            return true;
        }
        /* A quote not followed by , : } ] was written unescaped inside the string: go on. */
        scan++;
    }
}

static enum gs_json_tok set_tok(gs_json *j, enum gs_json_tok type, size_t len)
{
    j->tok_type = type;
    j->tok = j->buf + j->mark;
    j->tok_len = len;
    return type;
}

static enum gs_json_tok literal(gs_json *j, const char *word, enum gs_json_tok type)
{
    size_t n = strlen(word);
    if (!have(j, n - 1) || memcmp(j->buf + j->mark, word, n) != 0) {
        gs_json_fail(j, "unexpected character '%c'", j->buf[j->mark]);
        return GS_JSON_ERROR;
    }
    j->pos = j->mark + n;
    return set_tok(j, type, n);
}

/* Any token, wherever it ends: a refill, an escape, a quote written unescaped, an error. */
__attribute__((noinline)) static enum gs_json_tok next_token(gs_json *j)
{
    /* Until a token is complete, the current one is an empty error: never stale window bytes. */
    j->tok = "";
    j->tok_len = 0;
    j->tok_type = GS_JSON_ERROR;
    if (j->failed)
        return GS_JSON_ERROR;
    int c = start_token(j);
    j->tok_offset = j->buf_offset + j->pos;
    j->tok_escaped = false;
    if (c < 0)
        return j->failed ? GS_JSON_ERROR : set_tok(j, GS_JSON_END, 0);
    switch (c) {
    case '{':
        j->pos++;
        return set_tok(j, GS_JSON_OBJECT, 1);
    case '}':
        j->pos++;
        return set_tok(j, GS_JSON_OBJECT_END, 1);
    case '[':
        j->pos++;
        return set_tok(j, GS_JSON_ARRAY, 1);
    case ']':
        j->pos++;
        return set_tok(j, GS_JSON_ARRAY_END, 1);
    case '"': {
        size_t len;
        if (!scan_string(j, &len, &j->tok_escaped)) {
            j->tok_escaped = false; /* an error token is empty */
            return GS_JSON_ERROR;
        }
        enum gs_json_tok type = GS_JSON_STRING;
        if (j->pos < j->len && j->buf[j->pos] == ':') {
            j->pos++;
            type = GS_JSON_KEY;
        }
        set_tok(j, type, len);
        j->tok = j->buf + j->mark + 1;
        return type;
    }
    case 't':
        return literal(j, "true", GS_JSON_TRUE);
    case 'f':
        return literal(j, "false", GS_JSON_FALSE);
    case 'n':
        return literal(j, "null", GS_JSON_NULL);
    default:
        break;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        size_t n = 0;
        for (;;) {
            const char *p = j->buf + j->mark + n, *end = j->buf + j->len;
            while (p < end && byte_is(*p, BYTE_NUMBER))
                p++;
            n = (size_t)(p - (j->buf + j->mark));
            if (p < end || refill(j) <= 0)
                break; /* a number ends at the first other byte, or at the end of input */
        }
        if (j->failed)
            return GS_JSON_ERROR;
        j->pos = j->mark + n;
        return set_tok(j, GS_JSON_NUMBER, n);
    }
    if (c >= 0x20 && c < 0x7f)
        gs_json_fail(j, "unexpected character '%c'", c);
    else
        gs_json_fail(j, "unexpected byte 0x%02x: not JSON text", c);
    return GS_JSON_ERROR;
}

/* Sets the token found whole in the window by gs_json_next: [start, start + n) of the window, the
 * next token's search going on from `next`. */
static enum gs_json_tok found(gs_json *j, enum gs_json_tok type, size_t start, size_t n,
                              size_t next)
{
    j->mark = start;
    j->pos = next;
    j->tok_offset = j->buf_offset + start;
    j->tok_escaped = false;
    j->tok_type = type;
    j->tok = j->buf + start;
    j->tok_len = n;
    return type;
}

/* Most tokens lie whole in the window, with nothing to decode: they are found here, in a few
 * steps with little to save and restore, and every other goes to next_token, which finds the
 * same. Of a Kineto trace's tokens, 43 % are keys, 13 % strings, 29 % numbers and 15 % the
 * braces and brackets. */
enum gs_json_tok gs_json_next(gs_json *j)
{
    const char *buf = j->buf;
    size_t pos = j->pos, len = j->len;
    pos = past_blanks(buf, pos, len);
    if (j->failed || pos >= len)
        return next_token(j);
    switch (buf[pos]) {
    case '{':
        return found(j, GS_JSON_OBJECT, pos, 1, pos + 1);
    case '}':
        return found(j, GS_JSON_OBJECT_END, pos, 1, pos + 1);
    case '[':
        return found(j, GS_JSON_ARRAY, pos, 1, pos + 1);
    case ']':
        return found(j, GS_JSON_ARRAY_END, pos, 1, pos + 1);
    case '"': {
        const char *quote = string_stop(buf + pos + 1, buf + len);
        if (quote == buf + len || *quote != '"')
            break; /* more to read, or an escape */
        size_t after = (size_t)(quote - buf) + 1;
        while (after < len && is_space(buf[after]))
            after++;
        if (after >= len || !byte_is(buf[after], BYTE_AFTER_STRING))
            break; /* more to read, or a quote inside the string */
        enum gs_json_tok type = buf[after] == ':' ? GS_JSON_KEY : GS_JSON_STRING;
        found(j, type, pos, (size_t)(quote - buf) - pos - 1, after + (type == GS_JSON_KEY));
        j->tok = buf + pos + 1;
        return type;
    }
    default:
        if (buf[pos] == '-' || (buf[pos] >= '0' && buf[pos] <= '9')) {
            size_t end = pos + 1;
            while (end < len && byte_is(buf[end], BYTE_NUMBER))
                end++;
            if (end < len)
                return found(j, GS_JSON_NUMBER, pos, end - pos, end);
        }
        break;
    }
    return next_token(j);
}

enum gs_json_tok gs_json_next_scaled(gs_json *j, int scale, int64_t *out, bool *scaled)
{
    static const uint64_t most[] = {INT64_MAX, INT64_MAX / 10, INT64_MAX / 100, INT64_MAX / 1000};
    const char *buf = j->buf;
    size_t pos = j->pos, len = j->len;
    pos = past_blanks(buf, pos, len);
    /* An integer of 18 digits at most, ended in the window by a byte no number has: its value
     * read as it is scanned, as gs_parse_scaled would read it. Any other token is scanned, then
     * parsed. */
    if (!j->failed && scale >= 0 && scale < (int)COUNT_OF(most)) {
        uint64_t mant;
        size_t end = pos + gs_json_leading_digits(buf + pos, len - pos, &mant);
        if (end > pos && end < len && !byte_is(buf[end], BYTE_NUMBER) && mant <= most[scale]) {
            found(j, GS_JSON_NUMBER, pos, end - pos, end);
            for (int i = 0; i < scale; i++)
                mant *= 10;
            *out = (int64_t)mant;
            *scaled = true;
            return GS_JSON_NUMBER;
        }
    }
    enum gs_json_tok tok = gs_json_next(j);
    *scaled = gs_json_scaled(j, scale, out);
    return tok;
}

void gs_json_key_init(gs_json_key *k, const char *key, size_t n)
{
    *k = (gs_json_key){.n = n};
    unsigned char quoted[GS_JSON_KEY_FAST] = {0}, mask[GS_JSON_KEY_FAST] = {0};
    if (n + 3 > GS_JSON_KEY_FAST)
        return;
    quoted[0] = '"';
    memcpy(quoted + 1, key, n);
    quoted[n + 1] = '"';
    quoted[n + 2] = ':';
    memset(mask, 0xff, n + 3);
    memcpy(k->bytes, quoted, sizeof k->bytes);
    memcpy(k->mask, mask, sizeof k->mask);
}

bool gs_json_next_key_is(gs_json *j, const gs_json_key *k)
{
    const char *buf = j->buf;
    size_t pos = j->pos, len = j->len;
    pos = past_blanks(buf, pos, len);
    if (j->failed || len - pos < GS_JSON_KEY_FAST || k->n + 3 > GS_JSON_KEY_FAST)
        return false;
    /* "key": compared as two words, the bytes after it masked off. With no quote or backslash
     * in the key, its closing quote ends the string, as the colon after it says. */
    uint64_t w[2];
    memcpy(w, buf + pos, sizeof w);
    if (((w[0] & k->mask[0]) ^ k->bytes[0]) | ((w[1] & k->mask[1]) ^ k->bytes[1]))
        return false;
    found(j, GS_JSON_KEY, pos, k->n, pos + k->n + 3);
    j->tok = buf + pos + 1;
    return true;
}

/* Reads tokens through the bracket that closes the object or array the current token is in. */
static int skip_to_close(gs_json *j)
{
    /* Count brackets; strings go through the tokenizer so quotes inside them do not count. */
    size_t depth = 1;
    while (depth > 0) {
        switch (gs_json_next(j)) {
        case GS_JSON_OBJECT:
        case GS_JSON_ARRAY:
            depth++;
            break;
        case GS_JSON_OBJECT_END:
        case GS_JSON_ARRAY_END:
            depth--;
            break;
        case GS_JSON_END:
            return gs_json_fail(j, "input ends inside an object or array");
        case GS_JSON_ERROR:
            return -1;
        default:
            break;
        }
    }
    return 0;
}

int gs_json_skip(gs_json *j)
{
    if (j->tok_type == GS_JSON_ERROR)
        return -1;
    if (j->tok_type != GS_JSON_OBJECT && j->tok_type != GS_JSON_ARRAY)
        return 0;
    return skip_to_close(j);
}

/* The rest of a flat object, scanned as gs_json_next would tokenize it but without stopping at
 * each token: strings without escapes (a quote not followed by , : } ] inside one, as there),
 * numbers, commas, blanks, and a colon after a string. Anything else (an escape, a literal, a
 * nested value, the window's end) is left to the tokenizer, so that whatever this accepts the
 * tokenizer would accept too, ending on the same '}'. */
static bool skip_flat(gs_json *j)
{
    const char *buf = j->buf, *p = buf + j->pos, *end = buf + j->len;
    if (j->failed)
        return false;
    while (p < end) {
        if (*p == '}') {
            size_t at = (size_t)(p - buf);
            found(j, GS_JSON_OBJECT_END, at, 1, at + 1);
            return true;
        }
        if (byte_is(*p, BYTE_SPACE | BYTE_COMMA)) {
            p++;
            continue;
        }
        if (*p == '-' || (*p >= '0' && *p <= '9')) { /* a number starts only so */
            while (p < end && byte_is(*p, BYTE_NUMBER))
                p++;
            continue;
        }
        if (*p != '"')
            return false;
        const char *after;
        for (const char *from = p + 1;; from = after) {
            const char *quote = string_stop(from, end);
            if (quote == end || *quote != '"')
                return false;
            after = quote + 1;
            while (after < end && is_space(*after))
                after++;
            if (after == end)
                return false;
            if (byte_is(*after, BYTE_AFTER_STRING))
                break;
        }
        p = after + (*after == ':');
    }
    return false;
}

int gs_json_skip_object_rest(gs_json *j)
{
    if (j->tok_type == GS_JSON_ERROR)
        return -1;
    return skip_flat(j) ? 0 : skip_to_close(j);
}

bool gs_json_tok_is(const gs_json *j, const char *s)
{
    size_t n = strlen(s);
    return j->tok_len == n && memcmp(j->tok, s, n) == 0;
}

/* ---- strings ------------------------------------------------------------------------------- */

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool hex4(const char *s, size_t left, unsigned *out)
{
    if (left < 4)
        return false;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(s[i]);
        if (h < 0)
            return false;
        v = v << 4 | (unsigned)h;
    }
    *out = v;
    return true;
}

static size_t put_utf8(char *out, unsigned cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12);
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18);
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* Never longer than the input: every escape is at least as long as what it stands for. A bad
 * escape is kept as written rather than rejected. */
size_t gs_json_unescape(const char *s, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\' || i + 1 == n) {
            out[o++] = s[i];
            continue;
        }
        char e = s[++i];
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *p = memchr(from, e, sizeof from - 1);
        if (p) {
            out[o++] = to[p - from];
            continue;
        }
        unsigned cp, lo;
        if (e == 'u' && hex4(s + i + 1, n - i - 1, &cp)) {
            i += 4;
            if (cp >= 0xd800 && cp < 0xdc00 && i + 2 < n && s[i + 1] == '\\' && s[i + 2] == 'u' &&
                hex4(s + i + 3, n - i - 3, &lo) && lo >= 0xdc00 && lo < 0xe000) {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                i += 6;
            } else if (cp >= 0xd800 && cp < 0xe000) {
                cp = 0xfffd; /* a lone surrogate */
            }
            o += put_utf8(out + o, cp);
            continue;
        }
        out[o++] = '\\';
        out[o++] = e;
    }
    return o;
}

size_t gs_json_decode(const gs_json *j, char *out)
{
    if (!j->tok_escaped) {
        memcpy(out, j->tok, j->tok_len);
        return j->tok_len;
    }
    return gs_json_unescape(j->tok, j->tok_len, out);
}
