/* Readers of Chrome-trace JSON written by PyTorch: Kineto (top-level object) and the legacy
 * autograd-profiler export (top-level array). Internal to src/ingest; use load.h. */
#ifndef GS_INGEST_KINETO_H
#define GS_INGEST_KINETO_H

#include "ingest/json.h"
#include "ingest/kineto_event.h"
#include "ingest/load.h"

/* After the top-level '{': reads the whole trace object. */
int kineto_read_object(gs_json *j, gs_trace *t, const gs_load_opts *opts);

/* After the top-level '[': reads a legacy export. */
int legacy_read_array(gs_json *j, gs_trace *t, const gs_load_opts *opts);

/* Reads the events of an array whose '[' was just returned, up to its ']'. In a legacy
 * export every element must be an event and categories come from legacy_classify. */
int kineto_read_events(gs_json *j, gs_trace *t, const gs_load_opts *opts, uint64_t *count,
                       bool legacy);

/* Gives a legacy event (no "cat") the category its pid implies. */
void legacy_classify(gs_trace *t, kevent *ev);

/* Adds one parsed event to the model by its phase and category. 0, or -1 out of memory. */
int kineto_add_event(gs_trace *t, const kevent *ev);

#endif
