/* gpuscope memcpy: memory copies and sets summed by kind and memory locations. */
#include "analysis/trace/memcpy_summary.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "render/view_tables.h"

/* The same text is in doc/memcpy.md; tests/cli/test_docs.sh keeps the two equal. */
static const char help[] =
    "usage: gpuscope memcpy [OPTIONS] TRACE...\n"
    "\n"
    "GPU memory copies and sets summed by kind and memory locations over the selected\n"
    "traces (nsys cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum in one table).\n"
    "\n"
    "By default, when a trace has steps, only its kept steps count: the warm-up\n"
    "steps and the time outside every step are left out, as the line above the\n"
    "results says. Host events count where they start, GPU work where the call\n"
    "that launched it started.\n"
    "\n"
    "options:\n"
    GS_CLI_WINDOW_HELP
    "  --format FORMAT  table (default), csv or json\n"
    "  --sort COLUMN    time, total, count, avg, med, min, max, bytes, bandwidth or\n"
    "                   operation; numbers sort descending, names ascending\n"
    "                   (default: total, then count ascending, then operation)\n"
    "  --limit N        show the first N rows (default: all)\n"
    "  --rank R         only the traces of rank R\n"
    "  -h, --help       show this help\n"
    "\n"
    "columns:\n"
    "  Time (%)   Total of the row / sum of the Totals of all rows x 100\n"
    "  Total      sum of the operations' durations\n"
    "  Count      number of operations\n"
    "  Avg        Total / Count\n"
    "  Med        median duration; mean of the two middle ones for an even count\n"
    "  Min, Max   shortest and longest duration\n"
    "  Bytes      bytes copied or set\n"
    "  Bandwidth  Bytes / Total, in GB/s (1 GB = 10^9 bytes)\n"
    "  Operation  kind (HtoD, DtoH, DtoD, HtoH, PtoP, Memset) and, when the trace\n"
    "             says, the memory on each side: Pageable, Pinned, Device, Array,\n"
    "             Managed. A pageable side makes an async copy synchronous.\n"
    "Durations are whole ns and sizes whole bytes in csv and json.\n";

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
    .spec = {.command = "memcpy", .help = help, .csv = true, .step = true, .keep_warmup = true,
             .window = true},
    .summary = "memory copies and sets by kind: count, bytes, time, bandwidth",
    .columns = columns,
    .state_size = sizeof(gs_memcpy_summary),
    .add = add,
    .finish = finish,
    .table = table,
    .free = free_summary,
};
