/* Clock alignment across ranks (doc/design.md §21). Files from different hosts carry different
 * clocks; a blocking collective ends at the same instant on every rank of its communicator (the
 * last rank to arrive releases them all), so the ends of matched collectives tell the offsets:
 *
 *   offset_r = median over matched instances i of (end_r(i) - end_ref(i))
 *
 * on absolute clocks (kernel time + the trace's epoch_ns), with the first selected rank as the
 * reference. The median ignores up to half the instances being off (a rank descheduled at a
 * kernel's end, a collective of another communicator matched by mistake). The residual is what
 * is left after alignment: for each instance and rank, |aligned end - median aligned end of the
 * instance|; small against the lateness being measured means the alignment can be trusted.
 *
 * The one way analyses apply it: gs_clock_at(), which maps a rank's own time onto the common
 * clock (the reference rank's absolute clock). With alignment off, offsets are 0 and the common
 * clock is each file's own absolute clock. */
#ifndef GS_ANALYSIS_CLOCK_ALIGN_H
#define GS_ANALYSIS_CLOCK_ALIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/crossrank/coll_match.h"
#include "common/error.h"

typedef struct gs_clock_rank {
    gs_ns offset_ns; /* rank's clock minus the reference's; 0 for the reference */
    gs_ns shift_ns;  /* epoch_ns - offset_ns: add to the rank's times for the common clock */
    size_t matched;  /* instances the offset was estimated from */
    gs_ns residual_med_ns, residual_max_ns; /* over the matched instances */
} gs_clock_rank;

typedef struct gs_clock {
    gs_clock_rank *ranks; /* parallel to gs_coll_match.ranks */
    size_t nranks;
    bool aligned; /* offsets estimated; false when asked not to or when nothing matched */
    gs_ns residual_med_ns, residual_max_ns; /* over every rank and instance */
} gs_clock;

/* Offsets from m's matched instances when estimate is true (else all 0), and the residual
 * either way. 0, or -1 with err (out of memory). */
int gs_clock_align(const gs_coll_match *m, bool estimate, gs_clock *out, gs_error *err);
void gs_clock_free(gs_clock *c);

/* Time t of rank r (an index into the match's ranks) on the common clock. */
static inline gs_ns gs_clock_at(const gs_clock *c, size_t r, gs_ns t)
{
    return t + c->ranks[r].shift_ns;
}

/* The median of v[0..n) (n > 0; reorders v): the middle value, or the mean of the two middle
 * values rounded toward minus infinity. Shared with the straggler analysis. */
gs_ns gs_median_ns(gs_ns *v, size_t n);

#endif
