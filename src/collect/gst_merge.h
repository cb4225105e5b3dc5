/* Merging .gst files (one per process, plus the launcher's sampler) into one. Records are copied
 * as they are encoded; only string ids are renumbered, since every writer numbers its strings
 * from 1. A file cut short (a killed process) contributes its complete chunks, and a note that
 * says what it lost (a torn chunk's records, or that its end is missing). The output ends with
 * its own end marker. */
#ifndef GS_COLLECT_GST_MERGE_H
#define GS_COLLECT_GST_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/gst_format.h"

/* A NOTE the collector wrote (what failed, what was lost, what tracing cost), with its text
 * resolved: the agent words it for the run's summary (run_notes.h); CUPTI's overhead records
 * are notes named by their kind. */
typedef struct gs_merge_note {
    char *text;
    uint32_t source;           /* enum gst_note_source */
    uint64_t count;            /* notes with this text */
    uint64_t records_dropped;  /* summed */
    int64_t overhead_ns;       /* summed */
} gs_merge_note;

typedef struct gs_merge_stats {
    uint64_t records[GST_REC__COUNT]; /* copied, by type */
    uint64_t torn_files;              /* inputs that ended in a partial chunk */
    uint64_t cut_files;               /* process files that ended without their end marker */
    uint64_t bytes_written;
    gs_merge_note *notes;
    size_t nnotes;
} gs_merge_stats;

/* Merges `inputs` (in that order) into `output`, a new file, or with `replace` an existing
 * regular file truncated; never through a symbolic link (a dangling one would create its target
 * elsewhere) nor into a FIFO or device. Returns 0, or -1 with `err` set (GS_EXIT_INPUT for an
 * unreadable input, GS_EXIT_ENV for the output). */
int gs_gst_merge(const char *const *inputs, size_t n, const char *output, bool replace,
                 gs_merge_stats *stats, gs_error *err);

void gs_merge_stats_free(gs_merge_stats *stats);

#endif
