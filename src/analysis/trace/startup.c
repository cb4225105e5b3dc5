/* The start-up phase (startup.h). */
#include "analysis/trace/startup.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/thresholds.h"
#include "common/util.h"
#include "model/nesting.h"

/* A call this long where a context is first needed is creating it: creating one takes tens to
 * hundreds of milliseconds, a call of those classes otherwise microseconds. */
#define CONTEXT_CALL_NS 10000000

/* CUDA calls by what they do, by name prefix (runtime and driver API, NVIDIA's CUDA Runtime and
 * Driver API references); the first match wins, so the more specific prefixes come first. */
static const struct setup_call {
    const char *prefix;
    enum gs_startup_class cls;
} setup_calls[] = {
    {"cuInit", GS_STARTUP_CONTEXT},
    {"cuCtx", GS_STARTUP_CONTEXT},
    {"cuDevicePrimaryCtx", GS_STARTUP_CONTEXT},
    {"cudaSetDevice", GS_STARTUP_CONTEXT},
    {"cudaDeviceReset", GS_STARTUP_CONTEXT},
    {"cudaInitDevice", GS_STARTUP_CONTEXT},
    {"cuLibrary", GS_STARTUP_MODULES},
    {"cuModule", GS_STARTUP_MODULES},
    {"cuKernelGet", GS_STARTUP_MODULES},
    {"cudaGetFuncBySymbol", GS_STARTUP_MODULES},
    {"cudaGetKernel", GS_STARTUP_MODULES},
    {"cudaFuncGetAttributes", GS_STARTUP_MODULES},
    {"cudaFuncSetAttribute", GS_STARTUP_MODULES},
    {"cuFuncGetAttribute", GS_STARTUP_MODULES},
    {"cuFuncSetAttribute", GS_STARTUP_MODULES},
    {"cuLink", GS_STARTUP_MODULES},
    {"cudaMalloc", GS_STARTUP_MEMORY},
    {"cudaFree", GS_STARTUP_MEMORY},
    {"cudaHostAlloc", GS_STARTUP_MEMORY},
    {"cudaHostRegister", GS_STARTUP_MEMORY},
    {"cudaHostUnregister", GS_STARTUP_MEMORY},
    {"cuMemAlloc", GS_STARTUP_MEMORY},
    {"cuMemFree", GS_STARTUP_MEMORY},
    {"cuMemHost", GS_STARTUP_MEMORY},
    {"cuMemCreate", GS_STARTUP_MEMORY},
    {"cuMemRelease", GS_STARTUP_MEMORY},
    {"cuMemMap", GS_STARTUP_MEMORY},
    {"cuMemUnmap", GS_STARTUP_MEMORY},
    {"cuMemAddress", GS_STARTUP_MEMORY},
    {"cuMemSetAccess", GS_STARTUP_MEMORY},
    {"cudaMemcpy", GS_STARTUP_COPIES},
    {"cudaMemset", GS_STARTUP_COPIES},
    {"cuMemcpy", GS_STARTUP_COPIES},
    {"cuMemset", GS_STARTUP_COPIES},
    {"cudaLaunch", GS_STARTUP_LAUNCHES},
    {"cuLaunch", GS_STARTUP_LAUNCHES},
    {"cudaGraphLaunch", GS_STARTUP_LAUNCHES},
    {"cuGraphLaunch", GS_STARTUP_LAUNCHES},
    {"cudaStreamSynchronize", GS_STARTUP_SYNC},
    {"cudaDeviceSynchronize", GS_STARTUP_SYNC},
    {"cudaEventSynchronize", GS_STARTUP_SYNC},
    {"cuStreamSynchronize", GS_STARTUP_SYNC},
    {"cuCtxSynchronize", GS_STARTUP_SYNC},
    {"cuEventSynchronize", GS_STARTUP_SYNC},
};

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

static enum gs_startup_class class_of(const char *name)
{
    /* cuCtxSynchronize waits; it must not read as context creation. */
    if (strstr(name, "Synchronize"))
        return GS_STARTUP_SYNC;
    for (size_t i = 0; i < COUNT_OF(setup_calls); i++) {
        if (strncmp(name, setup_calls[i].prefix, strlen(setup_calls[i].prefix)) == 0)
            return setup_calls[i].cls;
    }
    return GS_STARTUP_OTHER;
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
static int sum_calls(const gs_trace *t, gs_startup *out)
{
    size_t n = 0;
    for (size_t i = 0; i < t->apis.n && t->apis.v[i].start < out->end; i++)
        n += t->apis.v[i].start >= out->start;
    if (!n)
        return 0;
    gs_nest_item *calls = malloc(n * sizeof *calls);
    gs_ns *own = malloc(n * sizeof *own); /* in the sorted order of calls */
    size_t *stack = malloc(n * sizeof *stack);
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
        enum gs_startup_class cls = class_of(gs_trace_str(t, t->apis.v[calls[k].idx].name));
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

int gs_startup_build(const gs_trace *t, const gs_steps *s, gs_startup *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    if (!s->n)
        return 0;
    gs_ns first, last;
    if (!gs_trace_span(t, &first, &last))
        return 0;
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
    if (sum_calls(t, out) != 0)
        return gs_fail_oom(err);
    for (size_t i = 0; i < t->kernels.n; i++)
        out->gpu_busy += clipped(t->kernels.v[i].start, t->kernels.v[i].end, out->start, out->end);
    for (size_t i = 0; i < t->memops.n; i++)
        out->gpu_busy += clipped(t->memops.v[i].start, t->memops.v[i].end, out->start, out->end);
    return 0;
}
