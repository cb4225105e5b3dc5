/* The one in-memory trace model (doc/design.md §5). Every reader fills it; every analysis reads
 * only it.
 *
 * Times are int64 nanoseconds on one clock per trace. A reader keeps the numbers the file carries
 * (converted to ns) and records in `epoch_ns` what must be added to get nanoseconds since the Unix
 * epoch (0 when the file's times already are). Intervals are half-open: [start, end).
 *
 * Event arrays are filled in file order by a reader, then gs_trace_index() sorts them and builds
 * the links; after that the model is read-only. Index fields (`parent`, `api`, `gpu`, ...) hold an
 * array index or GS_NONE. */
#ifndef GS_MODEL_TRACE_H
#define GS_MODEL_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/profiler_step.h"
#include "common/vec.h"
#include "model/strtab.h"

#define GS_NONE UINT32_MAX

typedef int64_t gs_ns;

/* The model's bounds on numbers, enforced by gs_trace_check before indexing so that analyses can
 * add and subtract without overflowing: every time, and every time plus epoch_ns, lies within
 * +-GS_TIME_MAX (146 years around the clock's origin), so the difference of any two fits; the
 * durations of one trace's events add up to at most GS_TOTAL_TIME_MAX (2.3 years), so sums over
 * events, and over a few hundred ranks of them, fit too. */
#define GS_TIME_MAX (((gs_ns)1 << 62) - 1)
#define GS_TOTAL_TIME_MAX ((gs_ns)1 << 56)
/* The same for sizes: every byte count (allocations, allocator totals, copies, a GPU's memory)
 * is at most GS_BYTES_MAX (1 PiB), and one trace's allocations, frees and copies add up to at
 * most GS_TOTAL_BYTES_MAX (1 EiB). */
#define GS_BYTES_MAX ((int64_t)1 << 50)
#define GS_TOTAL_BYTES_MAX ((int64_t)1 << 60)

/* ---- GPU side ---------------------------------------------------------------------------- */

typedef struct gs_kernel {
    gs_ns start, end;
    gs_str name;    /* as people read it: demangled (`void at::native::...`) */
    gs_str mangled; /* the symbol as CUPTI gave it when `name` was demangled from it, else empty */
    int32_t device, stream;
    uint64_t correlation; /* CUPTI correlation id, 0 when unknown */
    int64_t external_id;  /* Kineto "External id", 0 when unknown */
    int32_t grid[3], block[3];
    int32_t registers_per_thread; /* -1 when unknown */
    int32_t shared_memory;        /* bytes, -1 when unknown */
    float blocks_per_sm;          /* < 0 when unknown */
    float warps_per_sm;           /* < 0 when unknown */
    float occupancy_pct;          /* est. achieved occupancy %, < 0 when unknown */
    int64_t graph_id;             /* CUDA graph id, 0 when not launched from a graph */
    uint32_t api;                 /* index into apis of the launching call, GS_NONE */
    uint32_t op;                  /* innermost range that launched it (via api or External id) */
} gs_kernel;

/* Memory operations on the GPU, named as nsys's cuda_gpu_mem_*_sum "Operation". */
enum gs_memop_kind {
    GS_MEMOP_HTOD,
    GS_MEMOP_DTOH,
    GS_MEMOP_DTOD,
    GS_MEMOP_HTOH,
    GS_MEMOP_PTOP,
    GS_MEMOP_COPY_OTHER, /* a copy of a kind the trace did not say */
    GS_MEMOP_MEMSET,
    GS_MEMOP__COUNT
};

/* Where the host side of a copy lives; decides whether cudaMemcpyAsync is really async. */
enum gs_mem_loc {
    GS_LOC_UNKNOWN,
    GS_LOC_PAGEABLE,
    GS_LOC_PINNED,
    GS_LOC_DEVICE,
    GS_LOC_ARRAY,
    GS_LOC_MANAGED,
    GS_LOC__COUNT
};

