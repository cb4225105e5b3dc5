/* gpuscope report: what was profiled, then the top kernels, operators and copies. */
#include "analysis/report.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "render/report.h"

/* The same text is in doc/report.md; tests/cli/test_docs.sh keeps the two equal. */
static const char report_help[] =
    "usage: gpuscope report [OPTIONS] TRACE...\n"
    "\n"
    "What was profiled (files, ranks, GPUs, time span, events, steps), then the top\n"
    "kernels, the top operators and the memory copies: the first thing to run.\n"
    "\n"
    "options:\n"
    "  --format FORMAT  table (default) or json\n"
    "  --limit N        rows in each table (default: 10; 0: all)\n"
    "  --rank R         only the traces of rank R\n"
    "  -h, --help       show this help\n"
    "\n"
    "sections:\n"
    "  What was profiled  traces, ranks, world size, time span (first to last event\n"
    "                     of the longest trace), steps (ProfilerStep#N ranges, the\n"
    "                     most any trace has), events of each class; one line per\n"
    "                     trace (Rank, Format, Span, Steps, Path) and per GPU (GPU,\n"
    "                     Name, Memory, SMs, CC)\n"
    "  Top kernels        as 'gpuscope kernels'\n"
    "  Top operators      as 'gpuscope ops'\n"
    "  Memory copies      as 'gpuscope memcpy'\n";

int cmd_report(int argc, char **argv)
{
    const gs_cli_spec spec = {.command = "report", .help = report_help, .default_limit = 10};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    gs_profile profile;
    if ((rc = gs_cli_load(&cli, &profile)) != GS_CLI_RUN)
        return rc;
    gs_report report;
    gs_error err;
    if (gs_report_build(&profile, &cli.select, &report, &err) != 0) {
        rc = gs_cli_fail(&err);
    } else {
        gs_text_style style = gs_cli_text_style();
        rc = gs_render_report(stdout, &report, cli.format, &style, cli.limit) == 0
                 ? GS_EXIT_OK
                 : gs_cli_out_of_memory();
        gs_report_free(&report);
    }
    gs_profile_free(&profile);
    return rc;
}
