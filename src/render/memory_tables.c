#include "render/memory_tables.h"

#include <math.h>

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Which device a row is about: rank, c10 device type name, device index (-1 for the host). */
#define DEVICE_COLUMNS                                                                             \
    {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},                                             \
        {"device_type", "device_type", "Type", "Device Type", GS_COL_TEXT, 0},                     \
        {"device", "device", "Device", "Device", GS_COL_COUNT, 0}

static const gs_column device_columns[] = {
    DEVICE_COLUMNS,
    {"peak_allocated_bytes", "peak_allocated", "Peak Alloc", "Peak Allocated (bytes)",
     GS_COL_BYTES, 0},
    {"reserved_at_peak_bytes", "reserved_at_peak", "Reserved@Peak", "Reserved at Peak (bytes)",
     GS_COL_BYTES, 0},
    {"peak_reserved_bytes", "peak_reserved", "Peak Reserved", "Peak Reserved (bytes)",
     GS_COL_BYTES, 0},
    {"fragmentation", "fragmentation", "Frag", "Fragmentation", GS_COL_FLOAT, 0},
    {"peak_step", "peak_step", "Peak Step", "Peak Step", GS_COL_COUNT, 0},
    {"growth_per_step_bytes", "growth", "Growth/Step", "Growth per Step (bytes)", GS_COL_BYTES,
     0},
    {"growth_r2", "r2", "Fit R2", "Fit R2", GS_COL_FLOAT, 0},
    {"device_memory_bytes", "device_memory", "Device Mem", "Device Memory (bytes)", GS_COL_BYTES,
     0},
    {"headroom_bytes", "headroom", "Headroom", "Headroom (bytes)", GS_COL_BYTES, 0},
    {"peak_pct", "peak_pct", "Peak (%)", "Peak Reserved of Device (%)", GS_COL_PCT, 0},
    {"flags", "flags", "Flags", "Flags", GS_COL_TEXT, 0},
    {"peak_operator", "peak_operator", "Peak Operator", "Peak Operator", GS_COL_TEXT, 0},
    {"records", "records", "Records", "Records", GS_COL_COUNT, GS_COL_JSON_ONLY},
    {"allocs", "allocs", "Allocs", "Allocs", GS_COL_COUNT, GS_COL_JSON_ONLY},
    {"frees", "frees", "Frees", "Frees", GS_COL_COUNT, GS_COL_JSON_ONLY},
    {"peak_time_ns", "peak_time", "Peak Time", "Peak Time (ns)", GS_COL_NS, GS_COL_JSON_ONLY},
    {"peak_allocated_pct", "peak_allocated_pct", "Peak Alloc (%)", "Peak Allocated of Device (%)",
     GS_COL_PCT, GS_COL_JSON_ONLY},
    {"fit_steps", "fit_steps", "Fit Steps", "Fit Steps", GS_COL_COUNT, GS_COL_JSON_ONLY},
};

static const gs_column op_columns[] = {
    DEVICE_COLUMNS,
    {"alloc_bytes", "alloc_bytes", "Alloc Size", "Allocation Size (bytes)", GS_COL_BYTES, 0},
    {"self_alloc_bytes", "self_alloc_bytes", "Self Alloc Size", "Self Allocation Size (bytes)",
     GS_COL_BYTES, 0},
    {"allocs", "allocs", "Allocs", "Allocation Count", GS_COL_COUNT, 0},
    {"self_allocs", "self_allocs", "Self Allocs", "Self Allocation Count", GS_COL_COUNT, 0},
    {"increase_bytes", "increase", "Increase", "Size Increase (bytes)", GS_COL_BYTES, 0},
    {"self_increase_bytes", "self_increase", "Self Increase", "Self Size Increase (bytes)",
     GS_COL_BYTES, 0},
    {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
};

static const gs_column timeline_columns[] = {
    DEVICE_COLUMNS,
    {"time_ns", "time", "Time", "Time (ns)", GS_COL_NS, 0},
    {"allocated_bytes", "allocated", "Allocated", "Allocated (bytes)", GS_COL_BYTES, 0},
    {"reserved_bytes", "reserved", "Reserved", "Reserved (bytes)", GS_COL_BYTES, 0},
};

static const gs_column step_columns[] = {
    DEVICE_COLUMNS,
    {"step", "step", "Step", "Step", GS_COL_COUNT, 0},
    {"warmup", "warmup", "Warm-up", "Warm-up", GS_COL_TEXT, 0},
    {"allocated_bytes", "allocated", "Allocated", "Allocated (bytes)", GS_COL_BYTES, 0},
    {"reserved_bytes", "reserved", "Reserved", "Reserved (bytes)", GS_COL_BYTES, 0},
};

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
    c[0].i = d->rank;
    c[1].text = type_name(d->device_type);
    c[2].i = d->device;
}

static int device_rows(const gs_memory_summary *s, gs_table *out)
{
    gs_table_init(out, device_columns, COUNT_OF(device_columns),
                  "no memory records in the selected traces (profile with profile_memory=True)");
    for (size_t i = 0; i < s->ndevices; i++) {
        const gs_mem_device *d = &s->devices[i];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        put_device(c, d);
        const int64_t ints[] = {d->peak_allocated, d->reserved_at_peak, d->peak_reserved};
        for (size_t k = 0; k < COUNT_OF(ints); k++)
            c[3 + k].i = ints[k];
        c[6].f = d->fragmentation;
        c[7].i = d->peak_step;
        c[8].i = (int64_t)llround(d->slope);
        c[9].f = d->r2;
        c[10].i = (int64_t)d->device_memory;
        c[11].i = d->headroom;
        c[12].f = d->peak_pct;
        c[13].text = flags_text(d);
        c[14].text = d->peak_op;
        c[15].i = (int64_t)d->records;
        c[16].i = (int64_t)d->allocs;
        c[17].i = (int64_t)d->frees;
        c[18].i = d->peak_ts - d->origin;
        c[19].f = d->peak_allocated_pct;
        c[20].i = (int64_t)d->fit_steps;
    }
    return 0;
}

static int op_rows(const gs_memory_summary *s, gs_table *out)
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
            const int64_t ints[] = {op->alloc_bytes,           op->self_alloc_bytes,
                                    (int64_t)op->alloc_count, (int64_t)op->self_alloc_count,
                                    op->increase,             op->self_increase};
            for (size_t k = 0; k < COUNT_OF(ints); k++)
                c[3 + k].i = ints[k];
            c[9].text = op->name;
        }
    }
    return 0;
}

static int timeline_rows(const gs_memory_summary *s, gs_table *out)
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
            c[3].i = d->points[r].ts - d->origin;
            c[4].i = d->points[r].allocated;
            c[5].i = d->points[r].reserved;
        }
    }
    return 0;
}

static int step_rows(const gs_memory_summary *s, gs_table *out)
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
            c[3].i = d->steps[r].number;
            c[4].text = d->steps[r].warmup ? "yes" : NULL;
            c[5].i = d->steps[r].allocated;
            c[6].i = d->steps[r].reserved;
        }
    }
    return 0;
}

int gs_memory_table(const gs_memory_summary *s, enum gs_memory_view view, gs_table *out)
{
    static int (*const build[])(const gs_memory_summary *, gs_table *) = {
        [GS_MEMORY_DEVICES] = device_rows,
        [GS_MEMORY_OPS] = op_rows,
        [GS_MEMORY_TIMELINE] = timeline_rows,
        [GS_MEMORY_STEPS] = step_rows,
    };
    return build[view](s, out);
}
