/* The readers' memory budget: a trace too large for the machine ends with a one-line error and
 * exit 3, not with the kernel's OOM killer. What counts is the model the readers fill (event
 * arrays and strings, gs_trace_bytes); indexes and analyses take about as much again, so the
 * default is half of the memory available when the command starts. */
#ifndef GS_INGEST_MEM_BUDGET_H
#define GS_INGEST_MEM_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

#include "common/error.h"
#include "model/trace.h"

#define GS_MEM_LIMIT_ENV "GPUSCOPE_MEMORY_LIMIT"

typedef struct gs_mem_budget {
    uint64_t limit;     /* bytes the traces' models may take together; UINT64_MAX: no limit */
    uint64_t used;      /* by traces already loaded under this budget */
    const char *origin; /* how the default was chosen, for the message */
    bool from_env;      /* set by GPUSCOPE_MEMORY_LIMIT */
} gs_mem_budget;

/* GPUSCOPE_MEMORY_LIMIT when set (bytes with an optional K, M, G or T suffix, powers of 1024,
 * or "none"), else half of MemAvailable (or of what the cgroup still allows, when less), read
 * once per process. A value that is not a size fails with GS_EXIT_USAGE. */
int gs_mem_budget_default(gs_mem_budget *b, gs_error *err);

/* Fails with GS_EXIT_INPUT ("PATH: byte N: the trace needs more memory than ...") once the trace
 * being read, with what the budget already holds, is over the limit. `at` is where the reader
 * is in the file. Cheap: called every few thousand events, not per event. */
int gs_mem_budget_check(const gs_mem_budget *b, const gs_trace *t, uint64_t at, gs_error *err);

/* Parses a size as GPUSCOPE_MEMORY_LIMIT takes it; false when it is not one. */
bool gs_mem_parse_size(const char *s, uint64_t *bytes);

#endif
