/* What every command shares: one option parser (the shared options --format, --sort, --limit,
 * --rank, -h, and each command's own flags, counts, numbers, texts and choices), loading the
 * traces with a progress line, printing errors, and the text style of standard output. */
#ifndef GS_CMD_OPTIONS_H
#define GS_CMD_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/base/select.h"
#include "analysis/base/steps.h"
#include "common/error.h"
#include "ingest/load.h"
#include "model/trace.h"
#include "render/render.h"
#include "render/table.h"

/* Returned by the helpers below when the command should go on; anything else is an exit code
 * to return at once (the message, if any, has been printed). */
#define GS_CLI_RUN (-1)

/* The most options of each kind one command may have. */
enum { GS_CLI_MAX_FLAGS = 8, GS_CLI_MAX_COUNTS = 4, GS_CLI_MAX_NUMBERS = 4, GS_CLI_MAX_TEXTS = 8,
       GS_CLI_MAX_CHOICES = 4 };

/* Each option below writes through `value` when it is given and leaves it alone otherwise, so
 * the variable's initial value is the default. */

/* Each option's `help` is what --help says of it: its lines, wrapped by hand to end by column 80
 * where they start at the command's help.indent, '\n' between them. An option that takes a value
 * names it in --help by its `arg` (--gaps N). */

/* A boolean option of one command, e.g. --by-launch. */
typedef struct gs_cli_flag {
    const char *name; /* without the dashes */
    bool *value;
    char letter; /* a one-letter form (-f), or 0 */
    const char *help;
} gs_cli_flag;

/* A whole-number option of one command, e.g. --gaps N, with its largest accepted value. */
typedef struct gs_cli_count {
    const char *name; /* without the dashes */
    size_t *value;
    size_t max;
    size_t initial; /* the default of an option bound to its variable later (a view's entry) */
    const char *arg, *help;
} gs_cli_count;

/* A plain decimal number in [min, max], e.g. --interval SECONDS. */
typedef struct gs_cli_number {
    const char *name; /* without the dashes */
    double *value;
    double min, max;
    bool whole;          /* only whole numbers */
    const char *refusal; /* the usage message for any other value, %s the value */
    const char **given;  /* when not NULL, the value as written, for later messages */
    const char *arg, *help;
} gs_cli_number;

/* An option that takes text, e.g. report's --html FILE. Empty text is refused. */
typedef struct gs_cli_text {
    const char *name; /* without the dashes */
    const char **value;
    char letter; /* a one-letter form (-o), or 0 */
    /* When not NULL, the text must pass it; `refusal` is the usage message, %s the value. */
    bool (*valid)(const char *text);
    const char *refusal;
    /* When not NULL, the text may be left out and is then this: --serve alone. The next
     * argument is taken as the text unless it starts with '-', so only for commands without
     * operands. */
    const char *bare;
    /* When not NULL, the option may be given up to `max_values` times: each value is appended
     * to `values` (`*value` is the last), one more is a usage error. */
    const char **values;
    size_t max_values, *nvalues;
    const char *arg, *help;
} gs_cli_text;

/* An option that takes one of a few names, e.g. export's --format chrome|sqlite|csv. */
typedef struct gs_cli_choice {
    const char *name; /* without the dashes */
    const char *const *names;
    size_t nnames;
    size_t *value;       /* the index of the name given */
    const char *refusal; /* the usage message for another name, %s the value */
    const char *arg, *help;
} gs_cli_choice;

/* What follows the options. */
enum gs_cli_operands {
    GS_CLI_TRACES,  /* one or more traces; --limit and --rank are offered */
    GS_CLI_NONE,    /* nothing */
    GS_CLI_PROGRAM, /* a program and its arguments: the options end at the first operand */
    GS_CLI_PROCESS, /* at most one process id, in paths[0] (capture PID) */
};

/* The columns of a table that a --help describes, e.g. gs_api_columns. */
typedef const gs_column *gs_cli_columns_fn(size_t *ncols);

enum { GS_CLI_HELP_TABLES = 4 };

/* A part of --help after the options: `text` as it is, then, when `tables` names any, a line
 * per column of those tables (gs_column.help) with its title at column 2 and its help from
 * column `indent`. The tables make one list: a column that only a later table has goes before
 * the next column of its own table already listed. A column whose help is "" shares the line
 * of the column before it ("Min, Max"); JSON-only columns are left out.
 *
 * With `keys`, only the columns of those JSON keys (NULL-terminated), in that order, each from
 * the first of the tables that shows it: for a part that defines a few columns of several tables
 * (idle's "definitions:"). A key that no table shows makes a line of its own bare name, which
 * tests/cli/test_docs.sh refuses. */
typedef struct gs_cli_help_part {
    const char *text;
    gs_cli_columns_fn *tables[GS_CLI_HELP_TABLES];
    int indent;
    const char *const *keys;
} gs_cli_help_part;

