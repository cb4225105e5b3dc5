/* The reader of the legacy autograd-profiler export (a top-level JSON array of events). Internal to
 * src/ingest; use load.h. */
#ifndef GS_INGEST_LEGACY_H
#define GS_INGEST_LEGACY_H

#include "ingest/json.h"
#include "ingest/load.h"

/* After the top-level '[': reads a legacy export. */
int legacy_read_array(gs_json *j, gs_trace *t, const gs_load_opts *opts);

#endif
