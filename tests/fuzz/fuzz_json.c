/* Fuzz target for the streaming JSON scanner: any bytes, every token, skips and conversions; and
 * its short cuts (a key guessed, a number read as it is scanned, an object's rest skipped flat)
 * checked against the plain tokens on a second scanner whose window ends where the input says. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ingest/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const guessed[] = {"ph", "ts", "name", "args", "External id", "cat", "id"};
enum { NGUESSED = sizeof guessed / sizeof guessed[0] };

/* Reads tokens on j through the '}' or ']' closing what the current token is in. */
static int skip_by_tokens(gs_json *j)
{
    for (size_t depth = 1; depth > 0;) {
        enum gs_json_tok tok = gs_json_next(j);
        if (tok == GS_JSON_END || tok == GS_JSON_ERROR)
            return -1;
        depth += tok == GS_JSON_OBJECT || tok == GS_JSON_ARRAY;
        depth -= tok == GS_JSON_OBJECT_END || tok == GS_JSON_ARRAY_END;
    }
    return 0;
}

static void same_token(const gs_json *a, const gs_json *b)
{
    if (a->tok_type != b->tok_type)
        abort();
    if (a->tok_type == GS_JSON_ERROR)
        return;
    if (gs_json_offset(a) != gs_json_offset(b) || a->tok_len != b->tok_len ||
        memcmp(a->tok, b->tok, a->tok_len) != 0 || a->tok_escaped != b->tok_escaped)
        abort();
}

/* The plain scanner a and the one taking short cuts, b, token by token. */
static void walk_both(gs_json *a, gs_json *b, const uint8_t *data, size_t size)
{
    gs_json_key keys[NGUESSED];
    for (size_t k = 0; k < NGUESSED; k++)
        gs_json_key_init(&keys[k], guessed[k], strlen(guessed[k]));
    for (size_t n = 0;; n++) {
        unsigned pick = size ? data[(n * 7) % size] : 0;
        enum gs_json_tok ta = gs_json_next(a), tb;
        int scale = pick & 8 ? 3 : 0;
        if (pick % 3 == 0) {
            tb = gs_json_next_key_is(b, &keys[(pick / 3) % NGUESSED]) ? GS_JSON_KEY
                                                                       : gs_json_next(b);
        } else if (pick % 3 == 1) {
            int64_t vb = 0, va = 0;
            bool sb = false;
            tb = gs_json_next_scaled(b, scale, &vb, &sb);
            bool sa = gs_json_scaled(a, scale, &va);
            if (sa != sb || (sa && va != vb))
                abort();
        } else {
            tb = gs_json_next(b);
        }
        if (ta != tb)
            abort();
        same_token(a, b);
        if (ta == GS_JSON_END || ta == GS_JSON_ERROR)
            return;
        if (ta == GS_JSON_KEY && pick % 5 == 0) {
            int rb = gs_json_skip_object_rest(b), ra = skip_by_tokens(a);
            if (ra != rb)
                abort();
            if (ra != 0)
                return;
            same_token(a, b);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gs_error err, err_b;
    gs_source *src = gs_source_memory((const char *)data, size, "fuzz", &err);
    gs_json j;
    if (!src || gs_json_init(&j, src, &err) != 0) {
        gs_source_close(src);
        return 0;
    }
    char *out = NULL;
    /* Alternate between walking every token and skipping values, driven by the input. */
    for (size_t n = 0;; n++) {
        enum gs_json_tok tok = gs_json_next(&j);
        if (tok == GS_JSON_END || tok == GS_JSON_ERROR)
            break;
        if ((tok == GS_JSON_OBJECT || tok == GS_JSON_ARRAY) && (n + size) % 3 == 0 &&
            gs_json_skip(&j) != 0)
            break;
        int64_t i;
        double d;
        if (tok == GS_JSON_NUMBER) {
            gs_json_scaled(&j, 3, &i);
            gs_json_double(&j, &d);
        }
        if (tok == GS_JSON_STRING || tok == GS_JSON_KEY) {
            char *grown = realloc(out, j.tok_len + 1);
            if (!grown)
                break;
            out = grown;
            if (gs_json_decode(&j, out) > j.tok_len)
                abort(); /* decoding never grows a string */
        }
    }
    free(out);
    gs_json_free(&j);
    gs_source_close(src);

    /* The short cuts against the plain tokens, b's window ending where the first byte says. */
    size_t split = size ? size * data[0] / 256 : 0;
    gs_source *sa = gs_source_memory((const char *)data, size, "fuzz", &err);
    gs_source *sb = gs_source_memory((const char *)data + split, size - split, "fuzz", &err_b);
    gs_json a, b;
    if (sa && sb && gs_json_init(&a, sa, &err) == 0) {
        if (gs_json_init_at(&b, sb, 0, (const char *)data, split, &err_b) == 0) {
            walk_both(&a, &b, data, size);
            gs_json_free(&b);
        }
        gs_json_free(&a);
    }
    gs_source_close(sa);
    gs_source_close(sb);
    return 0;
}
