/* The model's bounds on times and sizes (trace.h: GS_TIME_MAX, GS_BYTES_MAX and the totals),
 * checked once after a reader has filled the arrays: an event outside them is dropped and counted
 * by reason, so that no analysis meets a time or a size whose difference or sum overflows. */
#include <stdint.h>

#include "common/beside.h"
#include "model/trace.h"

/* One half of the check (the arrays of GPU work and calls, or the others, each read once, on two
 * cores): what it found, added to the other half's at the end. */
typedef struct checker {
    gs_trace *t;
    gs_ns epoch;
    uint64_t total; /* durations kept so far, saturating just past GS_TOTAL_TIME_MAX */
    uint64_t bytes; /* sizes kept so far, saturating just past GS_TOTAL_BYTES_MAX */
    uint64_t lost[GS_LOSS__COUNT];
} checker;

static bool time_fits(const checker *c, gs_ns t)
{
    /* |epoch| <= GS_TIME_MAX is checked first, so t + epoch cannot overflow. */
    return t >= -GS_TIME_MAX && t <= GS_TIME_MAX && t + c->epoch >= -GS_TIME_MAX &&
           t + c->epoch <= GS_TIME_MAX;
}

/* Why [start, end) cannot be kept, or GS_LOSS__COUNT when it can. */
static enum gs_loss span_fault(checker *c, gs_ns start, gs_ns end)
{
    if (!time_fits(c, start) || !time_fits(c, end))
        return GS_LOSS_TIME_RANGE;
    if (end < start)
        return GS_LOSS_NEGATIVE_DURATION;
    if (c->total <= (uint64_t)GS_TOTAL_TIME_MAX)
        c->total += (uint64_t)(end - start); /* < 2^63 + 2^56: no wrap */
    return GS_LOSS__COUNT;
}

/* Compacts `vec` in place, keeping the elements whose [first, last] fits; counts the others in
 * c->lost. Uses the checker `c`. */
#define KEEP_FITTING(vec, first, last)                                                             \
    do {                                                                                           \
        size_t kept = 0;                                                                           \
        for (size_t i = 0; i < (vec).n; i++) {                                                     \
            enum gs_loss why = span_fault(c, (vec).v[i].first, (vec).v[i].last);                   \
            if (why != GS_LOSS__COUNT) {                                                           \
                c->lost[why]++;                                                                    \
                continue;                                                                          \
            }                                                                                      \
            if (kept != i)                                                                         \
                (vec).v[kept] = (vec).v[i];                                                        \
            kept++;                                                                                \
        }                                                                                          \
        (vec).n = kept;                                                                            \
    } while (0)

/* Adds a size that fits (|n| <= GS_BYTES_MAX) to the total; false when it does not fit. */
static bool size_fits(checker *c, int64_t n)
{
    if (n < -GS_BYTES_MAX || n > GS_BYTES_MAX)
        return false;
    if (c->bytes <= (uint64_t)GS_TOTAL_BYTES_MAX)
        c->bytes += (uint64_t)(n < 0 ? -n : n);
    return true;
}

/* Copies whose sizes fit; the others are counted as lost. */
static void keep_fitting_copies(gs_trace *t, checker *c)
{
    size_t kept = 0;
    for (size_t i = 0; i < t->memops.n; i++) {
        if (t->memops.v[i].bytes <= (uint64_t)GS_BYTES_MAX &&
            size_fits(c, (int64_t)t->memops.v[i].bytes))
            t->memops.v[kept++] = t->memops.v[i];
        else
            c->lost[GS_LOSS_SIZE_RANGE]++;
    }
    t->memops.n = kept;
}

/* Allocator records whose sizes fit; the others are counted as lost. */
static void keep_fitting_records(gs_trace *t, checker *c)
{
    size_t kept = 0;
    for (size_t i = 0; i < t->mem_events.n; i++) {
        const gs_mem_event *m = &t->mem_events.v[i];
        /* totals below zero say "unknown" (-1): only their size above matters */
        if (size_fits(c, m->bytes) && m->total_allocated <= GS_BYTES_MAX &&
            m->total_reserved <= GS_BYTES_MAX)
            t->mem_events.v[kept++] = *m;
        else
            c->lost[GS_LOSS_SIZE_RANGE]++;
    }
    t->mem_events.n = kept;
}

/* One half: the GPU work, the calls and the copies' sizes. */
static void *check_gpu_and_calls(void *arg)
{
    checker *c = arg;
    gs_trace *t = c->t;
    KEEP_FITTING(t->kernels, start, end);
    KEEP_FITTING(t->memops, start, end);
    KEEP_FITTING(t->syncs, start, end);
    KEEP_FITTING(t->apis, start, end);
    keep_fitting_copies(t, c);
    return NULL;
}

/* The other: the ranges, instants, allocator records (their sizes too) and counters. */
static void check_the_rest(checker *c)
{
    gs_trace *t = c->t;
    KEEP_FITTING(t->ranges, start, end);
    KEEP_FITTING(t->instants, ts, ts);
    KEEP_FITTING(t->mem_events, ts, ts);
    KEEP_FITTING(t->counters, ts, ts);
    keep_fitting_records(t, c);
}

/* Whether two halves' saturating sums add up past `max` (each stops adding once past it). */
static bool past(uint64_t a, uint64_t b, uint64_t max)
{
    return a > max || b > max || a + b > max;
}

int gs_trace_check(gs_trace *t, gs_error *err)
{
    if (t->id.epoch_ns < -GS_TIME_MAX || t->id.epoch_ns > GS_TIME_MAX)
        return gs_fail(err, GS_EXIT_INPUT,
                       "%s: clock origin %lld ns is out of range (more than 146 years from 1970)",
                       t->id.path, (long long)t->id.epoch_ns);
    checker gpu = {.t = t, .epoch = t->id.epoch_ns}, rest = gpu;
    gs_beside other;
    gs_beside_start(&other, check_gpu_and_calls, &gpu);
    check_the_rest(&rest);
    gs_beside_join(&other);
    for (size_t i = 0; i < GS_LOSS__COUNT; i++)
        t->lost[i] += gpu.lost[i] + rest.lost[i];
    if (past(gpu.total, rest.total, (uint64_t)GS_TOTAL_TIME_MAX))
        return gs_fail(err, GS_EXIT_INPUT,
                       "%s: the events' durations add up to more than 2.28 years (2^56 ns): more "
                       "than any totals gpuscope keeps can hold",
                       t->id.path);
    if (past(gpu.bytes, rest.bytes, (uint64_t)GS_TOTAL_BYTES_MAX))
        return gs_fail(err, GS_EXIT_INPUT,
                       "%s: the allocations and copies add up to more than 1 EiB (2^60 bytes): "
                       "more than any totals gpuscope keeps can hold",
                       t->id.path);
    for (size_t i = 0; i < t->devices.n; i++)
        if (t->devices.v[i].total_memory > (uint64_t)GS_BYTES_MAX)
            t->devices.v[i].total_memory = 0; /* unknown, rather than a size no GPU has */
    return 0;
}
