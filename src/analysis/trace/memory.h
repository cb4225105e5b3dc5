/* Memory (doc/design.md §19; the TensorBoard plugin's memory view, memory_parser.py): from the
 * allocator's records (PyTorch `[memory]` events; CUDA's allocations in a .gst trace), per device: the allocated / reserved timeline,
 * the peak with its step and operator, the operators that allocate, fragmentation at the peak,
 * growth per step with a least-squares fit (leak flag), and headroom against the device's
 * memory.
 *
 * Records are grouped by (trace, device type, device). Records without totals (-1) are skipped for
 * the curve, as the plugin skips NaN; they still count for operator attribution. A device none of
 * whose records has totals gets its allocated curve summed from the records' sizes: by address
 * for CUPTI's (GS_MEM_CUDA), as a running sum from the trace's start for PyTorch's (PyTorch
 * 1.9 and earlier recorded only Bytes). */
#ifndef GS_ANALYSIS_MEMORY_H
#define GS_ANALYSIS_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/base/trace_ctx.h"
#include "analysis/base/steps.h"
#include "common/error.h"
#include "model/trace.h"

/* Thresholds (thresholds.h): fragmentation when reserved > GS_TH_MEM_FRAGMENTATION × allocated at
 * the peak; near the limit when peak reserved > GS_TH_MEM_PEAK_SHARE of the device (the TB
 * plugin's memory rule uses peak allocated; we use reserved, what the device actually gives out;
 * both are reported); a leak when allocated at step ends grows at least GS_TH_MEM_LEAK_MIN_GROWTH
 * per step with a least-squares fit of R² >= GS_TH_MEM_LEAK_R2 over >= GS_TH_MEM_LEAK_MIN_STEPS
 * steps (fewer steps or a noisy fit cannot tell growth from a changing batch). */
/* Points of the downsampled timeline a view draws (the peak is always one of them). */
#define GS_MEM_SERIES_POINTS 200

enum { GS_MEM_DEVICE_CPU = 0, GS_MEM_DEVICE_CUDA = 1 }; /* c10::DeviceType values we name */

/* Whose allocations the records are, which decides what allocated and reserved mean. */
enum gs_mem_allocator {
    /* PyTorch's allocators ([memory] events, torch.profiler profile_memory=True): each record
     * carries the totals, allocated (tensors) and reserved (the caching allocator's pool); before
     * 1.10, only its size (allocated summed, reserved unknown). */
    GS_MEM_PYTORCH,
    /* CUDA's (a .gst trace: CUPTI's records of cudaMalloc, cuMemAlloc, cudaHostAlloc, ... by the
     * program and its libraries): records carry sizes only, so allocated is summed from them (a
     * free takes back its allocation at the same address); for PyTorch this is the pool its
     * caching allocator reserves. There is no reserved figure. */
    GS_MEM_CUDA,
};

typedef struct gs_mem_point {
    gs_ns ts;
    int64_t allocated, reserved; /* after the record; reserved -1 when not recorded */
} gs_mem_point;

/* Allocated and reserved at the end of one step: the last record before the step's end; -1 when
 * not recorded (no record before the step's end; reserved with GS_MEM_CUDA). */
typedef struct gs_mem_step {
    int64_t number;
    bool warmup;
    int64_t allocated, reserved;
} gs_mem_step;

/* Operator attribution (as the plugin's memory view): each record goes to the innermost operator
 * on its thread whose [start, end) holds it; frees inherit the operator of their allocation (by
 * address). "Self" counts records directly on the operator, totals include its children. */
typedef struct gs_mem_op {
    const char *name;         /* in the summary's names */
    uint64_t alloc_count, self_alloc_count;
    int64_t alloc_bytes, self_alloc_bytes; /* Σ positive bytes */
    int64_t increase, self_increase;       /* Σ bytes, allocations minus frees */
} gs_mem_op;

typedef struct gs_mem_device {
    int32_t rank;
    char *path;               /* the trace's file (owned) */
    int8_t device_type;       /* GS_MEM_DEVICE_CUDA or GS_MEM_DEVICE_CPU (or another c10 type) */
    int32_t device;           /* -1 for the host */
    uint8_t allocator;        /* enum gs_mem_allocator */
    bool reserved_known;      /* the records give reserved (GS_MEM_PYTORCH with totals) */
    gs_ns origin;             /* the trace's first timestamp: timeline times are relative to it */
    uint64_t records;         /* allocator records of this device */
    uint64_t allocs, frees;

    gs_mem_point *series;     /* every record with totals, in time order */
    size_t nseries;
    gs_mem_point *points;     /* ≤ GS_MEM_SERIES_POINTS of them, the peak kept */
    size_t npoints;

    int64_t peak_allocated;   /* max Total Allocated (0 when no record has totals) */
    gs_ns peak_ts;            /* first time it was reached */
    int64_t reserved_at_peak; /* 0 when !reserved_known */
    int64_t peak_reserved;    /* max Total Reserved; 0 when !reserved_known */
    int64_t peak_step;        /* number of the step holding peak_ts, -1 if none */
    const char *peak_op;      /* innermost operator on the peak record's thread, NULL if none
                               * (in the summary's names) */

    double fragmentation;     /* reserved_at_peak / peak_allocated; 0 when either is unknown */
    bool fragmented;          /* fragmentation > GS_TH_MEM_FRAGMENTATION */

    gs_mem_step *steps;       /* per step, in step order */
    size_t nsteps;
    size_t fit_steps;         /* kept steps with a record at or before their end (the fit's points) */
    double slope;             /* bytes per step, least squares over the kept steps */
    double r2;                /* coefficient of determination of the fit; 0 when undefined */
    bool leak;                /* slope > 0, r2 >= GS_TH_MEM_LEAK_R2, fit_steps >= MIN_STEPS */

    uint64_t device_memory;   /* the device's total memory, 0 when unknown (or host) */
    /* What the program held of the device at most: peak_reserved, or with GS_MEM_CUDA (where
     * allocations are what CUDA gave out) peak_allocated. */
    int64_t peak_held;
    int64_t headroom;         /* device_memory − peak_held; 0 when unknown */
    double peak_pct;          /* peak_held / device_memory × 100; 0 when unknown */
    double peak_allocated_pct; /* peak_allocated / device_memory × 100 (the TB plugin's rule) */
    bool near_limit;          /* peak_held > GS_TH_MEM_PEAK_SHARE × device_memory */

    gs_mem_op *ops;           /* alloc_bytes desc, then self_alloc_bytes desc, then name */
    size_t nops;
} gs_mem_device;

typedef struct gs_memory_summary {
    gs_mem_device *devices;   /* by trace (rank), then CUDA devices by id, then host and others */
    size_t ndevices;
    gs_strtab names;          /* owns the operator names */
} gs_memory_summary;

/* Over the traces added one at a time (init, add each, finish; build is the three for one
 * trace): every allocator record of a trace, per step of its context. 0, or -1 with err; a
 * failed summary is freed. */
int gs_memory_init(gs_memory_summary *s, gs_error *err);
int gs_memory_add(gs_memory_summary *s, const gs_trace_ctx *c, gs_error *err);
void gs_memory_finish(gs_memory_summary *s);
int gs_memory_build(const gs_trace_ctx *c, gs_memory_summary *out, gs_error *err);
void gs_memory_summary_free(gs_memory_summary *s);

#endif