typedef struct gs_memop {
    gs_ns start, end;
    gs_str name; /* as the trace wrote it, e.g. "Memcpy HtoD (Pageable -> Device)" */
    uint8_t kind; /* enum gs_memop_kind */
    uint8_t src, dst; /* enum gs_mem_loc */
    int32_t device, stream;
    uint64_t bytes;
    uint64_t correlation;
    int64_t external_id;
    uint32_t api;
    uint32_t op;
} gs_memop;

/* GPU-side synchronization records (CUPTI SYNCHRONIZATION, Kineto cat "cuda_sync"). */
typedef struct gs_gpu_sync {
    gs_ns start, end;
    gs_str name; /* "Stream Sync", "Event Sync", "Context Sync", "Stream Wait Event" */
    int32_t device, stream;
    uint64_t correlation;
    uint32_t api;
} gs_gpu_sync;

/* ---- host side --------------------------------------------------------------------------- */

enum gs_api_kind { GS_API_RUNTIME, GS_API_DRIVER, GS_API_OTHER };

/* A CUDA (or HIP, ...) runtime or driver call on a host thread. */
typedef struct gs_api {
    gs_ns start, end;
    gs_str name;
    uint8_t kind; /* enum gs_api_kind */
    int64_t pid, tid;
    uint64_t correlation;
    int64_t external_id;
    int32_t cbid; /* CUPTI callback id, -1 when unknown */
    /* Links built by gs_trace_index: */
    uint8_t gpu_class; /* enum gs_gpu_class of the activity it launched */
    uint32_t gpu;      /* index into that class's array, GS_NONE */
    uint32_t parent;   /* innermost enclosing range on the same thread, GS_NONE */
} gs_api;

enum gs_gpu_class { GS_GPU_NONE, GS_GPU_KERNEL, GS_GPU_MEMOP, GS_GPU_SYNC };

enum gs_range_kind {
    GS_RANGE_OP,             /* framework operator (PyTorch cpu_op / aten::...) */
    GS_RANGE_ANNOTATION,     /* user annotation: record_function, ProfilerStep#N */
    GS_RANGE_NVTX,           /* NVTX push/pop or start/end range */
    GS_RANGE_PYTHON,         /* python_function (with_stack) */
    GS_RANGE_GPU_ANNOTATION, /* annotation projected on a GPU stream: pid = device, tid = stream */
    GS_RANGE_OTHER,          /* any other complete event on a host thread */
    GS_RANGE__COUNT
};

/* The fields are ordered so that none pads another: a trace holds up to millions of ranges. */
typedef struct gs_range {
    gs_ns start, end;
    int64_t pid, tid;
    int64_t external_id;
    double flops;       /* the trace's own "flops" arg (torch.profiler with_flops), 0 if none */
    /* PyTorch's autograd sequence number (links a forward op to its backward) and the op's
     * RecordFunction id, when the trace carries them (emit_nvtx range names); op_id 0 when not. */
    int64_t seq, op_id;
    gs_str name;
    gs_str input_dims; /* "Input Dims" as written, GS_STR_EMPTY when absent */
    gs_str input_types; /* "Input type" as written (["float", "c10::BFloat16"]), or empty */
    gs_str concrete_inputs; /* "Concrete Inputs" as written (["", "[1, 1]", "True"]), or empty */
    gs_str domain;     /* NVTX domain, GS_STR_EMPTY otherwise */
    uint8_t kind;      /* enum gs_range_kind */
    bool has_seq;      /* seq and op_id are the trace's */
    /* Built by gs_trace_index over ranges of kinds OP, ANNOTATION and NVTX (the operator tree): */
    uint16_t depth;
    uint32_t parent; /* enclosing range on the same thread, GS_NONE at the root */
    gs_ns self_ns; /* duration minus children ranges and API calls directly inside */
} gs_range;

/* Host instant marks (NVTX marks, cpu_instant_event other than memory). */
typedef struct gs_instant {
    gs_ns ts;
    gs_str name;
    int64_t pid, tid;
} gs_instant;

