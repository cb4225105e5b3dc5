/* gpuscope api: CUDA runtime and driver calls summed by name (nsys cuda_api_sum). */
#include "analysis/trace/api_summary.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "common/util.h"
#include "render/view_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/api.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char intro[] =
    "usage: gpuscope api [OPTIONS] TRACE...\n"
    "\n"
    "CUDA runtime and driver calls summed by name over the selected traces\n"
    "(nsys cuda_api_sum). A version suffix is dropped: cudaMemcpy_v3020 is\n"
    "cudaMemcpy.\n"
    "\n"
    "By default, when a trace has steps, only its kept steps count: the warm-up\n"
    "steps and the time outside every step are left out, as the line above the\n"
    "results says. Host events count where they start, GPU work where the call\n"
    "that launched it started.\n"
    "\n";

static const gs_cli_help_part help_parts[] = {
    {"\ncolumns:\n", {gs_api_columns}, .indent = 13},
    {"Durations are whole ns in csv and json (Avg, Med and StdDev rounded down).\n"},
};

static const gs_column *columns(const gs_view_args *a, size_t *ncols)
{
    (void)a;
    return gs_api_columns(ncols);
}

static int init(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_api_summary_init(state, err);
}

static int add(const gs_trace_ctx *c, const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_api_summary_add(state, c, err);
}

static int finish(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_api_summary_finish(state, err);
}

static int table(const void *state, const gs_view_args *a, gs_table *out)
{
    (void)a;
    return gs_api_table(state, out);
}

static void free_summary(void *state)
{
    gs_api_summary_free(state);
}

const gs_view gs_view_api = {
    .spec = {.command = "api",
             .help = {.intro = intro, .sort_columns = gs_api_columns,
                      .sort = "; " GS_CLI_SORT_ORDER
                              "\n(default: total, then calls ascending, then name)",
                      .parts = help_parts, .nparts = COUNT_OF(help_parts)},
             .csv = true, .step = true, .keep_warmup = true, .window = true},
    .summary = "CUDA runtime and driver calls (nsys cuda_api_sum)",
    .columns = columns,
    .state_size = sizeof(gs_api_summary),
    .init = init,
    .add = add,
    .finish = finish,
    .table = table,
    .free = free_summary,
};
