/* One `gpuscope run`: what the options asked for, and the run itself (inject, start, sample,
 * wait, merge, summarise). Prints only to stderr, and only after the program ended. */
#ifndef GS_CMD_RUN_SESSION_H
#define GS_CMD_RUN_SESSION_H

#include <stdbool.h>

typedef struct gs_run_request {
    const char *output;  /* the -o pattern */
    bool force, quiet;
    const char *parts;   /* --trace, NULL = all */
    double sample_rate_hz, delay_s, duration_s;
    const char *capture_range, *steps, *step_name;
    int flush_ms;
    /* --cupti yield: leave CUDA tracing to a profiler inside the program (torch.profiler, or
     * nsys/ncu around it): no CUDA or memory part, and the summary says so. */
    bool cupti_yield;
    /* --python-hooks off: no sitecustomize for Python programs; --torch-ops: every operator. */
    bool python_hooks, torch_ops;
    /* --on-demand: the agent stays dormant until `gpuscope capture` asks for a window; its
     * control folder is --job DIR (shared by a job's ranks) or the run folder. */
    bool on_demand;
    const char *job_dir;
    const char *kinds; /* --kinds: "full" or "light" */
    char **argv;         /* the program and its arguments, NULL-terminated */
} gs_run_request;

/* Returns the exit status gpuscope run exits with. */
int gs_run_session(const gs_run_request *rq);

#endif