/* How --sort orders rows (gs_table_sort), for the help of --sort. */
#define GS_CLI_SORT_ORDER "numbers sort descending, names ascending"

/* The shared options of a view with .window, .step and .keep_warmup, for gs_cli_help.order. */
#define GS_CLI_STEP_OPTIONS "step", "detect-steps", "keep-warmup"
#define GS_CLI_WINDOW_OPTIONS "from", "to", "range", "all-steps", GS_CLI_STEP_OPTIONS

/* A command's --help (doc/<command>.md shows the same; tests/cli/test_docs.sh checks): its
 * intro, the "options:" made from the spec (each option's own help, the shared options' usual
 * wording), then its parts. */
typedef struct gs_cli_help {
    const char *intro; /* the usage line and what the command does, up to "options:" */
    /* The options named here (without dashes, NULL-terminated) come first, in this order; the
     * others follow in the usual order: the command's flags, counts, numbers, texts and choices,
     * then --from, --to, --range, --all-steps, --step, --detect-steps, --keep-warmup, --format,
     * --sort, --limit, --rank, -h. */
    const char *const *order;
    int indent; /* the column the options' help starts at; 0: 19 */
    /* The help of the shared options where this command's differs from the usual; NULL: the
     * usual. --sort lists the sort names of sort_columns, followed by `sort`. */
    const char *format, *limit, *rank, *step, *keep_warmup;
    gs_cli_columns_fn *sort_columns;
    const char *sort;
    const gs_cli_help_part *parts;
    size_t nparts;
} gs_cli_help;

typedef struct gs_cli_spec {
    const char *command;  /* "kernels" */
    gs_cli_help help;
    enum gs_cli_operands operands;
    bool no_format;       /* no shared --format (table, csv, json): none, or its own choice */
    bool no_limit;        /* no --limit, though it reads traces */
    bool no_rank;         /* no --rank, though it reads traces */
    bool csv;             /* --format csv is offered */
    bool sort;            /* --sort is offered */
    bool step;            /* --step REGEX is offered (gs_cli.steps.regex) */
    bool keep_warmup;     /* --keep-warmup is offered (gs_cli.steps.keep_warmup) */
    /* --from, --to, --range and --all-steps are offered (gs_cli.select.window, which is then on:
     * by default the kept steps of each trace, analysis/base/window.h) */
    bool window;
    bool exclusive_flags; /* at most one of its flags may be given */
    size_t default_limit; /* 0 = all rows */
    const gs_cli_flag *flags;
    size_t nflags;
    const gs_cli_count *counts;
    size_t ncounts;
    const gs_cli_number *numbers;
    size_t nnumbers;
    const gs_cli_text *texts;
    size_t ntexts;
    const gs_cli_choice *choices;
    size_t nchoices;
} gs_cli_spec;

typedef struct gs_cli {
    const gs_cli_spec *spec;
    enum gs_format format;
    const char *sort; /* NULL: the view's default order */
    size_t limit;
    gs_select select;
    gs_step_opts steps; /* from --step and --keep-warmup */
    const char *const *paths; /* GS_CLI_TRACES */
    size_t npaths;
    char **program; /* GS_CLI_PROGRAM: the program and its arguments, NULL-terminated */
} gs_cli;

/* Prints `gpuscope: COMMAND: <fmt with arg> (see 'gpuscope COMMAND --help')` and returns
 * GS_EXIT_USAGE: every command's usage errors look the same. */
int gs_cli_usage(const char *command, const char *fmt, const char *arg);

/* Parses argv (argv[0] is the command name). Prints --help to stdout (exit 0) or a usage error. */
int gs_cli_parse(const gs_cli_spec *spec, int argc, char **argv, gs_cli *cli);

/* Writes the command's --help (cmd/help.c). */
void gs_cli_help_write(FILE *out, const gs_cli_spec *spec);


/* The progress line shown while a trace is read, on a terminal and only for loads that take a
 * while: start gives the load options that show it (none off a terminal), end clears it. */
typedef struct gs_cli_progress {
    double start, last;
    bool shown;
} gs_cli_progress;
gs_load_opts gs_cli_progress_start(gs_cli_progress *p);
void gs_cli_progress_end(const gs_cli_progress *p);

/* Loads every path into profile; checks that --rank selects at least one trace. */
int gs_cli_load(const gs_cli *cli, gs_profile *profile);

/* Prints `gpuscope: PATH: N events skipped (why)` on stderr when a trace lost events: every
 * command that shows results from traces says so. */
void gs_cli_note_losses(const char *path, const uint64_t lost[GS_LOSS__COUNT]);

/* Prints `gpuscope: <message>` and returns the error's exit code. */
int gs_cli_fail(const gs_error *err);

/* The same for memory exhausted while rendering. */
int gs_cli_out_of_memory(void);

/* How the table format should look on stdout: bold and the terminal's width on a terminal. */
gs_text_style gs_cli_text_style(void);

#endif
