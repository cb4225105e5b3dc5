/* gpuscope ops: operators and annotations summed by name (PyTorch key_averages). */
#include "analysis/trace/op_summary.h"
#include "analysis/trace/roofline.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "common/util.h"
#include "render/roofline_tables.h"
#include "render/view_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/ops.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char intro[] =
    "usage: gpuscope ops [OPTIONS] TRACE...\n"
    "\n"
    "PyTorch operators, user annotations (record_function, ProfilerStep#N) and NVTX\n"
    "ranges summed by name over the selected traces (PyTorch key_averages).\n"
    "\n"
    "By default, when a trace has steps, only its kept steps count: the warm-up\n"
    "steps and the time outside every step are left out, as the line above the\n"
    "results says. Host events count where they start, GPU work where the call\n"
    "that launched it started.\n"
    "\n";

enum { BY_SHAPE, ROOFLINE }; /* its flags */

static const gs_cli_flag flags[] = {
    [BY_SHAPE] = {"group-by-shape", .help = "group by name and input shapes\n"
                                            "(key_averages(group_by_input_shape=True))"},
    [ROOFLINE] = {"roofline",
                  .help = "each operator on the GPU's roofline: FLOPs and bytes from its\n"
                          "recorded shapes and types, arithmetic intensity, achieved\n"
                          "TFLOP/s and TB/s, the roof and the share of it reached, and\n"
                          "whether memory, compute or latency bounds it (doc/roofline.md)"},
};

static enum gs_roof_key key_of(const gs_view_args *a)
{
    return a->flag[BY_SHAPE] ? GS_ROOF_BY_SHAPE : GS_ROOF_BY_NAME;
}

/* The state: the operator summary, or with --roofline the roofline. */
typedef struct ops_state {
    gs_op_summary summary;
    gs_roofline roofline;
} ops_state;

/* The table grouped by shape has every column of the other one. */
static const gs_column *by_shape_columns(size_t *ncols)
{
    return gs_op_columns(true, true, ncols);
}

static const gs_column *roofline_shape_columns(size_t *ncols)
{
    return gs_roofline_columns(GS_ROOF_BY_SHAPE, ncols);
}

static const gs_cli_help_part help_parts[] = {
    {"\ncolumns:\n", {by_shape_columns}, .indent = 16},
    {"\ncolumns with --roofline (one row per operator that launched GPU work;\n"
     "the GPU time of each is what it launched itself, as Self CUDA):\n",
     {roofline_shape_columns}, .indent = 16},
    {"An operator directly inside an operator of the same name (autocast's\n"
     "aten::addmm around its casts and the bf16 aten::addmm) is part of that call:\n"
     "its FLOPs, CPU and GPU time count once; so is an annotation directly inside\n"
     "an annotation of its name, an NVTX range inside an NVTX range of its name.\n"
     "PyTorch's emit_nvtx ranges (\"aten::mm,\n"
     "seq = 3, op_id = 7, sizes = [...]\") are read as the operator and its shapes.\n"
     "Durations are whole ns in csv and json.\n"},
};

static const gs_column *columns(const gs_view_args *a, size_t *ncols)
{
    return a->flag[ROOFLINE] ? gs_roofline_columns(key_of(a), ncols)
                             : gs_op_columns(a->flag[BY_SHAPE], true, ncols);
}

static int init(const gs_view_args *a, void *state, gs_error *err)
{
    ops_state *s = state;
    return a->flag[ROOFLINE] ? gs_roofline_init(&s->roofline, key_of(a), err)
                             : gs_op_summary_init(&s->summary, a->flag[BY_SHAPE], err);
}

static int add(const gs_trace_ctx *c, const gs_view_args *a, void *state, gs_error *err)
{
    ops_state *s = state;
    return a->flag[ROOFLINE] ? gs_roofline_add(&s->roofline, c, err)
                             : gs_op_summary_add(&s->summary, c, err);
}

static int finish(const gs_view_args *a, void *state, gs_error *err)
{
    ops_state *s = state;
    if (a->flag[ROOFLINE])
        return gs_roofline_finish(&s->roofline, err);
    gs_op_summary_finish(&s->summary);
    return 0;
}

static int table(const void *state, const gs_view_args *a, gs_table *out)
{
    (void)a;
    return gs_op_table(&((const ops_state *)state)->summary, out);
}

static bool renders(const gs_view_args *a)
{
    return a->flag[ROOFLINE];
}

static int render(FILE *out, void *state, const gs_view_args *a, const gs_text_style *style)
{
    size_t ncols;
    const gs_column *cols = gs_roofline_columns(key_of(a), &ncols);
    int sort_col = a->cli.sort ? gs_columns_find_sort(cols, ncols, a->cli.sort) : -1;
    return gs_render_roofline(out, &((ops_state *)state)->roofline, &a->window, a->cli.format,
                              style, a->cli.limit, sort_col);
}

static void free_state(void *state)
{
    ops_state *s = state;
    gs_op_summary_free(&s->summary);
    gs_roofline_free(&s->roofline);
}

const gs_view gs_view_ops = {
    .spec = {.command = "ops",
             .help = {.intro = intro, .indent = 20, .sort_columns = by_shape_columns,
                      .sort = "; " GS_CLI_SORT_ORDER "\n(default: cuda_total when the traces have "
                              "GPU activity, else cpu_total; then name)",
                      .parts = help_parts, .nparts = COUNT_OF(help_parts)},
             .csv = true, .step = true, .keep_warmup = true, .window = true, .flags = flags,
             .nflags = COUNT_OF(flags)},
    .summary = "operators and annotations (PyTorch key_averages)",
    .columns = columns,
    .state_size = sizeof(ops_state),
    .init = init,
    .add = add,
    .finish = finish,
    .table = table,
    .render = render,
    .renders = renders,
    .free = free_state,
};
