/* Nesting intervals per thread: ranges and CUDA calls sorted so that a sweep over one thread at a
 * time, keeping a stack of open intervals, meets every interval after the ones that enclose it.
 * The model's operator tree (gs_trace_index), the Python call sites and the start-up phase's own
 * times all nest this way. */
#ifndef GS_MODEL_NESTING_H
#define GS_MODEL_NESTING_H

#include <stdint.h>

#include "model/trace.h"

typedef struct gs_nest_item {
    int64_t pid, tid;
    gs_ns start, end;
    uint32_t idx;   /* into the ranges or, when is_api, the API calls */
    uint8_t is_api; /* a range sorts before an API call with the same interval: it encloses it */
} gs_nest_item;

/* qsort order: by process, thread, start; the longer interval first; ranges before calls; then
 * by index, so the order is total. */
int gs_nest_item_cmp(const void *a, const void *b);

#endif
