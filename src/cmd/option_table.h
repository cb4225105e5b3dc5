/* The options one command accepts, made from its spec once for both of their uses: getopt_long's
 * table (cmd/options.c) and the "options:" lines of --help (cmd/help.c), so that --help lists
 * exactly the options the parser takes. */
#ifndef GS_CMD_OPTION_TABLE_H
#define GS_CMD_OPTION_TABLE_H

#include <getopt.h>
#include <stddef.h>

#include "cmd/options.h"

/* Which of the spec's options an entry is; the order is --help's usual order. */
enum gs_cli_opt_kind {
    GS_CLI_OPT_FLAG, GS_CLI_OPT_COUNT, GS_CLI_OPT_NUMBER, GS_CLI_OPT_TEXT, GS_CLI_OPT_CHOICE,
    GS_CLI_OPT_FROM, GS_CLI_OPT_TO, GS_CLI_OPT_RANGE, GS_CLI_OPT_ALL_STEPS, GS_CLI_OPT_STEP,
    GS_CLI_OPT_DETECT_STEPS, GS_CLI_OPT_KEEP_WARMUP, GS_CLI_OPT_FORMAT, GS_CLI_OPT_SORT,
    GS_CLI_OPT_LIMIT, GS_CLI_OPT_RANK, GS_CLI_OPT_HELP
};

/* Long options return GS_CLI_OPT_BASE + their position in the table, one-letter forms their
 * letter. */
enum { GS_CLI_OPT_BASE = 256,
       GS_CLI_OPT_MAX = (GS_CLI_OPT_HELP - GS_CLI_OPT_FROM + 1) + GS_CLI_MAX_FLAGS +
                        GS_CLI_MAX_COUNTS + GS_CLI_MAX_NUMBERS + GS_CLI_MAX_TEXTS +
                        GS_CLI_MAX_CHOICES };

typedef struct gs_cli_opt_ref {
    enum gs_cli_opt_kind kind;
    size_t index; /* into the spec's array of that kind */
    char letter;
} gs_cli_opt_ref;

typedef struct gs_cli_opt_table {
    struct option longs[GS_CLI_OPT_MAX + 1]; /* ends with a zero entry */
    gs_cli_opt_ref refs[GS_CLI_OPT_MAX];
    size_t n;
    char letters[3 + 3 * (1 + GS_CLI_MAX_FLAGS + GS_CLI_MAX_TEXTS)]; /* getopt's optstring */
} gs_cli_opt_table;

/* The options `spec` offers, in --help's usual order. */
void gs_cli_opt_table_build(const gs_cli_spec *spec, gs_cli_opt_table *t);

#endif
