/* gpuscope callsites: GPU and CPU time per Python frame (torch.profiler with_stack) and per
 * nn.Module path (with_modules), flat or as a tree. */
#include <stdio.h>
#include <stdlib.h>

#include "analysis/trace/callsites.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "render/callsite_tables.h"

/* The same text is in doc/callsites.md; tests/cli/test_docs.sh keeps the two equal. */
static const char help[] =
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
    "\n"
    "options:\n"
    "  --tree          top-down: each frame under the frame that called it, children\n"
    "                  by GPU total (then CPU total); --sort does not apply\n"
    "  --modules       per nn.Module path (\"GPT2Model_0/GPT2Block_0/Conv1D_0\")\n"
    "                  instead of per frame; with --tree, as a tree of modules\n"
    "  --depth N       with --tree, only the first N levels (default: all)\n"
    GS_CLI_WINDOW_HELP
    "  --format FORMAT   table (default), csv or json\n"
    "  --sort COLUMN     frame (module), calls, gpu_total, gpu_pct, gpu_self,\n"
    "                    launches, cpu_total or cpu_self; numbers sort descending,\n"
    "                    names ascending (default: gpu_total, then cpu_total, then\n"
    "                    name)\n"
    "  --limit N         show the first N rows (default: all)\n"
    "  --rank R          only the traces of rank R\n"
    "  -h, --help        show this help\n"
    "\n"
    "columns:\n"
    "  Depth      --tree: 0 for an outermost frame (module), then one more a level\n"
    "  Frame      as the trace names it: \"file.py(line): function\", a built-in\n"
    "             (\"<built-in method addmm ...>\") or a module (\"nn.Module: Linear_0\")\n"
    "  Module     --modules: the module path from the outermost module; with --tree\n"
    "             the module's name (json adds its path)\n"
    "  Calls      frames (module calls) inside the window\n"
    "  GPU total  time of the kernels, copies and sets launched while the frame was\n"
    "             on the launching thread's stack (a frame that recurs counts once)\n"
    "  GPU %      GPU total / all GPU time launched inside the window x 100, by any\n"
    "             thread (backward's GPU time is launched by autograd's own thread,\n"
    "             which has no Python frames: the line under the table says how much)\n"
    "  GPU self   the part launched while it was the innermost frame (module)\n"
    "  Launches   kernels, copies and sets in GPU total\n"
    "  CPU total  the frames' time inside the window (a recursive call once)\n"
    "  CPU self   CPU total minus the time of the frames (modules) directly inside\n"
    "Durations are whole ns in csv and json.\n";

enum { TREE, MODULES };  /* its flags */
enum { DEPTH };          /* its count */

static const gs_cli_flag flags[] = {[TREE] = {"tree"}, [MODULES] = {"modules"}};
static const gs_cli_count counts[] = {[DEPTH] = {"depth", .max = 65535, .initial = 0}};

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
    .spec = {.command = "callsites", .help = help, .csv = true, .step = true,
             .keep_warmup = true, .window = true, .flags = flags, .nflags = 2,
             .counts = counts, .ncounts = 1},
    .summary = "GPU and CPU time per Python line and nn.Module (with_stack traces)",
    .columns = columns,
    .state_size = sizeof(gs_callsites),
    .init = init,
    .add = add,
    .finish = finish,
    .render = render,
    .free = free_callsites,
};
