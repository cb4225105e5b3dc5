/* CPU time and memory read from a /proc directory: of a process tree (the sampler of
 * `gpuscope run`), of the whole host, and the names of processes (`gpuscope monitor`).
 *
 * The root of /proc is a parameter so that tests read a fake one. A tree is the root pid and
 * every process whose chain of parents (field 4 of /proc/<pid>/stat) leads to it. CPU use comes
 * as a percentage between two reads of the same tree, 100 meaning one core busy the whole time. */
#ifndef GS_PROBE_PROC_H
#define GS_PROBE_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

typedef struct gs_proc_info {
    int64_t pid, ppid;
    uint64_t start_ticks; /* field 22, since boot: tells a reused pid from its earlier owner */
    uint64_t cpu_ticks;   /* utime + stime (fields 14, 15), all threads of the process */
    uint64_t rss_bytes;   /* VmRSS of /proc/<pid>/status; 0 for kernel threads or when gone */
} gs_proc_info;

/* One read of a tree. Zero it before the first read; a read reuses its memory. */
typedef struct gs_proc_tree {
    gs_proc_info *v; /* the tree's processes, by ascending pid */
    size_t n, cap;
    uint64_t cpu_ticks, rss_bytes; /* sums over v */
    gs_proc_info *all; /* scratch: every process of the last scan */
    size_t nall, allcap;
} gs_proc_tree;

/* Reads the tree of `root_pid` under `proc_root` ("/proc"). A root that does not exist (the
 * target exited) gives an empty tree, not an error; processes that exit during the scan are
 * left out. -1 (GS_EXIT_ENV) when `proc_root` cannot be read, or out of memory. */
int gs_proc_read_tree(const char *proc_root, int64_t root_pid, gs_proc_tree *t, gs_error *err);

/* CPU ticks the tree used between two reads: per process, the growth of its ticks; a process
 * new in `cur` counts whole. A process that exited in between loses its last partial interval
 * (its ticks are gone from /proc), which is why this is not cur->cpu_ticks - prev->cpu_ticks. */
uint64_t gs_proc_ticks_between(const gs_proc_tree *prev, const gs_proc_tree *cur);

/* gs_proc_ticks_between as % of one core over `dt_ns`; 0 when dt_ns <= 0. */
double gs_proc_cpu_pct(const gs_proc_tree *prev, const gs_proc_tree *cur, int64_t dt_ns,
                       long ticks_per_s);

/* sysconf(_SC_CLK_TCK): the unit of the stat times (100 on Linux). */
long gs_proc_ticks_per_second(void);

void gs_proc_tree_free(gs_proc_tree *t);

/* The host's CPU use and memory; each part is absent until it could be read (CPU use needs two
 * reads). */
typedef struct gs_host_usage {
    bool have_cpu, have_mem;
    double cpu_pct; /* all cores, 0..100 */
    uint64_t mem_total_bytes, mem_used_bytes; /* used = MemTotal - MemAvailable */
} gs_host_usage;

typedef struct gs_host_probe {
    const char *proc_root; /* "/proc" */
    bool have_prev;
    uint64_t prev_busy, prev_total; /* jiffies of the previous /proc/stat read */
} gs_host_probe;

/* Reads the host's CPU use since the previous call (absent on the first) and its memory into
 * out. A part that cannot be read stays absent: host metrics never stop the monitor. */
void gs_host_read(gs_host_probe *h, gs_host_usage *out);

/* The command name of process pid (/proc/<pid>/comm), or "" when it cannot be read. */
void gs_host_proc_name(const char *proc_root, uint32_t pid, char *buf, size_t cap);

#endif
