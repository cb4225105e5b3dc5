#include "cmd/verbosity.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/base/stage_times.h"
#include "common/log.h"
#include "common/util.h"

/* The level a verbosity flag asks for (-v 1, -vv 2, --verbose 1), 0 for any other argument. */
static int flag_level(const char *arg)
{
    if (!strcmp(arg, "--verbose"))
        return GS_LOG_INFO;
    if (arg[0] != '-' || arg[1] != 'v')
        return 0;
    size_t n = strspn(arg + 1, "v");
    return arg[1 + n] == '\0' ? (int)n : 0;
}

/* GPUSCOPE_DEBUG: a number (0 off, 1, 2), or any other text for 1. */
static int env_level(void)
{
    const char *v = getenv("GPUSCOPE_DEBUG");
    if (!v || !*v)
        return 0;
    char *end;
    long n = strtol(v, &end, 10);
    if (end == v)
        return GS_LOG_INFO;
    return n < 0 ? 0 : n > GS_LOG_DETAIL ? GS_LOG_DETAIL : (int)n;
}

/* Whether run's option `arg` takes the next argument as its value: -o (alone or ending a cluster
 * of letters) and the long options but the ones without a value. The word after an option that
 * takes none is the program, and everything from it on is the program's. */
static bool run_option_takes_value(const char *arg)
{
    static const char *const bare[] = {"--force", "--quiet", "--help", "--verbose"};
    if (arg[0] != '-' || arg[1] == '\0')
        return false;
    if (arg[1] != '-')
        return arg[strlen(arg) - 1] == 'o';
    if (strchr(arg, '='))
        return false;
    for (size_t i = 0; i < COUNT_OF(bare); i++)
        if (!strcmp(arg, bare[i]))
            return false;
    return true;
}

/* Removes argv[i], keeping argv[*argc] NULL. */
static void drop(int *argc, char **argv, int i)
{
    memmove(argv + i, argv + i + 1, (size_t)(*argc - i) * sizeof *argv);
    (*argc)--;
}

/* The debug log's sink: one write per line. On a terminal the line first clears a progress line
 * ("reading x.json 40%") that may be standing there; it is drawn again at its next update. */
static void write_line(void *ctx, const char *line)
{
    const bool *tty = ctx;
    char buf[1200];
    int n = snprintf(buf, sizeof buf, "%sgpuscope: debug: %s\n", *tty ? "\r\033[K" : "", line);
    if (n > 0)
        fwrite(buf, 1, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1, stderr);
}

int gs_cli_take_verbosity(int *argc, char **argv)
{
    int level = env_level(), asked = 0;
    while (*argc > 1 && flag_level(argv[1])) {
        asked += flag_level(argv[1]);
        drop(argc, argv, 1);
    }
    bool run = *argc > 1 && !strcmp(argv[1], "run");
    for (int i = 2; i < *argc && strcmp(argv[i], "--") != 0;) {
        if (flag_level(argv[i])) {
            asked += flag_level(argv[i]);
            drop(argc, argv, i);
        } else if (run && argv[i][0] != '-') {
            break; /* the program to run */
        } else {
            i += run && run_option_takes_value(argv[i]) ? 2 : 1;
        }
    }
    level = asked > level ? asked : level;
    level = level > GS_LOG_DETAIL ? GS_LOG_DETAIL : level;
    static bool tty;
    tty = isatty(STDERR_FILENO) == 1;
    if (level > GS_LOG_OFF)
        gs_log_set(level, write_line, &tty);
    gs_stage_times_begin(); /* the command's time: the 100 % of -v's table of stage times */
    return level;
}
