/* The streaming JSON scanner: tokens, tolerance, recovery, numbers, errors, and tokens that
 * straddle the refill boundary. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ingest/json.h"

typedef struct scan {
    gs_source *src;
    gs_json j;
    gs_error err;
} scan;

static void scan_open(scan *s, const char *text, size_t len)
{
    memset(s, 0, sizeof *s);
    s->src = gs_source_memory(text, len, "mem", &s->err);
    gs_json_init(&s->j, s->src, &s->err);
}

static void scan_close(scan *s)
{
    gs_json_free(&s->j);
    gs_source_close(s->src);
}

/* Renders the token stream compactly: {, }, [, ], k:name, s:text, n:text, t, f, z, $, !. */
static void tokens(const char *text, char *out, size_t cap)
{
    scan s;
    scan_open(&s, text, strlen(text));
    size_t o = 0;
    for (;;) {
        enum gs_json_tok tok = gs_json_next(&s.j);
        char one[256];
        char body[200];
        size_t n = s.j.tok_len < sizeof body - 1 ? s.j.tok_len : sizeof body - 1;
        if (tok == GS_JSON_STRING || tok == GS_JSON_KEY)
            n = gs_json_decode(&s.j, body);
        else
            memcpy(body, s.j.tok, n);
        body[n] = '\0';
        switch (tok) {
        case GS_JSON_OBJECT: strcpy(one, "{"); break;
        case GS_JSON_OBJECT_END: strcpy(one, "}"); break;
        case GS_JSON_ARRAY: strcpy(one, "["); break;
        case GS_JSON_ARRAY_END: strcpy(one, "]"); break;
        case GS_JSON_KEY: snprintf(one, sizeof one, "k:%s", body); break;
        case GS_JSON_STRING: snprintf(one, sizeof one, "s:%s", body); break;
        case GS_JSON_NUMBER: snprintf(one, sizeof one, "n:%s", body); break;
        case GS_JSON_TRUE: strcpy(one, "t"); break;
        case GS_JSON_FALSE: strcpy(one, "f"); break;
        case GS_JSON_NULL: strcpy(one, "z"); break;
        case GS_JSON_END: strcpy(one, "$"); break;
        case GS_JSON_ERROR: strcpy(one, "!"); break;
        }
        o += (size_t)snprintf(out + o, cap - o, "%s%s", o ? " " : "", one);
        if (tok == GS_JSON_END || tok == GS_JSON_ERROR || o >= cap)
            break;
    }
    scan_close(&s);
}

static void check_tokens(const char *text, const char *want)
{
    char got[2048];
    tokens(text, got, sizeof got);
    CHECK_STR(got, want);
}

static void test_tokens(void)
{
    check_tokens("{\"a\": [1, -2.5e3, true, false, null], \"b\" : \"x\"}",
                 "{ k:a [ n:1 n:-2.5e3 t f z ] k:b s:x } $");
    check_tokens("  [ ]  ", "[ ] $");
    check_tokens("", "$");
    /* Trailing commas, as some exporters write them. */
    check_tokens("[1, 2, ]", "[ n:1 n:2 ] $");
    check_tokens("{\"k\": 1,}", "{ k:k n:1 } $");
}

static void test_escapes(void)
{
    check_tokens("[\"a\\\"b\", \"tab\\there\", \"\\u00e9\\ud83d\\ude00\", \"\\\\\"]",
                 "[ s:a\"b s:tab\there s:\xc3\xa9\xf0\x9f\x98\x80 s:\\ ] $");
    /* A lone surrogate becomes U+FFFD; an unknown escape is kept as written. */
    check_tokens("[\"\\ud800x\", \"\\q\"]", "[ s:\xef\xbf\xbdx s:\\q ] $");
}

static void test_unescaped_quotes(void)
{
    /* Kineto before mid-2026 did not escape quotes in names: recover rather than reject. */
    check_tokens("{\"name\": \"call \"x\" here\", \"ph\": \"X\"}",
                 "{ k:name s:call \"x\" here k:ph s:X } $");
    check_tokens("[\"a\"b\"]", "[ s:a\"b ] $");
}

