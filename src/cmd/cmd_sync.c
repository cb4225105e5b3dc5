/* gpuscope sync: placeholder until the analysis lands (issue "Analyses and diagnosis"). */
#include <stdio.h>

#include "cmd/cmd.h"
#include "common/error.h"

int cmd_sync(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "gpuscope: sync: not implemented yet\n");
    return GS_EXIT_USAGE;
}