/* One allocator record: PyTorch "[memory]" or CUPTI memory alloc/free. */
typedef struct gs_mem_event {
    gs_ns ts;
    int64_t pid, tid;
    int8_t device_type; /* c10::DeviceType: 0 CPU, 1 CUDA, ... */
    int32_t device;     /* -1 for host */
    uint64_t addr;
    int64_t bytes;           /* > 0 allocation, < 0 free */
    int64_t total_allocated; /* -1 when unknown */
    int64_t total_reserved;  /* -1 when unknown */
} gs_mem_event;

/* A sampled value: NVML metric, host CPU, a counter event in the trace. */
typedef struct gs_counter {
    gs_ns ts;
    gs_str name;
    int32_t device; /* -1 when not device-specific */
    double value;
} gs_counter;

/* The arguments PyTorch records for one collective: on `record_param_comms` operators and, since
 * PyTorch 2.3, on the NCCL kernels themselves (Kineto args "Collective name", "In msg nelems",
 * "Out msg nelems", "dtype", "Group size", "Process Group Name"). Few events carry them, so they
 * live in a side table keyed by ids, not in every gs_kernel; analysis/base/collectives.c joins them
 * to the kernels (by correlation for a kernel's own, by External id for an operator's). */
enum gs_coll_args_on { GS_COLL_ARGS_ON_KERNEL, GS_COLL_ARGS_ON_OP };

typedef struct gs_coll_args {
    uint8_t on;           /* enum gs_coll_args_on */
    uint64_t correlation; /* the kernel's, when on a kernel */
    int64_t external_id;  /* the event's External id, 0 when unknown */
    gs_str collective;    /* "allreduce", "_allgather_base", "wait", ... */
    gs_str dtype;         /* "Float", "BFloat16", ...; GS_STR_EMPTY when absent */
    gs_str group;         /* process group name, GS_STR_EMPTY when absent */
    int64_t in_nelems, out_nelems; /* elements, -1 when absent */
    int32_t group_size;   /* -1 when absent */
} gs_coll_args;

/* ---- metadata ---------------------------------------------------------------------------- */

typedef struct gs_device {
    int32_t id;
    gs_str name;
    uint64_t total_memory; /* bytes, 0 when unknown */
    int32_t num_sms;       /* 0 when unknown */
    int32_t compute_major, compute_minor;
    int32_t max_threads_per_sm;
    gs_str uuid;           /* "GPU-xxxxxxxx-...", GS_STR_EMPTY when unknown */
} gs_device;

typedef struct gs_thread {
    int64_t pid, tid;
    gs_str name;
} gs_thread;

/* Why a reader left an event out of the model on purpose (gs_trace.skipped_why): what no view
 * uses. Not loss: that is gs_loss. */
enum gs_skip_reason {
    GS_SKIP_CATEGORY, /* a category no view uses: flows, Trace spans, CUPTI overhead */
    GS_SKIP_PHASE,    /* a phase no view uses: begin/end pairs, flow starts and ends */
    GS_SKIP_COUNTER,  /* a counter without a value */
    GS_SKIP_UNKNOWN,  /* a record or chunk type of a newer writer (.gst) */
    GS_SKIP__COUNT
};

/* Why an event is missing from the model: what a user is told as "N events skipped (why)".
 * Loss, unlike events_skipped (categories no view uses). */
enum gs_loss {
    GS_LOSS_DROPPED,           /* records the collector said it dropped (CUPTI buffers full) */
    GS_LOSS_NO_TIME,           /* no time, or one that is not a number */
    GS_LOSS_TIME_RANGE,        /* a time out of range (1e999, beyond +-GS_TIME_MAX) */
    GS_LOSS_NEGATIVE_DURATION, /* a duration < 0: the end before the start */
    GS_LOSS_SIZE_RANGE,        /* a byte count out of range (beyond +-GS_BYTES_MAX) */
    GS_LOSS_TORN_CHUNK,        /* records of a .gst chunk cut short (the writer was killed) */
    GS_LOSS_OUTSIDE_WINDOW,    /* outside the steps kept of a trace too big for the memory budget */
    /* Not events: captures (.gst files, or a process's part of one) that end without their end
     * marker, so what they recorded last is missing and cannot be counted. Left out of
     * gs_loss_total; gs_loss_note says it apart. */
    GS_LOSS_CUT_SHORT,
    GS_LOSS__COUNT
};

