/* --step REGEX for the views that divide time by steps (launch, sync, memory). gs_cli_parse only
 * knows flags without values, so this takes the option out of argv before it runs.
 * TODO(options owner): fold into gs_cli_spec (a `steps` field) and remove this file. */
#ifndef GS_CMD_STEP_OPTION_H
#define GS_CMD_STEP_OPTION_H

/* Removes every `--step REGEX` / `--step=REGEX` before a lone `--` from argv (updating *argc)
 * and keeps the last REGEX in *regex (NULL when none). GS_CLI_RUN, or GS_EXIT_USAGE after
 * printing the error when the value is missing. */
int gs_cli_take_step(const char *command, int *argc, char **argv, const char **regex);

#endif