static void test_errors(void)
{
    char got[256];
    tokens("[1, @]", got, sizeof got);
    CHECK_STR(got, "[ n:1 !");
    tokens("[\"never closed", got, sizeof got);
    CHECK_STR(got, "[ !");
    tokens("\x01\x02garbage", got, sizeof got);
    CHECK_STR(got, "!");
    tokens("[tru]", got, sizeof got);
    CHECK_STR(got, "[ !");

    scan s;
    const char *bad = "{\"a\": [1, 2,\n  #]}";
    scan_open(&s, bad, strlen(bad));
    while (gs_json_next(&s.j) > GS_JSON_ERROR)
        ;
    CHECK_INT(gs_json_offset(&s.j), 15);
    CHECK_STR(s.err.msg, "mem: byte 15: unexpected character '#'");
    CHECK_INT(s.err.code, GS_EXIT_INPUT);
    scan_close(&s);
}

static void test_skip(void)
{
    const char *text = "{\"skip\": {\"a\": [1, {\"b\": \"]}\"}], \"c\": \"q\\\"\"}, \"keep\": 7}";
    scan s;
    scan_open(&s, text, strlen(text));
    CHECK_INT(gs_json_next(&s.j), GS_JSON_OBJECT);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_KEY);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_OBJECT);
    CHECK_INT(gs_json_skip(&s.j), 0);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_KEY);
    CHECK(gs_json_tok_is(&s.j, "keep"));
    CHECK_INT(gs_json_next(&s.j), GS_JSON_NUMBER);
    int64_t v = 0;
    CHECK(gs_json_int(&s.j, &v));
    CHECK_INT(v, 7);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_OBJECT_END);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_END);
    scan_close(&s);

    const char *cut = "[{\"a\": [1, 2";
    scan_open(&s, cut, strlen(cut));
    gs_json_next(&s.j);
    gs_json_next(&s.j);
    CHECK_INT(gs_json_skip(&s.j), -1);
    CHECK(strstr(s.err.msg, "input ends inside") != NULL);
    scan_close(&s);
}

static void check_scaled(const char *text, int scale, int64_t want)
{
    int64_t got = 0;
    bool ok = gs_parse_scaled(text, strlen(text), scale, &got);
    CHECK(ok);
    if (got != want)
        fprintf(stderr, "  scaled(%s, %d) = %lld, want %lld\n", text, scale, (long long)got,
                (long long)want);
    CHECK_INT(got, want);
}

static void test_numbers(void)
{
    /* Relative µs with ns digits, integer epoch µs, absolute µs with ns digits (19 digits). */
    check_scaled("1419247332500.684", 3, 1419247332500684LL);
    check_scaled("1740461679470630", 3, 1740461679470630000LL);
    check_scaled("1712195495519689.047", 3, 1712195495519689047LL);
    check_scaled("1365627866520.2", 3, 1365627866520200LL); /* trailing zeros dropped */
    check_scaled("0.0005", 3, 1);                           /* rounds half away from zero */
    check_scaled("0.0004", 3, 0);
    check_scaled("-2.5", 0, -3);
    check_scaled("1.5e3", 0, 1500);
    check_scaled("15E-1", 3, 1500);
    check_scaled("0", 3, 0);
    check_scaled("340.024", 3, 340024);
    /* 18 digits are read in a first run; what comes after them continues it */
    check_scaled("123456789012345678", 0, 123456789012345678LL);
    check_scaled("1234567890123456789", 0, 1234567890123456789LL);
    check_scaled("-123456789012345678", 0, -123456789012345678LL);
    check_scaled("000000000000000000000123", 3, 123000);
    check_scaled("000000000000000001.5", 3, 1500);
    check_scaled("12345678901234567890123", -6, 12345678901234568LL); /* 19 kept, rounded */
    check_scaled("123456789012345678.9", 0, 123456789012345679LL);
    check_scaled("922337203685477580", 1, 9223372036854775800LL);
    int64_t v;
    CHECK(!gs_parse_scaled("", 0, 0, &v));
    CHECK(!gs_parse_scaled("1.2.3", 5, 0, &v));
    CHECK(!gs_parse_scaled("-", 1, 0, &v));
    CHECK(!gs_parse_scaled("1e", 2, 0, &v));
    CHECK(!gs_parse_scaled("99999999999999999999", 20, 3, &v)); /* does not fit in int64 */
}

