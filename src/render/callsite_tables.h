/* The tables of the Python call-site view (gpuscope callsites, doc/callsites.md): frames flat or
 * as a call tree, nn.Module paths flat or as a tree. */
#ifndef GS_RENDER_CALLSITE_TABLES_H
#define GS_RENDER_CALLSITE_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/trace/callsites.h"
#include "render/render.h"
#include "render/table.h"
#include "render/window_notes.h"

enum gs_callsite_view {
    GS_CALLSITES_FRAMES,      /* one row per frame name */
    GS_CALLSITES_TREE,        /* the call tree, depth first */
    GS_CALLSITES_MODULES,     /* one row per module path */
    GS_CALLSITES_MODULE_TREE, /* the module tree, depth first */
};

const gs_column *gs_callsite_columns(enum gs_callsite_view which, size_t *ncols);

/* The rows of one of the tables; a tree keeps the rows of depth < max_depth (0: all). With
 * `indent` a tree's names are indented two spaces a level (for people; csv and json have the
 * depth column): the strings are kept in *owned, which the caller frees after the table.
 * -1 when memory is exhausted. */
int gs_callsite_table(const gs_callsites *s, enum gs_callsite_view which, size_t max_depth,
                      bool indent, gs_table *out, char **owned);

/* The table in `format` with the window and the GPU time no frame launched: in a JSON object
 * ({"command": "callsites", "table": ..., "gpu_ns": ..., "unattributed_gpu_ns": ...,
 * "python_frames": ..., "window": ..., "rows": [...]}), a line under the text table; csv is the
 * table alone. -1 when memory is exhausted. */
int gs_render_callsites(FILE *out, const gs_table *t, const gs_callsites *s,
                        enum gs_callsite_view which, const gs_window_notes *window,
                        enum gs_format format, const gs_text_style *style);

#endif
