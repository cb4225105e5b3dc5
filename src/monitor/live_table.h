/* The monitor's output on stdout: a table for people, CSV (one row per GPU per sample) and JSON
 * (one object per sample per line, so a stream of samples is JSON Lines). */
#ifndef GS_MONITOR_LIVE_TABLE_H
#define GS_MONITOR_LIVE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "monitor/snapshot.h"

/* Processes the table lists, largest GPU memory first, over all GPUs. */
#define GS_LIVE_TABLE_TOP_PROCS 10

/* Per GPU: utilization, memory, power, temperature, clocks, PCIe, throttle reasons; then the
 * top processes by GPU memory and the host line. `note` (may be NULL) is added to the title,
 * e.g. that the sample is stale. */
void gs_live_table_text(FILE *out, const gs_snapshot *s, const char *note);

/* One row per GPU; the header first when `header`. */
void gs_live_table_csv(FILE *out, const gs_snapshot *s, bool header);

void gs_live_table_json(FILE *out, const gs_snapshot *s);

#endif
