/* Cutting a name to a table column's width so that two rows never read the same: kept whole when
 * it fits, else its start, its two ends or its end with "…" where the rest was (doc/report.md,
 * "Width"). Widths are in columns: one per code point, an invalid byte counting as one. */
#ifndef GS_RENDER_TEXT_CUT_H
#define GS_RENDER_TEXT_CUT_H

#include <stddef.h>

enum gs_cut {
    GS_CUT_END,    /* "void at::native::vectorized_elem…": names that differ early */
    GS_CUT_MIDDLE, /* "void at::native::ve…Float>(float*)": names that differ late */
    GS_CUT_START,  /* "…/traces/param/resnet_kineto.json.gz": paths, whose end names the file */
};

size_t gs_text_columns(const char *s);

/* s in at most `cols` columns (cols >= 2), cut as `how` says; a new string, NULL when out of
 * memory. */
char *gs_text_cut(const char *s, size_t cols, enum gs_cut how);

/* The first way to cut, trying `first` then the others in the order of enum gs_cut, under which
 * no two different cells of the n read the same in `cols` columns; `first` when none does or
 * when memory is exhausted. */
enum gs_cut gs_text_cut_unique(const char *const *cells, size_t n, size_t cols,
                               enum gs_cut first);

#endif
