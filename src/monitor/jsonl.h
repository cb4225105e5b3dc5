/* The monitor's log: JSON Lines, one object per GPU per sample (one per sample with no GPU, in
 * --host-only mode). doc/monitor.md describes the fields; replay.h reads them back.
 *
 * Each line goes out in a single write(2) on a descriptor opened with O_APPEND, so a monitor
 * killed at any instant leaves only whole lines, and two monitors appending to one file do not
 * interleave inside a line. */
#ifndef GS_MONITOR_JSONL_H
#define GS_MONITOR_JSONL_H

#include <stdio.h>

#include "common/error.h"
#include "monitor/snapshot.h"

/* Line `i` of the sample (GPU i, or the host line when the sample has no GPU), with its '\n'. */
void gs_jsonl_line(FILE *out, const gs_snapshot *s, size_t i);

/* Appends every line of the sample to fd. -1 (GS_EXIT_ENV) when a write fails. */
int gs_jsonl_append(int fd, const gs_snapshot *s, gs_error *err);

/* A metric value: integers exactly (bytes exceed what %g keeps), fractions to 0.001. */
void gs_jsonl_number(FILE *out, double v);

/* The JSONL value of an availability that is not GS_NVML_OK: "unsupported", "failed", or NULL
 * for not read; and back (-1 for an unknown name). */
const char *gs_jsonl_avail_name(int avail);
int gs_jsonl_avail_parse(const char *name, size_t len);

#endif
