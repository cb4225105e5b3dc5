/* The monitor's log: JSON Lines, one object per GPU per sample (one per sample with no GPU, in
 * --host-only mode). doc/monitor.md describes the fields; replay.h reads them back.
 *
 * Each line goes out in a single write(2) on a descriptor opened with O_APPEND, so a monitor
 * killed at any instant leaves only whole lines, and two monitors appending to one file do not
 * interleave inside a line. */
#ifndef GS_MONITOR_JSONL_H
#define GS_MONITOR_JSONL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/error.h"
#include "common/json_write.h"
#include "monitor/snapshot.h"

/* Line `i` of the sample (GPU i, or the host line when the sample has no GPU), with its '\n'. */
void gs_jsonl_line(FILE *out, const gs_snapshot *s, size_t i);

/* Appends every line of the sample to fd. -1 (GS_EXIT_ENV) when a write fails. */
int gs_jsonl_append(int fd, const gs_snapshot *s, gs_error *err);

/* A metric value as the log, the JSON and the CSV write it: integers exactly (bytes exceed what
 * %g keeps), fractions to 0.001, null when not finite. Returns buf. */
#define GS_JSONL_NUMBER_BUF 32
const char *gs_jsonl_number(char buf[GS_JSONL_NUMBER_BUF], double v);

/* A metric as a member of a record: its value when known, else null. */
void gs_jsonl_put_metric(gs_json_writer *w, const char *key, bool known, double v);
/* A sample's time as the log, the JSON and the CSV write it: seconds since the epoch with the ms
 * as three decimals. Returns buf. */
const char *gs_jsonl_ts(char buf[GS_JSONL_NUMBER_BUF], int64_t ts_ms);
/* The member "processes": a GPU's processes with their GPU memory, or null when not read. */
void gs_jsonl_put_processes(gs_json_writer *w, const gs_mon_gpu *g);

/* The JSONL value of an availability that is not GS_NVML_OK: "unsupported", "failed", or NULL
 * for not read; and back (-1 for an unknown name). */
const char *gs_jsonl_avail_name(int avail);
int gs_jsonl_avail_parse(const char *name, size_t len);

#endif
