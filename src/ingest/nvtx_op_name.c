#include "ingest/nvtx_op_name.h"

#include <string.h>

typedef struct cursor {
    const char *p, *end;
} cursor;

static bool take(cursor *c, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(c->end - c->p) < n || memcmp(c->p, word, n) != 0)
        return false;
    c->p += n;
    return true;
}

/* A decimal number (a '-' allowed: PyTorch prints sequence numbers as they are). */
static bool take_number(cursor *c, int64_t *v)
{
    bool neg = c->p < c->end && *c->p == '-';
    const char *q = c->p + neg;
    uint64_t x = 0;
    const char *digits = q;
    while (q < c->end && *q >= '0' && *q <= '9' && q - digits < 18)
        x = x * 10 + (uint64_t)(*q++ - '0');
    if (q == digits || (q < c->end && *q >= '0' && *q <= '9'))
        return false;
    *v = neg ? -(int64_t)x : (int64_t)x;
    c->p = q;
    return true;
}

/* A bracketed list, nested brackets and parentheses balanced: "[[1, 2], []]". */
static bool take_list(cursor *c, const char **at, size_t *len)
{
    if (c->p == c->end || *c->p != '[')
        return false;
    int depth = 0;
    const char *q = c->p;
    do {
        if (*q == '[' || *q == '(')
            depth++;
        else if (*q == ']' || *q == ')')
            depth--;
        q++;
    } while (q < c->end && depth > 0);
    if (depth != 0)
        return false;
    *at = c->p;
    *len = (size_t)(q - c->p);
    c->p = q;
    return true;
}

/* Where the first field starts: the first ", seq = " or ", op_id = ". */
static const char *first_field(const char *text, size_t len)
{
    static const char *const marks[] = {", seq = ", ", op_id = "};
    const char *best = NULL;
    for (size_t m = 0; m < 2; m++) {
        size_t n = strlen(marks[m]);
        for (const char *p = text; p + n <= text + len; p++) {
            if (memcmp(p, marks[m], n) == 0) {
                if (!best || p < best)
                    best = p;
                break;
            }
        }
    }
    return best;
}

bool gs_nvtx_op_parse(const char *text, size_t len, gs_nvtx_op *out)
{
    memset(out, 0, sizeof *out);
    const char *f = first_field(text, len);
    if (!f || f == text)
        return false;
    cursor c = {f, text + len};
    out->name_len = (size_t)(f - text);
    if (take(&c, ", seq = ")) {
        if (!take_number(&c, &out->seq))
            return false;
        out->has_seq = true;
    }
    if (take(&c, ", op_id = ") && !take_number(&c, &out->op_id))
        return false;
    if (!out->has_seq && out->op_id == 0)
        return false;
    if (take(&c, ", sizes = ") && !take_list(&c, &out->sizes, &out->sizes_len))
        return false;
    const char *ids;
    size_t ids_len;
    if (take(&c, ", input_op_ids = ") && !take_list(&c, &ids, &ids_len))
        return false;
    return c.p == c.end;
}
