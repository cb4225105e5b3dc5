/* Reading one rank of a file that holds several (gpuscope's chrome export, ingest/rank_parts.h):
 * the part's events are its pids', and its pids, ids and times are moved back to what its own
 * file had. Internal to src/ingest; load.h lists a file's parts and reads each. */
#ifndef GS_INGEST_KINETO_PART_H
#define GS_INGEST_KINETO_PART_H

#include <stdbool.h>
#include <stdint.h>

#include "ingest/json.h"
#include "ingest/kineto_event.h"

/* The parts of the JSON object being read, its '{' just returned: the entries of
 * "gpuscopeRanks" when that key comes before "traceEvents", else 0 (a trace of one rank, or not
 * one gpuscope wrote). -1 with j's error when the table is not an array of objects or holds more
 * than GS_PARTS_MAX. Reads only the keys before the events. */
int kineto_count_parts(gs_json *j, uint32_t *n);

typedef struct kpart {
    uint32_t index;  /* the part read: its entry in gpuscopeRanks, and its pids and ids */
    bool found;      /* its entry was read */
    gs_ns base;      /* its entry's baseTimeNanoseconds: its own clock */
    gs_ns file_base; /* the file's: the clock its events are written on */
    gs_ns shift;     /* base - file_base, set by kpart_start */
} kpart;

/* Before the events: the part's entry must have been read, and its clock be within reach of the
 * file's. 0, or -1 with j's error. */
int kpart_start(gs_json *j, kpart *p);

/* Whether the event is the part's; when it is, its pid, correlation and External ids and time are
 * moved back. */
bool kpart_take(const kpart *p, kevent *ev);

#endif
