/* gpuscope kernels: GPU kernels summed by name (nsys cuda_gpu_kern_sum). */
#include "analysis/trace/kernel_summary.h"
#include "analysis/trace/ncu_join.h"
#include "analysis/trace/roofline.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "common/util.h"
#include "ingest/ncu_csv.h"
#include "render/ncu_tables.h"
#include "render/roofline_tables.h"
#include "render/view_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/kernels.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char intro[] =
    "usage: gpuscope kernels [OPTIONS] TRACE...\n"
    "\n"
    "GPU kernels summed by name over the selected traces (nsys cuda_gpu_kern_sum).\n"
    "\n"
    "By default, when a trace has steps, only its kept steps count: the warm-up\n"
    "steps and the time outside every step are left out, as the line above the\n"
    "results says. Host events count where they start, GPU work where the call\n"
    "that launched it started.\n"
    "\n";

enum { BY_LAUNCH, ROOFLINE }; /* its flags */
enum { NCU, NTEXTS }; /* its text */

static const gs_cli_flag flags[] = {
    [BY_LAUNCH] = {"by-launch",
                   .help = "group by name, grid and block (nsys cuda_gpu_kern_gb_sum)"},
    [ROOFLINE] = {"roofline",
                  .help = "each kernel on the GPU's roofline, with the FLOPs and bytes of\n"
                          "the operator call it ran (the call's only or main kernel:\n"
                          "doc/roofline.md)"},
};
static const gs_cli_text texts[] = {
    [NCU] = {"ncu", .arg = "FILE",
             .help = "join an Nsight Compute CSV export (ncu --csv, --page details\n"
                     "or raw) with the trace's kernels: one row per kernel ncu\n"
                     "profiled, then its rule findings (see below)"},
};

/* The --by-launch table has every column of the other one. */
static const gs_column *by_launch_columns(size_t *ncols)
{
    return gs_kernel_columns(true, ncols);
}

static const char *const help_order[] = {"by-launch", "roofline", GS_CLI_WINDOW_OPTIONS, "ncu",
                                         NULL};

static const gs_column *roofline_columns(size_t *ncols)
{
    return gs_roofline_columns(GS_ROOF_BY_KERNEL, ncols);
}

static const gs_cli_help_part help_parts[] = {
    {"\ncolumns:\n", {by_launch_columns}, .indent = 13},
    {"Durations are whole ns in csv and json (Avg, Med and StdDev rounded down).\n"
     "\n"
     "columns with --ncu (one row per kernel in the export, in its order):\n",
     {gs_ncu_columns}, .indent = 15},
    {"Then every rule finding: ID, Speedup (%), Of (local or global), Type (OPT,\n"
     "INF, WRN), Section, Rule, Description.\n"
     "\n"
     "columns with --roofline (one row per kernel and operator; ops --roofline\n"
     "has the same columns by operator):\n",
     {roofline_columns}, .indent = 13},
};

typedef struct kernels_state {
    gs_kernel_summary summary;
    gs_ncu_report ncu; /* --ncu */
    gs_ncu_estimates estimates;
    gs_ncu_join join;
    gs_roofline roofline; /* --roofline */
} kernels_state;

static const gs_column *columns(const gs_view_args *a, size_t *ncols)
{
    if (a->flag[ROOFLINE])
        return gs_roofline_columns(GS_ROOF_BY_KERNEL, ncols);
    return a->text[NCU] ? gs_ncu_columns(ncols) : gs_kernel_columns(a->flag[BY_LAUNCH], ncols);
}

