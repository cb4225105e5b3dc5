/* The injected agent's process-wide core (agent.c), shared by its NVTX half (nvtx_inject.c) and
 * its CUPTI half (cupti_inject.c).
 *
 * The agent lives inside the user's program: it never prints, exits or aborts there. Any failure
 * turns tracing off and, when a trace file is open, is recorded in it as a NOTE. One process
 * writes one .gst file, `$GPUSCOPE_RUN_DIR/<pid>.gst`, opened lazily on the first event; a
 * forked child that records anything opens its own file and never touches its parent's.
 *
 * Threads: producers (application threads, CUPTI's threads) only append to lock-free queues;
 * one writer thread per process drains them every flush period, encodes records and writes
 * whole chunks. Functions marked "writer only" may be called only from the drain hooks, which
 * run on the writer thread (or on the exiting thread after the writer stopped), serialised by
 * the agent. */
#ifndef GS_AGENT_AGENT_H
#define GS_AGENT_AGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "common/gst_format.h"
#include "common/ondemand.h"
#include "common/run_env.h"

#define GSA_EXPORT __attribute__((visibility("default")))

/* Parts of the trace, from GPUSCOPE_TRACE (all on when unset). */
enum gsa_part {
    GSA_PART_CUDA = 1u << 0,   /* CUPTI activity: kernels, copies, API calls, sync */
    GSA_PART_NVTX = 1u << 1,   /* NVTX ranges and marks */
    GSA_PART_MEMORY = 1u << 2, /* CUPTI MEMORY2 allocations and frees */
};

/* Starts the agent in this process if it is not running (first call per process, also after a
 * fork): reads the environment, opens the file, writes the PROCESS record, starts the writer
 * thread and installs the exit, fork and signal hooks. Safe from any thread, any number of
 * times; cheap after the first. Returns true when tracing is on. */
bool gsa_start(void);

/* Stops the writer, drains every hook one last time (final=true), writes the last chunk and
 * closes the file. The atexit and signal paths call it; tests call it to read what was written.
 * After it, gsa_start() may start again (a new file, for tests). */
void gsa_shutdown(void);

/* True while records are kept: a file is open. Outside on-demand runs, from start to exit; on
 * demand, from a window's request to its end. Any thread; one relaxed load. */
bool gsa_recording(void);

/* True in a process started dormant (`gpuscope run --on-demand`): its files are windows. */
bool gsa_on_demand(void);

/* True during the drain round that ends a window (not the process): what is still open then
 * stays out of that window's file, and the next window starts afresh. */
bool gsa_window_closing(void);

/* The collection the run asked for (GPUSCOPE_KINDS); a request may choose another. */
gs_od_kinds gsa_run_kinds(void);

/* A switch a window turns: on (with the window's kinds) when its request is accepted, before it
 * opens, so that starting costs land outside it; off once it closed (flush what is pending,
 * then record nothing). Writer only; registered once. */
typedef void (*gsa_switch_fn)(bool on, gs_od_kinds kinds);
void gsa_register_switch(gsa_switch_fn fn);

/* Writer only, on demand (ondemand_agent.c): opens dir/<pid>.gst for window `window` (and its
 * .target, `pattern` expanded), writes the PROCESS record and turns the switches on. 0, or -1
 * when the agent is not dormant or the file cannot be made. */
int gsa_window_open(const char *dir, const char *pattern, long window, gs_od_kinds kinds);

/* Writer only: turns the switches off, drains everything one last time into the window's file,
 * ends and closes it; the agent is dormant again. */
void gsa_window_close(void);

/* The path of this process's file once started ("" before), for tests. */
const char *gsa_file_path(void);

/* True when `part` is to be recorded (parsed once from GPUSCOPE_TRACE). */
bool gsa_part_enabled(unsigned part);

/* True in a child forked from a process in which the agent had started: CUDA cannot be used
 * there, so the CUPTI half must stay away from it. */
bool gsa_is_forked_child(void);

/* The one clock every record uses: CLOCK_REALTIME in ns (CUPTI's default clock on Linux).
 * Inline: two of these are most of what an NVTX range costs. */
static inline int64_t gsa_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The calling thread's kernel thread id (what CUPTI reports with THREAD_ID_TYPE_SYSTEM). */
int64_t gsa_tid(void);

/* A new string id, unique in this process's file. Any thread. */
gst_strid gsa_new_strid(void);

/* A hook the writer calls each period and once more at exit, before writing the chunk.
 * `final` is true on the last call (exit, signal, a window's end): flush everything, even
 * partial data. Registered once; called on the writer thread, serialised. */
typedef void (*gsa_drain_fn)(bool final);
void gsa_register_drain(gsa_drain_fn fn);

/* Writer only: appends one fixed-size record (gst_kernel for GST_REC_KERNEL, ...). */
void gsa_write(uint32_t type, const void *rec);

/* Writer only: the id of a string, writing its STRING record the first time it is seen. */
gst_strid gsa_intern(const char *s, size_t len);

/* Writer only: defines string `id` (from gsa_new_strid) in the file. */
void gsa_define_string(gst_strid id, gst_strid domain, const char *s, size_t len);

/* Writer only: whether a record spanning [start, end] lies in a capture window (capture.h);
 * always true without capture options. */
bool gsa_captured(int64_t start, int64_t end);

/* Any thread: records a NOTE (what failed, what was lost). The text is copied; the note is
 * written by the writer thread at its next period. */
void gsa_note(uint32_t source, const char *text, uint64_t records_dropped, int64_t overhead_ns);

/* Any thread: wakes the writer now (a buffer is filling up). Async-signal-safe. */
void gsa_wake_writer(void);

#endif
