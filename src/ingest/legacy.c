/* The legacy autograd-profiler export (PyTorch ≤ 1.7, and builds without Kineto such as
 * Debian's 1.13): a top-level array of events, pid "CPU functions" for operators and, in the
 * oldest files, pid "CUDA functions" (tid = device) for kernels. Times are µs from the start of
 * profiling, so the epoch is unknown. */
#include "ingest/legacy.h"

#include <string.h>

#include "ingest/kineto.h"
#include "ingest/kineto_window.h"

static bool pid_is(const gs_trace *t, const kevent *ev, const char *text)
{
    return ev->pid_is_text && !strcmp(gs_trace_str(t, ev->pid_text), text);
}

/* An event without a "cat" (every event of the export) takes its category from its pid. */
static void classify(gs_trace *t, kevent *ev)
{
    if (ev->cat != KCAT_NONE)
        return;
    if (pid_is(t, ev, "CUDA functions")) {
        ev->cat = KCAT_KERNEL;
        ev->device = ev->tid;
        ev->have |= KARG_DEVICE;
    } else {
        ev->cat = KCAT_CPU_OP; /* "CPU functions", "CPU Functions" (C++ RecordProfile) */
    }
}

int legacy_read_array(gs_json *j, gs_trace *t, const gs_load_opts *opts)
{
    kread_tally tally = {0};
    t->format = gs_strtab_intern(&t->strings, "legacy", 6);
    if (kineto_read_events(j, t, opts, &tally, classify, NULL, NULL) != 0)
        return -1;
    if (tally.events == 0)
        return gs_fail(j->err, GS_EXIT_INPUT, "%s: the trace has no events (empty array)",
                       t->id.path);
    if (opts && opts->window && opts->window->survey)
        opts->window->model_bytes = tally.model_bytes;
    return 0;
}