enum gs_rank_source { GS_RANK_DEFAULT, GS_RANK_FROM_METADATA, GS_RANK_FROM_FILENAME };

/* Which rank a trace is, and where it came from: what stands for the rank wherever a result
 * names one. A trace and the rank summary made from it carry the same identity, and a result
 * that outlives the trace keeps its own copy (gs_rank_id_copy). */
typedef struct gs_rank_id {
    char *path;         /* the file it was read from (owned) */
    int32_t rank;       /* 0 when the trace does not say */
    int32_t world_size; /* 0 when unknown */
    uint8_t source;     /* enum gs_rank_source: how the rank was found */
    gs_ns epoch_ns;     /* add to any time to get ns since the Unix epoch */
} gs_rank_id;

/* A copy owning its own path. 0, or -1 out of memory (dst is then empty). */
int gs_rank_id_copy(gs_rank_id *dst, const gs_rank_id *src);
void gs_rank_id_free(gs_rank_id *id);
/* The order of a profile's traces: by rank, then path. */
int gs_rank_id_cmp(const gs_rank_id *a, const gs_rank_id *b);

/* One process's (one rank's) trace. */
typedef struct gs_trace {
    gs_strtab strings;
    gs_rank_id id;
    gs_str format;  /* "kineto", "legacy", "gst" */
    /* The format of the trace gpuscope exported this one from (gpuscopeRecordedBy in a chrome
     * export of a .gst or legacy trace): who recorded the events; GS_STR_EMPTY otherwise. */
    gs_str recorded_by;
    int64_t pid;        /* main process id, 0 when unknown */
    gs_str hostname;

    GS_VEC(gs_kernel) kernels;
    GS_VEC(gs_memop) memops;
    GS_VEC(gs_gpu_sync) syncs;
    GS_VEC(gs_api) apis;
    GS_VEC(gs_range) ranges;
    GS_VEC(gs_instant) instants;
    GS_VEC(gs_mem_event) mem_events;
    GS_VEC(gs_counter) counters;
    GS_VEC(gs_device) devices;
    GS_VEC(gs_thread) threads;
    GS_VEC(gs_coll_args) coll_args; /* in file order */

    /* Per-thread order, built by gs_trace_index: the op-tree ranges and the API calls of each
     * host thread, by (pid, tid, start), parents before children — indices into ranges / apis. */
    GS_VEC(uint32_t) thread_ranges;
    GS_VEC(uint32_t) thread_apis;

    uint64_t events_skipped; /* events of categories the model does not keep, on purpose */
    uint64_t skipped_why[GS_SKIP__COUNT]; /* events_skipped by reason, for the debug log */
    uint64_t lost[GS_LOSS__COUNT]; /* events lost by the collector or left out by the reader */
    /* What tracing cost the traced program, as its collector measured it (CUPTI's overhead
     * records in a .gst trace); -1 when the collector does not say (a PyTorch trace). */
    gs_ns collector_overhead_ns;
    /* Device events of an accelerator gpuscope does not read (MTIA's mtia_ccp_events), kept as
     * other ranges: where the trace's work ran when it has no GPU activity. */
    uint64_t accelerator_events;
    bool old_categories; /* Kineto categories spelt as PyTorch <= 1.9 did (Kernel, Operator) */
    bool indexed;
} gs_trace;

/* A set of traces: one per rank or process. */
typedef struct gs_profile {
    GS_VEC(gs_trace *) traces;
} gs_profile;

