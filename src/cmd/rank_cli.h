/* What report, comm and stragglers share to run the core's pipeline (analysis/ranks/inputs.h):
 * the pipeline's options from the command line, and its errors printed. */
#ifndef GS_CMD_RANK_CLI_H
#define GS_CMD_RANK_CLI_H

#include <stdbool.h>

#include "analysis/ranks/inputs.h"
#include "cmd/options.h"

/* The inputs the command's paths name: GS_CLI_RUN, or an exit code (message printed). */
int gs_cli_list_ranks(const gs_cli *cli, gs_rank_inputs *out);

/* The options a command's pipeline runs with: --step, --keep-warmup and --rank. */
gs_rank_load_opts gs_cli_rank_opts(const gs_cli *cli, bool detail);

/* Prints a pipeline error and returns its exit code; a usage error (a --rank no input has)
 * names the command, as the option parser's do. */
int gs_cli_rank_fail(const gs_cli *cli, const gs_error *err);

#endif