/* With --ncu, the kernels are grouped by launch, as ncu profiles them, and joined at the end. */
static int init(const gs_view_args *a, void *state, gs_error *err)
{
    kernels_state *s = state;
    if (a->flag[ROOFLINE]) {
        if (a->text[NCU] || a->flag[BY_LAUNCH])
            return gs_fail(err, GS_EXIT_USAGE,
                           "--roofline is a view of its own: without --ncu or --by-launch");
        return gs_roofline_init(&s->roofline, GS_ROOF_BY_KERNEL, err);
    }
    if (a->text[NCU] && gs_ncu_read(a->text[NCU], &s->ncu, err) != 0)
        return -1;
    if (a->text[NCU] && gs_ncu_estimates_init(&s->estimates, &s->ncu, err) != 0) {
        gs_ncu_report_free(&s->ncu);
        return -1;
    }
    if (gs_kernel_summary_init(&s->summary, a->flag[BY_LAUNCH] || a->text[NCU], err) != 0) {
        gs_ncu_estimates_free(&s->estimates);
        gs_ncu_report_free(&s->ncu);
        return -1;
    }
    return 0;
}

static int add(const gs_trace_ctx *c, const gs_view_args *a, void *state, gs_error *err)
{
    kernels_state *s = state;
    if (a->flag[ROOFLINE])
        return gs_roofline_add(&s->roofline, c, err);
    if (a->text[NCU] && gs_ncu_estimates_add(&s->estimates, c, err) != 0)
        return -1;
    return gs_kernel_summary_add(&s->summary, c, err);
}

static int finish(const gs_view_args *a, void *state, gs_error *err)
{
    kernels_state *s = state;
    if (a->flag[ROOFLINE])
        return gs_roofline_finish(&s->roofline, err);
    if (gs_kernel_summary_finish(&s->summary, err) != 0)
        return -1;
    if (!a->text[NCU])
        return 0;
    if (gs_ncu_join_build(&s->summary, &s->ncu, &s->join, err) != 0)
        return -1;
    gs_ncu_join_estimate(&s->join, &s->estimates);
    return 0;
}

static int table(const void *state, const gs_view_args *a, gs_table *out)
{
    (void)a;
    return gs_kernel_table(&((const kernels_state *)state)->summary, out);
}

static bool renders(const gs_view_args *a)
{
    return a->text[NCU] != NULL || a->flag[ROOFLINE];
}

static int render(FILE *out, void *state, const gs_view_args *a, const gs_text_style *style)
{
    size_t ncols;
    if (a->flag[ROOFLINE]) {
        const gs_column *cols = gs_roofline_columns(GS_ROOF_BY_KERNEL, &ncols);
        int sort_col = a->cli.sort ? gs_columns_find_sort(cols, ncols, a->cli.sort) : -1;
        return gs_render_roofline(out, &((kernels_state *)state)->roofline, &a->window,
                                  a->cli.format, style, a->cli.limit, sort_col);
    }
    const gs_column *cols = gs_ncu_columns(&ncols);
    int sort_col = a->cli.sort ? gs_columns_find_sort(cols, ncols, a->cli.sort) : -1;
    return gs_render_ncu(out, &((kernels_state *)state)->join, a->cli.format, style, a->cli.limit,
                         sort_col, false);
}

static void free_summary(void *state)
{
    kernels_state *s = state;
    gs_kernel_summary_free(&s->summary);
    gs_ncu_join_free(&s->join);
    gs_ncu_estimates_free(&s->estimates);
    gs_ncu_report_free(&s->ncu);
    gs_roofline_free(&s->roofline);
}

const gs_view gs_view_kernels = {
    .spec = {.command = "kernels",
             .help = {.intro = intro, .order = help_order, .sort_columns = by_launch_columns,
                      .sort = " (with --ncu: its columns below); " GS_CLI_SORT_ORDER
                              "\n(default: total, then instances ascending, then name)",
                      .parts = help_parts, .nparts = COUNT_OF(help_parts)},
             .csv = true, .step = true, .keep_warmup = true, .window = true, .flags = flags,
             .nflags = COUNT_OF(flags), .texts = texts, .ntexts = NTEXTS},
    .summary = "GPU kernels summed by name (nsys cuda_gpu_kern_sum)",
    .columns = columns,
    .state_size = sizeof(kernels_state),
    .init = init,
    .add = add,
    .finish = finish,
    .table = table,
    .render = render,
    .renders = renders,
    .free = free_summary,
};
