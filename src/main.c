/* gpuscope: command table and dispatch. */
#include <stdio.h>
#include <string.h>

#include "analysis/base/stage_times.h"
#include "cmd/cmd.h"
#include "cmd/say.h"
#include "cmd/verbosity.h"
#include "common/error.h"
#include "common/util.h"
#include "common/vec.h"

/* The commands in the order 'gpuscope --help' lists them: a view by its entry, which has its
 * name and summary, any other command by its function. */
static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    const gs_view *view;
} commands[] = {
    {"run", cmd_run, "run a program and record what the GPU and host did (.gst)"},
    {"capture", cmd_capture, "record a window of a program run with --on-demand, at any time"},
    {"report", cmd_report, "what was profiled and what is slow: the first thing to run"},
    {"whatif", cmd_whatif, "what a change would buy: the steps replayed with it applied"},
    {.view = &gs_view_kernels},
    {.view = &gs_view_ops},
    {.view = &gs_view_callsites},
    {.view = &gs_view_api},
    {.view = &gs_view_memcpy},
    {.view = &gs_view_steps},
    {.view = &gs_view_breakdown},
    {.view = &gs_view_idle},
    {"comm", cmd_comm, "communication per rank: collectives, bandwidth, overlap, exposed time"},
    {"stragglers", cmd_stragglers, "which rank the others wait for, clock offsets between ranks"},
    {"summarize", cmd_summarize, "one rank's compact summary (.gsum) for multi-rank analyses"},
    {.view = &gs_view_launch},
    {.view = &gs_view_sync},
    {.view = &gs_view_memory},
    {"ncu", cmd_ncu, "run Nsight Compute on a trace's top kernels and join what it measured"},
    {"diff", cmd_diff, "what changed between two runs, with noise bounds; exit 1 for CI gates"},
    {"export", cmd_export, "Chrome/Perfetto trace JSON, SQLite (nsys-like schema) or CSV"},
    {"monitor", cmd_monitor, "live GPU table, JSONL log and Prometheus exporter (NVML)"},
};

static const char *name_of(const struct command *c)
{
    return c->view ? c->view->spec.command : c->name;
}

static const char *summary_of(const struct command *c)
{
    return c->view ? c->view->summary : c->summary;
}

static void usage(FILE *out)
{
    fprintf(out, "usage: gpuscope COMMAND [OPTIONS] TRACE...\n"
                 "       gpuscope run [OPTIONS] -- PROGRAM [ARGS...]\n\n"
                 "Records what a CUDA program did (gpuscope run), reads PyTorch profiler traces\n"
                 "(Kineto JSON, .json.gz, a folder of ranks) and .gst traces, and explains where\n"
                 "the time goes.\n\ncommands:\n");
    for (size_t i = 0; i < COUNT_OF(commands); i++)
        fprintf(out, "  %-10s %s\n", name_of(&commands[i]), summary_of(&commands[i]));
    fprintf(out, "\n'gpuscope COMMAND --help' describes one command; doc/ has a page for each.\n"
                 "-v or -vv (any command), GPUSCOPE_DEBUG=1|2: a debug log on stderr\n"
                 "exit codes: 0 ok, 1 a gate tripped, 2 usage, 3 bad input, 4 environment\n");
}

int main(int argc, char **argv)
{
    gs_map_large_arrays(); /* freed arrays leave the process: its peak memory is what it uses */
    gs_cli_take_verbosity(&argc, argv);
    if (argc < 2) {
        usage(stderr);
        return GS_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (!strcmp(name, "-h") || !strcmp(name, "--help") || !strcmp(name, "help")) {
        usage(stdout);
        return GS_EXIT_OK;
    }
    if (!strcmp(name, "--version") || !strcmp(name, "version")) {
        printf("gpuscope %s\n", GS_VERSION);
        return GS_EXIT_OK;
    }
    for (size_t i = 0; i < COUNT_OF(commands); i++) {
        const struct command *c = &commands[i];
        if (!strcmp(name, name_of(c))) {
            int rc = c->view ? gs_view_run(c->view, argc - 1, argv + 1) : c->run(argc - 1, argv + 1);
            gs_stage_times_log();
            /* Like git and perf: a full disk or closed pipe must not pass for success. */
            if (fflush(stdout) != 0 || ferror(stdout)) {
                fprintf(stderr, "gpuscope: write error on standard output\n");
                return rc ? rc : GS_EXIT_ENV;
            }
            return rc;
        }
    }
    gs_say("'%s' is not a command; see 'gpuscope --help'", name);
    return GS_EXIT_USAGE;
}