static uint64_t next_random(uint64_t *seed)
{
    *seed ^= *seed << 13, *seed ^= *seed >> 7, *seed ^= *seed << 17;
    return *seed;
}

/* `digits` random digits after text[0 .. t), with a point before digit `point` (none when point
 * is past them); the text's length. */
static size_t random_decimal(uint64_t *seed, int digits, int point, char *text, size_t t)
{
    for (int d = 0; d < digits; d++) {
        if (d == point)
            text[t++] = '.';
        text[t++] = (char)('0' + next_random(seed) % 10);
    }
    text[t] = 0;
    return t;
}

/* Decimals of 1 to 21 digits, the point anywhere or nowhere, as µs to ns (scale 3). Each must be
 * its digits shifted by three places and rounded half away from zero on the first digit dropped,
 * and the same written with an exponent ("e0"); and false where that does not fit in 64 bits. */
static void test_numbers_by_digits(void)
{
    uint64_t seed = 88172645463325252u;
    int wrong = 0;
    for (int k = 0; k < 20000; k++) {
        next_random(&seed);
        int digits = 1 + (int)(seed % 21), point = (int)((seed >> 8) % (uint64_t)(digits + 2));
        char text[32], shifted[32];
        size_t t = random_decimal(&seed, digits, point, text, 0), o = 0;
        /* The expected ns: the digits with the point moved three places, rounded. */
        int whole = point < digits ? point : digits;
        for (int d = 0; d < whole + 3; d++)
            shifted[o++] = d < digits ? text[d + (d >= point)] : '0';
        shifted[o] = 0;
        bool up = whole + 3 < digits && text[whole + 3 + 1] >= '5';
        int64_t got;
        bool ok = gs_parse_scaled(text, t, 3, &got);
        errno = 0;
        unsigned long long want = strtoull(shifted, NULL, 10);
        bool fits = errno != ERANGE && want + up <= (unsigned long long)INT64_MAX;
        /* The same with an exponent. */
        char with_exp[40];
        int64_t general;
        bool general_ok = gs_parse_scaled(with_exp, (size_t)snprintf(with_exp, sizeof with_exp,
                                                                     "%se0", text), 3, &general);
        if (digits > 19)
            continue; /* past 19 significant digits the reader truncates: checked above */
        if (ok != fits || (ok && (uint64_t)got != want + up) || general_ok != ok ||
            (ok && general != got)) {
            if (wrong++ < 5)
                fprintf(stderr, "%s: got %lld (%d), want %llu\n", text, (long long)got, ok,
                        want + up);
        }
    }
    CHECK_INT(wrong, 0);
}

/* Decimals read as doubles: 20,000 of 1 to 18 digits, the point anywhere, some negative, each
 * the very double strtod gives (up to 15 digits they take a shorter way). */
static void test_doubles_by_digits(void)
{
    uint64_t seed = 2463534242u;
    int wrong = 0;
    for (int k = 0; k < 20000; k++) {
        next_random(&seed);
        int digits = 1 + (int)(seed % 18), point = (int)((seed >> 8) % (uint64_t)(digits + 1));
        char text[40];
        size_t t = 0;
        if (seed >> 20 & 1)
            text[t++] = '-';
        /* JSON has no number that starts with its point */
        t = random_decimal(&seed, digits, point ? point : digits, text, t);
        scan s;
        scan_open(&s, text, t);
        double got = 0;
        bool ok = gs_json_next(&s.j) == GS_JSON_NUMBER && gs_json_double(&s.j, &got);
        double want = strtod(text, NULL);
        if (!ok || memcmp(&got, &want, sizeof got) != 0) {
            if (wrong++ < 5)
                fprintf(stderr, "%s: got %.17g, want %.17g\n", text, got, want);
        }
        scan_close(&s);
    }
    CHECK_INT(wrong, 0);
}

