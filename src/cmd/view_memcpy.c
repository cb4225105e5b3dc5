/* gpuscope memcpy: memory copies and sets summed by kind and memory locations. */
#include "analysis/trace/memcpy_summary.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "common/util.h"
#include "render/view_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/memcpy.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char intro[] =
    "usage: gpuscope memcpy [OPTIONS] TRACE...\n"
    "\n"
    "GPU memory copies and sets summed by kind and memory locations over the selected\n"
    "traces (nsys cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum in one table).\n"
    "\n"
    "By default, when a trace has steps, only its kept steps count: the warm-up\n"
    "steps and the time outside every step are left out, as the line above the\n"
    "results says. Host events count where they start, GPU work where the call\n"
    "that launched it started.\n"
    "\n";

static const gs_cli_help_part help_parts[] = {
    {"\ncolumns:\n", {gs_memcpy_columns}, .indent = 13},
    {"Durations are whole ns and sizes whole bytes in csv and json.\n"},
};

static const gs_column *columns(const gs_view_args *a, size_t *ncols)
{
    (void)a;
    return gs_memcpy_columns(ncols);
}

static int add(const gs_trace_ctx *c, const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_memcpy_summary_add(state, c, err);
}

static int finish(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_memcpy_summary_finish(state, err);
}

static int table(const void *state, const gs_view_args *a, gs_table *out)
{
    (void)a;
    return gs_memcpy_table(state, out);
}

static void free_summary(void *state)
{
    gs_memcpy_summary_free(state);
}

const gs_view gs_view_memcpy = {
    .spec = {.command = "memcpy",
             .help = {.intro = intro, .sort_columns = gs_memcpy_columns,
                      .sort = "; " GS_CLI_SORT_ORDER
                              "\n(default: total, then count ascending, then operation)",
                      .parts = help_parts, .nparts = COUNT_OF(help_parts)},
             .csv = true, .step = true, .keep_warmup = true, .window = true},
    .summary = "memory copies and sets by kind: count, bytes, time, bandwidth",
    .columns = columns,
    .state_size = sizeof(gs_memcpy_summary),
    .add = add,
    .finish = finish,
    .table = table,
    .free = free_summary,
};
