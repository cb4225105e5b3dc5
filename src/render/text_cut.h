/* Cutting a name to a table column's width so that two rows never read the same: kept whole when
 * it fits, else its start, its two ends or its end with "…" where the rest was, else its start and
 * the part where it differs from the others, else numbered (doc/report.md, "Width"). Widths are in columns: one per code point, an invalid byte counting as one. */
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

/* The n cells of a column as shown in `cols` columns, so that no two different cells read the
 * same: each cut the first way, trying `first` then the others in the order of enum gs_cut,
 * under which none does; when every way makes two read the same, the cells that would are cut
 * around the first part of their name that differs from the others' ("void at::nativ…
 * mse_backward_cuda_kernel(at::…"), and any still alike end in " #1", " #2" (doc/report.md,
 * "Width"). shown[i]: a new string for cells[i], which the caller frees. 0, or -1 when out of
 * memory (shown[] all NULL). */
int gs_text_cut_column(const char *const *cells, size_t n, size_t cols, enum gs_cut first,
                       char **shown);

#endif
