/* gpuscope run: starts a program with the agent injected and the sampler running, and leaves a
 * .gst trace of what it did. The program's standard streams and exit status are its own: the
 * launcher writes only to its own stderr, after the program ended. */
#include <errno.h>
#include <regex.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "cmd/run_session.h"
#include "common/error.h"
#include "common/step_schedule.h"
#include "common/util.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/run.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char run_intro[] =
    "usage: gpuscope run [OPTIONS] [--] COMMAND [ARGS...]\n"
    "\n"
    "Runs COMMAND with no change to it and records what the GPU and the host did:\n"
    "CUDA kernels, copies, sets, runtime and driver calls, synchronization and\n"
    "allocations (CUPTI), NVTX ranges and marks, and NVML and CPU samples, into one\n"
    ".gst trace that every gpuscope command reads. COMMAND's output and exit status\n"
    "pass through unchanged; gpuscope's own lines go to stderr, before COMMAND starts\n"
    "and after it ends.\n"
    "\n";

static const char *const help_order[] = {
    "output", "force", "trace", "sample-rate", "delay", "duration", "capture-range", "steps",
    "step-name", "on-demand", "job", "kinds", "flush-interval", "cupti", "python-hooks",
    "torch-ops", "quiet", NULL};

/* On demand each window is a file of its own: the name must tell windows apart. */
#define ON_DEMAND_NAME "gpuscope-%p-w%w.gst"

static const gs_cli_help_part help_parts[] = {
    {"\n"
     "exit status: COMMAND's own (128+N when signal N killed it); 127 when COMMAND is\n"
     "not found, 126 when it cannot run; 2 for a usage error and 4 when tracing\n"
     "cannot start (another tool holds the injection variables, the agent is missing).\n"},
};

static bool valid_parts(const char *s)
{
    static const char *const parts[] = {"cuda", "nvtx", "memory", "sampler"};
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = NULL, *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        bool known = false;
        for (size_t i = 0; i < COUNT_OF(parts); i++)
            known |= strcmp(p, parts[i]) == 0;
        if (!known)
            return false;
    }
    return true;
}

/* The agent matches whole names of up to 255 bytes: a longer one would never match. */
static bool valid_capture_range(const char *s)
{
    return !strcmp(s, "cudaProfilerApi") ||
           (!strncmp(s, "nvtx:", 5) && s[5] && !strchr(s, ';') && strlen(s + 5) <= 255);
}

/* The agent compiles it as below: one it cannot compile would leave every step kept. */
static bool valid_step_name(const char *s)
{
    regex_t re;
    if (strchr(s, ';') || strlen(s) > 255 || regcomp(&re, s, REG_EXTENDED | REG_NOSUB) != 0)
        return false;
    regfree(&re);
    return true;
}

/* Checked here, before the program starts: the agent would only note a bad one and keep every
 * step. */
static bool valid_steps(const char *s)
{
    gs_step_schedule sched;
    return gs_step_schedule_parse(s, &sched) == 0;
}

/* -o with --on-demand: a folder (made when it ends with '/') gets the default name in it; a
 * pattern must name each window apart (%w), or the second window would take the first one's
 * file. */
static int on_demand_output(gs_run_request *rq)
{
    static char path[4096];
    struct stat st;
    size_t n = strlen(rq->output);
    bool folder = n && rq->output[n - 1] == '/';
    if (folder && mkdir(rq->output, 0777) != 0 && errno != EEXIST)
        return gs_cli_usage("run", "-o %s: cannot make the folder", rq->output);
    if (folder || (stat(rq->output, &st) == 0 && S_ISDIR(st.st_mode))) {
        if (snprintf(path, sizeof path, "%s%s%s", rq->output, rq->output[n - 1] == '/' ? "" : "/",
                     ON_DEMAND_NAME) >= (int)sizeof path)
            return gs_cli_usage("run", "-o '%s' is too long", rq->output);
        rq->output = path;
        return GS_CLI_RUN;
    }
    for (const char *p = rq->output; (p = strchr(p, '%')); p += 2)
        if (p[1] == 'w')
            return GS_CLI_RUN;
        else if (!p[1])
            break;
    return gs_cli_usage("run",
                        "with --on-demand, -o names a folder or a pattern with %%w (each "
                        "window is its own file), not '%s'",
                        rq->output);
}

