#include "render/text_cut.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/utf8.h"
#include "common/util.h"

/* Rounds of cutting around where alike cells differ before they are numbered. */
enum { RECUT_ROUNDS = 4 };

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
    size_t row; /* its place among the cells */
    size_t at;  /* the first column where its name differs from every other cell's */
} cut_cell;

static int by_shown(const void *pa, const void *pb)
{
    const cut_cell *a = pa, *b = pb;
    int c = strcmp(a->shown, b->shown);
    return c ? c : strcmp(a->whole, b->whole);
}

/* Cuts every cell of v as `how` says; -1 when out of memory. */
static int cut_all(cut_cell *v, size_t n, size_t cols, enum gs_cut how)
{
    for (size_t i = 0; i < n; i++) {
        free(v[i].shown);
        v[i].shown = gs_text_cut(v[i].whole, cols, how);
        if (!v[i].shown)
            return -1;
    }
    return 0;
}

/* Whether v[i] reads as a different cell next to it; v sorted by_shown. */
static bool reads_as_another(const cut_cell *v, size_t n, size_t i)
{
    return (i > 0 && !strcmp(v[i].shown, v[i - 1].shown) && strcmp(v[i].whole, v[i - 1].whole)) ||
           (i + 1 < n && !strcmp(v[i].shown, v[i + 1].shown) &&
            strcmp(v[i].whole, v[i + 1].whole));
}

/* Whether two different cells read the same; v is left sorted by_shown. */
static bool collides(cut_cell *v, size_t n)
{
    qsort(v, n, sizeof *v, by_shown);
    for (size_t i = 0; i < n; i++)
        if (reads_as_another(v, n, i))
            return true;
    return false;
}

/* The columns a and b share from their start. */
static size_t common_columns(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), i = 0, cols = 0;
    for (;;) {
        size_t n = offset_of(a + i, la - i, 1);
        if (n == 0 || n > lb - i || memcmp(a + i, b + i, n))
            return cols;
        i += n, cols++;
    }
}

/* Characters after which a word of a C++ name starts: "at::native::", "<4, ", "(int". */
static bool ends_word(char c)
{
    return strchr(" <>(),:{}", c) != NULL;
}

/* s cut around column `at`, the first where it differs from every other cell: its first third,
 * "…", from the start of the word that holds `at` (or a little before `at`) on, and "…" where the
 * rest was: "void at::nativ…mse_backward_cuda_kernel(at::…". */
static char *cut_around(const char *s, size_t cols, size_t at)
{
    size_t len = strlen(s), width = gs_text_columns(s);
    if (width <= cols || cols < 8)
        return gs_text_cut(s, cols, GS_CUT_END);
    size_t head = (cols - 2) / 3, room = cols - 2 - head;
    size_t from = at > room / 4 ? at - room / 4 : 0;
    /* the last word start in (at - room / 2, at], walked forward once: names may be long */
    size_t col = at > room / 2 ? at - room / 2 : 0, byte = offset_of(s, len, col);
    for (; col < at && byte < len; col++) {
        if (ends_word(s[byte]) && col + 1 > head)
            from = col + 1;
        byte += offset_of(s + byte, len - byte, 1);
    }
    if (from < head)
        from = head;
    bool tail = from + room < width; /* else the window ends the name, and takes the "…"'s room */
    if (!tail)
        from = width - room - 1;
    size_t head_bytes = offset_of(s, len, head), from_byte = offset_of(s, len, from);
    size_t to_byte = tail ? offset_of(s, len, from + room) : len;
    char *out = malloc(head_bytes + (to_byte - from_byte) + 2 * (sizeof "…" - 1) + 1);
    if (!out)
        return NULL;
    size_t at_byte = 0;
    memcpy(out, s, head_bytes), at_byte += head_bytes;
    memcpy(out + at_byte, "…", sizeof "…" - 1), at_byte += sizeof "…" - 1;
    memcpy(out + at_byte, s + from_byte, to_byte - from_byte), at_byte += to_byte - from_byte;
    if (tail)
        memcpy(out + at_byte, "…", sizeof "…" - 1), at_byte += sizeof "…" - 1;
    out[at_byte] = '\0';
    return out;
}

