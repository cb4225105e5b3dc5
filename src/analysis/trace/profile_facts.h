/* What was profiled: the files, ranks, GPUs, time span, how many events of each class and how
 * many steps. The first section of the report. */
#ifndef GS_ANALYSIS_PROFILE_FACTS_H
#define GS_ANALYSIS_PROFILE_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/base/trace_ctx.h"
#include "analysis/trace/startup.h"
#include "analysis/trace/cuda_graphs.h"
#include "common/error.h"
#include "model/trace.h"

typedef struct gs_file_facts {
    const char *path;
    const char *format; /* "kineto", "legacy", "gst" */
    int32_t rank, world_size; /* world_size 0 when unknown */
    gs_ns span;         /* last - first event, 0 when the trace has no timed event */
    uint64_t steps;     /* the steps the analyses use (gs_trace_ctx's), warm-up included */
    uint8_t step_source; /* enum gs_step_source: where they came from */
    uint64_t lost[GS_LOSS__COUNT]; /* events this trace's reader skipped, by reason */
    gs_ns tracing_cost; /* what tracing cost the program (gpuscope run's CUDA tracing: CUPTI's
                         * overhead records); -1 when the trace does not say */
    gs_startup startup; /* filled from the rank summary (it needs the steps); found false here */
    bool has_graphs;       /* the graph facts are known (a .gsum before minor 3 lacks them) */
    gs_graph_facts graphs; /* CUDA graph captures, instantiations, launches, graph kernels */
} gs_file_facts;

/* Whether a file's tracing cost is a share of its span worth a line in the report
 * (GS_TH_TRACING_COST_SHARE). */
bool gs_file_tracing_cost_noticeable(const gs_file_facts *f);

typedef struct gs_device_facts {
    int32_t id;
    const char *name;
    uint64_t total_memory; /* bytes, 0 when unknown */
    int32_t num_sms;       /* 0 when unknown */
    char capability[24]; /* compute capability "8.0", "" when unknown */
} gs_device_facts;

/* Events of each class over the selected traces. */
typedef struct gs_event_counts {
    uint64_t kernels, memcpys, memsets, gpu_syncs, api_calls;
    uint64_t ranges[GS_RANGE__COUNT]; /* by enum gs_range_kind */
    uint64_t instants, memory_events, counters;
    uint64_t lost[GS_LOSS__COUNT]; /* events skipped, by reason (gs_loss_note) */
} gs_event_counts;

typedef struct gs_profile_facts {
    gs_file_facts *files; /* one per trace, by rank */
    size_t nfiles;
    gs_device_facts *devices; /* distinct (id, name, memory, SMs, capability), by id */
    size_t ndevices;
    size_t nranks;      /* distinct ranks */
    int32_t world_size; /* largest any trace reports, 0 when none does */
    gs_ns span;         /* the longest trace's span: traces in one folder may come from
                         * different runs, whose union would span days */
    uint64_t steps;     /* most ProfilerStep#N ranges any one trace has: every rank runs the
                         * same steps */
    gs_event_counts events;
    gs_strtab names;    /* owns the paths, formats and device names */
} gs_profile_facts;

/* Over the traces added one at a time (init, add each, finish; build is the three for one
 * trace). 0, or -1 with err; failed facts are freed. */
int gs_profile_facts_init(gs_profile_facts *f, gs_error *err);
int gs_profile_facts_add(gs_profile_facts *f, const gs_trace_ctx *c, gs_error *err);
int gs_profile_facts_finish(gs_profile_facts *f, gs_error *err);
int gs_profile_facts_build(const gs_trace_ctx *c, gs_profile_facts *out, gs_error *err);
void gs_profile_facts_free(gs_profile_facts *f);

/* name interned in f's names (NULL stays NULL); NULL when memory is exhausted. */
const char *gs_profile_facts_own(gs_profile_facts *f, const char *name);

/* Every rank's trace usually lists every GPU of its host: sorts f->devices by id and keeps one
 * of each (the profile's facts, and a merge of ranks summarised one at a time). */
void gs_profile_facts_dedupe_devices(gs_profile_facts *f);

#endif
