#include "render/memory_tables.h"
#include "common/util.h"

#include <math.h>

/* Which device a row is about: rank, c10 device type name, device index (-1 for the host); the
 * columns every memory table starts with. */
enum id_col {
    ID_COL_RANK, ID_COL_DEVICE_TYPE, ID_COL_DEVICE, ID_COL_ALLOCATOR, ID_NCOLS
};

#define DEVICE_COLUMNS                                                                             \
    [ID_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0, "the trace's rank"},         \
    [ID_COL_DEVICE_TYPE] = {"device_type", "device_type", "Type", "Device Type", GS_COL_TEXT, 0,   \
                            "c10 device type (cuda, cpu, ...) and index (- for the host)"},        \
    [ID_COL_DEVICE] = {"device", "device", "Device", "Device", GS_COL_COUNT, 0, ""},               \
    [ID_COL_ALLOCATOR] = {"allocator", "allocator", "Allocator", "Allocator", GS_COL_TEXT, 0,      \
                          "pytorch: its allocators' records carry allocated (tensors)\n"           \
                          "and reserved (the caching allocator's pool), or only sizes\n"          \
                          "(summed; no reserved); cuda: CUDA's\n"                                  \
                          "allocations (cudaMalloc...) recorded by gpuscope run, summed\n"         \
                          "from their sizes: for PyTorch its reserved pool; no reserved"}

/* Allocated and reserved at a time (--timeline) or at a step's end (--per-step). */
#define ALLOCATED_COLUMN                                                                           \
    {"allocated_bytes", "allocated", "Allocated", "Allocated (bytes)", GS_COL_BYTES, 0,            \
     "--timeline: after the record; --per-step: at the step's end"}
#define RESERVED_COLUMN                                                                            \
    {"reserved_bytes", "reserved", "Reserved", "Reserved (bytes)", GS_COL_BYTES, 0, ""}

enum device_col {
    DEVICE_COL_PEAK_ALLOCATED_BYTES = ID_NCOLS, DEVICE_COL_RESERVED_AT_PEAK_BYTES,
    DEVICE_COL_PEAK_RESERVED_BYTES, DEVICE_COL_FRAGMENTATION, DEVICE_COL_PEAK_STEP,
    DEVICE_COL_GROWTH_PER_STEP_BYTES, DEVICE_COL_GROWTH_R2, DEVICE_COL_DEVICE_MEMORY_BYTES,
    DEVICE_COL_HEADROOM_BYTES, DEVICE_COL_PEAK_PCT, DEVICE_COL_FLAGS, DEVICE_COL_PEAK_OPERATOR,
    DEVICE_COL_RECORDS, DEVICE_COL_ALLOCS, DEVICE_COL_FREES, DEVICE_COL_PEAK_TIME_NS,
    DEVICE_COL_PEAK_ALLOCATED_PCT, DEVICE_COL_FIT_STEPS, DEVICE_NCOLS
};

