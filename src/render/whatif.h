/* The `whatif` command's output (doc/whatif.md): per rank the replay against the trace, the
 * chosen actions together, each action alone, and with --explain the model's inputs, what each
 * action changes and assumes, and every step; as text, CSV blocks or one JSON document. */
#ifndef GS_RENDER_WHATIF_H
#define GS_RENDER_WHATIF_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/pipeline/whatif.h"
#include "render/render.h"
#include "render/table.h"

/* The columns of the per-rank table, of the actions together and alone, for --help. */
const gs_column *gs_whatif_rank_columns(size_t *ncols);
const gs_column *gs_whatif_together_columns(size_t *ncols);
const gs_column *gs_whatif_alone_columns(size_t *ncols);

/* Writes w in `format`; `explain` adds the model's inputs, the actions' descriptions and the
 * per-step table. -1 out of memory. */
int gs_render_whatif(FILE *out, const gs_whatif *w, bool explain, enum gs_format format,
                     const gs_text_style *style);

#endif
