#include "analysis/base/trace_ctx.h"

#include <string.h>

#include "analysis/base/collectives.h"
#include "common/beside.h"
#include "common/log.h"

/* The trace's span, found beside the names' judging: each reads every array once. */
static void *find_span(void *arg)
{
    gs_trace_ctx *c = arg;
    c->has_span = gs_trace_span(c->trace, &c->first, &c->last);
    return NULL;
}

int gs_trace_ctx_build(const gs_trace *t, const gs_ctx_opts *o, gs_trace_ctx *out, gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    memset(out, 0, sizeof *out);
    out->trace = t;
    if (!(out->collectives = gs_coll_once_new()))
        return gs_fail_oom(err);
    const gs_window_spec kept = {.on = true};
    /* The names first: finding the steps reads which calls wait for the GPU. */
    gs_beside span;
    gs_beside_start(&span, find_span, out);
    int rc = gs_names_classify(t, &out->names, err);
    gs_beside_join(&span);
    if (rc != 0) {
        gs_trace_ctx_free(out);
        return -1;
    }
    GS_LOG_TOOK(logged_at, "names judged");
    if (gs_steps_find(t, &out->names, &o->steps, &out->steps, err) != 0 ||
        gs_window_build(t, out->first, out->last, &out->steps, &o->window, &out->window,
                        err) != 0 ||
        gs_window_build(t, out->first, out->last, &out->steps, &kept, &out->kept, err) != 0) {
        gs_trace_ctx_free(out);
        return -1;
    }
    if (gs_log_on(GS_LOG_INFO)) {
        char window[512];
        gs_window_describe(&out->window, window, sizeof window);
        GS_LOG(GS_LOG_INFO, "%s: trace context: %zu step(s) found once for every analysis; %s",
               t->id.path, out->steps.n, *window ? window : "over the whole trace");
    }
    GS_LOG_TOOK(logged_at, "trace context (steps, windows, names)");
    return 0;
}

void gs_trace_ctx_free(gs_trace_ctx *c)
{
    if (!c->is_copy) {
        gs_steps_free(&c->steps);
        gs_window_free(&c->window);
        gs_window_free(&c->kept);
        gs_names_free(&c->names);
        gs_coll_once_free(c->collectives);
    }
    memset(c, 0, sizeof *c);
}
