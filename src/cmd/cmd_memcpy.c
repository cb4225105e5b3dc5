/* gpuscope memcpy: memory copies and sets summed by kind and memory locations. */
#include "analysis/memcpy_summary.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "render/view_tables.h"

/* The same text is in doc/memcpy.md; tests/cli/test_docs.sh keeps the two equal. */
static const char memcpy_help[] =
    "usage: gpuscope memcpy [OPTIONS] TRACE...\n"
    "\n"
    "GPU memory copies and sets summed by kind and memory locations over the selected\n"
    "traces (nsys cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum in one table).\n"
    "\n"
    "options:\n"
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

int cmd_memcpy(int argc, char **argv)
{
    const gs_cli_spec spec = {.command = "memcpy", .help = memcpy_help, .csv = true, .sort = true};
    gs_cli cli;
    int sort_col, rc = gs_cli_parse(&spec, argc, argv, &cli);
    size_t ncols;
    const gs_column *cols = gs_memcpy_columns(&ncols);
    if (rc != GS_CLI_RUN || (rc = gs_cli_sort_column(&cli, cols, ncols, &sort_col)) != GS_CLI_RUN)
        return rc;
    gs_profile profile;
    if ((rc = gs_cli_load(&cli, &profile)) != GS_CLI_RUN)
        return rc;
    gs_memcpy_summary summary;
    gs_error err;
    if (gs_memcpy_summary_build(&profile, &cli.select, &summary, &err) != 0) {
        rc = gs_cli_fail(&err);
    } else {
        gs_table table;
        rc = gs_memcpy_table(&summary, &table) == 0 ? gs_cli_emit(&cli, &table, sort_col)
                                                    : gs_cli_out_of_memory();
        gs_table_free(&table);
        gs_memcpy_summary_free(&summary);
    }
    gs_profile_free(&profile);
    return rc;
}
