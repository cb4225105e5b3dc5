/* `gpuscope capture`'s work (common/ondemand.h): asks the dormant agents of a process (and its
 * descendants) or of a job's folder for one window, waits for them, and merges the windows'
 * files into their outputs as `gpuscope run` merges its run folder (run_outputs.h). */
#ifndef GS_COLLECT_CAPTURE_CLIENT_H
#define GS_COLLECT_CAPTURE_CLIENT_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "collect/capture_targets.h"
#include "collect/run_outputs.h"
#include "common/error.h"

typedef struct gs_capture_opts {
    long pid;            /* the process, or 0 with job_dir */
    const char *job_dir; /* a job's control folder (`gpuscope run --on-demand --job DIR`) */
    uint32_t steps;      /* a window of this many steps ... */
    double duration_s;   /* ... or of this many seconds */
    const char *output;  /* the output pattern (%p %h %q{VAR} %w), NULL = the run's own -o */
    gs_od_kinds kinds;
    double timeout_s;    /* 0: the duration + 30 s, or 10 minutes for steps */
    bool force;          /* outputs may replace files */
    const char *proc_root; /* "/proc" (tests give another) */
    const volatile sig_atomic_t *stop; /* set (by a signal) to stop waiting; NULL: never */
} gs_capture_opts;

typedef struct gs_capture_result {
    gs_capture_targets targets; /* their statuses as last read */
    uint64_t window;            /* the request's id: %w */
    int64_t start_step;         /* the first step asked for, -1 = the next one */
    char dir[PATH_MAX];         /* the window's folder, where the processes write */
    size_t written;             /* processes that wrote their window */
    size_t unfinished;          /* processes still at it when --timeout passed */
    gs_run_outputs outs;        /* the files written */
} gs_capture_result;

/* The step every target is asked to start at: past the latest step any of them began, by as
 * many steps as may pass before the last of them reads the request (the staleness of the
 * oldest status plus two polls, in units of the shortest step), at least 1, at most 1000; -1
 * (the next step) when no target has seen a step. `poll_ns` is the agents' period. */
int64_t gs_capture_start_step(const gs_capture_agent *v, size_t n, int64_t now_ns,
                              int64_t poll_ns);

/* The request's id: one more than any the folder has seen (its request file and statuses); 0
 * when one of them is the largest id there is. */
uint64_t gs_capture_next_id(const gs_capture_targets *t);

/* Whether the agent's status says it wrote window `id`. */
bool gs_capture_wrote(const gs_capture_agent *a, uint64_t id);

/* Asks, waits and merges the windows written: of every process, or of those that wrote theirs
 * when some failed, ended or were still at it past the timeout (r->written, r->unfinished; a
 * process still writing then gives what it had written). When none wrote, nothing is merged
 * (r->outs is empty) and the window's folder stays if a process may still write there. 0, or -1
 * with err (GS_EXIT_USAGE for a bad target, GS_EXIT_ENV for a refusal or when stopped,
 * GS_EXIT_INPUT when there is no agent). r is freed by the caller. */
int gs_capture_run(const gs_capture_opts *o, gs_capture_result *r, gs_error *err);

void gs_capture_result_free(gs_capture_result *r);

#endif
