/* The first stage of the pipeline (pipeline.h): the inputs, listed once, and each of them as its
 * rank's summary (summary.h). A trace is loaded, summarised and dropped before the next one is
 * loaded, so memory stays bounded by the largest rank, not the sum; a .gsum file is read. */
#ifndef GS_ANALYSIS_RANKS_INPUTS_H
#define GS_ANALYSIS_RANKS_INPUTS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/pipeline/summary.h"
#include "analysis/base/select.h"
#include "ingest/load.h"

typedef struct gs_rank_inputs {
    char **paths; /* every file the command's paths name, folders listed (gs_list_inputs) */
    size_t n;
    size_t ngsum; /* how many of them are rank summaries (.gsum) */
} gs_rank_inputs;

/* 0, or -1 with err (a path that does not exist, a folder without traces). */
int gs_rank_inputs_list(const char *const *paths, size_t npaths, gs_rank_inputs *out,
                        gs_error *err);
void gs_rank_inputs_free(gs_rank_inputs *in);

typedef struct gs_rank_load_opts {
    gs_step_opts steps; /* how a trace finds its steps (a .gsum keeps those it was written with) */
    bool detail;        /* keep every kernel's and copy's duration (detail.h) */
    gs_select select;   /* by_rank: only the inputs of that rank are kept */
    gs_load_opts load;  /* progress while a trace is read */
} gs_rank_load_opts;

/* One trace file loaded, summarised and dropped (what gpuscope summarize writes). 0, or -1 with
 * err. */
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

#endif
