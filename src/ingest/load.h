/* Reading traces: one entry point that recognises the format of each file (Kineto JSON, legacy
 * autograd-profiler JSON, .gst; plain or gzip) and fills the trace model. */
#ifndef GS_INGEST_LOAD_H
#define GS_INGEST_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "ingest/mem_budget.h"
#include "model/trace.h"

/* A rank summary's "format" (doc/FORMAT.md, "Rank summaries"): written and read by
 * analysis/pipeline/gsum_*.c, and known here so that a summary given as a trace is told apart. */
#define GS_GSUM_MAGIC "gpuscope-rank-summary"

typedef struct gs_load_opts {
    /* Called now and then while a file is read: bytes of the file consumed so far and its size.
     * The core never prints; the command decides whether to show progress. */
    void (*progress)(void *ctx, const char *path, uint64_t done, uint64_t total);
    void *progress_ctx;
    /* The memory the traces may take (ingest/mem_budget.h); NULL: gs_mem_budget_default(). */
    gs_mem_budget *budget;
    /* 0: the whole file is the trace. i + 1: the file holds several ranks (gpuscope's chrome
     * export of several traces, its "gpuscopeRanks"), and the trace is its i-th, named
     * "PATH (rank R)" (gs_list_inputs lists a file's parts). */
    uint32_t part;
    /* Threads that parse one plain JSON file in chunks: 0, one per core the process may use
     * (at most 8) when the file is big enough to gain (16 MB a chunk); N, N chunks whatever the
     * size (for tests). gzip and pipes are read on one thread, inflate on another. */
    unsigned threads;
    /* Internal to the readers: set by the loader when it reads a trace too big for the budget
     * again, keeping a window of its steps (ingest/kineto_window.h). NULL: every event. */
    struct kwindow *window;
} gs_load_opts;

/* Reads one file (or the part of it opts->part names) into a new, indexed trace. A file of
 * several ranks read whole is refused: its ranks are read one at a time. */
int gs_load_trace(const char *path, const gs_load_opts *opts, gs_trace **out, gs_error *err);

/* The same from bytes in memory (plain JSON, not gzip); `name` stands for the path in messages
 * and rank detection. For tests and fuzzing. */
int gs_load_trace_buffer(const char *data, size_t size, const char *name, const gs_load_opts *opts,
                         gs_trace **out, gs_error *err);

/* Reads each path (a file, or a folder whose *.json / *.json.gz / *.gst files are one trace
 * each; a file of several ranks is a trace per rank) into `out`, sorted by rank then path. */
int gs_load_profile(const char *const *paths, size_t npaths, const gs_load_opts *opts,
                    gs_profile *out, gs_error *err);

/* The files the paths name, folders expanded to their traces (and rank summaries, *.gsum, when
 * with_gsum), for analyses that read one rank at a time; a file of several ranks is listed once
 * per rank. *out (and each path) and *parts (the gs_load_opts.part of each) are malloc'ed. The
 * first bytes of each regular trace file are read to find its ranks. */
int gs_list_inputs(const char *const *paths, size_t npaths, bool with_gsum, char ***out,
                   uint32_t **parts, size_t *n, gs_error *err);

#endif
