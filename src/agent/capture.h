/* Capture control: which spans of time the agent keeps (gpuscope run --delay, --duration,
 * --capture-range, --steps). Records are still produced outside the windows, and dropped by the
 * writer: toggling CUPTI kinds at run time re-instruments loaded modules (seconds of stall).
 *
 * The launcher passes the options in GPUSCOPE_CAPTURE as `key=value` pairs separated by ';':
 *   from=NS;until=NS            absolute CLOCK_REALTIME bounds (--delay, --duration)
 *   range=cudaProfilerApi       between cudaProfilerStart and cudaProfilerStop
 *   range=nvtx:NAME             while an NVTX range named NAME is open
 *   steps=W,WU,A,R              torch.profiler's schedule, counted on step ranges: skip W steps,
 *                               W+WU..W+WU+A-1 are kept; REPEAT cycles (0: for ever)
 *   step=REGEX                  what a step range is called (default ^ProfilerStep#)
 *   range=on-demand             no window until one is asked for at run time (gpuscope capture,
 *                               ondemand.c): gsa_capture_arm_steps or gsa_capture_arm_time
 * A record is kept when it overlaps a window and overlaps [from, until]. On demand, a window
 * holds exactly its steps: a record must overlap it for a positive time (the step before ends
 * where the window opens, the step after begins where it closes), or be an instant inside it. */
#ifndef GS_AGENT_CAPTURE_H
#define GS_AGENT_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum gsa_range_mode {
    GSA_RANGE_NONE,     /* the whole run (within from/until) */
    GSA_RANGE_PROFILER, /* cudaProfilerStart/Stop */
    GSA_RANGE_NVTX,     /* an NVTX range by name */
    GSA_RANGE_STEPS,    /* a step schedule */
    GSA_RANGE_ON_DEMAND, /* one window at a time, armed at run time */
} gsa_range_mode;

/* Parses GPUSCOPE_CAPTURE (NULL or "" = capture everything). 0, or -1 with a message in
 * `err` (then the agent records the note and captures everything). */
int gsa_capture_init(const char *spec, char *err, size_t errlen);

gsa_range_mode gsa_capture_mode(void);

/* Any thread, rare: cudaProfilerStart (start=true) or Stop at time ts. */
void gsa_capture_profiler_api(bool start, int64_t ts);

/* A time its caller did not read: the capture layer reads the clock itself where the event
 * counts (a dormant agent's NVTX calls then cost no clock read). */
#define GSA_TS_UNREAD INT64_MIN

/* Whether the mode watches NVTX names (nvtx:NAME, steps, on demand); set by gsa_capture_init. */
extern bool gsa_capture_watches_ranges;

void gsa_capture_push_watched(const char *name, size_t len, int64_t ts);
void gsa_capture_pop_watched(int64_t ts);
void gsa_capture_start_watched(const char *name, size_t len, uint64_t id, int64_t ts);
void gsa_capture_end_watched(uint64_t id, int64_t ts);
void gsa_capture_marked_watched(const char *name, size_t len, uint64_t id, int64_t start,
                                int64_t end);

/* Any thread: NVTX ranges opened and closed (push/pop on the calling thread; start/end by id).
 * Inline and a single test when the mode needs no names: they sit in every NVTX call. */
static inline void gsa_capture_push(const char *name, size_t len, int64_t ts)
{
    if (gsa_capture_watches_ranges)
        gsa_capture_push_watched(name, len, ts);
}
static inline void gsa_capture_pop(int64_t ts)
{
    if (gsa_capture_watches_ranges)
        gsa_capture_pop_watched(ts);
}
static inline void gsa_capture_start(const char *name, size_t len, uint64_t id, int64_t ts)
{
    if (gsa_capture_watches_ranges)
        gsa_capture_start_watched(name, len, id, ts);
}
static inline void gsa_capture_end(uint64_t id, int64_t ts)
{
    if (gsa_capture_watches_ranges)
        gsa_capture_end_watched(id, ts);
}

/* ---- on demand: the steps seen, and one window armed at a time (writer only, but for the
 * NVTX hooks above, which track steps on any thread) ---- */

/* The steps as the status file publishes them (ondemand.h). */
typedef struct gsa_step_info {
    int64_t number;  /* the latest step begun: the N of ProfilerStep#N, else a count; -1 none */
    int64_t last_ns; /* the latest complete step's duration, 0 = none yet */
    uint64_t seen;   /* steps begun */
} gsa_step_info;
gsa_step_info gsa_capture_steps(void);

/* Arms a window of `n` steps from the step numbered `first` (-1: the next step), opened where
 * that step begins (or the step before it ends) no earlier than `armed_at`, closed where its
 * n-th step ends (or the next one begins). Replaces any earlier window. */
void gsa_capture_arm_steps(int64_t first, uint32_t n, int64_t armed_at);
/* Arms a window of time [from, until]. */
void gsa_capture_arm_time(int64_t from, int64_t until);
/* No window: nothing is kept until the next arm. */
void gsa_capture_disarm(void);

typedef enum gsa_window_state {
    GSA_WINDOW_NONE,   /* not armed */
    GSA_WINDOW_ARMED,  /* armed, not open yet */
    GSA_WINDOW_OPEN,
    GSA_WINDOW_CLOSED, /* its end lies at or before `now` */
} gsa_window_state;
/* Where the armed window stands at time `now`; with `steps`, the steps it spans so far. */
gsa_window_state gsa_capture_window(int64_t now, uint32_t *steps);

/* A whole range marked once it ended (gpuscope_range_at), as its start and end. */
static inline void gsa_capture_marked(const char *name, size_t len, uint64_t id, int64_t start,
                                      int64_t end)
{
    if (gsa_capture_watches_ranges)
        gsa_capture_marked_watched(name, len, id, start, end);
}

/* Whether [start, end] overlaps a kept window. Any thread. */
bool gsa_capture_keeps(int64_t start, int64_t end);

/* Back to the initial state (fork child, tests). */
void gsa_capture_reset(void);

#endif