/* Each cell's `at`: the longest start its name shares with a different name of the n, found
 * between neighbours in name order (v is sorted by name; equal names are one name). */
static void find_where_names_differ(cut_cell *v, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && !strcmp(v[j].whole, v[i].whole))
            j++;
        size_t before = i ? common_columns(v[i - 1].whole, v[i].whole) : 0;
        size_t after = j < n ? common_columns(v[j].whole, v[i].whole) : 0;
        for (size_t k = i; k < j; k++)
            v[k].at = before > after ? before : after;
        i = j;
    }
}

/* Each run of cells that read the same though their names differ is cut again, each around where
 * its name differs from the others of the run. 1 when a cell's text changed, 0 when none did,
 * -1 when out of memory. */
static int recut_clashes(cut_cell *v, size_t n, size_t cols)
{
    qsort(v, n, sizeof *v, by_shown); /* a run is sorted by name: by_shown's second key */
    int changed = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && !strcmp(v[j].shown, v[i].shown))
            j++;
        if (strcmp(v[i].whole, v[j - 1].whole))
            find_where_names_differ(v + i, j - i);
        for (size_t k = i; k < j && strcmp(v[i].whole, v[j - 1].whole); k++) {
            char *shown = cut_around(v[k].whole, cols, v[k].at);
            if (!shown)
                return -1;
            changed |= strcmp(shown, v[k].shown) != 0;
            free(v[k].shown);
            v[k].shown = shown;
        }
        i = j;
    }
    return changed;
}

/* Cells that still read the same end in " #1", " #2", ... one number per name in name order,
 * their shared text cut to make room. */
static int number_the_rest(cut_cell *v, size_t n, size_t cols)
{
    qsort(v, n, sizeof *v, by_shown);
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && !strcmp(v[j].shown, v[i].shown))
            j++;
        if (strcmp(v[i].whole, v[j - 1].whole)) { /* sorted by name within: first and last differ */
            char suffix[32];
            int len = snprintf(suffix, sizeof suffix, " #%zu", j - i);
            char *base = gs_text_cut(v[i].shown, cols > (size_t)len + 2 ? cols - (size_t)len : 2,
                                     GS_CUT_END);
            if (!base)
                return -1;
            size_t number = 1;
            for (size_t k = i; k < j; k++) {
                number += k > i && strcmp(v[k].whole, v[k - 1].whole);
                snprintf(suffix, sizeof suffix, " #%zu", number);
                char *shown = malloc(strlen(base) + strlen(suffix) + 1);
                if (!shown) {
                    free(base);
                    return -1;
                }
                strcat(strcpy(shown, base), suffix);
                free(v[k].shown);
                v[k].shown = shown;
            }
            free(base);
        }
        i = j;
    }
    return 0;
}

int gs_text_cut_column(const char *const *cells, size_t n, size_t cols, enum gs_cut first,
                       char **shown)
{
    static const enum gs_cut order[] = {GS_CUT_END, GS_CUT_MIDDLE, GS_CUT_START};
    cut_cell *v = calloc(n ? n : 1, sizeof *v);
    if (!v) {
        memset(shown, 0, n * sizeof *shown);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < n; i++)
        v[i].whole = cells[i], v[i].row = i;
    bool clash = true;
    if (rc == 0 && (rc = cut_all(v, n, cols, first)) == 0)
        clash = collides(v, n);
    for (size_t i = 0; rc == 0 && clash && i < COUNT_OF(order); i++)
        if (order[i] != first && (rc = cut_all(v, n, cols, order[i])) == 0)
            clash = collides(v, n);
    /* Cut around where the names differ, a run of alike cells at a time: a second round tells
     * apart the cells whose windows met (two kernels' functors, alike, after templates that
     * differ). */
    if (rc == 0 && clash && (rc = cut_all(v, n, cols, first)) == 0) {
        int changed = 1;
        for (int round = 0; round < RECUT_ROUNDS && changed == 1; round++)
            changed = recut_clashes(v, n, cols);
        rc = changed < 0 ? -1 : number_the_rest(v, n, cols);
    }
    for (size_t i = 0; i < n; i++) {
        shown[v[i].row] = rc == 0 ? v[i].shown : NULL;
        if (rc != 0)
            free(v[i].shown);
    }
    free(v);
    return rc;
}