/* Strings of every length to 40 bytes, plain and with an escaped quote or backslash at each
 * place: the scan looks at 16 bytes at a time where 16 are left, one at a time in the rest. Each
 * is scanned with bytes after it and as the very end of the input. */
static void test_strings_by_length(void)
{
    bool all_right = true;
    for (size_t len = 0; len <= 40; len++)
        for (size_t at = 0; at <= len; at++)
            for (int kind = 0; kind < 3; kind++) {
                if (kind == 0 && at > 0)
                    continue; /* plain: once per length */
                char body[64], want[64], text[96];
                size_t b = 0, w = 0;
                for (size_t i = 0; i < len; i++) {
                    if (kind && i == at) {
                        body[b++] = '\\';
                        body[b++] = kind == 1 ? '"' : '\\';
                        want[w++] = kind == 1 ? '"' : '\\';
                    }
                    char c = (char)('a' + i % 26);
                    body[b++] = c;
                    want[w++] = c;
                }
                if (kind && at == len) {
                    body[b++] = '\\';
                    body[b++] = kind == 1 ? '"' : '\\';
                    want[w++] = kind == 1 ? '"' : '\\';
                }
                for (int tail = 0; tail < 2; tail++) {
                    int n = snprintf(text, sizeof text, "\"%.*s\"%s", (int)b, body,
                                     tail ? ", 1234567890123456789]" : "");
                    scan sc;
                    scan_open(&sc, text, (size_t)n);
                    char got[64];
                    bool ok = gs_json_next(&sc.j) == GS_JSON_STRING;
                    size_t g = ok ? gs_json_decode(&sc.j, got) : 0;
                    ok = ok && g == w && !memcmp(got, want, w) &&
                         sc.j.tok_escaped == (kind != 0);
                    if (!ok)
                        printf("string of %zu bytes, escape %d at %zu, tail %d: wrong\n", len,
                               kind, at, tail);
                    all_right &= ok;
                    scan_close(&sc);
                }
            }
    CHECK(all_right);
}

/* Tokens longer than the scanner's first window, and tokens that straddle refills. */
static void test_long_tokens(void)
{
    size_t n = 3u << 20;
    char *text = malloc(n + 64);
    size_t o = 0;
    text[o++] = '[';
    text[o++] = '"';
    memset(text + o, 'x', n);
    o += n;
    o += (size_t)sprintf(text + o, "\", 12345]");
    scan s;
    scan_open(&s, text, o);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_ARRAY);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_STRING);
    CHECK_INT(s.j.tok_len, n);
    CHECK(s.j.tok[0] == 'x' && s.j.tok[n - 1] == 'x');
    CHECK_INT(gs_json_next(&s.j), GS_JSON_NUMBER);
    CHECK(gs_json_tok_is(&s.j, "12345"));
    CHECK_INT(gs_json_next(&s.j), GS_JSON_ARRAY_END);
    scan_close(&s);

    /* Many small tokens across several window refills keep their offsets right. */
    o = 0;
    text[o++] = '[';
    int count = 0;
    while (o < n - 16)
        o += (size_t)sprintf(text + o, "%d, ", count++);
    text[o++] = ']';
    scan_open(&s, text, o);
    gs_json_next(&s.j);
    int seen = 0;
    bool in_order = true;
    while (gs_json_next(&s.j) == GS_JSON_NUMBER) {
        int64_t v;
        in_order &= gs_json_int(&s.j, &v) && v == seen;
        seen++;
    }
    CHECK(in_order);
    CHECK_INT(seen, count);
    scan_close(&s);
    free(text);
}

