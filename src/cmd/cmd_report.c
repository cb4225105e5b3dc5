/* gpuscope report: the verdict, what was profiled, the analyses and the top kernels, operators
 * and copies, as text, JSON, or one HTML page with charts (--html FILE). */
#include <stdio.h>
#include <sys/stat.h>

#include "analysis/base/stage_times.h"
#include "analysis/pipeline/report.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "cmd/rank_cli.h"
#include "cmd/say.h"
#include "common/output_file.h"
#include "common/util.h"
#include "render/html.h"
#include "render/report.h"
#include "render/units.h"
#include "render/view_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/report.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char report_intro[] =
    "usage: gpuscope report [OPTIONS] TRACE...\n"
    "\n"
    "The verdict first: the bottleneck classes ranked by the step time at stake,\n"
    "the evidence, the upper bound of the gain and what to change. Then what was\n"
    "profiled, the steps, where the step time goes, GPU time and the largest idle\n"
    "gaps, the top kernels, operators and copies: the first thing to run.\n"
    "\n"
    "Rank summaries (.gsum, from gpuscope summarize) are read too, alone or mixed\n"
    "with traces: the same report and numbers, less what a summary does not hold\n"
    "(the medians and deviations of kernel and copy durations across ranks).\n"
    "\n";

static const char *const help_order[] = {"format", "html", "explain", NULL};

/* The report's sections, each made of tables the views describe but What was profiled's, whose
 * columns follow. */
static const gs_cli_help_part help_parts[] = {
    {"\n"
     "sections:\n"
     "  Verdict            per rank: the rules that fired, worst first (doc/diagnosis.md)\n"
     "  What was profiled  traces, ranks, world size, time span (first to last event\n"
     "                     of the longest trace), steps (ProfilerStep#N ranges, the\n"
     "                     most any trace has), events of each class, each rank's\n"
     "                     start-up (before its first kept step: its length and the\n"
     "                     CUDA calls that took most of it); one line per trace and\n"
     "                     per GPU (columns below)\n"
     "  Steps              as 'gpuscope steps' (statistics); then per rank model FLOPs\n"
     "                     per step, achieved TFLOP/s and MFU with the peak used, and\n"
     "                     Tensor Core use (doc/flops.md)\n"
     "  Step breakdown     as 'gpuscope breakdown' (average step, GPU metrics)\n"
     "  GPU time           as 'gpuscope idle' (temporal breakdown, largest gaps)\n"
     "  Top kernels        as 'gpuscope kernels'\n"
     "  Top operators      as 'gpuscope ops'\n"
     "  Memory copies      as 'gpuscope memcpy'\n"
     "\n"
     "columns of What was profiled, one line per trace:\n",
     {gs_file_columns}, .indent = 10},
    {"columns of What was profiled, one line per GPU:\n", {gs_device_columns}, .indent = 10},
};

/* Writes the page and says where, with its size, on stderr: stdout stays empty. */
static int write_html(const char *path, const gs_report *report, size_t limit)
{
    gs_error err;
    gs_output out;
    if (gs_output_open(&out, path, &err) != 0)
        return gs_cli_fail(&err);
    bool rendered = gs_render_html(out.f, report, limit) == 0;
    if (gs_output_close(&out, rendered, &err) != 0)
        return rendered ? gs_cli_fail(&err) : gs_cli_out_of_memory();
    struct stat st;
    char size[GS_UNIT_BUF] = "?";
    if (stat(path, &st) == 0)
        gs_fmt_bytes(size, sizeof size, (int64_t)st.st_size);
    gs_say("wrote %s (%s)", path, size);
    return GS_EXIT_OK;
}

static int render(const gs_cli *cli, const gs_report *report, bool explain)
{
    gs_text_style style = gs_cli_text_style();
    return gs_render_report(stdout, report, cli->format, &style, cli->limit, explain) == 0
               ? GS_EXIT_OK
               : gs_cli_out_of_memory();
}

int cmd_report(int argc, char **argv)
{
    const char *html = NULL;
    bool explain = false;
    const gs_cli_flag flags[] = {
        {"explain", &explain,
         .help = "after the verdict, every rule: its inputs, thresholds, and\n"
                 "why it fired or not (json always carries them)"},
    };
    const gs_cli_text texts[] = {
        {"html", &html, 0, .arg = "FILE",
         .help = "write the report as one self-contained HTML page with\n"
                 "charts to FILE instead (nothing on stdout)"},
    };
    const gs_cli_spec spec = {
        .command = "report",
        .help = {.intro = report_intro, .order = help_order,
                 .keep_warmup = "count warm-up steps in the statistics",
                 .limit = "rows in each table (default: 10; 0: all)",
                 .parts = help_parts, .nparts = COUNT_OF(help_parts)},
        .step = true, .keep_warmup = true, .default_limit = 10, .flags = flags, .nflags = 1,
        .texts = texts, .ntexts = 1};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    if (html && cli.format != GS_FORMAT_TABLE) {
        fputs("gpuscope: report: --html and --format cannot be combined (see 'gpuscope report "
              "--help')\n",
              stderr);
        return GS_EXIT_USAGE;
    }
    gs_rank_inputs in;
    if ((rc = gs_cli_list_ranks(&cli, true, &in)) != GS_CLI_RUN)
        return rc;
    gs_error err;
    if (html && gs_output_check_inputs(html, (const char *const *)in.paths, in.n, &err) != 0) {
        gs_rank_inputs_free(&in);
        return gs_cli_fail(&err);
    }
    /* Every input a rank, one trace in memory at a time, each kernel's and copy's duration kept
     * so medians across ranks are exact. */
    const gs_pipeline_opts opts = {.load = gs_cli_rank_opts(&cli, GS_STAGE_ALL, true),
                                   .align = true};
    gs_report report;
    rc = gs_cli_run_pipeline(&cli, &in, &opts, &report);
    gs_rank_inputs_free(&in);
    if (rc != GS_CLI_RUN)
        return rc;
    double since = gs_stage_clock();
    rc = html ? write_html(html, &report, cli.limit) : render(&cli, &report, explain);
    gs_stage_time_add(GS_TIMED_RENDER, since);
    gs_report_free(&report);
    return rc;
}
