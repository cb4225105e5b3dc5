/* gpuscope kernels: GPU kernels summed by name (nsys cuda_gpu_kern_sum). */
#include "analysis/kernel_summary.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "render/view_tables.h"

/* The same text is in doc/kernels.md; tests/cli/test_docs.sh keeps the two equal. */
static const char kernels_help[] =
    "usage: gpuscope kernels [OPTIONS] TRACE...\n"
    "\n"
    "GPU kernels summed by name over the selected traces (nsys cuda_gpu_kern_sum).\n"
    "\n"
    "options:\n"
    "  --by-launch      group by name, grid and block (nsys cuda_gpu_kern_gb_sum)\n"
    "  --format FORMAT  table (default), csv or json\n"
    "  --sort COLUMN    time, total, instances, avg, med, min, max, stddev, grid,\n"
    "                   block or name; numbers sort descending, names ascending\n"
    "                   (default: total, then instances ascending, then name)\n"
    "  --limit N        show the first N rows (default: all)\n"
    "  --rank R         only the traces of rank R\n"
    "  -h, --help       show this help\n"
    "\n"
    "columns:\n"
    "  Time (%)   Total of the row / sum of the Totals of all rows x 100\n"
    "  Total      sum of the kernels' durations\n"
    "  Instances  number of kernels\n"
    "  Avg        Total / Instances\n"
    "  Med        median duration; mean of the two middle ones for an even count\n"
    "  Min, Max   shortest and longest duration\n"
    "  StdDev     sample standard deviation (n - 1); 0 for one instance\n"
    "  GridXYZ    grid dimensions (--by-launch)\n"
    "  BlockXYZ   block dimensions (--by-launch)\n"
    "  Name       kernel name\n"
    "Durations are whole ns in csv and json (Avg, Med and StdDev rounded down).\n";

int cmd_kernels(int argc, char **argv)
{
    bool by_launch = false;
    const gs_cli_flag flags[] = {{"by-launch", &by_launch}};
    const gs_cli_spec spec = {.command = "kernels", .help = kernels_help, .csv = true,
                              .sort = true, .flags = flags, .nflags = 1};
    gs_cli cli;
    int sort_col, rc = gs_cli_parse(&spec, argc, argv, &cli);
    size_t ncols;
    const gs_column *cols = gs_kernel_columns(by_launch, &ncols);
    if (rc != GS_CLI_RUN || (rc = gs_cli_sort_column(&cli, cols, ncols, &sort_col)) != GS_CLI_RUN)
        return rc;
    gs_profile profile;
    if ((rc = gs_cli_load(&cli, &profile)) != GS_CLI_RUN)
        return rc;
    gs_kernel_summary summary;
    gs_error err;
    if (gs_kernel_summary_build(&profile, &cli.select, by_launch, &summary, &err) != 0) {
        rc = gs_cli_fail(&err);
    } else {
        gs_table table;
        rc = gs_kernel_table(&summary, &table) == 0 ? gs_cli_emit(&cli, &table, sort_col)
                                                    : gs_cli_out_of_memory();
        gs_table_free(&table);
        gs_kernel_summary_free(&summary);
    }
    gs_profile_free(&profile);
    return rc;
}
