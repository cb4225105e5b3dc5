/* A view is a command that reads traces, builds one analysis and prints it (kernels, steps,
 * idle, ...). Its entry (src/cmd/view_NAME.c) is all there is to it: gs_view_run parses, then
 * reads the traces one at a time through the pipeline (analysis/pipeline/inputs.h), each one's
 * context handed to the entry's `add`, prints and frees for every view; main.c lists the entries
 * among the commands (and so 'gpuscope --help' and the docs test read them); export --format csv
 * writes the tables of the views it names with gs_view_write_csv. */
#ifndef GS_CMD_VIEW_H
#define GS_CMD_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/base/trace_ctx.h"
#include "cmd/options.h"
#include "common/error.h"
#include "model/trace.h"
#include "render/render.h"
#include "render/window_notes.h"
#include "render/table.h"

/* One run's options: the shared ones and the view's own, flag[i] and count[i] in the order of
 * its spec's flags and counts. */
typedef struct gs_view_args {
    gs_cli cli;
    bool flag[GS_CLI_MAX_FLAGS];
    size_t count[GS_CLI_MAX_COUNTS];
    /* The window of each selected trace (spec.window: --from, --to, --range, --all-steps, by
     * default the kept steps), said above a one-table view's table and in its JSON; a view that
     * writes itself says it. */
    gs_window_notes window;
    const char *text[GS_CLI_MAX_TEXTS]; /* NULL when not given */
} gs_view_args;

typedef struct gs_view {
    /* Its name (spec.command), --help text (doc/NAME.md shows the same) and options. The
     * entry is shared and constant, so its flags and counts have no value pointers: a run's
     * values are in gs_view_args (a count starts from its `initial`, a text from NULL). --sort is offered when
     * `columns` is set. */
    gs_cli_spec spec;
    const char *summary; /* its line in 'gpuscope --help' */
    /* --sort's columns under these options; NULL: the view keeps its own order. */
    const gs_column *(*columns)(const gs_view_args *a, size_t *ncols);
    /* The analysis's result, `state` (state_size bytes, zeroed), built from the traces one at a
     * time: `init` before the first (NULL: a zeroed state is ready), `add` for each trace's
     * context, `finish` after the last (NULL: nothing left to do). On failure each leaves
     * nothing to free. */
    size_t state_size;
    int (*init)(const gs_view_args *a, void *state, gs_error *err);
    int (*add)(const gs_trace_ctx *c, const gs_view_args *a, void *state, gs_error *err);
    int (*finish)(const gs_view_args *a, void *state, gs_error *err);
    /* A view of one table: the table (sorted by --sort, cut by --limit, written in --format by
     * the caller). */
    int (*table)(const void *state, const gs_view_args *a, gs_table *out);
    /* A view of several tables writes itself (usually through gs_render_sections). */
    int (*render)(FILE *out, void *state, const gs_view_args *a, const gs_text_style *style);
    /* A view of one table that writes itself under some options only (kernels --ncu): when
     * set, `render` is used where this says so and `table` elsewhere. */
    bool (*renders)(const gs_view_args *a);
    void (*free)(void *state);
    /* When not NULL: what the trace contexts need beyond the options, set in *o (idle --hta: the
     * whole trace, HTA selecting its own steps; breakdown --tb-compat: the plugin's steps). */
    void (*context)(const gs_view_args *a, gs_ctx_opts *o);
} gs_view;

/* The command: parse → load → build → print → free. Returns the exit code. */
int gs_view_run(const gs_view *v, int argc, char **argv);

/* What 'gpuscope NAME --format csv' prints for these (loaded) traces, under the view's default
 * options, to `out`. -1 with `err` set. */
int gs_view_write_csv(const gs_view *v, const gs_profile *p, FILE *out, gs_error *err);

#endif
