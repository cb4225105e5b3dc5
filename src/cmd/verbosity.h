/* The debug log's switch: -v, -vv, --verbose (before the command name or among its options) and
 * GPUSCOPE_DEBUG=1|2 in the environment. Taken out of the arguments before the command parses
 * them, so no command's option table needs to know it. */
#ifndef GS_CMD_VERBOSITY_H
#define GS_CMD_VERBOSITY_H

/* Removes every -v, -vv and --verbose from argv (argv[0] is the program, argv[1] the command
 * once global options are gone): before the command name, and after it up to `--`; for `run`
 * only up to the program to run, whose own arguments are never touched. Installs the sink that
 * writes each message to stderr as `gpuscope: debug: ...` at the level asked for (the larger of
 * the flags and GPUSCOPE_DEBUG, at most 2). Returns that level. */
int gs_cli_take_verbosity(int *argc, char **argv);

#endif
