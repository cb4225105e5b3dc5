/* The end of `gpuscope run`: the per-process files the agent wrote into the run folder, and the
 * sampler's, become the -o output(s). Processes whose expanded -o pattern is the same (no %p or
 * %q{...} in it) share one file; the sampler's records go into every output. */
#ifndef GS_COLLECT_RUN_OUTPUTS_H
#define GS_COLLECT_RUN_OUTPUTS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "collect/gst_merge.h"
#include "common/error.h"

/* The launcher's samples in a run folder, merged into every output. */
#define GS_RUN_SAMPLER_FILE "sampler.gst"

typedef struct gs_run_output {
    char *path;
    size_t nprocesses; /* per-process files merged into it */
    gs_merge_stats stats;
} gs_run_output;

/* What became of a file at the output's path when nothing was recorded: left there, an earlier
 * run's trace would be read as this run's. */
enum gs_earlier_output {
    GS_EARLIER_NONE,       /* no file there, or something was recorded */
    GS_EARLIER_REMOVED,    /* a regular .gst file, removed (with force) */
    GS_EARLIER_NOT_GST,    /* a regular file that is no .gst trace: left as it was */
    GS_EARLIER_NOT_FORCED, /* a .gst trace, left as it was: removing it takes force */
    GS_EARLIER_NOT_FILE,   /* a link, folder, FIFO or device: never removed */
    GS_EARLIER_FAILED,     /* a .gst trace that could not be removed */
};

typedef struct gs_run_outputs {
    gs_run_output *v;
    size_t n;
    enum gs_earlier_output earlier; /* with n == 0 */
    char earlier_path[PATH_MAX];   /* where, when earlier is not GS_EARLIER_NONE */
} gs_run_outputs;

/* Merges the files of `run_dir` into their outputs. `pattern` is the absolute -o pattern,
 * expanded with `launched_pid` when no process wrote a file (only samples were taken, or
 * nothing). An output that exists already is an error unless `force`. When nothing was recorded,
 * a .gst trace at the output's path is an earlier run's: removed with `force`, never when it is
 * not a regular file (outs->earlier says). On success the run folder is removed; on failure it
 * is kept (err says where) so nothing recorded is lost. */
int gs_run_outputs_write(const char *run_dir, const char *pattern, long launched_pid,
                         bool force, gs_run_outputs *outs, gs_error *err);

void gs_run_outputs_free(gs_run_outputs *outs);

#endif
