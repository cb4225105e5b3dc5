/* gpuscope stragglers: which rank the others wait for at collectives, and the clock offsets
 * between the ranks' files. */
#include <stdio.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "cmd/rank_cli.h"
#include "common/error.h"
#include "common/util.h"
#include "render/straggler_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/stragglers.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char stragglers_intro[] =
    "usage: gpuscope stragglers [OPTIONS] TRACE...\n"
    "\n"
    "Which rank the others wait for. Collectives are matched across ranks (the k-th\n"
    "all-reduce of every rank is one collective); they end together on every rank,\n"
    "so their ends give each file's clock offset, and on the aligned clock the rank\n"
    "whose collective kernel starts last is the one the others waited for.\n"
    "\n";

static const char *const defined_keys[] = {
    "offset_ns", "residual_med_ns", "residual_max_ns", "last", "lateness_ns", "wait_per_step_ns",
    "compute_per_step_ns", "skew_ns", "straggler", NULL};

/* The definitions are those of columns of the per-rank table and of --collectives' table. */
static const gs_cli_help_part help_parts[] = {
    {"\ndefinitions:\n", {gs_straggler_rank_columns, gs_straggler_collective_columns},
     .indent = 17, .keys = defined_keys},
    {"Durations are whole ns in csv and json; csv writes one block per section.\n"},
};

static int render(const gs_cli *cli, const gs_stragglers *s, bool each)
{
    gs_straggler_tables tables;
    gs_text_style style = gs_cli_text_style();
    int rc = gs_straggler_tables_make(s, each, &tables);
    if (rc == 0)
        rc = gs_render_stragglers(stdout, s, &tables, cli->format, &style, cli->limit);
    gs_straggler_tables_free(&tables);
    return rc == 0 ? GS_EXIT_OK : gs_cli_out_of_memory();
}

int cmd_stragglers(int argc, char **argv)
{
    bool no_align = false, each = false;
    const gs_cli_flag flags[] = {
        {"no-align", &no_align,
         .help = "use the files' own clocks (same host, or clocks already\n"
                 "synchronised); the residual then shows how far apart they are"},
        {"collectives", &each,
         .help = "also list every matched collective: its step, the rank that\n"
                 "arrived last, its lateness and the skew"},
    };
    const gs_cli_spec spec = {
        .command = "stragglers",
        .help = {.intro = stragglers_intro,
                 .keep_warmup = "count warm-up steps in the per-step numbers",
                 .limit = "show the first N rows of each section (default: all)",
                 .rank = "only the traces of rank R (leaves nothing to compare)",
                 .parts = help_parts, .nparts = COUNT_OF(help_parts)},
        .csv = true, .step = true, .keep_warmup = true, .flags = flags, .nflags = 2};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    gs_rank_inputs in;
    if ((rc = gs_cli_list_ranks(&cli, true, &in)) != GS_CLI_RUN)
        return rc;
    /* One input or many, traces or rank summaries: each rank's collectives and steps, then the
     * analysis across them. */
    const gs_pipeline_opts opts = {.load = gs_cli_rank_opts(&cli, GS_STAGE_STRAGGLERS, false),
                                   .align = !no_align};
    gs_report report;
    if ((rc = gs_cli_run_pipeline(&cli, &in, &opts, &report)) == GS_CLI_RUN) {
        rc = render(&cli, &report.stragglers, each);
        gs_report_free(&report);
    }
    gs_rank_inputs_free(&in);
    return rc;
}
