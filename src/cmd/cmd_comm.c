/* gpuscope comm: communication per rank (overlap with compute, exposed time) and collectives by
 * kind with message sizes and bandwidth. */
#include <stdio.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "cmd/rank_cli.h"
#include "common/error.h"
#include "common/util.h"
#include "render/comm_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/comm.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char comm_intro[] =
    "usage: gpuscope comm [OPTIONS] TRACE...\n"
    "\n"
    "Communication per rank: compute and communication time, how much of the\n"
    "communication runs under compute (overlap) and how much does not (exposed), per\n"
    "rank and per step; collectives per rank and kind (all-reduce, all-gather,\n"
    "reduce-scatter, send/recv, ...) with count, time, message size and bandwidth.\n"
    "Rank summaries (.gsum, from gpuscope summarize) are read too, alone or mixed\n"
    "with traces, with the same numbers (not with --hta).\n"
    "\n";

static const char *const help_order[] = {"per-step", GS_CLI_STEP_OPTIONS, "hta", NULL};

static const char *const defined_keys[] = {"communication_ns", "compute_ns", "overlap_ns",
                                            "overlap_pct", "exposed_ns", "idle_ns", "bytes",
                                            "algbw_gbps", "busbw_gbps", NULL};

/* The definitions are those of columns of the per-rank and per-kind tables. */
static const gs_cli_help_part help_parts[] = {
    {"\ndefinitions:\n", {gs_comm_rank_columns, gs_comm_kind_columns}, .indent = 15,
     .keys = defined_keys},
    {"Durations are whole ns in csv and json; csv writes one block per section.\n"},
};

static int render(const gs_cli *cli, const gs_comm *comm, bool per_step)
{
    gs_comm_tables tables;
    gs_text_style style = gs_cli_text_style();
    int rc = gs_comm_tables_make(comm, per_step, &tables);
    if (rc == 0)
        rc = gs_render_comm(stdout, &tables, comm->hta_compat, cli->format, &style, cli->limit);
    gs_comm_tables_free(&tables);
    return rc == 0 ? GS_EXIT_OK : gs_cli_out_of_memory();
}

int cmd_comm(int argc, char **argv)
{
    bool hta = false, per_step = false;
    const gs_cli_flag flags[] = {
        {"hta", &hta,
         .help = "reproduce Holistic Trace Analysis' get_comm_comp_overlap: drop\n"
                 "the last ProfilerStep and GPU work without a launch call\n"
                 "before it, round times to whole us, classify GPU work by\n"
                 "HTA's names (GPU-side waits included)"},
        {"per-step", &per_step, .help = "also show communication per step"},
    };
    const gs_cli_spec spec = {
        .command = "comm",
        .help = {.intro = comm_intro, .order = help_order,
                 .keep_warmup = "count warm-up steps in the per-rank step figures",
                 .limit = "show the first N rows of each section (default: all)",
                 .parts = help_parts, .nparts = COUNT_OF(help_parts)},
        .csv = true, .step = true, .keep_warmup = true, .flags = flags, .nflags = 2};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    gs_rank_inputs in;
    if ((rc = gs_cli_list_ranks(&cli, true, &in)) != GS_CLI_RUN)
        return rc;
    /* One input or many, traces or rank summaries: each rank summarised for its communication
     * alone, then side by side. HTA's cut is made on each whole trace, and a summary holds
     * gpuscope's numbers only. */
    gs_report report;
    gs_pipeline_opts opts = {.load = gs_cli_rank_opts(&cli, GS_STAGE_COMM, false)};
    opts.load.summary.hta_compat = hta;
    if (hta && in.ngsum > 0) {
        fputs("gpuscope: comm: --hta needs traces, not rank summaries (.gsum)\n", stderr);
        rc = GS_EXIT_USAGE;
    } else if ((rc = gs_cli_run_pipeline(&cli, &in, &opts, &report)) == GS_CLI_RUN) {
        rc = render(&cli, &report.comm, per_step);
        gs_report_free(&report);
    }
    gs_rank_inputs_free(&in);
    return rc;
}
