/* gpuscope callsites: GPU and CPU time per Python frame (torch.profiler with_stack) and per
 * nn.Module path (with_modules), flat or as a tree. */
#include <stdio.h>
#include <stdlib.h>

#include "analysis/trace/callsites.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "common/util.h"
#include "render/callsite_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/callsites.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char intro[] =
    "usage: gpuscope callsites [OPTIONS] TRACE...\n"
    "\n"
    "GPU and CPU time per Python frame of a trace recorded with torch.profiler's\n"
    "with_stack=True (python_function events): which line of the program launched\n"
    "the most GPU time. A frame's GPU time is that of the kernels, copies and sets\n"
    "launched by CUDA calls made while the frame was on the stack of the launching\n"
    "thread. --modules sums the same per nn.Module path (with_modules=True).\n"
    "\n"
    "By default, when a trace has steps, only its kept steps count: the warm-up\n"
    "steps and the time outside every step are left out, as the line above the\n"
    "results says. A frame's CPU time counts the part of it inside the window, GPU\n"
    "work counts where the call that launched it started.\n"
    "\n";

enum { TREE, MODULES };  /* its flags */
enum { DEPTH };          /* its count */

static const gs_cli_flag flags[] = {
    [TREE] = {"tree", .help = "top-down: each frame under the frame that called it,\n"
                              "children by GPU total (then CPU total); --sort does not apply"},
    [MODULES] = {"modules", .help = "per nn.Module path (\"GPT2Model_0/GPT2Block_0/Conv1D_0\")\n"
                                    "instead of per frame; with --tree, as a tree of modules"},
};
static const gs_cli_count counts[] = {
    [DEPTH] = {"depth", .max = 65535, .initial = 0, .arg = "N",
               .help = "with --tree, only the first N levels (default: all)"},
};

/* --help's tables: the frames (the default, and what --sort names), the tree of frames (Depth),
 * the modules. */
static const gs_column *frame_columns(size_t *ncols)
{
    return gs_callsite_columns(GS_CALLSITES_FRAMES, ncols);
}

static const gs_column *tree_columns(size_t *ncols)
{
    return gs_callsite_columns(GS_CALLSITES_TREE, ncols);
}

static const gs_column *module_columns(size_t *ncols)
{
    return gs_callsite_columns(GS_CALLSITES_MODULES, ncols);
}

static const gs_cli_help_part help_parts[] = {
    {"\ncolumns:\n", {frame_columns, tree_columns, module_columns}, .indent = 13},
    {"Durations are whole ns in csv and json.\n"},
};

static enum gs_callsite_view which(const gs_view_args *a)
{
    if (a->flag[MODULES])
        return a->flag[TREE] ? GS_CALLSITES_MODULE_TREE : GS_CALLSITES_MODULES;
    return a->flag[TREE] ? GS_CALLSITES_TREE : GS_CALLSITES_FRAMES;
}

static const gs_column *columns(const gs_view_args *a, size_t *ncols)
{
    return gs_callsite_columns(which(a), ncols);
}

static int init(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_callsites_init(state, err);
}

static int add(const gs_trace_ctx *c, const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_callsites_add(state, c, err);
}

static int finish(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_callsites_finish(state, err);
}

/* The flat tables sort by --sort; a tree keeps its order, so that children stay under their
 * parents. */
static int render(FILE *out, void *state, const gs_view_args *a, const gs_text_style *style)
{
    enum gs_callsite_view w = which(a);
    bool tree = a->flag[TREE];
    if (tree && a->cli.sort)
        fprintf(stderr, "gpuscope: callsites: --tree keeps each frame under its caller; --sort "
                        "'%s' left out\n",
                a->cli.sort);
    gs_table t;
    char *owned;
    int rc = gs_callsite_table(state, w, tree ? a->count[DEPTH] : 0,
                               tree && a->cli.format == GS_FORMAT_TABLE, &t, &owned);
    if (rc == 0 && !tree && a->cli.sort) {
        size_t ncols;
        int col = gs_columns_find_sort(gs_callsite_columns(w, &ncols), ncols, a->cli.sort);
        rc = col >= 0 ? gs_table_sort(&t, (size_t)col) : 0;
    }
    if (rc == 0) {
        gs_table_limit(&t, a->cli.limit);
        rc = gs_render_callsites(out, &t, state, w, &a->window, a->cli.format, style);
    }
    gs_table_free(&t);
    free(owned);
    return rc;
}

static void free_callsites(void *state)
{
    gs_callsites_free(state);
}

const gs_view gs_view_callsites = {
    .spec = {.command = "callsites",
             .help = {.intro = intro, .sort_columns = frame_columns,
                      .sort = " (with --modules: module for frame); " GS_CLI_SORT_ORDER
                              " (default: gpu_total, then cpu_total, then name)",
                      .parts = help_parts, .nparts = COUNT_OF(help_parts)},
             .csv = true, .step = true, .keep_warmup = true, .window = true, .flags = flags,
             .nflags = 2, .counts = counts, .ncounts = 1},
    .summary = "GPU and CPU time per Python line and nn.Module (with_stack traces)",
    .columns = columns,
    .state_size = sizeof(gs_callsites),
    .init = init,
    .add = add,
    .finish = finish,
    .render = render,
    .free = free_callsites,
};
