/* gpuscope steps: the steps of each trace, their statistics and warm-up (doc/design.md §10). */
#include <stdlib.h>

#include "analysis/steps.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "render/step_tables.h"

/* The same text is in doc/steps.md; tests/cli/test_docs.sh keeps the two equal. */
static const char steps_help[] =
    "usage: gpuscope steps [OPTIONS] TRACE...\n"
    "\n"
    "The steps of each trace: where they come from, step-time statistics over\n"
    "the kept steps, and one row per step. Steps are the ProfilerStep#N ranges,\n"
    "else the whole trace; each is extended to the end of the GPU work it\n"
    "launched, as the TensorBoard profiler plugin did.\n"
    "\n"
    "options:\n"
    "  --step REGEX     steps are the annotation or NVTX ranges matching REGEX\n"
    "                   (POSIX extended regex)\n"
    "  --keep-warmup    count the warm-up steps in the statistics too\n"
    "  --format FORMAT  table (default), csv or json\n"
    "  --limit N        show the first N steps of each trace (default: all)\n"
    "  --rank R         only the traces of rank R\n"
    "  -h, --help       show this help\n"
    "\n"
    "statistics (over the kept steps):\n"
    "  mean, std       mean and population standard deviation\n"
    "  min, max        shortest and longest step\n"
    "  med, p95, p99   nearest-rank percentiles (rank = ceil(p/100 x n))\n"
    "\n"
    "columns:\n"
    "  Rank            the trace's rank\n"
    "  Step            N of ProfilerStep#N; 0, 1, ... for --step and the window\n"
    "  Start           step start, from the trace's first event\n"
    "  Duration        step length after extension to its GPU work\n"
    "  Host Duration   the range as the host recorded it\n"
    "  GPU Ops         kernels, copies and sets launched inside the host range\n"
    "  Warm-up         yes for a leading step slower than 1.5x the median of\n"
    "                  the steps after it\n"
    "Durations are whole ns in csv and json.\n";

int cmd_steps(int argc, char **argv)
{
    const gs_cli_spec spec = {.command = "steps", .help = steps_help, .csv = true,
                              .step = true, .keep_warmup = true};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    gs_profile profile;
    if ((rc = gs_cli_load(&cli, &profile)) != GS_CLI_RUN)
        return rc;
    const gs_step_opts opts = cli.steps;
    gs_steps_view *views = calloc(profile.traces.n ? profile.traces.n : 1, sizeof *views);
    size_t n = 0;
    gs_error err;
    rc = views ? GS_CLI_RUN : gs_cli_out_of_memory();
    for (size_t i = 0; rc == GS_CLI_RUN && i < profile.traces.n; i++) {
        const gs_trace *t = profile.traces.v[i];
        if (!gs_selected(&cli.select, t))
            continue;
        views[n].trace = t;
        if (gs_steps_find(t, &opts, &views[n].steps, &err) != 0)
            rc = gs_cli_fail(&err);
        else
            n++;
    }
    if (rc == GS_CLI_RUN) {
        gs_text_style style = gs_cli_text_style();
        rc = gs_render_steps(stdout, views, n, cli.format, &style, cli.limit) == 0
                 ? GS_EXIT_OK
                 : gs_cli_out_of_memory();
    }
    for (size_t i = 0; i < n; i++)
        gs_steps_free(&views[i].steps);
    free(views);
    gs_profile_free(&profile);
    return rc;
}
