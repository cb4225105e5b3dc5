/* gpuscope api: CUDA runtime and driver calls summed by name (nsys cuda_api_sum). */
#include "analysis/api_summary.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "render/view_tables.h"

/* The same text is in doc/api.md; tests/cli/test_docs.sh keeps the two equal. */
static const char api_help[] =
    "usage: gpuscope api [OPTIONS] TRACE...\n"
    "\n"
    "CUDA runtime and driver calls summed by name over the selected traces\n"
    "(nsys cuda_api_sum). A version suffix is dropped: cudaMemcpy_v3020 is\n"
    "cudaMemcpy.\n"
    "\n"
    "options:\n"
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

int cmd_api(int argc, char **argv)
{
    const gs_cli_spec spec = {.command = "api", .help = api_help, .csv = true, .sort = true};
    gs_cli cli;
    int sort_col, rc = gs_cli_parse(&spec, argc, argv, &cli);
    size_t ncols;
    const gs_column *cols = gs_api_columns(&ncols);
    if (rc != GS_CLI_RUN || (rc = gs_cli_sort_column(&cli, cols, ncols, &sort_col)) != GS_CLI_RUN)
        return rc;
    gs_profile profile;
    if ((rc = gs_cli_load(&cli, &profile)) != GS_CLI_RUN)
        return rc;
    gs_api_summary summary;
    gs_error err;
    if (gs_api_summary_build(&profile, &cli.select, &summary, &err) != 0) {
        rc = gs_cli_fail(&err);
    } else {
        gs_table table;
        rc = gs_api_table(&summary, &table) == 0 ? gs_cli_emit(&cli, &table, sort_col)
                                                 : gs_cli_out_of_memory();
        gs_table_free(&table);
        gs_api_summary_free(&summary);
    }
    gs_profile_free(&profile);
    return rc;
}