static const gs_column device_columns[] = {
    DEVICE_COLUMNS,
    [DEVICE_COL_PEAK_ALLOCATED_BYTES] = {"peak_allocated_bytes", "peak_allocated", "Peak Alloc",
                                         "Peak Allocated (bytes)", GS_COL_BYTES, 0,
                                         "highest allocated"},
    [DEVICE_COL_RESERVED_AT_PEAK_BYTES] = {"reserved_at_peak_bytes", "reserved_at_peak",
                                           "Reserved@Peak", "Reserved at Peak (bytes)",
                                           GS_COL_BYTES, 0, "reserved at that record"},
    [DEVICE_COL_PEAK_RESERVED_BYTES] = {"peak_reserved_bytes", "peak_reserved", "Peak Reserved",
                                        "Peak Reserved (bytes)", GS_COL_BYTES, 0,
                                        "highest reserved"},
    [DEVICE_COL_FRAGMENTATION] = {"fragmentation", "fragmentation", "Frag", "Fragmentation",
                                  GS_COL_FLOAT, 0,
                                  "Reserved@Peak / Peak Alloc (fragmented above 1.5)"},
    [DEVICE_COL_PEAK_STEP] = {"peak_step", "peak_step", "Peak Step", "Peak Step", GS_COL_COUNT, 0,
                              "step holding the peak, - when outside every step"},
    [DEVICE_COL_GROWTH_PER_STEP_BYTES] = {"growth_per_step_bytes", "growth", "Growth/Step",
                                          "Growth per Step (bytes)", GS_COL_BYTES, 0,
                                          "least-squares slope of allocated at the kept steps' "
                                          "ends"},
    [DEVICE_COL_GROWTH_R2] = {"growth_r2", "r2", "Fit R2", "Fit R2", GS_COL_FLOAT, 0,
                              "the fit's coefficient of determination (leak: growth > 0,\n"
                              "R2 >= 0.9 over >= 4 steps)"},
    [DEVICE_COL_DEVICE_MEMORY_BYTES] = {"device_memory_bytes", "device_memory", "Device Mem",
                                        "Device Memory (bytes)", GS_COL_BYTES, 0,
                                        "the device's memory"},
    [DEVICE_COL_HEADROOM_BYTES] = {"headroom_bytes", "headroom", "Headroom", "Headroom (bytes)",
                                   GS_COL_BYTES, 0,
                                   "Device Mem - the peak held (Peak Reserved; Peak Alloc for\n"
                                   "cuda, what CUDA gave out)"},
    [DEVICE_COL_PEAK_PCT] = {"peak_pct", "peak_pct", "Peak (%)", "Peak Reserved of Device (%)",
                             GS_COL_PCT, 0,
                             "the peak held / Device Mem x 100 (near limit above 90)"},
    [DEVICE_COL_FLAGS] = {"flags", "flags", "Flags", "Flags", GS_COL_TEXT, 0,
                          "fragmented, near limit, leak"},
    [DEVICE_COL_PEAK_OPERATOR] = {"peak_operator", "peak_operator", "Peak Operator",
                                  "Peak Operator", GS_COL_TEXT, 0,
                                  "innermost operator on the peak record's thread"},
    [DEVICE_COL_RECORDS] = {"records", "records", "Records", "Records", GS_COL_COUNT,
                            GS_COL_JSON_ONLY},
    [DEVICE_COL_ALLOCS] = {"allocs", "allocs", "Allocs", "Allocs", GS_COL_COUNT, GS_COL_JSON_ONLY},
    [DEVICE_COL_FREES] = {"frees", "frees", "Frees", "Frees", GS_COL_COUNT, GS_COL_JSON_ONLY},
    [DEVICE_COL_PEAK_TIME_NS] = {"peak_time_ns", "peak_time", "Peak Time", "Peak Time (ns)",
                                 GS_COL_NS, GS_COL_JSON_ONLY},
    [DEVICE_COL_PEAK_ALLOCATED_PCT] = {"peak_allocated_pct", "peak_allocated_pct", "Peak Alloc (%)",
                                       "Peak Allocated of Device (%)", GS_COL_PCT,
                                       GS_COL_JSON_ONLY},
    [DEVICE_COL_FIT_STEPS] = {"fit_steps", "fit_steps", "Fit Steps", "Fit Steps", GS_COL_COUNT,
                              GS_COL_JSON_ONLY},
};
_Static_assert(COUNT_OF(device_columns) == DEVICE_NCOLS, "one column per enum device_col");

enum op_col {
    OP_COL_ALLOC_BYTES = ID_NCOLS, OP_COL_SELF_ALLOC_BYTES, OP_COL_ALLOCS, OP_COL_SELF_ALLOCS,
    OP_COL_INCREASE_BYTES, OP_COL_SELF_INCREASE_BYTES, OP_COL_NAME, OP_NCOLS
};

