#include "analysis/trace/cuda_graphs.h"
#include "common/util.h"

#include <stdlib.h>
#include <string.h>

/* The runtime, driver and HIP spellings of each call; a name matches its prefix, so version
 * suffixes (_v10000) and variants (cudaGraphInstantiateWithFlags) count. */
static const char *const begin_names[] = {"cudaStreamBeginCapture", "cuStreamBeginCapture",
                                          "hipStreamBeginCapture"};
static const char *const end_names[] = {"cudaStreamEndCapture", "cuStreamEndCapture",
                                        "hipStreamEndCapture"};
static const char *const instantiate_names[] = {"cudaGraphInstantiate", "cuGraphInstantiate",
                                                "hipGraphInstantiate"};
static const char *const launch_names[] = {"cudaGraphLaunch", "cuGraphLaunch", "hipGraphLaunch"};
/* Kernel launches a capture records as graph nodes (runtime, driver and HIP). */
static const char *const kernel_launch_names[] = {
    "cudaLaunchKernel", "cudaLaunchCooperativeKernel", "cuLaunchKernel",
    "cuLaunchCooperativeKernel", "hipLaunchKernel", "hipModuleLaunchKernel",
    "hipExtModuleLaunchKernel", "hipExtLaunchKernel"};

static bool matches(const char *name, const char *const *prefixes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0)
            return true;
    return false;
}

#define MATCHES(name, list) matches(name, list, COUNT_OF(list))

bool gs_is_graph_launch_call(const char *api_name)
{
    return MATCHES(api_name, launch_names);
}

/* Which of the lists above a call's name is in, first match in the lists' order. */
enum graph_call { CALL_OTHER, CALL_BEGIN, CALL_END, CALL_INSTANTIATE, CALL_GRAPH_LAUNCH,
                  CALL_KERNEL_LAUNCH };

/* The last names judged, by name id: a trace's calls repeat a few names millions of times, so
 * the prefixes are compared once per name and slot, not once per call. */
enum { NAME_SLOTS = 64 };

typedef struct call_names {
    gs_str id[NAME_SLOTS];
    uint8_t call[NAME_SLOTS]; /* enum graph_call + 1; 0: the slot is empty */
} call_names;

static enum graph_call judge_call(const char *name)
{
    return MATCHES(name, begin_names)         ? CALL_BEGIN
           : MATCHES(name, end_names)         ? CALL_END
           : MATCHES(name, instantiate_names) ? CALL_INSTANTIATE
           : MATCHES(name, launch_names)      ? CALL_GRAPH_LAUNCH
           : MATCHES(name, kernel_launch_names) ? CALL_KERNEL_LAUNCH
                                                : CALL_OTHER;
}

static enum graph_call call_of(const gs_trace *t, gs_str id, call_names *cache)
{
    size_t slot = id % NAME_SLOTS;
    if (!cache->call[slot] || cache->id[slot] != id) {
        cache->id[slot] = id;
        cache->call[slot] = (uint8_t)(judge_call(gs_trace_str(t, id)) + 1);
    }
    return (enum graph_call)(cache->call[slot] - 1);
}

/* A thread capturing: the end of its BeginCapture call. */
typedef struct capturing {
    int64_t tid;
    gs_ns since;
} capturing;

void gs_graph_facts_count(const gs_trace *t, gs_graph_facts *out)
{
    memset(out, 0, sizeof *out);
    out->first_instantiation = -1;
    out->kernels = t->kernels.n;
    /* Threads that capture at once are few (one per capturing stream); more are dropped. */
    capturing open[8];
    size_t nopen = 0;
    call_names cache = {{0}, {0}};
    for (size_t i = 0; i < t->apis.n; i++) { /* apis are sorted by start */
        const gs_api *a = &t->apis.v[i];
        enum graph_call call = call_of(t, a->name, &cache);
        if (call == CALL_BEGIN) {
            if (nopen < COUNT_OF(open))
                open[nopen++] = (capturing){a->tid, a->end};
        } else if (call == CALL_END) {
            for (size_t k = 0; k < nopen; k++)
                if (open[k].tid == a->tid) {
                    out->captures++;
                    open[k] = open[--nopen];
                    break;
                }
        } else if (call == CALL_INSTANTIATE) {
            if (!out->instantiations++)
                out->first_instantiation = a->start;
        } else if (call == CALL_GRAPH_LAUNCH) {
            out->launches++;
        } else if (nopen && call == CALL_KERNEL_LAUNCH) {
            for (size_t k = 0; k < nopen; k++)
                if (open[k].tid == a->tid && a->start >= open[k].since) {
                    out->captured_launches++;
                    break;
                }
        }
    }
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        bool graph = k->graph_id != 0;
        /* ROCm writes no graph id: a kernel launched by a graph launch is a graph kernel too. */
        if (!graph && k->api != GS_NONE)
            graph = call_of(t, t->apis.v[k->api].name, &cache) == CALL_GRAPH_LAUNCH;
        out->graph_kernels += graph;
    }
}

double gs_graph_kernel_share(const gs_graph_facts *g)
{
    return g->kernels ? (double)g->graph_kernels / (double)g->kernels : 0.0;
}

bool gs_graphs_capture_only(const gs_graph_facts *g)
{
    return g->instantiations > 0 && g->launches == 0 && g->captured_launches > 0 &&
           g->captured_launches >= g->kernels;
}

bool gs_graph_facts_any(const gs_graph_facts *g)
{
    return g->captures || g->instantiations || g->launches || g->graph_kernels;
}
