/* The keys of a Kineto file's top level that describe its trace rather than hold its events
 * (devices, rank, clock, and what gpuscope's export adds: events skipped, tracing cost, who
 * recorded them). Each entry of "gpuscopeRanks" is made of the same keys, for its rank.
 * Internal to src/ingest. */
#ifndef GS_INGEST_KINETO_HEADER_H
#define GS_INGEST_KINETO_HEADER_H

#include <stdbool.h>

#include "ingest/json.h"
#include "ingest/kineto_event.h"

/* When the key just returned is one of them, reads its value into t and sets *known; else
 * leaves the value unread. 0, or -1 with j's error. */
int kineto_read_header_key(gs_json *j, gs_trace *t, kscratch *s, bool *known);

#endif