static const gs_column op_columns[] = {
    DEVICE_COLUMNS,
    [OP_COL_ALLOC_BYTES] = {"alloc_bytes", "alloc_bytes", "Alloc Size", "Allocation Size (bytes)",
                            GS_COL_BYTES, 0,
                            "--ops: bytes allocated in the operator and its children"},
    [OP_COL_SELF_ALLOC_BYTES] = {"self_alloc_bytes", "self_alloc_bytes", "Self Alloc Size",
                                 "Self Allocation Size (bytes)", GS_COL_BYTES, 0,
                                 "--ops: bytes allocated directly in it"},
    [OP_COL_ALLOCS] = {"allocs", "allocs", "Allocs", "Allocation Count", GS_COL_COUNT, 0,
                       "--ops: allocations in the operator and its children"},
    [OP_COL_SELF_ALLOCS] = {"self_allocs", "self_allocs", "Self Allocs", "Self Allocation Count",
                            GS_COL_COUNT, 0, "--ops: allocations directly in it"},
    [OP_COL_INCREASE_BYTES] = {"increase_bytes", "increase", "Increase", "Size Increase (bytes)",
                               GS_COL_BYTES, 0,
                               "--ops: bytes allocated minus bytes freed in the operator and\n"
                               "its children; a free counts for the operator of its allocation"},
    [OP_COL_SELF_INCREASE_BYTES] = {"self_increase_bytes", "self_increase", "Self Increase",
                                    "Self Size Increase (bytes)", GS_COL_BYTES, 0,
                                    "--ops: the same directly in it"},
    [OP_COL_NAME] = {"name", "name", "Name", "Name", GS_COL_TEXT, 0, "--ops: the operator"},
};
_Static_assert(COUNT_OF(op_columns) == OP_NCOLS, "one column per enum op_col");

enum timeline_col {
    TIMELINE_COL_TIME_NS = ID_NCOLS, TIMELINE_COL_ALLOCATED_BYTES, TIMELINE_COL_RESERVED_BYTES,
    TIMELINE_NCOLS
};

static const gs_column timeline_columns[] = {
    DEVICE_COLUMNS,
    [TIMELINE_COL_TIME_NS] = {"time_ns", "time", "Time", "Time (ns)", GS_COL_NS, 0,
                              "--timeline: the record's time"},
    [TIMELINE_COL_ALLOCATED_BYTES] = ALLOCATED_COLUMN,
    [TIMELINE_COL_RESERVED_BYTES] = RESERVED_COLUMN,
};
_Static_assert(COUNT_OF(timeline_columns) == TIMELINE_NCOLS, "one column per enum timeline_col");

enum step_col {
    STEP_COL_STEP = ID_NCOLS, STEP_COL_WARMUP, STEP_COL_ALLOCATED_BYTES, STEP_COL_RESERVED_BYTES,
    STEP_NCOLS
};

static const gs_column step_columns[] = {
    DEVICE_COLUMNS,
    [STEP_COL_STEP] = {"step", "step", "Step", "Step", GS_COL_COUNT, 0,
                       "--per-step: the step's number; yes for a warm-up step"},
    [STEP_COL_WARMUP] = {"warmup", "warmup", "Warm-up", "Warm-up", GS_COL_TEXT, 0, ""},
    [STEP_COL_ALLOCATED_BYTES] = ALLOCATED_COLUMN,
    [STEP_COL_RESERVED_BYTES] = RESERVED_COLUMN,
};
_Static_assert(COUNT_OF(step_columns) == STEP_NCOLS, "one column per enum step_col");

/* c10::DeviceType names of the types a trace commonly holds. */
static const char *type_name(int8_t t)
{
    static const char *const names[] = {"cpu",    "cuda",  "mkldnn", "opengl",
                                        "opencl", "ideep", "hip"};
    return t >= 0 && (size_t)t < COUNT_OF(names) ? names[t] : "other";
}

