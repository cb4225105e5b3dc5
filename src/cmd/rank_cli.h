/* What the commands that read traces share to run the core's pipeline
 * (analysis/pipeline/pipeline.h): the inputs listed, the options from the command line, the
 * progress line, and the pipeline's errors printed. */
#ifndef GS_CMD_RANK_CLI_H
#define GS_CMD_RANK_CLI_H

#include <stdbool.h>

#include "analysis/pipeline/pipeline.h"
#include "cmd/options.h"

/* The inputs the command's paths name (a folder's rank summaries too when with_gsum): GS_CLI_RUN,
 * or an exit code (message printed). */
int gs_cli_list_ranks(const gs_cli *cli, bool with_gsum, gs_rank_inputs *out);

/* How each input becomes a rank summary of the sections `stages` (summarise.h): --step,
 * --keep-warmup and --rank; progress is the caller's. */
gs_rank_load_opts gs_cli_rank_opts(const gs_cli *cli, unsigned stages, bool detail);

/* Prints an error of the pipeline and returns its exit code: a usage error (--rank no input has,
 * a --step no range matches) names the command. */
int gs_cli_pipeline_fail(const gs_cli *cli, const gs_error *err);

/* The report of the inputs, with a progress line on a terminal: GS_CLI_RUN with *out, or an exit
 * code (message printed; a --rank no input has is a usage error naming the command). */
int gs_cli_run_pipeline(const gs_cli *cli, const gs_rank_inputs *in, const gs_pipeline_opts *o,
                        gs_report *out);

#endif