/* The token stream of text as a scanner sees it when its window first ends after `split`
 * bytes (gs_json_init_at), each token with its offset, into out. */
static size_t tokens_guessing(const char *text, size_t split, const gs_json_key *guesses,
                              size_t nguesses, char *out, size_t cap);

static void tokens_split(const char *text, size_t split, char *out, size_t cap)
{
    tokens_guessing(text, split, NULL, 0, out, cap);
}

/* tokens_split, with gs_json_next_key_is asked for guesses[i % nguesses] before the i-th token:
 * the number of guesses it took. */
static size_t tokens_guessing(const char *text, size_t split, const gs_json_key *guesses,
                              size_t nguesses, char *out, size_t cap)
{
    scan s;
    memset(&s, 0, sizeof s);
    s.src = gs_source_memory(text + split, strlen(text + split), "mem", &s.err);
    gs_json_init_at(&s.j, s.src, 0, text, split, &s.err);
    size_t o = 0, taken = 0;
    for (size_t i = 0;; i++) {
        bool guessed = nguesses && gs_json_next_key_is(&s.j, &guesses[i % nguesses]);
        taken += guessed;
        enum gs_json_tok tok = guessed ? GS_JSON_KEY : gs_json_next(&s.j);
        char body[256];
        size_t n = s.j.tok_len < sizeof body - 1 ? s.j.tok_len : sizeof body - 1;
        if (tok == GS_JSON_STRING || tok == GS_JSON_KEY)
            n = gs_json_decode(&s.j, body);
        else
            memcpy(body, s.j.tok, n);
        body[n] = '\0';
        o += (size_t)snprintf(out + o, cap - o, "%d@%llu:%s%s|", (int)tok,
                              (unsigned long long)gs_json_offset(&s.j), body,
                              s.j.tok_escaped ? "(esc)" : "");
        if (tok == GS_JSON_END || tok == GS_JSON_ERROR || o >= cap)
            break;
    }
    scan_close(&s);
    return taken;
}

/* A token whole in the window is found by a short path, any other by the full scanner: wherever
 * the window ends, the tokens, their offsets and what they decode to are the same. */
static void test_window_ends_anywhere(void)
{
    static const char text[] =
        "{\"traceEvents\": [ {\"ph\":\"X\",\"name\": \"aten::add_\", \"ts\": 1669783687384378.125,"
        "\"dur\":-12e3, \"args\": {\"a\\\"b\": \"x \\\\ y\", \"q\": \"call \"x\" here\", "
        "\"w\": \"odd \\} escape\", \"t\": true, \"f\": false, \"z\": null, \"n\": [1, 22, 333,]},\t\n"
        "\"long\": \"abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnop\" } ] }  ";
    size_t len = strlen(text);
    char whole[4096], split[4096];
    tokens_split(text, len, whole, sizeof whole);
    CHECK(strstr(whole, "call \"x\" here") != NULL);
    bool same = true;
    for (size_t k = 0; k < len; k++) {
        tokens_split(text, k, split, sizeof split);
        if (strcmp(split, whole) != 0) {
            printf("window ending after %zu bytes:\n  %s\nwhole:\n  %s\n", k, split, whole);
            same = false;
            break;
        }
    }
    CHECK(same);
}

/* Skips "[{" and the first key and value of text, its window first ending after `split` bytes,
 * then the rest of the object (gs_json_skip_object_rest): its result; *end is the offset of the
 * '}' it stopped on (0 on none), *next the token after it. */
static int skip_rest(const char *text, size_t split, uint64_t *end, enum gs_json_tok *next)
{
    scan s;
    memset(&s, 0, sizeof s);
    s.src = gs_source_memory(text + split, strlen(text + split), "mem", &s.err);
    gs_json_init_at(&s.j, s.src, 0, text, split, &s.err);
    for (int i = 0; i < 4; i++)
        gs_json_next(&s.j);
    int rc = gs_json_skip_object_rest(&s.j);
    *end = rc == 0 && s.j.tok_type == GS_JSON_OBJECT_END ? gs_json_offset(&s.j) : 0;
    *next = rc == 0 ? gs_json_next(&s.j) : GS_JSON_ERROR;
    scan_close(&s);
    return rc;
}