int cmd_run(int argc, char **argv)
{
    gs_run_request rq = {.sample_rate_hz = 10};
    double flush_ms = 200;
    const gs_cli_flag flags[] = {
        {"force", &rq.force, 'f', .help = "overwrite existing trace files"},
        {"quiet", &rq.quiet, 'q', .help = "print nothing but errors"},
        {"torch-ops", &rq.torch_ops, 0,
         .help = "with the Python hooks, every PyTorch operator as a\n"
                 "range too, for ops (slows small operators: see\n"
                 "doc/run.md)"},
        {"on-demand", &rq.on_demand, 0,
         .help = "record nothing until `gpuscope capture` asks for a\n"
                 "window (doc/capture.md); -o names the windows'\n"
                 "files, %w the window's index (default\n"
                 "gpuscope-%p-w%w.gst), or a folder for them"},
    };
    const gs_cli_text texts[] = {
        {"output", &rq.output, 'o', .arg = "PATTERN",
         .help = "trace file (default gpuscope.gst); %p is the process\n"
                 "id, %h the host name, %q{VAR} the value of VAR in\n"
                 "that process (e.g. %q{RANK} under torchrun), %% a %;\n"
                 "processes whose name is the same share one file"},
        {"trace", &rq.parts, 0, valid_parts,
         "--trace takes cuda, nvtx, memory or sampler, not '%s'", .arg = "PARTS",
         .help = "what to record, comma-separated (default all):\n"
                 "cuda, nvtx, memory (allocations), sampler"},
        {"capture-range", &rq.capture_range, 0, valid_capture_range,
         "--capture-range takes cudaProfilerApi or nvtx:NAME (NAME up to 255 bytes, no ';'), "
         "not '%s'",
         .arg = "RANGE",
         .help = "keep only cudaProfilerApi (between cudaProfilerStart\n"
                 "and cudaProfilerStop) or nvtx:NAME (while an NVTX\n"
                 "range named NAME is open)"},
        {"steps", &rq.steps, 0, valid_steps,
         "--steps takes W,WU,A[,R]: whole numbers up to 1000000, A at least 1, not '%s'",
         .arg = "W,WU,A[,R]",
         .help = "keep steps as torch.profiler's schedule would: skip\n"
                 "W, warm up WU, keep A, R cycles (default 1, 0 = all)"},
        {"job", &rq.job_dir, 0, NULL, NULL, .arg = "DIR",
         .help = "with --on-demand: the control folder every rank of\n"
                 "a job shares (`gpuscope capture --job DIR`); made\n"
                 "private when it does not exist"},
        {"step-name", &rq.step_name, 0, valid_step_name,
         "--step-name takes a regular expression (POSIX extended) of up to 255 bytes and no "
         "';', not '%s'",
         .arg = "REGEX",
         .help = "what a step's NVTX range is called, for --steps\n"
                 "(default ^ProfilerStep#)"},
    };
    const gs_cli_number numbers[] = {
        {"sample-rate", &rq.sample_rate_hz, 0, 1000, false,
         "--sample-rate takes a rate from 0 to 1000 Hz, not '%s'", .arg = "HZ",
         .help = "NVML and CPU samples per second (default 10)"},
        {"delay", &rq.delay_s, 0, 1e7, false, "expected a number of seconds, not '%s'",
         .arg = "SECONDS", .help = "keep nothing from the first SECONDS"},
        {"duration", &rq.duration_s, 0, 1e7, false, "expected a number of seconds, not '%s'",
         .arg = "SECONDS", .help = "keep SECONDS from the end of the delay"},
        {"flush-interval", &flush_ms, 10, 60000, false,
         "--flush-interval takes 10 to 60000 ms, not '%s'", .arg = "MS",
         .help = "how often the agent writes its buffers (default\n"
                 "200); a killed program loses at most this much"},
    };
    static const char *const cupti_modes[] = {"hold", "yield"};
    size_t cupti_mode = 0;
    static const char *const on_off[] = {"on", "off"};
    size_t python_hooks = 0;
    static const char *const kinds[] = {"full", "light"};
    size_t kinds_choice = 0;
    const gs_cli_choice choices[] = {
        {"cupti", cupti_modes, 2, &cupti_mode, "--cupti takes hold or yield, not '%s'",
         .arg = "MODE",
         .help = "hold (default): gpuscope traces CUDA, and a\n"
                 "torch.profiler inside COMMAND gets no GPU activity\n"
                 "(NVIDIA's CUPTI serves one client); yield: leave\n"
                 "CUDA to the program's own profiler and record NVTX\n"
                 "ranges and samples only"},
        {"python-hooks", on_off, 2, &python_hooks, "--python-hooks takes on or off, not '%s'",
         .arg = "on|off",
         .help = "on (default): Python programs mark their training\n"
                 "steps (ProfilerStep#N, ended by each optimizer step)\n"
                 "and DataLoader fetches once they import torch, with\n"
                 "no change to them; off: nothing is added"},
        {"kinds", kinds, 2, &kinds_choice, "--kinds takes full or light, not '%s'",
         .arg = "full|light",
         .help = "full (default): every kind of CUDA record; light:\n"
                 "kernels, copies, sets and runtime calls only (no\n"
                 "driver calls, synchronization or allocations), for\n"
                 "long windows"},
    };
    const gs_cli_spec spec = {
        .command = "run",
        .help = {.intro = run_intro, .order = help_order, .indent = 28, .parts = help_parts,
                 .nparts = COUNT_OF(help_parts)},
        .operands = GS_CLI_PROGRAM, .no_format = true, .flags = flags, .nflags = 4,
        .texts = texts, .ntexts = 6, .numbers = numbers, .nnumbers = 4, .choices = choices,
        .nchoices = 3};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    if (rq.steps && rq.capture_range)
        return gs_cli_usage("run", "%s", "--steps and --capture-range cannot be used together");
    if (rq.on_demand && (rq.steps || rq.capture_range || rq.delay_s > 0 || rq.duration_s > 0))
        return gs_cli_usage("run", "%s",
                            "--on-demand records the windows `gpuscope capture` asks for: "
                            "--steps, --capture-range, --delay and --duration do not apply");
    if (rq.job_dir && !rq.on_demand)
        return gs_cli_usage("run", "%s", "--job needs --on-demand");
    if (!rq.output)
        rq.output = rq.on_demand ? ON_DEMAND_NAME : "gpuscope.gst";
    else if (rq.on_demand && (rc = on_demand_output(&rq)) != GS_CLI_RUN)
        return rc;
    rq.kinds = kinds[kinds_choice];
    rq.flush_ms = (int)flush_ms;
    rq.cupti_yield = cupti_mode == 1;
    rq.python_hooks = python_hooks == 0;
    if (rq.torch_ops && !rq.python_hooks)
        return gs_cli_usage("run", "%s", "--torch-ops needs the Python hooks (--python-hooks on)");
    rq.argv = cli.program;
    return gs_run_session(&rq);
}
