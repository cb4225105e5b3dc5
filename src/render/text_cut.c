#include "render/text_cut.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/utf8.h"

/* The byte offset of column `col` of s (its length when s is shorter). */
static size_t offset_of(const char *s, size_t len, size_t col)
{
    size_t i = 0;
    for (size_t c = 0; c < col && i < len; c++) {
        uint32_t cp;
        size_t n = gs_utf8_decode(s + i, len - i, &cp);
        i += n ? n : 1;
    }
    return i;
}

size_t gs_text_columns(const char *s)
{
    size_t width = 0, len = strlen(s);
    for (size_t i = 0; i < len; width++)
        i += offset_of(s + i, len - i, 1);
    return width;
}

char *gs_text_cut(const char *s, size_t cols, enum gs_cut how)
{
    size_t len = strlen(s), width = gs_text_columns(s);
    char *out = malloc(len + sizeof "…");
    if (!out)
        return NULL;
    if (width <= cols || cols < 2) {
        memcpy(out, s, len + 1);
        return out;
    }
    static const char ellipsis[] = "…";
    size_t keep = cols - 1;
    size_t head = how == GS_CUT_END ? keep : how == GS_CUT_MIDDLE ? (keep + 1) / 2 : 0;
    size_t head_bytes = offset_of(s, len, head);
    size_t tail_start = offset_of(s, len, width - (keep - head));
    size_t at = 0;
    memcpy(out, s, head_bytes), at += head_bytes;
    memcpy(out + at, ellipsis, sizeof ellipsis - 1), at += sizeof ellipsis - 1;
    memcpy(out + at, s + tail_start, len - tail_start), at += len - tail_start;
    out[at] = '\0';
    return out;
}

typedef struct cut_cell {
    const char *whole;
    char *shown;
} cut_cell;

static int by_shown(const void *pa, const void *pb)
{
    const cut_cell *a = pa, *b = pb;
    int c = strcmp(a->shown, b->shown);
    return c ? c : strcmp(a->whole, b->whole);
}

/* Whether two different cells read the same cut this way; -1 when out of memory. */
static int collides(const char *const *cells, size_t n, size_t cols, enum gs_cut how)
{
    cut_cell *v = calloc(n ? n : 1, sizeof *v);
    int rc = v ? 0 : -1;
    for (size_t i = 0; i < n && rc == 0; i++) {
        v[i].whole = cells[i];
        v[i].shown = gs_text_cut(cells[i], cols, how);
        rc = v[i].shown ? 0 : -1;
    }
    if (rc == 0) {
        qsort(v, n, sizeof *v, by_shown);
        for (size_t i = 1; i < n && rc == 0; i++)
            rc = !strcmp(v[i].shown, v[i - 1].shown) && strcmp(v[i].whole, v[i - 1].whole);
    }
    for (size_t i = 0; v && i < n; i++)
        free(v[i].shown);
    free(v);
    return rc;
}

enum gs_cut gs_text_cut_unique(const char *const *cells, size_t n, size_t cols,
                               enum gs_cut first)
{
    static const enum gs_cut order[] = {GS_CUT_END, GS_CUT_MIDDLE, GS_CUT_START};
    if (collides(cells, n, cols, first) == 0)
        return first;
    for (size_t i = 0; i < sizeof order / sizeof *order; i++)
        if (order[i] != first && collides(cells, n, cols, order[i]) == 0)
            return order[i];
    return first;
}
