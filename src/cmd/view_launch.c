/* gpuscope launch: kernel launch statistics per rank or per step (HTA cuda_kernel_launch_stats). */
#include "analysis/trace/launch.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "common/util.h"
#include "render/launch_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/launch.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char intro[] =
    "usage: gpuscope launch [OPTIONS] TRACE...\n"
    "\n"
    "Kernel launch statistics: launch delay, launch-call cost against kernel\n"
    "duration, kernels shorter than their launch call, kernels per step, CUDA\n"
    "graphs and driver (Triton) launches. One row per rank over its kept steps.\n"
    "\n"
    "By default, when a trace has steps, only its kept steps count: the warm-up\n"
    "steps and the time outside every step are left out, as the line above the\n"
    "results says. Host events count where they start, GPU work where the call\n"
    "that launched it started.\n"
    "\n";

enum { PER_STEP }; /* its flag */

static const gs_cli_flag flags[] = {[PER_STEP] = {"per-step", .help = "one row per step instead"}};

static const gs_cli_help_part help_parts[] = {
    {"\n"
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
     "  Graph (%)       Graph / kernels x 100 (per-rank rows)\n"
     "  Kernels/Graph   Graph / cudaGraphLaunch calls in the kept steps\n"
     "  Graphs Inst.    cudaGraphInstantiate calls in the whole trace; graphs\n"
     "                  instantiated but hardly launched are a verdict in report\n"
     "A kernel belongs to the step its launch call began in. Medians and\n"
     "percentiles are nearest-rank; durations are whole ns in csv and json.\n"},
};

static int build(const gs_profile *p, const gs_view_args *a, void *state, gs_error *err)
{
    return gs_launch_build(p, &a->cli.select, &a->cli.steps, state, err);
}

static int table(const void *state, const gs_view_args *a, gs_table *out)
{
    return gs_launch_table(state, a->flag[PER_STEP], out);
}

static void free_summary(void *state)
{
    gs_launch_summary_free(state);
}

const gs_view gs_view_launch = {
    .spec = {.command = "launch",
             .help = {.intro = intro, .parts = help_parts, .nparts = COUNT_OF(help_parts)},
             .csv = true, .step = true, .keep_warmup = true, .window = true, .flags = flags,
             .nflags = 1},
    .summary = "kernel launch delay and cost, short kernels, CUDA graphs",
    .state_size = sizeof(gs_launch_summary),
    .build = build,
    .table = table,
    .free = free_summary,
};