int gs_trace_init(gs_trace *t, const char *path, gs_error *err);
void gs_trace_free(gs_trace *t);
gs_trace *gs_trace_new(const char *path, gs_error *err);
void gs_trace_delete(gs_trace *t);

/* Drops the events whose times or sizes break the model's bounds (GS_TIME_MAX, GS_BYTES_MAX;
 * counted in t->lost), forgets a GPU memory size beyond GS_BYTES_MAX, and fails when durations
 * or sizes add up past GS_TOTAL_TIME_MAX or GS_TOTAL_BYTES_MAX. Called once after reading,
 * before gs_trace_index. */
int gs_trace_check(gs_trace *t, gs_error *err);

/* Sorts every array by start time and builds the links (correlation, nesting, self time).
 * Called once by every reader after loading. */
int gs_trace_index(gs_trace *t, gs_error *err);

/* Where thread (pid, tid)'s items lie in a per-thread order of an indexed trace (thread_ranges
 * when `ranges`, else thread_apis): [*lo, *hi), empty when the thread has none. */
void gs_thread_order_span(const gs_trace *t, bool ranges, int64_t pid, int64_t tid, size_t *lo,
                          size_t *hi);

/* The events lost, all reasons together (not GS_LOSS_CUT_SHORT, which counts captures). */
uint64_t gs_loss_total(const uint64_t lost[GS_LOSS__COUNT]);

/* "12 events skipped (10 dropped by the collector, 2 with a time out of range)" into buf, then
 * what GS_LOSS_CUT_SHORT says ("; the capture was cut short: ..."), or "" when nothing was lost:
 * the note shown beside results wherever they are shown. Returns buf. */
const char *gs_loss_note(const uint64_t lost[GS_LOSS__COUNT], char *buf, size_t cap);

/* A reason's name in machine-readable output: "dropped_by_collector", "time_out_of_range". */
const char *gs_loss_key(enum gs_loss why);

/* The memory the trace's arrays and strings hold, in bytes (what a reader's budget counts). */
uint64_t gs_trace_bytes(const gs_trace *t);

/* Earliest start and latest end over all timed events; false when the trace has none. */
bool gs_trace_span(const gs_trace *t, gs_ns *first, gs_ns *last);

const gs_device *gs_trace_device(const gs_trace *t, int32_t id);

/* One device per physical GPU. A .gst trace describes a GPU twice: CUDA's view (CUPTI: an
 * ordinal, SMs, the memory CUDA reports) and NVML's (the sampler: an index in PCI order, which
 * CUDA_VISIBLE_DEVICES does not renumber). Records with the same UUID (both carry it; CUPTI's
 * record has no PCI bus id) become one, with CUDA's id and facts and NVML's filling what CUDA left
 * unknown; counters that named the GPU by its NVML index are renumbered to that id. A GPU that
 * only NVML saw keeps its index, or the first free id when a CUDA device holds it.
 * 0, or -1 out of memory. */
int gs_trace_merge_devices(gs_trace *t, gs_error *err);

void gs_profile_free(gs_profile *p);

static inline const char *gs_trace_str(const gs_trace *t, gs_str id)
{
    return gs_str_get(&t->strings, id);
}

/* Operators, annotations and NVTX ranges form the operator tree (parent, depth, self time);
 * Python functions and GPU-side annotations stay outside it. */
static inline bool gs_range_in_op_tree(const gs_range *r)
{
    return r->kind == GS_RANGE_OP || r->kind == GS_RANGE_ANNOTATION || r->kind == GS_RANGE_NVTX;
}

/* Counts n events left out of the model, and why. */
static inline void gs_trace_skip(gs_trace *t, enum gs_skip_reason why, uint64_t n)
{
    t->events_skipped += n;
    t->skipped_why[why] += n;
}

const char *gs_memop_kind_name(enum gs_memop_kind k);
const char *gs_mem_loc_name(enum gs_mem_loc l);

/* Whether a range name is a PyTorch step: GS_PROFILER_STEP_PREFIX and one or more digits. */
bool gs_is_profiler_step(const char *name);

#endif
