#include "cmd/step_option.h"

#include <stdio.h>
#include <string.h>

#include "cmd/options.h"

int gs_cli_take_step(const char *command, int *argc, char **argv, const char **regex)
{
    *regex = NULL;
    int out = 1, i = 1;
    for (; i < *argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0)
            break;
        if (strncmp(a, "--step=", 7) == 0) {
            *regex = a + 7;
            continue;
        }
        if (strcmp(a, "--step") != 0) {
            argv[out++] = argv[i];
            continue;
        }
        if (i + 1 >= *argc) {
            fprintf(stderr,
                    "gpuscope: %s: option '--step' needs a value (see 'gpuscope %s --help')\n",
                    command, command);
            return GS_EXIT_USAGE;
        }
        *regex = argv[++i];
    }
    for (; i < *argc; i++)
        argv[out++] = argv[i];
    argv[out] = NULL;
    *argc = out;
    return GS_CLI_RUN;
}
