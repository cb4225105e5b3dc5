/* The window of steps kept of a trace too big for the memory budget (kineto_window.h). */
#include "ingest/kineto_window.h"

#include <stdlib.h>

#include "common/util.h"
#include "common/vec.h"

/* Of the budget, what the window's model should fill: the steps differ in size, and the arrays'
 * growth while they are read is an average (load.c's GROWTH_ROOM). */
#define WINDOW_FILL 0.8

void kwindow_survey_init(kwindow *w)
{
    *w = (kwindow){.survey = true};
    atomic_init(&w->first, GS_TIME_MAX);
    atomic_init(&w->last, -GS_TIME_MAX);
}

static bool is_gpu_work(const kevent *ev)
{
    switch ((enum kcat)ev->cat) {
    case KCAT_KERNEL:
    case KCAT_MEMCPY:
    case KCAT_MEMSET:
    case KCAT_SYNC:
    case KCAT_GPU_USER_ANNOTATION:
    case KCAT_GPU_COUNTER: return true;
    default: return false;
    }
}

static void widen(_Atomic gs_ns *bound, gs_ns ts, bool lower)
{
    gs_ns now = atomic_load_explicit(bound, memory_order_relaxed);
    while ((lower ? ts < now : ts > now) &&
           !atomic_compare_exchange_weak_explicit(bound, &now, ts, memory_order_relaxed,
                                                  memory_order_relaxed))
        ;
}

static bool in_time(const kevent *ev)
{
    return (ev->have & KARG_TS) && ev->ts > -GS_TIME_MAX && ev->ts < GS_TIME_MAX;
}

bool kwindow_keep(kwindow *w, const gs_trace *t, const kevent *ev)
{
    if (ev->ph == 'M' || !in_time(ev)) /* metadata, and what the reader counts as lost anyway */
        return true;
    if (w->survey) {
        widen(&w->first, ev->ts, true);
        widen(&w->last, ev->ts, false);
        return ev->ph == 'X' && ev->cat == KCAT_USER_ANNOTATION &&
               gs_is_profiler_step(gs_trace_str(t, ev->name));
    }
    gs_ns to = is_gpu_work(ev) ? w->gpu_to : w->host_to;
    return ev->ts >= w->from && ev->ts < to;
}

/* ---- choosing the window ------------------------------------------------------------------ */

static int cmp_thread_start(const void *a, const void *b)
{
    const gs_range *x = *(const gs_range *const *)a, *y = *(const gs_range *const *)b;
    if (x->pid != y->pid)
        return x->pid < y->pid ? -1 : 1;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return (x->start > y->start) - (x->start < y->start);
}

/* The steps (the survey keeps nothing else) of the thread with the most of them, by start: *n
 * of them from the returned pointer on, inside *all (malloc'ed; NULL when there are none). */
static const gs_range **steps_of_busiest_thread(const gs_trace *t, const gs_range ***all,
                                                size_t *n)
{
    *n = 0;
    *all = t->ranges.n ? gs_array_new(t->ranges.n, sizeof **all) : NULL;
    if (!*all)
        return NULL;
    const gs_range **v = *all;
    for (size_t i = 0; i < t->ranges.n; i++)
        v[i] = &t->ranges.v[i];
    qsort(v, t->ranges.n, sizeof *v, cmp_thread_start);
    size_t best = 0;
    for (size_t i = 0, j; i < t->ranges.n; i = j) {
        for (j = i + 1; j < t->ranges.n && v[j]->pid == v[i]->pid && v[j]->tid == v[i]->tid; j++)
            ;
        if (j - i > *n) {
            *n = j - i;
            best = i;
        }
    }
    return v + best;
}

bool kwindow_choose(const gs_trace *survey, const kwindow *surveyed, double fits,
                    unsigned shrink, kwindow *w, kwindow_plan *plan)
{
    double share = fits * WINDOW_FILL;
    for (unsigned i = 0; i < shrink; i++)
        share /= 2;
    if (share > 1)
        share = 1;
    *w = (kwindow){0};
    *plan = (kwindow_plan){.kept_share = share};
    size_t n;
    const gs_range **all, **steps = steps_of_busiest_thread(survey, &all, &n);
    plan->steps = n;
    if (n >= 2) {
        size_t keep = (size_t)((double)n * share);
        keep = keep ? keep : 1;
        size_t first = (n - keep) / 2, next = first + keep;
        plan->kept_steps = keep;
        plan->first = steps[first]->name;
        plan->last = steps[next - 1]->name;
        plan->kept_share = (double)keep / (double)n;
        w->from = steps[first]->start;
        w->host_to = next < n ? steps[next]->start : GS_TIME_MAX;
        /* One step more of GPU time: the work the last kept step launched, run behind it. */
        w->gpu_to = next < n ? steps[next]->end : GS_TIME_MAX;
    } else {
        gs_ns first = atomic_load(&surveyed->first), last = atomic_load(&surveyed->last);
        gs_ns span = last > first ? last - first : 0;
        gs_ns width = (gs_ns)((double)span * share);
        w->from = first + (span - width) / 2;
        w->host_to = w->gpu_to = w->from + width;
        if (width <= 0) { /* every event at one time: no window is smaller than the whole */
            free(all);
            return false;
        }
    }
    free(all);
    return true;
}

/* ---- GPU work launched outside the window -------------------------------------------------- */

static bool launched_inside(const uint64_t *kept, size_t n, uint64_t correlation)
{
    return !correlation || bsearch(&correlation, kept, n, sizeof *kept, gs_cmp_u64) != NULL;
}

/* Keeps the elements of `vec` (an array of T with a `correlation`) launched by a kept call. */
#define KEEP_LAUNCHED(vec)                                                                         \
    do {                                                                                           \
        size_t out = 0;                                                                            \
        for (size_t i = 0; i < (vec).n; i++)                                                       \
            if (launched_inside(kept, n, (vec).v[i].correlation))                                  \
                (vec).v[out++] = (vec).v[i];                                                       \
        t->lost[GS_LOSS_OUTSIDE_WINDOW] += (vec).n - out;                                          \
        (vec).n = out;                                                                             \
    } while (0)

int kwindow_drop_unlaunched(gs_trace *t)
{
    uint64_t *kept = gs_array_new(t->apis.n, sizeof *kept);
    if (!kept)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < t->apis.n; i++)
        if (t->apis.v[i].correlation)
            kept[n++] = t->apis.v[i].correlation;
    qsort(kept, n, sizeof *kept, gs_cmp_u64);
    KEEP_LAUNCHED(t->kernels);
    KEEP_LAUNCHED(t->memops);
    KEEP_LAUNCHED(t->syncs);
    free(kept);
    return 0;
}
