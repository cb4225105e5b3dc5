/* gpuscope idle: where the GPU waits (temporal breakdown, idle gaps, the largest gaps with what
 * the host was doing). */
#include <stdio.h>

#include "analysis/idle.h"
#include "analysis/temporal.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "common/error.h"
#include "render/idle_tables.h"

/* The same text is in doc/idle.md; tests/cli/test_docs.sh keeps the two equal. */
static const char idle_help[] =
    "usage: gpuscope idle [OPTIONS] TRACE...\n"
    "\n"
    "Where the GPU waits: the temporal breakdown per rank (idle, compute, non-compute\n"
    "over the GPU window), idle gaps per stream and GPU-wide classified host-wait,\n"
    "kernel-wait or other, the largest gaps with what the host was doing during\n"
    "them, and GPU idle time per step.\n"
    "\n"
    "options:\n"
    "  --gaps N         list the N largest gaps of 1 ms or 5 % of their step or more\n"
    "                   (default: 10; 0 lists none)\n"
    "  --step REGEX     steps are the annotation or NVTX ranges matching REGEX\n"
    "                   (default: ProfilerStep#N, else the whole trace)\n"
    "  --hta            reproduce Holistic Trace Analysis: drop the last ProfilerStep\n"
    "                   and GPU work without a launch call before it, round times to\n"
    "                   whole us, classify kernels by HTA's names, sum per-stream gaps\n"
    "                   between consecutive activities as HTA does\n"
    "  --format FORMAT  table (default), csv or json\n"
    "  --limit N        show the first N rows of each section (default: all)\n"
    "  --rank R         only the traces of rank R\n"
    "  -h, --help       show this help\n"
    "\n"
    "definitions:\n"
    "  GPU window   first GPU activity start to last GPU activity end (kernels,\n"
    "               copies, sets, and GPU-side waits on a stream such as Stream Wait\n"
    "               Event, which count as busy non-compute time as in HTA)\n"
    "  Idle         window - |union of all GPU activity|\n"
    "  Compute      |union of compute kernels| (not nccl*/ncclKernel/ncclDevKernel/hccl*)\n"
    "  Non-compute  |union of all activity| - Compute\n"
    "  host-wait    the launch call of the work after the gap began after the work\n"
    "               before it ended\n"
    "  kernel-wait  not host-wait and shorter than 30 us\n"
    "  other        the remaining gaps\n"
    "Durations are whole ns in csv and json; csv writes one block per section.\n";

/* --gaps N is taken out of argv before the common options are parsed. */
static int render(const gs_cli *cli, const gs_temporal *tp, const gs_idle *idle, bool hta)
{
    gs_idle_tables tables;
    gs_text_style style = gs_cli_text_style();
    int rc = gs_idle_tables_make(tp, idle, &tables);
    if (rc == 0)
        rc = gs_render_idle(stdout, &tables, idle, hta, cli->format, &style, cli->limit);
    gs_idle_tables_free(&tables);
    return rc == 0 ? GS_EXIT_OK : gs_cli_out_of_memory();
}

int cmd_idle(int argc, char **argv)
{
    bool hta = false;
    size_t gaps = GS_IDLE_DEFAULT_GAPS;
    const gs_cli_flag flags[] = {{"hta", &hta}};
    const gs_cli_count counts[] = {{"gaps", &gaps, 1000000}};
    const gs_cli_spec spec = {.command = "idle", .help = idle_help, .csv = true, .step = true,
                              .flags = flags, .nflags = 1, .counts = counts, .ncounts = 1};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    gs_profile profile;
    if ((rc = gs_cli_load(&cli, &profile)) != GS_CLI_RUN)
        return rc;
    gs_temporal tp;
    gs_idle idle;
    gs_error err;
    const gs_step_opts step_opts = cli.steps;
    const gs_idle_opts opts = {.max_gaps = gaps, .hta_compat = hta, .steps = &step_opts};
    if (gs_temporal_build(&profile, &cli.select, hta, &tp, &err) != 0) {
        rc = gs_cli_fail(&err);
    } else {
        if (gs_idle_build(&profile, &cli.select, &opts, &idle, &err) != 0) {
            rc = gs_cli_fail(&err);
        } else {
            rc = render(&cli, &tp, &idle, hta);
            gs_idle_free(&idle);
        }
        gs_temporal_free(&tp);
    }
    gs_profile_free(&profile);
    return rc;
}
