/* gpuscope breakdown: step time by category with the TensorBoard profiler plugin's semantics,
 * and its GPU metrics per device (doc/design.md §11, §12). */
#include "analysis/trace/breakdown.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "common/util.h"
#include "render/breakdown_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/breakdown.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char intro[] =
    "usage: gpuscope breakdown [OPTIONS] TRACE...\n"
    "\n"
    "Step time broken into categories, as the TensorBoard profiler plugin's\n"
    "Overview did: each instant of a step goes to the first category active\n"
    "then, in the order Kernel, Memcpy, Memset, Communication, Runtime,\n"
    "DataLoader, CPU Exec, Other. Then GPU utilization, est. SM efficiency and\n"
    "est. achieved occupancy per GPU over the kept steps.\n"
    "\n";

enum { TB_COMPAT }; /* its flag */

static const gs_cli_flag flags[] = {
    [TB_COMPAT] = {"tb-compat",
                   .help = "find steps, communication and runtime calls exactly as the\n"
                           "plugin did, to compare with its numbers (it misses the\n"
                           "NCCL kernels of modern PyTorch and takes a trace without\n"
                           "ProfilerStep#N as one step; see doc/breakdown.md)"},
};

static const char *const help_order[] = {GS_CLI_STEP_OPTIONS, "tb-compat", NULL};

static const char *const gpu_metric_keys[] = {"utilization_pct", "sm_efficiency_pct",
                                               "occupancy_pct", NULL};

/* The categories are the per-step table's columns, the GPU metrics some of the GPU table's. */
static const gs_cli_help_part help_parts[] = {
    {"\ncategories:\n", {gs_bd_category_columns}, .indent = 18},
    {"\nGPU metrics (kernels only, over [first kept step start, last step end]):\n",
     {gs_bd_gpu_columns}, .indent = 31, .keys = gpu_metric_keys},
    {"Durations are whole ns in csv and json.\n"},
};

static int add(const gs_trace_ctx *c, const gs_view_args *a, void *state, gs_error *err)
{
    return gs_breakdown_add(state, c, a->flag[TB_COMPAT], err);
}

static int finish(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a, (void)err;
    gs_breakdown_finish(state);
    return 0;
}

/* --tb-compat: the TensorBoard plugin's steps too (steps.h, plugin_rules). */
static void context(const gs_view_args *a, gs_ctx_opts *o)
{
    o->steps.plugin_rules = a->flag[TB_COMPAT];
}

static int render(FILE *out, void *state, const gs_view_args *a, const gs_text_style *style)
{
    return gs_render_breakdown(out, state, a->cli.format, style, a->cli.limit);
}

static void free_breakdown(void *state)
{
    gs_breakdown_free(state);
}

const gs_view gs_view_breakdown = {
    .spec = {.command = "breakdown",
             .help = {.intro = intro, .order = help_order,
                      .keep_warmup = "count the warm-up steps too (the plugin counts every step)",
                      .limit = "show the first N steps of each trace (default: all)",
                      .parts = help_parts, .nparts = COUNT_OF(help_parts)},
             .csv = true, .step = true, .keep_warmup = true, .flags = flags, .nflags = 1},
    .summary = "where each step's time goes; GPU utilization, SM efficiency",
    .state_size = sizeof(gs_breakdown),
    .add = add,
    .finish = finish,
    .render = render,
    .free = free_breakdown,
    .context = context,
};
