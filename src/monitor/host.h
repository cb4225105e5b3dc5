/* Host CPU and memory, and process names, read from a /proc directory (a parameter, so that
 * tests read a fake one). */
#ifndef GS_MONITOR_HOST_H
#define GS_MONITOR_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "monitor/snapshot.h"

typedef struct gs_host_probe {
    const char *proc_root; /* "/proc" */
    bool have_prev;
    uint64_t prev_busy, prev_total; /* jiffies of the previous /proc/stat read */
} gs_host_probe;

/* Reads the host's CPU use since the previous call (absent on the first) and its memory into
 * out. A part that cannot be read stays absent: host metrics never stop the monitor. */
void gs_host_read(gs_host_probe *h, gs_mon_host *out);

/* The command name of process pid (/proc/<pid>/comm), or "" when it cannot be read. */
void gs_host_proc_name(const char *proc_root, uint32_t pid, char *buf, size_t cap);

#endif