/* The Flags column: every combination spelled once, indexed by the three bits. */
static const char *flags_text(const gs_mem_device *d)
{
    static const char *const combos[8] = {
        NULL,   "fragmented",         "near limit",         "fragmented, near limit",
        "leak", "fragmented, leak",   "near limit, leak",   "fragmented, near limit, leak",
    };
    return combos[(d->fragmented ? 1 : 0) | (d->near_limit ? 2 : 0) | (d->leak ? 4 : 0)];
}

static void put_device(gs_cell *c, const gs_mem_device *d)
{
    c[ID_COL_RANK].i = d->rank;
    c[ID_COL_DEVICE_TYPE].text = type_name(d->device_type);
    c[ID_COL_DEVICE].i = gs_cell_known(d->device, d->device >= 0); /* the host has none */
    c[ID_COL_ALLOCATOR].text = d->allocator == GS_MEM_CUDA ? "cuda" : "pytorch";
}

/* A value the records do not give (-1: no record before a step's end, reserved of CUDA's
 * allocations) is not recorded, never a -1. */
static int64_t known_bytes(int64_t v)
{
    return gs_cell_known(v, v >= 0);
}

static int fill_device_table(const gs_memory_summary *s, gs_table *out)
{
    gs_table_init(out, device_columns, COUNT_OF(device_columns),
                  "no allocation records in the selected traces (torch.profiler records them with "
                  "profile_memory=True; gpuscope run with --trace memory, its default)");
    for (size_t i = 0; i < s->ndevices; i++) {
        const gs_mem_device *d = &s->devices[i];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        put_device(c, d);
        bool fitted = d->fit_steps >= 2, device_known = d->device_memory > 0;
        c[DEVICE_COL_PEAK_ALLOCATED_BYTES].i = d->peak_allocated;
        c[DEVICE_COL_RESERVED_AT_PEAK_BYTES].i = gs_cell_known(d->reserved_at_peak,
                                                               d->reserved_known);
        c[DEVICE_COL_PEAK_RESERVED_BYTES].i = gs_cell_known(d->peak_reserved, d->reserved_known);
        c[DEVICE_COL_FRAGMENTATION].f =
            d->reserved_known && d->peak_allocated > 0 ? d->fragmentation : NAN;
        c[DEVICE_COL_PEAK_STEP].i = gs_cell_known(d->peak_step, d->peak_step >= 0);
        c[DEVICE_COL_GROWTH_PER_STEP_BYTES].i = gs_cell_known((int64_t)llround(d->slope), fitted);
        c[DEVICE_COL_GROWTH_R2].f = fitted ? d->r2 : NAN;
        c[DEVICE_COL_DEVICE_MEMORY_BYTES].i =
            gs_cell_known((int64_t)d->device_memory, device_known);
        c[DEVICE_COL_HEADROOM_BYTES].i = gs_cell_known(d->headroom, device_known);
        c[DEVICE_COL_PEAK_PCT].f = device_known ? d->peak_pct : NAN;
        c[DEVICE_COL_FLAGS].text = flags_text(d);
        c[DEVICE_COL_PEAK_OPERATOR].text = d->peak_op;
        c[DEVICE_COL_RECORDS].i = (int64_t)d->records;
        c[DEVICE_COL_ALLOCS].i = (int64_t)d->allocs;
        c[DEVICE_COL_FREES].i = (int64_t)d->frees;
        c[DEVICE_COL_PEAK_TIME_NS].i = d->peak_ts - d->origin;
        c[DEVICE_COL_PEAK_ALLOCATED_PCT].f = device_known ? d->peak_allocated_pct : NAN;
        c[DEVICE_COL_FIT_STEPS].i = (int64_t)d->fit_steps;
    }
    return 0;
}

