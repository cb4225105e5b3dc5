/* gpuscope api: CUDA runtime and driver calls summed by name (nsys cuda_api_sum). */
#include "analysis/trace/api_summary.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "render/view_tables.h"

/* The same text is in doc/api.md; tests/cli/test_docs.sh keeps the two equal. */
static const char help[] =
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
    "\n"
    "options:\n"
    GS_CLI_WINDOW_HELP
    "  --format FORMAT  table (default), csv or json\n"
    "  --sort COLUMN    time, total, calls, avg, med, min, max, stddev or name;\n"
    "                   numbers sort descending, names ascending\n"
    "                   (default: total, then calls ascending, then name)\n"
    "  --limit N        show the first N rows (default: all)\n"
    "  --rank R         only the traces of rank R\n"
    "  -h, --help       show this help\n"
    "\n"
    "columns:\n"
    "  Time (%)   Total of the row / sum of the Totals of all rows x 100\n"
    "  Total      sum of the calls' durations\n"
    "  Num Calls  number of calls\n"
    "  Avg        Total / Num Calls\n"
    "  Med        median duration; mean of the two middle ones for an even count\n"
    "  Min, Max   shortest and longest duration\n"
    "  StdDev     sample standard deviation (n - 1); 0 for one call\n"
    "  Name       API function\n"
    "Durations are whole ns in csv and json (Avg, Med and StdDev rounded down).\n";

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
    .spec = {.command = "api", .help = help, .csv = true, .step = true, .keep_warmup = true,
             .window = true},
    .summary = "CUDA runtime and driver calls (nsys cuda_api_sum)",
    .columns = columns,
    .state_size = sizeof(gs_api_summary),
    .init = init,
    .add = add,
    .finish = finish,
    .table = table,
    .free = free_summary,
};