/* The rest of an event skipped without tokens where it is flat (strings without escapes,
 * numbers; a quote left unescaped inside a name, as the tokenizer takes it), by tokens otherwise
 * (escapes, nested values, literals, the window's end): wherever the window ends, the skip stops
 * on the object's own '}', or fails where the tokenizer fails. */
static void test_skip_object_rest(void)
{
    static const struct {
        const char *text;
        bool ok;
    } cases[] = {
        {"[{\"ph\": \"f\", \"id\": 73703, \"pid\": 1, \"tid\": -7, \"ts\": 1669783687389441.5, "
         "\"cat\": \"ac2g\", \"name\": \"a}c\", \"bp\": \"e\"}, 7]", true},
        {"[{\"ph\":\"s\",\"name\": \"call \"x\" here\" ,\"x\":1e-3,}, 7]", true},
        {"[{\"ph\": \"B\"}, 7]", true},
        {"[{\"ph\": \"f\", \"name\": \"a \"1} b\"}, 7]", true},
        {"[{\"ph\": \"f\", \"name\": \"a\\\"}\"}, 7]", true},
        {"[{\"ph\": \"f\", \"args\": {\"a\": 1}, \"b\": 2}, 7]", true},
        {"[{\"ph\": \"f\", \"n\": [1, 2], \"b\": 2}, 7]", true},
        {"[{\"ph\": \"f\", \"b\": true}, 7]", true},
        {"[{\"ph\": \"f\", \"b\": .5}, 7]", false},
        {"[{\"ph\": \"f\", \"b\": tru}, 7]", false},
        {"[{\"ph\": \"f\", \"b\", : 1}, 7]", false},
        {"[{\"ph\": \"f\", \"b\": 1", false},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const char *text = cases[c].text;
        size_t len = strlen(text);
        uint64_t want = cases[c].ok ? (uint64_t)(strrchr(text, '}') - text) : 0;
        enum gs_json_tok want_next = cases[c].ok ? GS_JSON_NUMBER : GS_JSON_ERROR;
        bool same = true;
        for (size_t k = 0; k <= len && same; k++) {
            uint64_t end = 0;
            enum gs_json_tok next = GS_JSON_END;
            int rc = skip_rest(text, k, &end, &next);
            same = rc == (cases[c].ok ? 0 : -1) && end == want && next == want_next;
            if (!same)
                printf("case %zu, window ending after %zu bytes: rc %d, '}' at %llu, want %llu\n",
                       c, k, rc, (unsigned long long)end, (unsigned long long)want);
        }
        CHECK(same);
    }
}

/* A key guessed right is the token gs_json_next would have read, a key guessed wrong moves
 * nothing: wherever the window ends, the tokens, their offsets and what they decode to are the
 * same as without guesses. A key is taken only written "key": (no blank before the colon), and
 * a string that is not a key ("ph" before a comma) never is. */
