/* Reads a .gsum rank summary (doc/FORMAT.md, "Rank summaries"): checks the magic and version,
 * fills every known field, skips unknown keys (a later minor addition), and refuses anything
 * else with one message naming the file and byte offset (exit code 3). */
#ifndef GS_ANALYSIS_PIPELINE_GSUM_READ_H
#define GS_ANALYSIS_PIPELINE_GSUM_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/pipeline/summary.h"
#include "ingest/source.h"

/* True when the path names a summary (ends in .gsum). */
bool gs_is_gsum_path(const char *path);

int gs_gsum_read(const char *path, gs_rank_summary *out, gs_error *err);
/* The same from bytes in memory, for tests and fuzzing. */
int gs_gsum_read_buffer(const char *data, size_t size, const char *name, gs_rank_summary *out,
                        gs_error *err);

#endif
