/* The first stage of the pipeline (pipeline.h): the inputs, listed once, read one at a time. A
 * trace is loaded, its context built (analysis/base/trace_ctx.h), handed on and dropped before
 * the next one is loaded, so memory stays bounded by the largest rank, not the sum:
 *   - for report, comm, stragglers and summarize, into its rank's summary (summary.h), with the
 *     sections the command asks for (a .gsum file is read instead);
 *   - for a view, to the view, which folds it into its result (gs_traces_each).
 * --rank keeps the inputs of one rank; the others are read only for their rank. */
#ifndef GS_ANALYSIS_PIPELINE_INPUTS_H
#define GS_ANALYSIS_PIPELINE_INPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/base/select.h"
#include "analysis/base/trace_ctx.h"
#include "analysis/pipeline/summarise.h"
#include "analysis/pipeline/summary.h"
#include "ingest/load.h"

typedef struct gs_rank_inputs {
    char **paths; /* every file the command's paths name, folders listed (gs_list_inputs); a
                   * file of several ranks once per rank */
    uint32_t *parts; /* parallel to paths: the rank of the file each is (gs_load_opts.part) */
    size_t n;
    size_t ngsum; /* how many of them are rank summaries (.gsum) */
} gs_rank_inputs;

/* The files the paths name; a folder's .gsum files too when with_gsum. 0, or -1 with err (a
 * path that does not exist, a folder without traces). */
int gs_rank_inputs_list(const char *const *paths, size_t npaths, bool with_gsum,
                        gs_rank_inputs *out, gs_error *err);
void gs_rank_inputs_free(gs_rank_inputs *in);

typedef struct gs_rank_load_opts {
    gs_ctx_opts ctx;           /* each trace's steps and window (a .gsum keeps those it was
                                * written with) */
    gs_summarise_opts summary; /* what a rank's summary holds */
    gs_select select;          /* by_rank: only the inputs of that rank are kept */
    gs_load_opts load;         /* progress while a trace is read */
} gs_rank_load_opts;

/* One trace file loaded, summarised and dropped (what gpuscope summarize writes); a file of
 * several ranks is refused. 0, or -1 with err. */
int gs_rank_trace_summarise(const char *path, const gs_rank_load_opts *o, gs_rank_summary *out,
                            gs_error *err);

typedef struct gs_rank_set {
    gs_rank_summary *v; /* sorted by rank, then path */
    size_t n;
} gs_rank_set;

/* Every input as a rank summary, the ranks o->select keeps. When none is kept: -1 with
 * GS_EXIT_USAGE and the ranks there are ("no trace has rank 5 (ranks: 0 1 2 3)"). */
int gs_rank_set_load(const gs_rank_inputs *in, const gs_rank_load_opts *o, gs_rank_set *out,
                     gs_error *err);
void gs_rank_set_free(gs_rank_set *s);

/* What a view does with each trace --rank keeps: fold it into its result. 0, or -1 with err. */
typedef int (*gs_trace_fn)(const gs_trace_ctx *c, void *user, gs_error *err);

/* Each input in path order (so traces of one rank come in path order, the ranks of one file in
 * its order; results order their ranks themselves), loaded as a trace, its context built with o->ctx, given to fn and dropped.
 * o->summary is not used. 0, or -1 with err: fn's, a load's, or GS_EXIT_USAGE when
 * --rank keeps no trace. */
int gs_traces_each(const gs_rank_inputs *in, const gs_rank_load_opts *o, gs_trace_fn fn,
                   void *user, gs_error *err);

#endif
