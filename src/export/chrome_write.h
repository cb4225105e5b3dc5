/* The pieces every part of the Chrome trace writer shares: where it writes, how a trace's ids
 * are placed in the file (one process group per rank), and the event and args syntax. */
#ifndef GS_EXPORT_CHROME_WRITE_H
#define GS_EXPORT_CHROME_WRITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/json_write.h"
#include "model/trace.h"

/* Kineto's conventions (libkineto's output_json.cpp; doc/export.md has the mapping): a GPU
 * "process" is the device index, its threads are CUDA streams, GPU-side sync records go on
 * stream + 1000000. */
#define CHROME_SYNC_TID_OFFSET 1000000

typedef struct chrome_coll_key chrome_coll_key; /* export/chrome_coll.c */

typedef struct chrome_ctx {
    gs_json_writer *w; /* inside the "traceEvents" array */
    const gs_trace *t;
    bool multi;    /* several traces in one file */
    size_t index;  /* of t in the profile */
    gs_ns shift;   /* added to t's times to put them on the file's clock */
    bool args;     /* the current event has an open "args" object */
    chrome_coll_key *coll; /* t's collective args by where they go (chrome_coll.h) */
    size_t ncoll;
} chrome_ctx;

/* In a file of several traces, trace i's pids and ids are moved as ingest/rank_parts.h says, so
 * that none collide and gpuscope reads each trace back on its own. */
int64_t chrome_host_pid(const chrome_ctx *c, int64_t pid);
int64_t chrome_gpu_pid(const chrome_ctx *c, int64_t device);
/* Correlation ids (and the flow ids made of them) and External ids, which repeat across ranks:
 * still exact in a JavaScript number when moved. 0 (unknown) stays 0, and an External id below 0
 * (no link) as it is. */
uint64_t chrome_correlation(const chrome_ctx *c, uint64_t correlation);
int64_t chrome_external_id(const chrome_ctx *c, int64_t external_id);

/* Opens an event with its "ph", "cat", "name", "pid" and "tid": cat may be NULL; the event stays
 * open for more members (gs_json_put_* on c->w) and arguments. */
void chrome_begin(chrome_ctx *c, char ph, const char *cat, const char *name, int64_t pid,
                  int64_t tid);
/* "ts" and, for complete events, "dur" (dur < 0: none). */
void chrome_times(chrome_ctx *c, gs_ns start, gs_ns dur);
/* Closes the args object (if any) and the event. */
void chrome_end(chrome_ctx *c);

/* One argument each; the first opens "args". */
void chrome_arg_int(chrome_ctx *c, const char *key, int64_t v);
void chrome_arg_uint(chrome_ctx *c, const char *key, uint64_t v);
void chrome_arg_real(chrome_ctx *c, const char *key, double v, int sig_digits);
void chrome_arg_str(chrome_ctx *c, const char *key, const char *v);
void chrome_arg_raw(chrome_ctx *c, const char *key, const char *json);
void chrome_arg_dim3(chrome_ctx *c, const char *key, const int32_t v[3]);

#endif
