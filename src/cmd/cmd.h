/* Commands: each takes its own argv (argv[0] is the command name) and returns the exit code;
 * and the views, commands that are one entry each, run by gs_view_run (cmd/view.h). Only code
 * under src/cmd/ prints or decides exit codes. */
#ifndef GS_CMD_CMD_H
#define GS_CMD_CMD_H

#include "cmd/view.h"

extern const gs_view gs_view_kernels;
extern const gs_view gs_view_ops;
extern const gs_view gs_view_callsites;
extern const gs_view gs_view_api;
extern const gs_view gs_view_memcpy;
extern const gs_view gs_view_steps;
extern const gs_view gs_view_breakdown;
extern const gs_view gs_view_idle;
extern const gs_view gs_view_launch;
extern const gs_view gs_view_sync;
extern const gs_view gs_view_memory;

int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_monitor(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_comm(int argc, char **argv);
int cmd_stragglers(int argc, char **argv);
int cmd_summarize(int argc, char **argv);
int cmd_ncu(int argc, char **argv);
int cmd_whatif(int argc, char **argv);
int cmd_capture(int argc, char **argv);

#endif
