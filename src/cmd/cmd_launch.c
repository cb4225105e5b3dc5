/* gpuscope launch: kernel launch statistics per rank or per step (HTA cuda_kernel_launch_stats). */
#include "analysis/launch.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "render/launch_tables.h"

/* The same text is in doc/launch.md; tests/cli/test_docs.sh keeps the two equal. */
static const char launch_help[] =
    "usage: gpuscope launch [OPTIONS] TRACE...\n"
    "\n"
    "Kernel launch statistics: launch delay, launch-call cost against kernel\n"
    "duration, kernels shorter than their launch call, kernels per step, CUDA\n"
    "graphs and driver (Triton) launches. One row per rank over its kept steps.\n"
    "\n"
    "options:\n"
    "  --per-step       one row per step instead\n"
    "  --step REGEX     steps are the annotation or NVTX ranges matching REGEX\n"
    "                   (default: ProfilerStep#N, else the whole trace)\n"
    "  --keep-warmup    count the warm-up steps too\n"
    "  --format FORMAT  table (default), csv or json\n"
    "  --limit N        show the first N rows (default: all)\n"
    "  --rank R         only the traces of rank R\n"
    "  -h, --help       show this help\n"
    "\n"
    "columns:\n"
    "  Steps           kept steps (warm-up left out unless --keep-warmup)\n"
    "  Kernels/Step    kernels in the kept steps / Steps\n"
    "  Launches/s      launch calls / step time, in seconds\n"
    "  Step, Warm-up   the step's number; yes for a warm-up step (--per-step)\n"
    "  Med Kernel      median kernel duration\n"
    "  Med Launch      median duration of the launching API calls\n"
    "  Short           kernels shorter than their launch call, the call <= 50 us\n"
    "  Short (%)       Short / kernels with a launch call x 100\n"
    "  Short Time (%)  time in short kernels / kernel time x 100\n"
    "  Delay Med, P95, Max\n"
    "                  launch delay: kernel start - launch call end (>= 0)\n"
    "  Delay >100us    launches delayed more than 100 us\n"
    "  Graph           kernels run from a CUDA graph (graph id or graph launch)\n"
    "  Driver          kernels launched by cuLaunchKernel (Triton) or\n"
    "                  hip(Ext)ModuleLaunchKernel\n"
    "A kernel belongs to the step its launch call began in. Medians and\n"
    "percentiles are nearest-rank; durations are whole ns in csv and json.\n";

int cmd_launch(int argc, char **argv)
{
    bool per_step = false;
    const gs_cli_flag flags[] = {{"per-step", &per_step}};
    const gs_cli_spec spec = {.command = "launch", .help = launch_help, .csv = true, .step = true,
                              .keep_warmup = true, .flags = flags, .nflags = 1};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    gs_profile profile;
    if ((rc = gs_cli_load(&cli, &profile)) != GS_CLI_RUN)
        return rc;
    const gs_step_opts step_opts = cli.steps;
    gs_launch_summary summary;
    gs_error err;
    if (gs_launch_build(&profile, &cli.select, &step_opts, &summary, &err) != 0) {
        rc = gs_cli_fail(&err);
    } else {
        gs_table table;
        rc = gs_launch_table(&summary, per_step, &table) == 0 ? gs_cli_emit(&cli, &table, -1)
                                                              : gs_cli_out_of_memory();
        gs_table_free(&table);
        gs_launch_summary_free(&summary);
    }
    gs_profile_free(&profile);
    return rc;
}
