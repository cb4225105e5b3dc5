/* CUDA graph facts of one trace (doc/launch.md, "CUDA graphs"): how often a stream was captured
 * into a graph, how many graphs were instantiated and launched, how many kernel launches each
 * capture recorded, and how many kernels ran from a graph. torch.compile(mode="reduce-overhead")
 * and torch.cuda.graphs capture once and replay many times; a graph instantiated and never (or
 * hardly) replayed means every kernel was still launched one by one (PyTorch's CUDA graph trees
 * skip graphs for reasons TORCH_LOGS=perf_hints prints as "skipping cudagraphs due to ..."). */
#ifndef GS_ANALYSIS_CUDA_GRAPHS_H
#define GS_ANALYSIS_CUDA_GRAPHS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/trace.h"

typedef struct gs_graph_facts {
    uint64_t captures;          /* cudaStreamBeginCapture calls that an EndCapture closed */
    uint64_t instantiations;    /* cudaGraphInstantiate* calls */
    uint64_t launches;          /* cudaGraphLaunch calls */
    uint64_t captured_launches; /* kernel launch calls made on a thread while it captured */
    uint64_t graph_kernels;     /* kernels with a graph id, or launched by a graph launch */
    uint64_t kernels;           /* every kernel of the trace */
    gs_ns first_instantiation;  /* start of the first instantiation, -1 when none */
} gs_graph_facts;

/* Graph launch calls (cudaGraphLaunch, cuGraphLaunch, hipGraphLaunch, any version suffix). */
bool gs_is_graph_launch_call(const char *api_name);

/* Counts t's graph calls and graph kernels. */
void gs_graph_facts_count(const gs_trace *t, gs_graph_facts *out);

/* Share of the trace's kernels run from a graph, 0 when it has none. */
double gs_graph_kernel_share(const gs_graph_facts *g);

/* Whether the trace holds a capture and not its replay: graphs instantiated, none launched, and at
 * least as many launches recorded into graphs as kernels run (a server capturing its decode
 * graphs at start-up, which it replays after the trace). */
bool gs_graphs_capture_only(const gs_graph_facts *g);

/* Whether the trace used CUDA graphs at all (a capture, instantiation or launch). */
bool gs_graph_facts_any(const gs_graph_facts *g);

#endif
