/* The readers' memory budget: what the model the readers fill (event arrays and strings,
 * gs_trace_bytes) may take. A Kineto file over it is read again as a window of its steps that
 * fits (ingest/kineto_window.h); a pipe or a .gst file over it ends with a one-line error and
 * exit 3, not with the kernel's OOM killer. Indexes and analyses take about as much again, so
 * the default is half of the memory available when the command starts, and at most
 * GS_MEM_DEFAULT_MAX, so that any trace is analysed in bounded memory (about twice that). */
#ifndef GS_INGEST_MEM_BUDGET_H
#define GS_INGEST_MEM_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "model/trace.h"

#define GS_MEM_LIMIT_ENV "GPUSCOPE_MEMORY_LIMIT"
#define GS_MEM_DEFAULT_MAX ((uint64_t)640 << 20)

typedef struct gs_mem_budget {
    uint64_t limit;     /* bytes the traces' models may take together; UINT64_MAX: no limit */
    uint64_t used;      /* by traces already loaded under this budget */
    const char *origin; /* how the default was chosen, for the message */
    bool from_env;      /* set by GPUSCOPE_MEMORY_LIMIT */
    /* Set when a Kineto trace was found over the limit: the loader then reads a window of its
     * steps instead, sized by a survey of the whole file (ingest/kineto_window.h). */
    bool over;
} gs_mem_budget;

/* GPUSCOPE_MEMORY_LIMIT when set (bytes with an optional K, M, G or T suffix, powers of 1024,
 * or "none"), else half of MemAvailable (or of what the cgroup still allows, when less), at most
 * GS_MEM_DEFAULT_MAX, read once per process. A value that is not a size fails with GS_EXIT_USAGE. */
int gs_mem_budget_default(gs_mem_budget *b, gs_error *err);

/* Fails with GS_EXIT_INPUT ("PATH: byte N: the trace needs more memory than ...") once the trace
 * being read, with what the budget already holds, is over the limit. `at` is where the reader
 * is in the file. Cheap: called every few thousand events, not per event. */
int gs_mem_budget_check(const gs_mem_budget *b, const gs_trace *t, uint64_t at, gs_error *err);

/* The share of a trace whose model would take `bytes` that fits in what the budget has left: at
 * most 1. */
double gs_mem_budget_fits(const gs_mem_budget *b, uint64_t bytes);

/* Parses a size as GPUSCOPE_MEMORY_LIMIT takes it; false when it is not one. */
bool gs_mem_parse_size(const char *s, uint64_t *bytes);

#endif
