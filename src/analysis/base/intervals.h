/* Sets of time intervals: the arithmetic under every breakdown (union, intersection,
 * difference, overlap with a window). A set is "merged" when sorted, disjoint and non-empty
 * per interval; the functions below say which they need and which they give. */
#ifndef GS_ANALYSIS_INTERVALS_H
#define GS_ANALYSIS_INTERVALS_H

#include <stddef.h>

#include "common/vec.h"
#include "model/trace.h"

typedef struct gs_span {
    gs_ns start, end; /* [start, end) */
} gs_span;

typedef GS_VEC(gs_span) gs_spans;

/* Appends [start, end) (ignored when empty). 0, or -1 out of memory. */
int gs_spans_add(gs_spans *s, gs_ns start, gs_ns end);

/* Adds [start, end) to a set kept only for its union (gs_spans_merge to come): joined to the last
 * interval when it starts inside it or where it ends, so that input in start order (the model's
 * arrays) is merged as it comes, in the memory of its union. 0, or -1 out of memory. */
int gs_spans_unite(gs_spans *s, gs_ns start, gs_ns end);

/* Sorts and merges in place: overlapping or touching intervals become one. */
void gs_spans_merge(gs_spans *s);

/* Total length of a merged set. */
gs_ns gs_spans_length(const gs_spans *merged);

/* Length of merged ∩ [start, end), by binary search: O(log n + overlapping intervals). */
gs_ns gs_spans_overlap(const gs_spans *merged, gs_ns start, gs_ns end);

/* out = a ∩ b and out = a − b for merged a and b; out comes merged. 0, or -1 out of memory. */
int gs_spans_intersect(const gs_spans *a, const gs_spans *b, gs_spans *out);
int gs_spans_subtract(const gs_spans *a, const gs_spans *b, gs_spans *out);

void gs_spans_free(gs_spans *s);

#endif