static void test_next_key_is(void)
{
    static const char text[] =
        "{\"ts\": 1669783687389441, \"ph\": \"X\",\"ph\" : \"Y\", \"cat\":\"ph\", "
        "\"args\": {\"External id\": 7, \"a\\\"b\": 1, \"registers per thread\": 32}, "
        "\"ts\":\"ts\"}";
    static const char *const keys[] = {"ts", "ph", "cat", "args", "External id",
                                       "registers per thread"};
    enum { NKEYS = sizeof keys / sizeof keys[0] };
    gs_json_key guesses[NKEYS];
    for (size_t k = 0; k < NKEYS; k++)
        gs_json_key_init(&guesses[k], keys[k], strlen(keys[k]));
    /* A guess before each token: the key written there, or at a value a key of its text. */
    static const unsigned at_token[] = {0, 0, 0, 1, 1, 1, 1, 2, 1, 3, 3, 4, 4, 0, 0, 5, 5, 5, 0, 0,
                                        0, 0};
    enum { NTOKENS = sizeof at_token / sizeof at_token[0] };
    gs_json_key order[NTOKENS];
    for (size_t i = 0; i < NTOKENS; i++)
        order[i] = guesses[at_token[i]];
    size_t len = strlen(text);
    char plain[4096], guessing[4096];
    tokens_split(text, len, plain, sizeof plain);
    /* "ts", "ph", "cat", "args", "External id": not "ph" : with a blank, the strings "ph" and
     * "ts" that are values, a key longer than GS_JSON_KEY_FAST allows, nor the last "ts", fewer
     * than GS_JSON_KEY_FAST bytes before the end of what was read. */
    CHECK_INT(tokens_guessing(text, len, order, NTOKENS, guessing, sizeof guessing), 5);
    CHECK_STR(guessing, plain);
    bool same = true;
    for (size_t k = 0; k <= len && same; k++) {
        tokens_guessing(text, k, order, NTOKENS, guessing, sizeof guessing);
        same = strcmp(plain, guessing) == 0;
        if (!same)
            printf("window ending after %zu bytes:\n  %s\nwant\n  %s\n", k, guessing, plain);
    }
    CHECK(same);
    scan s;
    scan_open(&s, text, len);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_OBJECT);
    CHECK(gs_json_next_key_is(&s.j, &guesses[0]));
    CHECK_INT(s.j.tok_type, GS_JSON_KEY);
    CHECK(gs_json_tok_is(&s.j, "ts"));
    CHECK_INT(gs_json_offset(&s.j), 1);
    CHECK(!gs_json_next_key_is(&s.j, &guesses[0])); /* a number is next */
    CHECK_INT(gs_json_next(&s.j), GS_JSON_NUMBER);
    CHECK(gs_json_next_key_is(&s.j, &guesses[1]));
    CHECK_INT(gs_json_next(&s.j), GS_JSON_STRING);
    CHECK(!gs_json_next_key_is(&s.j, &guesses[1])); /* "ph" : with a blank */
    CHECK_INT(gs_json_next(&s.j), GS_JSON_KEY);
    CHECK(gs_json_tok_is(&s.j, "ph"));
    CHECK_INT(gs_json_next(&s.j), GS_JSON_STRING);
    CHECK(gs_json_next_key_is(&s.j, &guesses[2]));
    CHECK(!gs_json_next_key_is(&s.j, &guesses[1])); /* the string "ph", a value */
    CHECK_INT(gs_json_next(&s.j), GS_JSON_STRING);
    CHECK(gs_json_tok_is(&s.j, "ph"));
    CHECK(!gs_json_next_key_is(&s.j, &guesses[2]));
    CHECK(gs_json_next_key_is(&s.j, &guesses[3]));
    CHECK_INT(gs_json_next(&s.j), GS_JSON_OBJECT);
    CHECK(gs_json_next_key_is(&s.j, &guesses[4]));
    CHECK(gs_json_tok_is(&s.j, "External id"));
    scan_close(&s);
}

/* The tokens of text, its window first ending after `split` bytes, each with its value at
 * `scale`, read by gs_json_next_scaled (fused) or by gs_json_next then gs_json_scaled. */
static void scaled_split(const char *text, size_t split, int scale, bool fused, char *out,
                         size_t cap)
{
    scan s;
    memset(&s, 0, sizeof s);
    s.src = gs_source_memory(text + split, strlen(text + split), "mem", &s.err);
    gs_json_init_at(&s.j, s.src, 0, text, split, &s.err);
    size_t o = 0;
    for (;;) {
        int64_t v = -1;
        bool scaled;
        enum gs_json_tok tok;
        if (fused) {
            tok = gs_json_next_scaled(&s.j, scale, &v, &scaled);
        } else {
            tok = gs_json_next(&s.j);
            scaled = gs_json_scaled(&s.j, scale, &v);
        }
        o += (size_t)snprintf(out + o, cap - o, "%d@%llu:%.*s=%s%lld|", (int)tok,
                              (unsigned long long)gs_json_offset(&s.j), (int)s.j.tok_len,
                              s.j.tok, scaled ? "" : "none ", scaled ? (long long)v : 0LL);
        if (tok == GS_JSON_END || tok == GS_JSON_ERROR || o >= cap)
            break;
    }
    scan_close(&s);
}

