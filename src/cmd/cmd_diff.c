/* gpuscope diff: what changed between two runs, with noise bounds; exit 1 for CI gates. */
#include <stdint.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "cmd/say.h"
#include "common/util.h"
#include "compare/diff.h"
#include "render/diff_tables.h"
#include "render/diff_view.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/diff.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char diff_intro[] =
    "usage: gpuscope diff [OPTIONS] BASE NEW\n"
    "\n"
    "What changed from the run BASE to the run NEW (each a trace file or a folder\n"
    "of ranks, Kineto JSON or .gst): step time with a 95 % confidence interval and\n"
    "a rank test, the step breakdown by category, kernel and operator deltas, what\n"
    "was added or removed, and peak memory. Everything is per kept step, so runs\n"
    "that profiled a different number of steps compare.\n"
    "\n";

static const char *const help_order[] = {"fail-if-slower", "force", NULL};

static const char *const defined_keys[] = {"change_pp", "match", "base_name", NULL};

/* How the numbers are compared, the tables of the diff, each made of two runs' rows, and the
 * columns of the breakdown and kernel tables that need a word. */
static const gs_cli_help_part help_parts[] = {
    {"\n"
     "step time:\n"
     "  Ranks are paired by rank number (one trace against one trace always pairs).\n"
     "  Change is NEW's median step minus BASE's. The interval is a percentile\n"
     "  bootstrap of the difference of medians (2000 resamples, fixed seed: the same\n"
     "  output every run); significant when it excludes 0. Mann-Whitney p is the\n"
     "  two-sided U test (exact for small samples without ties). Fewer than 3 kept\n"
     "  steps on a side: no interval, no verdict, the gate passes.\n"
     "\n"
     "setup:\n"
     "  Both sides' GPU model, GPUs with kernels, world size, collector (gpuscope\n"
     "  run or torch.profiler), record_shapes, memory records, with_stack,\n"
     "  emit_nvtx and low-precision (bf16, fp16) kernels are compared; what differs\n"
     "  is listed above the step time. A category only one side recorded (CPU\n"
     "  operators, runtime calls, memory, or memory from different allocators) is\n"
     "  not compared: its breakdown rows show no change and its tables are empty.\n"
     "  When the collector or its options differ, each adds its own host time to\n"
     "  every step: the verdict rests on the GPU work per kept step (kernels, copies\n"
     "  and sets; the same interval and test) and says whether the step-time change\n"
     "  is within the difference of the collectors' estimated own host time.\n"
     "\n"
     "tables:\n"
     "  Breakdown  categories of `gpuscope breakdown`, mean per kept step, averaged\n"
     "             over the rank pairs\n"
     "  Kernels    by |change| per step; matched by name, then a leftover kernel by\n"
     "             its launch shape (grid, block) when that shape is unique on both sides\n"
     "  Operators  CPU total per step, by name; the step ranges are left out\n"
     "  Added and removed, then peak allocated and reserved memory per device.\n"
     "\n"
     "definitions:\n",
     {gs_diff_breakdown_columns, gs_diff_kernel_columns}, .indent = 15, .keys = defined_keys},
    {"exit codes: 0 ok, 1 the gate tripped, 2 usage, 3 bad input.\n"},
};

/* --fail-if-slower's value when the option is absent. */
#define NO_GATE SIZE_MAX

static int load_side(const gs_cli *cli, const char *const *path, gs_profile *out)
{
    gs_cli one = *cli;
    one.paths = path;
    one.npaths = 1;
    return gs_cli_load(&one, out);
}

/* A gate between runs of different setups would blame the code for the hardware or the profiler. */
static int refuse_gate(const gs_diff *d)
{
    gs_say("diff: --fail-if-slower will not judge runs whose setups differ (%s); compare runs of "
           "one setup, or give --force to judge anyway",
           d->setup.summary);
    return GS_EXIT_USAGE;
}

int cmd_diff(int argc, char **argv)
{
    size_t gate = NO_GATE;
    bool force = false;
    const gs_cli_count counts[] = {
        {"fail-if-slower", &gate, 1000, .arg = "PCT",
         .help = "exit 1 when NEW is slower by more than PCT % with 95 %\n"
                 "confidence: the interval's lower bound exceeds PCT (a whole\n"
                 "number, 0 to 1000); exit 2 without judging when the setups\n"
                 "differ (see setup below)"},
    };
    const gs_cli_flag flags[] = {
        {"force", &force, 0, .help = "let --fail-if-slower judge runs whose setups differ"},
    };
    const gs_cli_spec spec = {
        .command = "diff",
        .help = {.intro = diff_intro, .order = help_order,
                 .limit = "rows of the kernel, operator and added/removed tables\n"
                          "(default: 10; 0: all)",
                 .rank = "only the traces of rank R, on both sides",
                 .parts = help_parts, .nparts = COUNT_OF(help_parts)},
        .csv = true, .step = true, .keep_warmup = true, .default_limit = 10, .counts = counts,
        .ncounts = 1, .flags = flags, .nflags = 1};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    if (cli.npaths != 2) {
        fprintf(stderr, "gpuscope: diff: wants two traces, BASE and NEW, not %zu (see 'gpuscope "
                        "diff --help')\n", cli.npaths);
        return GS_EXIT_USAGE;
    }
    gs_profile prof[GS_SIDES];
    if ((rc = load_side(&cli, &cli.paths[0], &prof[0])) != GS_CLI_RUN)
        return rc;
    if ((rc = load_side(&cli, &cli.paths[1], &prof[1])) != GS_CLI_RUN) {
        gs_profile_free(&prof[0]);
        return rc;
    }
    const gs_diff_opts opts = {.ctx = {.steps = cli.steps}, .select = cli.select};
    gs_diff d;
    gs_error err;
    if (gs_diff_build(&prof[0], &prof[1], &opts, &d, &err) != 0) {
        rc = gs_cli_fail(&err);
    } else {
        gs_diff_tables tables;
        gs_diff_view view = {.path = {cli.paths[0], cli.paths[1]}, .diff = &d, .tables = &tables,
                             .gate_pct = gate == NO_GATE ? -1 : (long)gate, .force = force};
        gs_text_style style = gs_cli_text_style();
        if (gs_diff_tables_make(&d, &tables) != 0 ||
            gs_render_diff(stdout, &view, cli.format, &style, cli.limit) != 0)
            rc = gs_cli_out_of_memory();
        else if (gs_diff_gate_refused(&view))
            rc = refuse_gate(&d);
        else
            rc = view.gate_pct >= 0 && gs_diff_gate(&d, (double)gate) ? GS_EXIT_FINDING
                                                                       : GS_EXIT_OK;
        gs_diff_tables_free(&tables);
        gs_diff_free(&d);
    }
    gs_profile_free(&prof[0]);
    gs_profile_free(&prof[1]);
    return rc;
}
