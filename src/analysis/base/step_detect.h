/* Steps found from the trace itself, for programs that mark none (doc/steps.md, "Steps detected
 * from the repeating kernel sequence").
 *
 * A training or inference loop launches the same GPU operations in the same order every
 * iteration. Take the calls that launched GPU operations (kernels, copies, sets; a CUDA graph
 * launch is one call, named by its first kernel) in the process that launches most of them, in
 * launch order, as a sequence of names; its period P is the lag at which the sequence
 * best matches itself (candidate lags: the distances between repeats of each name), and the
 * confidence is the share of positions i with name(i) == name(i + P). Within one period, the
 * iteration starts at the operation launched right after a blocking call in every iteration
 * (the loop's .item() or synchronize), else after the longest host-side pause between launches
 * (the loop's Python: data loading, logging); its neighbourhood in the steady iterations is then
 * searched for in the whole sequence, so an irregular first iteration and a few extra operations
 * every k iterations still find their start. Each step runs from the host's return from the call
 * before its first launch to the same point of the next; the last ends with the launch of its
 * last operation. */
#ifndef GS_ANALYSIS_STEP_DETECT_H
#define GS_ANALYSIS_STEP_DETECT_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "model/trace.h"

typedef struct gs_detected_span {
    gs_ns host_start, host_end;
} gs_detected_span;

typedef struct gs_detected_steps {
    gs_detected_span *v;
    size_t n;          /* 0: no period found */
    uint32_t period;   /* launching calls per steady iteration */
    double confidence; /* share of the sequence that repeats at the period, 0..1 */
    int64_t pid, tid;  /* the launching thread the boundaries are on */
} gs_detected_steps;

struct gs_names;

/* names are t's (name_rules.h). 0, or -1 with err (out of memory). */
int gs_steps_detect(const gs_trace *t, const struct gs_names *names, gs_detected_steps *out,
                    gs_error *err);
void gs_detected_steps_free(gs_detected_steps *d);

#endif
