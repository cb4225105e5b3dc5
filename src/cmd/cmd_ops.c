/* gpuscope ops: operators and annotations summed by name (PyTorch key_averages). */
#include "analysis/op_summary.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "render/view_tables.h"

/* The same text is in doc/ops.md; tests/cli/test_docs.sh keeps the two equal. */
static const char ops_help[] =
    "usage: gpuscope ops [OPTIONS] TRACE...\n"
    "\n"
    "PyTorch operators, user annotations (record_function, ProfilerStep#N) and NVTX\n"
    "ranges summed by name over the selected traces (PyTorch key_averages).\n"
    "\n"
    "options:\n"
    "  --group-by-shape  group by name and input shapes\n"
    "                    (key_averages(group_by_input_shape=True))\n"
    "  --format FORMAT   table (default), csv or json\n"
    "  --sort COLUMN     name, calls, self_cpu, cpu_total, self_cuda, cuda_total or\n"
    "                    input_dims; numbers sort descending, names ascending\n"
    "                    (default: cuda_total when the traces have GPU activity, else\n"
    "                    cpu_total; then name)\n"
    "  --limit N         show the first N rows (default: all)\n"
    "  --rank R          only the traces of rank R\n"
    "  -h, --help        show this help\n"
    "\n"
    "columns:\n"
    "  Name          operator, annotation or NVTX range\n"
    "  Calls         number of ranges\n"
    "  Self CPU      sum of each range's duration minus the ranges and CUDA calls\n"
    "                directly inside it on its thread\n"
    "  CPU total     sum of the ranges' durations\n"
    "  Self CUDA     sum of the durations of the kernels, copies and sets launched\n"
    "                directly by the ranges\n"
    "  CUDA total    Self CUDA plus the GPU time launched by every range inside them\n"
    "  Input Shapes  input dimensions as the trace recorded them (--group-by-shape)\n"
    "Durations are whole ns in csv and json.\n";

int cmd_ops(int argc, char **argv)
{
    bool by_shape = false;
    const gs_cli_flag flags[] = {{"group-by-shape", &by_shape}};
    const gs_cli_spec spec = {.command = "ops", .help = ops_help, .csv = true, .sort = true,
                              .flags = flags, .nflags = 1};
    gs_cli cli;
    int sort_col, rc = gs_cli_parse(&spec, argc, argv, &cli);
    size_t ncols;
    const gs_column *cols = gs_op_columns(by_shape, &ncols);
    if (rc != GS_CLI_RUN || (rc = gs_cli_sort_column(&cli, cols, ncols, &sort_col)) != GS_CLI_RUN)
        return rc;
    gs_profile profile;
    if ((rc = gs_cli_load(&cli, &profile)) != GS_CLI_RUN)
        return rc;
    gs_op_summary summary;
    gs_error err;
    if (gs_op_summary_build(&profile, &cli.select, by_shape, &summary, &err) != 0) {
        rc = gs_cli_fail(&err);
    } else {
        gs_table table;
        rc = gs_op_table(&summary, &table) == 0 ? gs_cli_emit(&cli, &table, sort_col)
                                                : gs_cli_out_of_memory();
        gs_table_free(&table);
        gs_op_summary_free(&summary);
    }
    gs_profile_free(&profile);
    return rc;
}
