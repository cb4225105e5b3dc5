/* Capture on demand: how `gpuscope capture` (and `monitor --trigger`) ask a dormant agent for a
 * window, and how the agent answers. Shared by the agent and the CLI; doc/capture.md tells users
 * the same.
 *
 * The channel is a folder of small files, polled by the agent's writer thread once per flush
 * period (200 ms by default):
 *   - the agent holds no descriptor of its own in the program between polls (a program that
 *     closes every descriptor, or reuses their numbers, cannot break it), installs no signal
 *     handler and starts no extra thread;
 *   - who may ask is settled by the file system: the folder is made private (0700) by its owner,
 *     and the agent acts only on a request file owned by its own user or by root;
 *   - a folder on a shared file system reaches every rank of a job, on every node, with one
 *     request (`--job DIR`): sockets and signals reach one host.
 * The cost is a stat() per period while dormant, and up to one period of latency.
 *
 * Files in the control folder:
 *   <host>.<pid>.agent   one per process whose agent is dormant or recording: its status, written
 *                        by the agent (replaced whole, by rename) at start, when it acts on a
 *                        request, and at most once a second while its step count moves; removed
 *                        at exit unless a window is being written.
 *   request              the latest request, written by `capture` (replaced whole, by rename).
 * A window's files go into the request's `dir` (made by `capture`, private), one
 * <pid>.gst and <pid>.target per process as `gpuscope run` writes them into its run folder, so
 * `capture` merges them the same way (collect/run_outputs.h).
 *
 * Both files are `key=value` lines; unknown keys are skipped (newer writers), a line without '='
 * is an error. */
#ifndef GS_COMMON_ONDEMAND_H
#define GS_COMMON_ONDEMAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/* Set by `gpuscope run --on-demand`: the control folder. The agent then starts dormant. */
#define GS_ENV_CONTROL "GPUSCOPE_CONTROL"
/* Which CUPTI activity kinds a window (or a whole run) records: "full" (default) or "light". */
#define GS_ENV_KINDS "GPUSCOPE_KINDS"

#define GS_OD_REQUEST_FILE "request"
#define GS_OD_AGENT_SUFFIX ".agent"
#define GS_OD_HOST_MAX 64
#define GS_OD_PATH_MAX 4096
#define GS_OD_TEXT_MAX 8192 /* a whole status or request file */

/* What the agent is doing. */
typedef enum gs_od_state {
    GS_OD_DORMANT,   /* nothing recorded, no activity kind enabled */
    GS_OD_ARMED,     /* a request is accepted, its window has not opened yet */
    GS_OD_RECORDING, /* the window is open */
    GS_OD_WRITTEN,   /* the window's file is complete (`file`); dormant again */
    GS_OD_FAILED,    /* the request could not be served (`error` says why); dormant again */
    GS_OD__COUNT
} gs_od_state;

/* The collection a window makes (GS_ENV_KINDS, `kinds=` in a request). */
typedef enum gs_od_kinds {
    GS_OD_KINDS_DEFAULT, /* the run's setting (a request that does not choose) */
    GS_OD_KINDS_FULL,    /* kernels, copies, sets, runtime and driver calls, sync, memory */
    GS_OD_KINDS_LIGHT,   /* kernels, copies, sets and runtime calls only */
} gs_od_kinds;

/* <host>.<pid>.agent */
typedef struct gs_od_status {
    long pid;
    char host[GS_OD_HOST_MAX];
    int rank;             /* $RANK, -1 when unset */
    gs_od_state state;
    uint64_t request;     /* the id of the last request acted on, 0 = none */
    int64_t step;         /* the number of the latest step begun, -1 = no step seen */
    int64_t step_ns;      /* the duration of the latest complete step, 0 = unknown */
    uint64_t steps_seen;  /* steps begun since the agent started */
    int64_t updated_ns;   /* when this was written (CLOCK_REALTIME) */
    uint64_t windows;     /* windows written since the agent started */
    char file[GS_OD_PATH_MAX];  /* the latest window's .gst (in the request's dir) */
    char error[256];      /* with GS_OD_FAILED */
} gs_od_status;

/* `request` */
typedef struct gs_od_request {
    uint64_t id;          /* > 0, larger than every earlier request in the folder */
    char targets[1024];   /* "*" (every agent of the folder) or "host:pid,host:pid,..." */
    uint32_t steps;       /* a window of this many steps ... */
    int64_t start_step;   /* ... from the step with this number, -1 = the next step to begin */
    int64_t from_ns;      /* or a window of time: from this instant (CLOCK_REALTIME), 0 = at once */
    int64_t duration_ns;  /* for this long (used when steps is 0) */
    int64_t deadline_ns;  /* the window ends by then whatever its steps (CLOCK_REALTIME), 0 = none:
                           * an agent whose steps stop never stays recording */
    gs_od_kinds kinds;
    char dir[GS_OD_PATH_MAX];    /* where the window's files go */
    char output[GS_OD_PATH_MAX]; /* the output pattern (%p %h %q{VAR} %w), "" = the run's */
} gs_od_request;

/* The state's name as written in the file ("dormant", "armed", ...). */
const char *gs_od_state_name(gs_od_state s);
/* "full", "light" ("" for the default). */
const char *gs_od_kinds_name(gs_od_kinds k);
/* Parses a kinds name ("full", "light"); -1 when unknown. */
int gs_od_kinds_parse(const char *s, gs_od_kinds *out);

/* The text of a status or request: 0, or -1 when it does not fit `cap`. */
int gs_od_status_format(const gs_od_status *s, char *buf, size_t cap);
int gs_od_request_format(const gs_od_request *r, char *buf, size_t cap);

/* Parses `len` bytes. 0, or -1 with a reason in err (a line without '=', a bad number, a value
 * too long, a request with neither steps nor a duration, or no id). */
int gs_od_status_parse(const char *text, size_t len, gs_od_status *s, char *err, size_t errlen);
int gs_od_request_parse(const char *text, size_t len, gs_od_request *r, char *err, size_t errlen);

/* Whether the request names the process `pid` on `host`. */
bool gs_od_request_targets(const gs_od_request *r, const char *host, long pid);

/* "<host>.<pid>.agent" into out; -1 when it does not fit. */
int gs_od_status_name(const char *host, long pid, char *out, size_t cap);

/* Writes `len` bytes to dir/name whole: into a hidden temporary file beside it, then rename(), so
 * a reader sees the old text or the new, never a part. The file is readable by all (the folder is
 * what is private). 0, or -1 with errno set. */
int gs_od_write_file(const char *dir, const char *name, const char *text, size_t len);

/* Reads dir/name (at most cap-1 bytes, NUL-terminated) with its stat, without following a
 * symbolic link. Returns the length, or -1 with errno set. */
long gs_od_read_file(const char *dir, const char *name, char *buf, size_t cap, struct stat *st);

/* Whether the process `pid` of this host has ended: gone, or a zombie not yet reaped (which
 * answers kill() but will never read a request); a pid no process can have (0, negative, past
 * pid_t) too. False for a process of another user. */
bool gs_od_process_ended(long pid);

/* Whether a file owned by `owner` may give orders to a process running as `euid`: its own
 * user's, or root's. */
bool gs_od_trusted_owner(uid_t owner, uid_t euid);

#endif
