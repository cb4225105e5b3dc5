/* A streaming JSON scanner written for trace files: one pass over the bytes, no DOM.
 *
 * gs_json_next() returns one token at a time; the caller knows the structure it expects and calls
 * gs_json_skip() for values it does not need, which scans to their end without building anything.
 * Token text (j->tok, j->tok_len) points into the scanner's window and stays valid only until the
 * next call. Memory is the window, which grows only to hold the longest single token (capped).
 *
 * Deliberately tolerant, because real traces are not always valid JSON: commas are optional
 * (trailing commas pass), and a '"' inside a string that is not followed by , : } ] is taken as
 * part of the string (Kineto before mid-2026 wrote names with unescaped quotes). */
#ifndef GS_INGEST_JSON_H
#define GS_INGEST_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "ingest/source.h"

enum gs_json_tok {
    GS_JSON_END,   /* end of input */
    GS_JSON_ERROR, /* j->err says what and where */
    GS_JSON_OBJECT,
    GS_JSON_OBJECT_END,
    GS_JSON_ARRAY,
    GS_JSON_ARRAY_END,
    GS_JSON_KEY, /* a string followed by ':' (consumed) */
    GS_JSON_STRING,
    GS_JSON_NUMBER,
    GS_JSON_TRUE,
    GS_JSON_FALSE,
    GS_JSON_NULL,
};

#define GS_JSON_MAX_TOKEN ((size_t)64 << 20) /* a longer string is an error, not unbounded memory */

typedef struct gs_json {
    gs_source *src;
    gs_error *err;
    char *buf;
    size_t cap, len, pos;
    size_t mark; /* start of the current token: refills keep the window from here on */
    uint64_t buf_offset; /* stream offset of buf[0] */
    bool eof;
    bool failed;
    /* The current token. */
    enum gs_json_tok tok_type;
    const char *tok;
    size_t tok_len;
    bool tok_escaped; /* the string contains backslash escapes: decode before use */
    uint64_t tok_offset;
} gs_json;

int gs_json_init(gs_json *j, gs_source *src, gs_error *err);
/* The same over text already read from src: its n bytes (copied), at `offset` of the stream,
 * come first, then what src reads on. */
int gs_json_init_at(gs_json *j, gs_source *src, uint64_t offset, const char *text, size_t n,
                    gs_error *err);
void gs_json_free(gs_json *j);

enum gs_json_tok gs_json_next(gs_json *j);

/* gs_json_next, and when the token is a number (or a string) gs_json_scaled's value of it:
 * *scaled tells whether there is one. A plain integer is read as it is scanned. */
enum gs_json_tok gs_json_next_scaled(gs_json *j, int scale, int64_t *out, bool *scaled);

/* A key a reader expects, prepared for gs_json_next_key_is: "key": as bytes to compare. */
enum { GS_JSON_KEY_FAST = 16 }; /* the longest "key": compared so, quotes and colon included */
typedef struct gs_json_key {
    uint64_t bytes[2], mask[2];
    size_t n;
} gs_json_key;

/* Prepares key (n bytes, no quote or backslash among them). */
void gs_json_key_init(gs_json_key *k, const char *key, size_t n);

/* When the next token is the key k, written "key": in what was read, it becomes the current
 * token and true is returned; otherwise (or for a key longer than GS_JSON_KEY_FAST allows)
 * nothing moves, and gs_json_next reads the token. For a reader that expects the keys in the
 * order its writer puts them: one comparison instead of a token scanned and then compared. */
bool gs_json_next_key_is(gs_json *j, const gs_json_key *k);

/* Skips the value whose first token was just returned (a whole object or array when that token
 * opened one; nothing otherwise). Returns 0, or -1 on error. */
int gs_json_skip(gs_json *j);

/* Skips the rest of the object being read (its key or a value was the current token), through
 * its '}', which becomes the current token. Returns 0, or -1 on error. A rest that is flat and
 * simple (strings without escapes, numbers; no nested value, no literal) and lies whole in what
 * was read is scanned without tokens, any other token by token: the result is the same either
 * way, and does not depend on where the window ends. */
int gs_json_skip_object_rest(gs_json *j);

/* Offset in the decompressed stream of the current token: for error messages. */
static inline uint64_t gs_json_offset(const gs_json *j)
{
    return j->tok_offset;
}

/* Fails with "<source>: byte N: <message>". Returns -1. */
int gs_json_fail(gs_json *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

bool gs_json_tok_is(const gs_json *j, const char *s);

/* True when the input ended right after the current token: the file was cut there. */
static inline bool gs_json_at_end(const gs_json *j)
{
    return j->tok_type == GS_JSON_END || (j->eof && j->pos >= j->len);
}

/* Decodes the current string token into out (at least tok_len bytes). Returns the length. */
size_t gs_json_decode(const gs_json *j, char *out);
size_t gs_json_unescape(const char *s, size_t n, char *out);

/* Number conversions; they read the current NUMBER token (or a STRING holding a number).
 * gs_json_scaled returns the value times 10^scale rounded to the nearest integer, computed
 * exactly in integers: trace times in µs with ns digits become exact ns with scale 3. */
bool gs_json_scaled(const gs_json *j, int scale, int64_t *out);
bool gs_json_int(const gs_json *j, int64_t *out);
bool gs_json_double(const gs_json *j, double *out);
bool gs_parse_scaled(const char *s, size_t n, int scale, int64_t *out);

#endif
