/* `gpuscope export --format chrome`: the trace model as Chrome trace JSON in the Kineto dialect
 * (doc/export.md has the mapping), which Perfetto, chrome://tracing, HTA and gpuscope itself
 * read. Streaming: events go out as they are visited, nothing is built in memory. */
#ifndef GS_EXPORT_CHROME_H
#define GS_EXPORT_CHROME_H

#include <stdio.h>

#include "common/error.h"
#include "model/trace.h"

/* Writes every trace of `p` as one JSON object; with several traces each gets a process group
 * of its own (ids moved as chrome_write.h says). `name` becomes "traceName". Returns 0, or -1
 * with err set when memory is exhausted (write errors are the caller's to check on `out`). */
int gs_export_chrome(const gs_profile *p, FILE *out, const char *name, gs_error *err);

#endif
