/* The end of `gpuscope run`: the per-process files the agent wrote into the run folder, and the
 * sampler's, become the -o output(s). Processes whose expanded -o pattern is the same (no %p or
 * %q{...} in it) share one file; the sampler's records go into every output. */
#ifndef GS_COLLECT_RUN_OUTPUTS_H
#define GS_COLLECT_RUN_OUTPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "collect/gst_merge.h"
#include "common/error.h"

typedef struct gs_run_output {
    char *path;
    size_t nprocesses; /* per-process files merged into it */
    gs_merge_stats stats;
} gs_run_output;

typedef struct gs_run_outputs {
    gs_run_output *v;
    size_t n;
} gs_run_outputs;

/* Merges the files of `run_dir` into their outputs. `pattern` is the absolute -o pattern,
 * expanded with `launched_pid` when no process wrote a file (only samples were taken). An
 * output that exists already is an error unless `force`. On success the run folder is removed;
 * on failure it is kept (err says where) so nothing recorded is lost. */
int gs_run_outputs_write(const char *run_dir, const char *pattern, long launched_pid,
                         bool force, gs_run_outputs *outs, gs_error *err);

void gs_run_outputs_free(gs_run_outputs *outs);

#endif
