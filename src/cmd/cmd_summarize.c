/* gpuscope summarize: one trace reduced to its rank summary (.gsum), to run next to each rank's
 * trace under the job's own launcher; report, comm and stragglers merge the summaries. */
#include "analysis/pipeline/gsum_write.h"
#include "analysis/pipeline/inputs.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "cmd/rank_cli.h"
#include "common/output_file.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/summarize.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char summarize_intro[] =
    "usage: gpuscope summarize [OPTIONS] TRACE -o RANK.gsum\n"
    "\n"
    "Reduces one rank's trace to the compact summary every multi-rank analysis\n"
    "needs (steps, breakdown, GPU metrics and time, communication, collectives,\n"
    "verdict inputs, GPUs, idle gaps, kernels, operators and copies by name, the\n"
    "HTML report's charts), so it can run next to each rank's trace under the\n"
    "job's launcher. gpuscope report, comm and stragglers read .gsum files, alone\n"
    "or mixed with traces, and give the same numbers as on the traces (report less\n"
    "the kernel and copy medians).\n"
    "\n";

int cmd_summarize(int argc, char **argv)
{
    const char *out_path = NULL;
    const gs_cli_text texts[] = {
        {"output", &out_path, 'o', .arg = "FILE", .help = "the summary to write (RANK.gsum)"},
    };
    /* One trace, one summary, no output on stdout: --format, --limit and --rank would change
     * nothing. */
    const gs_cli_spec spec = {
        .command = "summarize",
        .help = {.intro = summarize_intro, .indent = 21,
                 .keep_warmup = "count warm-up steps in the statistics"},
        .no_format = true, .no_limit = true, .no_rank = true, .step = true, .keep_warmup = true,
        .texts = texts, .ntexts = 1};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    if (!out_path)
        return gs_cli_usage("summarize", "%s", "-o FILE is required");
    if (cli.npaths != 1)
        return gs_cli_usage("summarize", "%s", "one trace per summary");
    gs_error err;
    if (gs_output_check_inputs(out_path, cli.paths, 1, &err) != 0)
        return gs_cli_fail(&err);
    gs_rank_summary s;
    const gs_rank_load_opts opts = gs_cli_rank_opts(&cli, GS_STAGE_ALL, false);
    if (gs_rank_trace_summarise(cli.paths[0], &opts, &s, &err) != 0)
        return gs_cli_fail(&err);
    gs_cli_note_losses(cli.paths[0], s.events.lost);
    gs_output out;
    rc = gs_output_open(&out, out_path, &err);
    if (rc == 0) {
        gs_gsum_write(out.f, &s);
        rc = gs_output_close(&out, true, &err);
    }
    gs_rank_summary_free(&s);
    return rc == 0 ? GS_EXIT_OK : gs_cli_fail(&err);
}
