/* The launched program: started with the launcher's environment, its termination signals
 * forwarded, its exit status returned as a shell would report it. */
#ifndef GS_COLLECT_CHILD_H
#define GS_COLLECT_CHILD_H

#include <sys/types.h>

#include "common/error.h"

/* Checks, as execvp will, that `prog` names a program that can run (searched in PATH when it
 * has no '/'), so the caller can refuse before saying anything else. 0, or -1 with err: exit
 * code 127 when it is not found, 126 when it is not executable. */
int gs_child_check(const char *prog, gs_error *err);

/* Starts argv (searched in PATH). Returns 0 with *pid set, or -1 with err: exit code 127 when
 * the program is not found, 126 when it cannot be executed, as shells report them. */
int gs_child_start(char *const argv[], pid_t *pid, gs_error *err);

/* From now until gs_child_wait returns, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1 and SIGUSR2
 * sent to the launcher by another process (kill, a batch system) are passed on to the child.
 * Those from the terminal (Ctrl-C) reach the child by themselves, so they are not sent twice. */
void gs_child_forward_signals(pid_t pid);

/* Waits for the child; returns its exit code, or 128 + the signal that killed it. */
int gs_child_wait(pid_t pid);

#endif
