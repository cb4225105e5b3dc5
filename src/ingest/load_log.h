/* What the loader tells the debug log (common/log.h) about each file: how it was opened, which
 * reader read it and in which dialect, what it kept and skipped, and what that cost. Internal to
 * src/ingest; call only when gs_log_on(GS_LOG_INFO). */
#ifndef GS_INGEST_LOAD_LOG_H
#define GS_INGEST_LOAD_LOG_H

#include <stdbool.h>

#include "ingest/kineto_window.h"
#include "ingest/source.h"
#include "model/trace.h"

/* Before reading: the path, its size, gzip or not, and the .gst reader when is_gst. */
void gs_load_log_opened(const char *path, const gs_source *src, bool is_gst);

/* After reading and indexing t: reader, dialect, rank, events per class, skipped and why, time
 * (seconds from gs_log_clock: started, parsed, indexed) and peak memory; -vv adds per-stream
 * and per-device detail. */
void gs_load_log_read(const gs_trace *t, double started, double parsed, double indexed);

/* After reading a trace too big for the memory budget as a window of its steps: which steps
 * (named in `survey`) and why. Logs only when the level is on. */
void gs_load_log_window(const gs_trace *t, const gs_trace *survey, const kwindow_plan *plan,
                        double fits);

#endif
