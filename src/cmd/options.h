/* What every view command shares: its options (--format, --sort, --limit, --rank, -h), loading
 * the traces with a progress line, printing errors, and writing the result table to stdout. */
#ifndef GS_CMD_OPTIONS_H
#define GS_CMD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/select.h"
#include "analysis/steps.h"
#include "common/error.h"
#include "model/trace.h"
#include "render/render.h"
#include "render/table.h"

/* Returned by the helpers below when the command should go on; anything else is an exit code
 * to return at once (the message, if any, has been printed). */
#define GS_CLI_RUN (-1)

/* A boolean option of one command, e.g. --by-launch. */
typedef struct gs_cli_flag {
    const char *name; /* without the dashes */
    bool *value;
} gs_cli_flag;

/* A whole-number option of one command, e.g. --gaps N, with its largest accepted value. */
typedef struct gs_cli_count {
    const char *name; /* without the dashes */
    size_t *value;    /* keeps its default unless the option is given */
    size_t max;
} gs_cli_count;

/* An option of one command that takes text, e.g. report's --html FILE. */
typedef struct gs_cli_text {
    const char *name;   /* without the dashes */
    const char **value; /* keeps its default (NULL) unless the option is given */
    char letter;        /* a one-letter form (-o), or 0 */
} gs_cli_text;

typedef struct gs_cli_spec {
    const char *command;  /* "kernels" */
    const char *help;     /* the --help text; doc/<command>.md shows the same */
    bool csv;             /* --format csv is offered */
    bool sort;            /* --sort is offered */
    bool step;            /* --step REGEX is offered (gs_cli.steps.regex) */
    bool keep_warmup;     /* --keep-warmup is offered (gs_cli.steps.keep_warmup) */
    size_t default_limit; /* 0 = all rows */
    const gs_cli_flag *flags;
    size_t nflags;
    const gs_cli_count *counts;
    size_t ncounts;
    const gs_cli_text *texts;
    size_t ntexts;
} gs_cli_spec;

typedef struct gs_cli {
    const gs_cli_spec *spec;
    enum gs_format format;
    const char *sort; /* NULL: the view's default order */
    size_t limit;
    gs_select select;
    gs_step_opts steps; /* from --step and --keep-warmup */
    const char *const *paths;
    size_t npaths;
} gs_cli;

/* Prints `gpuscope: COMMAND: <fmt with arg> (see 'gpuscope COMMAND --help')` and returns
 * GS_EXIT_USAGE: every command's usage errors look the same. */
int gs_cli_usage(const char *command, const char *fmt, const char *arg);

/* A plain non-negative decimal number up to max (seconds, rates): false for anything else. */
bool gs_cli_parse_number(const char *arg, double max, double *out);

/* Parses argv (argv[0] is the command name). Prints --help to stdout (exit 0) or a usage error. */
int gs_cli_parse(const gs_cli_spec *spec, int argc, char **argv, gs_cli *cli);

/* The column --sort names in cols (-1 when --sort was not given), checked before loading so a
 * typo does not wait for a large trace. */
int gs_cli_sort_column(const gs_cli *cli, const gs_column *cols, size_t ncols, int *col);

/* Loads every path into profile; checks that --rank selects at least one trace. */
int gs_cli_load(const gs_cli *cli, gs_profile *profile);

/* Prints `gpuscope: <message>` and returns the error's exit code. */
int gs_cli_fail(const gs_error *err);

/* The same for memory exhausted while rendering. */
int gs_cli_out_of_memory(void);

/* How the table format should look on stdout: bold and the terminal's width on a terminal. */
gs_text_style gs_cli_text_style(void);

/* Sorts by the --sort column (if any), keeps --limit rows and writes the table to stdout in
 * --format. Returns the exit code. */
int gs_cli_emit(const gs_cli *cli, gs_table *table, int sort_col);

#endif
