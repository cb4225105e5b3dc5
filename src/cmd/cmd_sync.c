/* gpuscope sync: time the host spends blocked in synchronizing calls, and what caused them. */
#include "analysis/sync.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "render/sync_tables.h"

/* The same text is in doc/sync.md; tests/cli/test_docs.sh keeps the two equal. */
static const char sync_help[] =
    "usage: gpuscope sync [OPTIONS] TRACE...\n"
    "\n"
    "Time the host spends blocked in synchronizing calls (stream, device and event\n"
    "synchronize, synchronous and pageable copies), by the operator that caused\n"
    "them (aten::item, aten::nonzero, .cpu() copies, ...). cudaStreamWaitEvent\n"
    "makes the GPU wait, not the host: its rows count calls with no blocked time.\n"
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
    "  Step (%)   blocked time inside the kept steps / their total time x 100\n"
    "  Blocked    sum of the calls' host durations (all calls, in steps or not)\n"
    "  Calls      number of calls\n"
    "  Avg, Max   Blocked / Calls and the longest call\n"
    "  GPU Wait   sum of the GPU-side synchronization records of the calls\n"
    "  Kind       stream sync, device sync, event sync, sync memcpy, pageable\n"
    "             memcpy or stream wait event\n"
    "  API        the API call\n"
    "  Operator   outermost synchronizing operator around the call, else the\n"
    "             outermost operator, else the innermost annotation that is not\n"
    "             a step, else (no operator)\n"
    "  --per-step: Step, Warm-up (yes), Duration, Calls, Blocked, Step (%)\n"
    "Rows are sorted by Blocked, then Calls; durations are whole ns in csv and json.\n";

int cmd_sync(int argc, char **argv)
{
    bool per_step = false;
    const gs_cli_flag flags[] = {{"per-step", &per_step}};
    const gs_cli_spec spec = {.command = "sync", .help = sync_help, .csv = true, .step = true, .keep_warmup = true,
                              .flags = flags, .nflags = 1};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    gs_profile profile;
    if ((rc = gs_cli_load(&cli, &profile)) != GS_CLI_RUN)
        return rc;
    const gs_step_opts step_opts = cli.steps;
    gs_sync_summary summary;
    gs_error err;
    if (gs_sync_build(&profile, &cli.select, &step_opts, &summary, &err) != 0) {
        rc = gs_cli_fail(&err);
    } else {
        gs_table table;
        rc = gs_sync_table(&summary, per_step, &table) == 0 ? gs_cli_emit(&cli, &table, -1)
                                                            : gs_cli_out_of_memory();
        gs_table_free(&table);
        gs_sync_summary_free(&summary);
    }
    gs_profile_free(&profile);
    return rc;
}
