/* gpuscope launch: kernel launch statistics per rank or per step (HTA cuda_kernel_launch_stats). */
#include "analysis/trace/launch.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "common/util.h"
#include "render/launch_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/launch.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char intro[] =
    "usage: gpuscope launch [OPTIONS] TRACE...\n"
    "\n"
    "Kernel launch statistics: launch delay, launch-call cost against kernel\n"
    "duration, kernels shorter than their launch call, kernels per step, CUDA\n"
    "graphs and driver (Triton) launches. One row per rank over its kept steps.\n"
    "\n"
    "By default, when a trace has steps, only its kept steps count: the warm-up\n"
    "steps and the time outside every step are left out, as the line above the\n"
    "results says. Host events count where they start, GPU work where the call\n"
    "that launched it started.\n"
    "\n";

enum { PER_STEP }; /* its flag */

static const gs_cli_flag flags[] = {[PER_STEP] = {"per-step", .help = "one row per step instead"}};

static const gs_column *rank_columns(size_t *ncols)
{
    return gs_launch_columns(false, ncols);
}

static const gs_column *step_columns(size_t *ncols)
{
    return gs_launch_columns(true, ncols);
}

static const gs_cli_help_part help_parts[] = {
    {"\ncolumns:\n", {rank_columns, step_columns}, .indent = 18},
    {"A kernel belongs to the step its launch call began in. Medians and\n"
     "percentiles are nearest-rank; durations are whole ns in csv and json.\n"},
};

static int add(const gs_trace_ctx *c, const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_launch_add(state, c, err);
}

static int finish(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    (void)err;
    gs_launch_finish(state);
    return 0;
}

static int table(const void *state, const gs_view_args *a, gs_table *out)
{
    return gs_launch_table(state, a->flag[PER_STEP], out);
}

static void free_summary(void *state)
{
    gs_launch_summary_free(state);
}

const gs_view gs_view_launch = {
    .spec = {.command = "launch",
             .help = {.intro = intro, .parts = help_parts, .nparts = COUNT_OF(help_parts)},
             .csv = true, .step = true, .keep_warmup = true, .window = true, .flags = flags,
             .nflags = 1},
    .summary = "kernel launch delay and cost, short kernels, CUDA graphs",
    .state_size = sizeof(gs_launch_summary),
    .add = add,
    .finish = finish,
    .table = table,
    .free = free_summary,
};
