/* The dormant agents a capture asks (common/ondemand.h): the control folder of a process, found
 * in its environment; the process and its descendants that carry an agent, or every agent of a
 * job's folder; and the status files of processes that ended, removed. */
#ifndef GS_COLLECT_CAPTURE_TARGETS_H
#define GS_COLLECT_CAPTURE_TARGETS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/error.h"
#include "common/ondemand.h"

typedef struct gs_capture_agent {
    gs_od_status st;                /* as last read */
    char name[GS_OD_HOST_MAX + 32]; /* its status file, in the folder */
    bool local;                     /* on this host: whether its process lives can be told */
} gs_capture_agent;

typedef struct gs_capture_targets {
    char folder[PATH_MAX];
    gs_capture_agent *v;
    size_t n;
    long *stale; /* processes that ended, whose status files were removed */
    size_t nstale;
} gs_capture_targets;

/* The control folder of process `pid` (GPUSCOPE_CONTROL in `proc_root`/PID/environ). Errors:
 * no such process (GS_EXIT_USAGE), another user's process (GS_EXIT_ENV: only its owner or root
 * may read its environment, and capture it), one not started by `gpuscope run --on-demand`. */
int gs_capture_folder_of(long pid, const char *proc_root, char *out, size_t cap, gs_error *err);

/* Whether a control folder may be used: a folder (no link) of this user's or root's (any
 * user's, for root) that no one else can write in, since agents obey the requests put there. */
int gs_capture_check_folder(const char *folder, gs_error *err);

/* The agents of `folder`: with root_pid > 0 only that process and its descendants (found in
 * `proc_root`), else all. Statuses of local processes that ended are removed (t->stale says
 * which). No agent left is an error (GS_EXIT_INPUT). `t` is freed by the caller either way. */
int gs_capture_find(const char *folder, long root_pid, const char *proc_root,
                    gs_capture_targets *t, gs_error *err);

/* Reads an agent's status again; false when it cannot be read (its process ended cleanly). */
bool gs_capture_reread(const char *folder, gs_capture_agent *a);

/* Whether the agent's process has ended (false when it is on another host: unknown). */
bool gs_capture_gone(const gs_capture_agent *a);

void gs_capture_targets_free(gs_capture_targets *t);

#endif
