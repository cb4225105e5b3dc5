/* gpuscope memory: the allocator's view from PyTorch [memory] records (TB plugin memory view). */
#include <stdio.h>

#include "analysis/memory.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "render/memory_tables.h"

/* The same text is in doc/memory.md; tests/cli/test_docs.sh keeps the two equal. */
static const char memory_help[] =
    "usage: gpuscope memory [OPTIONS] TRACE...\n"
    "\n"
    "Device memory from the allocator's records (PyTorch profile_memory=True):\n"
    "peak allocated and reserved with the step and operator at the peak,\n"
    "fragmentation, growth per step with a least-squares fit (leak), and headroom\n"
    "against the device's memory. One row per device (host memory apart).\n"
    "\n"
    "options:\n"
    "  --ops            the operators that allocate instead (self and total)\n"
    "  --timeline       allocated and reserved over time instead (<= 200 points\n"
    "                   per device, the peak kept)\n"
    "  --per-step       allocated and reserved at each step's end instead\n"
    "  --step REGEX     steps are the annotation or NVTX ranges matching REGEX\n"
    "                   (default: ProfilerStep#N, else the whole trace)\n"
    "  --keep-warmup    fit the growth over the warm-up steps too\n"
    "  --format FORMAT  table (default), csv or json\n"
    "  --limit N        show the first N rows (default: all)\n"
    "  --rank R         only the traces of rank R\n"
    "  -h, --help       show this help\n"
    "\n"
    "columns:\n"
    "  Type, Device    c10 device type (cuda, cpu, ...) and index (-1: host)\n"
    "  Peak Alloc      highest Total Allocated of any record\n"
    "  Reserved@Peak   Total Reserved at that record\n"
    "  Peak Reserved   highest Total Reserved\n"
    "  Frag            Reserved@Peak / Peak Alloc (fragmented above 1.5)\n"
    "  Peak Step       step holding the peak, -1 when outside every step\n"
    "  Growth/Step     least-squares slope of allocated at the kept steps' ends\n"
    "  Fit R2          the fit's coefficient of determination (leak: growth > 0,\n"
    "                  R2 >= 0.9 over >= 4 steps)\n"
    "  Device Mem      the device's memory, 0 when the trace does not say\n"
    "  Headroom        Device Mem - Peak Reserved\n"
    "  Peak (%)        Peak Reserved / Device Mem x 100 (near limit above 90)\n"
    "  Flags           fragmented, near limit, leak\n"
    "  Peak Operator   innermost operator on the peak record's thread\n"
    "  --ops: Alloc Size and Allocs sum allocations in the operator and its\n"
    "  children, Increase allocations minus frees; Self: directly in it. A free\n"
    "  counts for the operator of its allocation.\n"
    "Times are from the trace's first event; sizes are bytes in csv and json.\n";

static int pick_view(bool ops, bool timeline, bool per_step, enum gs_memory_view *view)
{
    if (ops + timeline + per_step > 1) {
        fputs("gpuscope: memory: --ops, --timeline and --per-step exclude each other "
              "(see 'gpuscope memory --help')\n",
              stderr);
        return GS_EXIT_USAGE;
    }
    *view = ops        ? GS_MEMORY_OPS
            : timeline ? GS_MEMORY_TIMELINE
            : per_step ? GS_MEMORY_STEPS
                       : GS_MEMORY_DEVICES;
    return GS_CLI_RUN;
}

int cmd_memory(int argc, char **argv)
{
    bool ops = false, timeline = false, per_step = false;
    const gs_cli_flag flags[] = {{"ops", &ops}, {"timeline", &timeline}, {"per-step", &per_step}};
    const gs_cli_spec spec = {.command = "memory", .help = memory_help, .csv = true,
                              .step = true, .keep_warmup = true, .flags = flags, .nflags = 3};
    enum gs_memory_view view;
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN ||
        (rc = pick_view(ops, timeline, per_step, &view)) != GS_CLI_RUN)
        return rc;
    gs_profile profile;
    if ((rc = gs_cli_load(&cli, &profile)) != GS_CLI_RUN)
        return rc;
    const gs_step_opts step_opts = cli.steps;
    gs_memory_summary summary;
    gs_error err;
    if (gs_memory_build(&profile, &cli.select, &step_opts, &summary, &err) != 0) {
        rc = gs_cli_fail(&err);
    } else {
        gs_table table;
        rc = gs_memory_table(&summary, view, &table) == 0 ? gs_cli_emit(&cli, &table, -1)
                                                          : gs_cli_out_of_memory();
        gs_table_free(&table);
        gs_memory_summary_free(&summary);
    }
    gs_profile_free(&profile);
    return rc;
}
