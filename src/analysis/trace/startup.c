/* The start-up phase (startup.h). */
#include "analysis/trace/startup.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/thresholds.h"
#include "common/util.h"
#include "common/vec.h"
#include "model/nesting.h"

/* A call this long where a context is first needed is creating it: creating one takes tens to
 * hundreds of milliseconds, a call of those classes otherwise microseconds. */
#define CONTEXT_CALL_NS 10000000

static const char *const class_names[GS_STARTUP__COUNT] = {
    [GS_STARTUP_CONTEXT] = "context creation",   [GS_STARTUP_MODULES] = "module loading",
    [GS_STARTUP_MEMORY] = "memory allocation",   [GS_STARTUP_COPIES] = "copies and sets",
    [GS_STARTUP_LAUNCHES] = "kernel launches",   [GS_STARTUP_SYNC] = "waiting for the GPU",
    [GS_STARTUP_OTHER] = "other CUDA calls",
};

const char *gs_startup_class_name(enum gs_startup_class c)
{
    return (unsigned)c < GS_STARTUP__COUNT ? class_names[c] : "?";
}

bool gs_startup_noticeable(const gs_startup *s, gs_ns span)
{
    return s->found && span > 0 && (double)(s->end - s->start) >= GS_TH_STARTUP_SHARE * (double)span;
}

enum gs_startup_class gs_startup_top_class(const gs_startup *s)
{
    enum gs_startup_class top = GS_STARTUP_CONTEXT;
    for (int c = 0; c < GS_STARTUP__COUNT; c++) {
        if (s->calls[c] > s->calls[top])
            top = (enum gs_startup_class)c;
    }
    return top;
}

/* Each call's own time (its duration less the calls nested in it on its thread), summed by
 * class. */
static int sum_calls(const gs_trace_ctx *ctx, gs_startup *out)
{
    const gs_trace *t = ctx->trace;
    size_t n = 0;
    for (size_t i = 0; i < t->apis.n && t->apis.v[i].start < out->end; i++)
        n += t->apis.v[i].start >= out->start;
    if (!n)
        return 0;
    gs_nest_item *calls = gs_array_new(n, sizeof *calls);
    gs_ns *own = gs_array_new(n, sizeof *own); /* in the sorted order of calls */
    size_t *stack = gs_array_new(n, sizeof *stack);
    if (!calls || !own || !stack) {
        free(calls);
        free(own);
        free(stack);
        return -1;
    }
    n = 0;
    for (size_t i = 0; i < t->apis.n && t->apis.v[i].start < out->end; i++) {
        const gs_api *a = &t->apis.v[i];
        if (a->start >= out->start)
            calls[n++] = (gs_nest_item){a->pid, a->tid, a->start, a->end, (uint32_t)i, 1};
    }
    qsort(calls, n, sizeof *calls, gs_nest_item_cmp);
    size_t depth = 0;
    for (size_t k = 0; k < n; k++) {
        const gs_nest_item *c = &calls[k];
        own[k] = c->end - c->start;
        while (depth) {
            const gs_nest_item *top = &calls[stack[depth - 1]];
            if (top->pid == c->pid && top->tid == c->tid && c->start < top->end)
                break;
            depth--;
        }
        if (depth) {
            const gs_nest_item *parent = &calls[stack[depth - 1]];
            own[stack[depth - 1]] -= (c->end < parent->end ? c->end : parent->end) - c->start;
        }
        stack[depth++] = k;
    }
    /* The runtime creates the primary context inside the first call that needs one (NVIDIA's CUDA
     * Runtime API, "Initialization"), whatever its name, e.g. PyTorch's first
     * cudaDeviceGetStreamPriorityRange: on each thread, the first call of no other class, or an
     * allocation, that takes CONTEXT_CALL_NS or more is that. */
    bool context_seen = false;
    for (size_t k = 0; k < n; k++) {
        if (k && (calls[k].pid != calls[k - 1].pid || calls[k].tid != calls[k - 1].tid))
            context_seen = false;
        enum gs_startup_class cls =
            (enum gs_startup_class)gs_ctx_name(ctx, t->apis.v[calls[k].idx].name,
                                               GS_NAME_CALL_CLASS);
        if (!context_seen && (cls == GS_STARTUP_OTHER || cls == GS_STARTUP_MEMORY) &&
            own[k] >= CONTEXT_CALL_NS) {
            cls = GS_STARTUP_CONTEXT;
            context_seen = true;
        }
        out->calls[cls] += own[k] > 0 ? own[k] : 0;
    }
    free(calls);
    free(own);
    free(stack);
    return 0;
}

static gs_ns clipped(gs_ns start, gs_ns end, gs_ns from, gs_ns to)
{
    start = start > from ? start : from;
    end = end < to ? end : to;
    return end > start ? end - start : 0;
}

int gs_startup_build(const gs_trace_ctx *c, gs_startup *out, gs_error *err)
{
    const gs_trace *t = c->trace;
    const gs_steps *s = &c->steps;
    memset(out, 0, sizeof *out);
    if (!s->n)
        return 0;
    if (!c->has_span)
        return 0;
    gs_ns first = c->first;
    size_t kept = 0;
    while (kept < s->n && !gs_step_kept(s, kept))
        kept++;
    out->start = first;
    out->end = kept < s->n ? s->v[kept].start : s->v[s->n - 1].end;
    if (out->end <= out->start)
        return 0;
    out->found = true;
    out->before_steps = s->v[0].start > first ? s->v[0].start - first : 0;
    out->warmup_steps = kept;
    if (sum_calls(c, out) != 0)
        return gs_fail_oom(err);
    for (size_t i = 0; i < t->kernels.n; i++)
        out->gpu_busy += clipped(t->kernels.v[i].start, t->kernels.v[i].end, out->start, out->end);
    for (size_t i = 0; i < t->memops.n; i++)
        out->gpu_busy += clipped(t->memops.v[i].start, t->memops.v[i].end, out->start, out->end);
    return 0;
}
