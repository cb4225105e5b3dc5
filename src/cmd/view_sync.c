/* gpuscope sync: time the host spends blocked in synchronizing calls, and what caused them. */
#include "analysis/trace/sync.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "common/util.h"
#include "render/sync_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/sync.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char intro[] =
    "usage: gpuscope sync [OPTIONS] TRACE...\n"
    "\n"
    "Time the host spends blocked in synchronizing calls (stream, device and event\n"
    "synchronize, synchronous and pageable copies), by the operator that caused\n"
    "them (aten::item, aten::nonzero, .cpu() copies, ...). cudaStreamWaitEvent\n"
    "makes the GPU wait, not the host: its rows count calls with no blocked time.\n"
    "\n"
    "By default, when a trace has steps, only its kept steps count: the warm-up\n"
    "steps and the time outside every step are left out, as the line above the\n"
    "results says. Host events count where they start, GPU work where the call\n"
    "that launched it started.\n"
    "\n";

enum { PER_STEP }; /* its flag */

static const gs_cli_flag flags[] = {[PER_STEP] = {"per-step", .help = "one row per step instead"}};

static const gs_column *cause_columns(size_t *ncols)
{
    return gs_sync_columns(false, ncols);
}

static const gs_column *step_columns(size_t *ncols)
{
    return gs_sync_columns(true, ncols);
}

static const gs_cli_help_part help_parts[] = {
    {"\ncolumns:\n", {cause_columns}, .indent = 13},
    {"Rows are sorted by Blocked, then Calls; durations are whole ns in csv and json.\n"
     "\n"
     "columns with --per-step (one row per step):\n",
     {step_columns}, .indent = 13},
};

static int init(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_sync_init(state, err);
}

static int add(const gs_trace_ctx *c, const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_sync_add(state, c, err);
}

static int finish(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    return gs_sync_finish(state, err);
}

static int table(const void *state, const gs_view_args *a, gs_table *out)
{
    return gs_sync_table(state, a->flag[PER_STEP], out);
}

static void free_summary(void *state)
{
    gs_sync_summary_free(state);
}

const gs_view gs_view_sync = {
    .spec = {.command = "sync",
             .help = {.intro = intro, .parts = help_parts, .nparts = COUNT_OF(help_parts)},
             .csv = true, .step = true, .keep_warmup = true, .window = true, .flags = flags,
             .nflags = 1},
    .summary = "time the host spends blocked in synchronization, and who caused it",
    .state_size = sizeof(gs_sync_summary),
    .init = init,
    .add = add,
    .finish = finish,
    .table = table,
    .free = free_summary,
};