/* Numbers read as they are scanned give what a token scanned then parsed gives, wherever the
 * window ends: plain integers to 18 digits (those of 16 read eight at a time), longer ones, the
 * largest that fit once scaled and the first that do not, signs, fractions, exponents, numbers
 * in strings. */
static void test_next_scaled(void)
{
    static const char text[] =
        "[0, 007, 1669783687389441, 123456789012345678, 1234567890123456789, "
        "9223372036854775807, 9223372036854775, 9223372036854776, -5, 1.5, 1e3, \"42\", "
        "\"x\", 12345678, 99999999 , 5]";
    size_t len = strlen(text);
    for (int scale = 0; scale <= 4; scale += 3) {
        char plain[4096], fused[4096];
        scaled_split(text, len, scale, false, plain, sizeof plain);
        CHECK(strstr(plain, scale ? ":1669783687389441=1669783687389441000|"
                                  : ":1669783687389441=1669783687389441|") != NULL);
        CHECK(strstr(plain, scale ? ":9223372036854775=9223372036854775000|"
                                  : ":9223372036854775=9223372036854775|") != NULL);
        const char *over = scale ? ":9223372036854776=none" : ":9223372036854776=9223372036854776|";
        CHECK(strstr(plain, over) != NULL);
        bool same = true;
        for (size_t k = 0; k <= len && same; k++) {
            scaled_split(text, k, scale, true, fused, sizeof fused);
            same = strcmp(plain, fused) == 0;
            if (!same)
                printf("scale %d, window ending after %zu bytes:\n  %s\nwant\n  %s\n", scale, k,
                       fused, plain);
        }
        CHECK(same);
    }
}

/* A scanner started on text already read (gs_json_init_at): its tokens come first, at offsets
 * counted from where it stands in the stream, then the source's, a token straddling the two. The
 * text is longer than the window a source this small gets. */
static void test_init_at(void)
{
    static const char rest[] = "23, \"b\": [true]}";
    char text[300];
    int spaces = snprintf(text, sizeof text, "{\"a\": %200s1", "") - 7;
    scan s;
    memset(&s, 0, sizeof s);
    s.src = gs_source_memory(rest, strlen(rest), "mem", &s.err);
    CHECK_INT(gs_json_init_at(&s.j, s.src, 1000, text, strlen(text), &s.err), 0);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_OBJECT);
    CHECK_INT(gs_json_offset(&s.j), 1000);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_KEY);
    CHECK(gs_json_tok_is(&s.j, "a"));
    CHECK_INT(gs_json_next(&s.j), GS_JSON_NUMBER);
    CHECK(gs_json_tok_is(&s.j, "123"));
    CHECK_INT(gs_json_offset(&s.j), 1006 + spaces);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_KEY);
    CHECK_INT(gs_json_offset(&s.j), 1011 + spaces);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_ARRAY);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_TRUE);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_ARRAY_END);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_OBJECT_END);
    CHECK_INT(gs_json_next(&s.j), GS_JSON_END);
    scan_close(&s);
}

int main(void)
{
    test_tokens();
    test_escapes();
    test_unescaped_quotes();
    test_errors();
    test_skip();
    test_numbers();
    test_numbers_by_digits();
    test_doubles_by_digits();
    test_strings_by_length();
    test_long_tokens();
    test_init_at();
    test_window_ends_anywhere();
    test_skip_object_rest();
    test_next_key_is();
    test_next_scaled();
    return check_done("test_json");
}
