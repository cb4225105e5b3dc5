/* Multi-rank inputs as rank summaries (analysis/rank_summary.h): .gsum files are read, full
 * traces are loaded and summarised one rank at a time on a worker thread, so memory stays
 * bounded by the largest rank, not the sum. */
#ifndef GS_CMD_RANK_INPUTS_H
#define GS_CMD_RANK_INPUTS_H

#include <stdbool.h>

#include "analysis/rank_summary.h"
#include "cmd/options.h"

typedef struct gs_rank_set {
    gs_rank_summary *v; /* sorted by rank, then path; --rank applied */
    size_t n;
    bool from_summaries; /* at least one input was a .gsum file */
} gs_rank_set;

/* Whether the command's inputs hold a .gsum file (folders included). */
bool gs_cli_has_summaries(const gs_cli *cli);
/* How many files the command's inputs name (folders listed); 0 when they cannot be listed. */
size_t gs_cli_count_inputs(const gs_cli *cli);

/* Summaries of every input, traces' with their detail (rank_detail.h) when `detail`:
 * GS_CLI_RUN, or an exit code (message printed). */
int gs_cli_load_ranks(const gs_cli *cli, bool detail, gs_rank_set *out);
void gs_rank_set_free(gs_rank_set *s);

#endif