static int fill_op_table(const gs_memory_summary *s, gs_table *out)
{
    gs_table_init(out, op_columns, COUNT_OF(op_columns),
                  "no allocations inside operators in the selected traces");
    for (size_t i = 0; i < s->ndevices; i++) {
        const gs_mem_device *d = &s->devices[i];
        for (size_t r = 0; r < d->nops; r++) {
            const gs_mem_op *op = &d->ops[r];
            gs_cell *c = gs_table_add_row(out);
            if (!c)
                return -1;
            put_device(c, d);
            c[OP_COL_ALLOC_BYTES].i = op->alloc_bytes;
            c[OP_COL_SELF_ALLOC_BYTES].i = op->self_alloc_bytes;
            c[OP_COL_ALLOCS].i = (int64_t)op->alloc_count;
            c[OP_COL_SELF_ALLOCS].i = (int64_t)op->self_alloc_count;
            c[OP_COL_INCREASE_BYTES].i = op->increase;
            c[OP_COL_SELF_INCREASE_BYTES].i = op->self_increase;
            c[OP_COL_NAME].text = op->name;
        }
    }
    return 0;
}

static int fill_timeline_table(const gs_memory_summary *s, gs_table *out)
{
    gs_table_init(out, timeline_columns, COUNT_OF(timeline_columns),
                  "no memory records with totals in the selected traces");
    for (size_t i = 0; i < s->ndevices; i++) {
        const gs_mem_device *d = &s->devices[i];
        for (size_t r = 0; r < d->npoints; r++) {
            gs_cell *c = gs_table_add_row(out);
            if (!c)
                return -1;
            put_device(c, d);
            c[TIMELINE_COL_TIME_NS].i = d->points[r].ts - d->origin;
            c[TIMELINE_COL_ALLOCATED_BYTES].i = d->points[r].allocated;
            c[TIMELINE_COL_RESERVED_BYTES].i = known_bytes(d->points[r].reserved);
        }
    }
    return 0;
}

static int fill_step_table(const gs_memory_summary *s, gs_table *out)
{
    gs_table_init(out, step_columns, COUNT_OF(step_columns),
                  "no memory records in the selected traces");
    for (size_t i = 0; i < s->ndevices; i++) {
        const gs_mem_device *d = &s->devices[i];
        for (size_t r = 0; r < d->nsteps; r++) {
            gs_cell *c = gs_table_add_row(out);
            if (!c)
                return -1;
            put_device(c, d);
            c[STEP_COL_STEP].i = d->steps[r].number;
            c[STEP_COL_WARMUP].text = d->steps[r].warmup ? "yes" : NULL;
            c[STEP_COL_ALLOCATED_BYTES].i = known_bytes(d->steps[r].allocated);
            c[STEP_COL_RESERVED_BYTES].i = known_bytes(d->steps[r].reserved);
        }
    }
    return 0;
}

const gs_column *gs_memory_columns(enum gs_memory_view view, size_t *ncols)
{
    static const struct {
        const gs_column *cols;
        size_t ncols;
    } tables[] = {
        [GS_MEMORY_DEVICES] = {device_columns, COUNT_OF(device_columns)},
        [GS_MEMORY_OPS] = {op_columns, COUNT_OF(op_columns)},
        [GS_MEMORY_TIMELINE] = {timeline_columns, COUNT_OF(timeline_columns)},
        [GS_MEMORY_STEPS] = {step_columns, COUNT_OF(step_columns)},
    };
    *ncols = tables[view].ncols;
    return tables[view].cols;
}

int gs_memory_table(const gs_memory_summary *s, enum gs_memory_view view, gs_table *out)
{
    static int (*const build[])(const gs_memory_summary *, gs_table *) = {
        [GS_MEMORY_DEVICES] = fill_device_table,
        [GS_MEMORY_OPS] = fill_op_table,
        [GS_MEMORY_TIMELINE] = fill_timeline_table,
        [GS_MEMORY_STEPS] = fill_step_table,
    };
    return build[view](s, out);
}
