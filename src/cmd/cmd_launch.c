/* gpuscope launch: placeholder until the analysis lands (issue "Analyses and diagnosis"). */
#include <stdio.h>

#include "cmd/cmd.h"
#include "common/error.h"

int cmd_launch(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "gpuscope: launch: not implemented yet\n");
    return GS_EXIT_USAGE;
}
