/* What `gpuscope run` says about one output after the program ended, from the notes the
 * collector wrote into it (gst_merge.h): first what CUDA tracing cost the program, in one line
 * from CUPTI's overhead records, then each other note once, as the agent worded it (what
 * happened and what to do). */
#ifndef GS_COLLECT_RUN_NOTES_H
#define GS_COLLECT_RUN_NOTES_H

#include <stddef.h>
#include <stdint.h>

#include "collect/gst_merge.h"
#include "common/error.h"

typedef struct gs_run_notes {
    char **lines; /* each owned, without "gpuscope: " or a newline */
    size_t n;
    int64_t overhead_ns; /* CUDA tracing's own time in the program, all kinds */
} gs_run_notes;

/* The lines for the notes of `st`; run_ns is how long the program ran (0: unknown), for the
 * cost's share. 0, or -1 with err (out of memory). */
int gs_run_notes_make(const gs_merge_stats *st, int64_t run_ns, gs_run_notes *out,
                      gs_error *err);
void gs_run_notes_free(gs_run_notes *n);

#endif
