/* Whether two traces read from the same bytes are the same model, field for field: the check
 * that reading a file in chunks on several threads gives exactly what one thread gives. Element
 * arrays are compared as bytes (readers zero every element before filling it, so padding
 * compares too). */
#ifndef GS_TEST_TRACE_SAME_H
#define GS_TEST_TRACE_SAME_H

#include <string.h>

#include "model/trace.h"

#define TRACE_SAME_ARRAY(field)                                                                    \
    do {                                                                                           \
        if (a->field.n != b->field.n)                                                              \
            return #field ": not as many";                                                         \
        if (a->field.n && memcmp(a->field.v, b->field.v, a->field.n * sizeof *a->field.v) != 0)   \
            return #field ": different";                                                           \
    } while (0)

/* NULL when a and b are the same, else what differs first. */
static inline const char *trace_difference(const gs_trace *a, const gs_trace *b)
{
    if (a->strings.n != b->strings.n)
        return "strings: not as many";
    for (size_t i = 0; i < a->strings.n; i++)
        if (a->strings.len[i] != b->strings.len[i] ||
            memcmp(a->strings.ptr[i], b->strings.ptr[i], a->strings.len[i]) != 0)
            return "strings: different";
    if (a->id.rank != b->id.rank || a->id.world_size != b->id.world_size ||
        a->id.source != b->id.source || a->id.epoch_ns != b->id.epoch_ns)
        return "rank identity";
    if (a->format != b->format || a->recorded_by != b->recorded_by || a->pid != b->pid ||
        a->hostname != b->hostname || a->old_categories != b->old_categories ||
        a->collector_overhead_ns != b->collector_overhead_ns)
        return "trace fields";
    if (a->events_skipped != b->events_skipped ||
        memcmp(a->skipped_why, b->skipped_why, sizeof a->skipped_why) != 0 ||
        memcmp(a->lost, b->lost, sizeof a->lost) != 0)
        return "skipped or lost counts";
    TRACE_SAME_ARRAY(kernels);
    TRACE_SAME_ARRAY(memops);
    TRACE_SAME_ARRAY(syncs);
    TRACE_SAME_ARRAY(apis);
    TRACE_SAME_ARRAY(ranges);
    TRACE_SAME_ARRAY(instants);
    TRACE_SAME_ARRAY(mem_events);
    TRACE_SAME_ARRAY(counters);
    TRACE_SAME_ARRAY(devices);
    TRACE_SAME_ARRAY(threads);
    TRACE_SAME_ARRAY(coll_args);
    TRACE_SAME_ARRAY(thread_ranges);
    TRACE_SAME_ARRAY(thread_apis);
    return NULL;
}

#endif
