/* Reading a monitor log (jsonl.h) back as snapshots, for --replay: consecutive lines with the
 * same "ts" are one sample. Memory is bounded: a line longer than GS_REPLAY_MAX_LINE or a sample
 * with more than GS_REPLAY_MAX_GPUS GPUs is an error, not growth. The bound holds the longest
 * line the monitor writes, so that it always reads its own log back: a GPU with
 * GS_NVML_MAX_PROCS processes (replay.c checks the sum). */
#ifndef GS_MONITOR_REPLAY_H
#define GS_MONITOR_REPLAY_H

#include "common/error.h"
#include "monitor/snapshot.h"

#define GS_REPLAY_MAX_LINE ((size_t)32 << 20)
#define GS_REPLAY_MAX_GPUS 64

typedef struct gs_replay gs_replay;

/* -1 with GS_EXIT_INPUT when the file cannot be opened. */
int gs_replay_open(const char *path, gs_replay **out, gs_error *err);
void gs_replay_close(gs_replay *r);

/* The next sample into out: 1, or 0 at the end of the log, or -1 with GS_EXIT_INPUT and
 * "PATH: line N: ..." for a malformed line. */
int gs_replay_next(gs_replay *r, gs_snapshot *out, gs_error *err);

/* Parses one log line (without its newline) into a snapshot of at most one GPU; `where` names
 * it in messages ("PATH: line N"). */
int gs_replay_parse_line(const char *line, size_t len, const char *where, gs_snapshot *out,
                         gs_error *err);

#endif
