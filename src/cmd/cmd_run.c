/* gpuscope run: starts a program with the agent injected and the sampler running, and leaves a
 * .gst trace of what it did. The program's standard streams and exit status are its own: the
 * launcher writes only to its own stderr, after the program ended. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "cmd/run_session.h"
#include "common/error.h"

/* The same text is in doc/run.md; tests/cli/test_docs.sh keeps the two equal. */
static const char run_help[] =
    "usage: gpuscope run [OPTIONS] [--] COMMAND [ARGS...]\n"
    "\n"
    "Runs COMMAND with no change to it and records what the GPU and the host did:\n"
    "CUDA kernels, copies, sets, runtime and driver calls, synchronization and\n"
    "allocations (CUPTI), NVTX ranges and marks, and NVML and CPU samples, into one\n"
    ".gst trace that every gpuscope command reads. COMMAND's output and exit status\n"
    "pass through unchanged; gpuscope's own lines go to stderr, before COMMAND starts\n"
    "and after it ends.\n"
    "\n"
    "options:\n"
    "  -o, --output PATTERN      trace file (default gpuscope.gst); %p is the process\n"
    "                            id, %h the host name, %q{VAR} the value of VAR in\n"
    "                            that process (e.g. %q{RANK} under torchrun), %% a %;\n"
    "                            processes whose name is the same share one file\n"
    "  -f, --force               overwrite existing trace files\n"
    "  --trace PARTS             what to record, comma-separated (default all):\n"
    "                            cuda, nvtx, memory (allocations), sampler\n"
    "  --sample-rate HZ          NVML and CPU samples per second (default 10)\n"
    "  --delay SECONDS           keep nothing from the first SECONDS\n"
    "  --duration SECONDS        keep SECONDS from the end of the delay\n"
    "  --capture-range RANGE     keep only cudaProfilerApi (between cudaProfilerStart\n"
    "                            and cudaProfilerStop) or nvtx:NAME (while an NVTX\n"
    "                            range named NAME is open)\n"
    "  --steps W,WU,A[,R]        keep steps as torch.profiler's schedule would: skip\n"
    "                            W, warm up WU, keep A, R cycles (default 1, 0 = all)\n"
    "  --step-name REGEX         what a step's NVTX range is called, for --steps\n"
    "                            (default ^ProfilerStep#)\n"
    "  --flush-interval MS       how often the agent writes its buffers (default\n"
    "                            200); a killed program loses at most this much\n"
    "  -q, --quiet               print nothing but errors\n"
    "  -h, --help                show this help\n"
    "\n"
    "exit status: COMMAND's own (128+N when signal N killed it); 127 when COMMAND is\n"
    "not found, 126 when it cannot run; 2 for a usage error and 4 when tracing\n"
    "cannot start (another tool holds the injection variables, the agent is missing).\n";

enum {
    OPT_TRACE = 256,
    OPT_SAMPLE_RATE,
    OPT_DELAY,
    OPT_DURATION,
    OPT_CAPTURE_RANGE,
    OPT_STEPS,
    OPT_STEP_NAME,
    OPT_FLUSH,
};

static const struct option options[] = {
    {"output", required_argument, NULL, 'o'},
    {"force", no_argument, NULL, 'f'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"trace", required_argument, NULL, OPT_TRACE},
    {"sample-rate", required_argument, NULL, OPT_SAMPLE_RATE},
    {"delay", required_argument, NULL, OPT_DELAY},
    {"duration", required_argument, NULL, OPT_DURATION},
    {"capture-range", required_argument, NULL, OPT_CAPTURE_RANGE},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"step-name", required_argument, NULL, OPT_STEP_NAME},
    {"flush-interval", required_argument, NULL, OPT_FLUSH},
    {NULL, 0, NULL, 0},
};

static int usage(const char *fmt, const char *arg)
{
    return gs_cli_usage("run", fmt, arg);
}

static bool valid_parts(const char *s)
{
    static const char *const parts[] = {"cuda", "nvtx", "memory", "sampler"};
    char buf[256];
    snprintf(buf, sizeof buf, "%s", s);
    if (!*buf)
        return false;
    for (char *save = NULL, *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        bool known = false;
        for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
            known |= strcmp(p, parts[i]) == 0;
        if (!known)
            return false;
    }
    return true;
}

static int parse(int argc, char **argv, gs_run_request *rq)
{
    double sec;
    int c;
    /* '+': stop at the first non-option, so COMMAND's own options stay COMMAND's. */
    opterr = 0; /* messages are ours, in our format */
    while ((c = getopt_long(argc, argv, "+:o:fqh", options, NULL)) != -1) {
        switch (c) {
        case 'o':
            rq->output = optarg;
            break;
        case 'f':
            rq->force = true;
            break;
        case 'q':
            rq->quiet = true;
            break;
        case 'h':
            fputs(run_help, stdout);
            return GS_EXIT_OK;
        case OPT_TRACE:
            if (!valid_parts(optarg))
                return usage("--trace takes cuda, nvtx, memory or sampler, not '%s'", optarg);
            rq->parts = optarg;
            break;
        case OPT_SAMPLE_RATE:
            if (!gs_cli_parse_number(optarg, 1000, &rq->sample_rate_hz))
                return usage("--sample-rate takes a rate from 0 to 1000 Hz, not '%s'", optarg);
            break;
        case OPT_DELAY:
        case OPT_DURATION:
            if (!gs_cli_parse_number(optarg, 1e7, &sec))
                return usage("expected a number of seconds, not '%s'", optarg);
            *(c == OPT_DELAY ? &rq->delay_s : &rq->duration_s) = sec;
            break;
        case OPT_CAPTURE_RANGE:
            /* The agent matches whole names of up to 255 bytes: a longer one would never. */
            if (strcmp(optarg, "cudaProfilerApi") != 0 &&
                (strncmp(optarg, "nvtx:", 5) != 0 || !optarg[5] || strchr(optarg, ';') ||
                 strlen(optarg + 5) > 255))
                return usage("--capture-range takes cudaProfilerApi or nvtx:NAME (NAME up to "
                             "255 bytes, no ';'), not '%s'",
                             optarg);
            rq->capture_range = optarg;
            break;
        case OPT_STEPS:
            rq->steps = optarg;
            break;
        case OPT_STEP_NAME:
            if (strchr(optarg, ';') || strlen(optarg) > 255)
                return usage("--step-name takes up to 255 bytes and no ';': '%s'", optarg);
            rq->step_name = optarg;
            break;
        case OPT_FLUSH:
            if (!gs_cli_parse_number(optarg, 60000, &sec) || sec < 10)
                return usage("--flush-interval takes 10 to 60000 ms, not '%s'", optarg);
            rq->flush_ms = (int)sec;
            break;
        case ':':
            return usage("%s needs a value", argv[optind - 1]);
        default:
            return usage("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return usage("%s", "no COMMAND to run");
    if (rq->steps && rq->capture_range)
        return usage("%s", "--steps and --capture-range cannot be used together");
    rq->argv = argv + optind;
    return -1;
}

int cmd_run(int argc, char **argv)
{
    gs_run_request rq = {.output = "gpuscope.gst", .sample_rate_hz = 10, .flush_ms = 200};
    optind = 1;
    int rc = parse(argc, argv, &rq);
    if (rc >= 0)
        return rc;
    return gs_run_session(&rq);
}
