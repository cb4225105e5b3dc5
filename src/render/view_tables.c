#include "render/view_tables.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* nsys stats columns shared by the kernel and API tables, after Time (%) and Total. */
#define DURATION_STATS_COLUMNS                                                                     \
    {"avg_ns", "avg", "Avg", "Avg (ns)", GS_COL_NS, 0},                                            \
        {"med_ns", "med", "Med", "Med (ns)", GS_COL_NS, 0},                                        \
        {"min_ns", "min", "Min", "Min (ns)", GS_COL_NS, 0},                                        \
        {"max_ns", "max", "Max", "Max (ns)", GS_COL_NS, 0},                                        \
        {"stddev_ns", "stddev", "StdDev", "StdDev (ns)", GS_COL_NS, 0}

#define TIME_COLUMNS                                                                               \
    {"time_pct", "time", "Time (%)", "Time (%)", GS_COL_PCT, 0},                                   \
        {"total_ns", "total", "Total", "Total Time (ns)", GS_COL_NS, 0}

/* ---- kernels -------------------------------------------------------------------------------- */

static const gs_column kernel_columns[] = {
    TIME_COLUMNS,
    {"instances", "instances", "Instances", "Instances", GS_COL_COUNT, 0},
    DURATION_STATS_COLUMNS,
    {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
};

static const gs_column kernel_launch_columns[] = {
    TIME_COLUMNS,
    {"instances", "instances", "Instances", "Instances", GS_COL_COUNT, 0},
    DURATION_STATS_COLUMNS,
    {"grid", "grid", "GridXYZ", "GridXYZ", GS_COL_XYZ, 0},
    {"block", "block", "BlockXYZ", "BlockXYZ", GS_COL_XYZ, 0},
    {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
};

const gs_column *gs_kernel_columns(bool by_launch, size_t *ncols)
{
    *ncols = by_launch ? COUNT_OF(kernel_launch_columns) : COUNT_OF(kernel_columns);
    return by_launch ? kernel_launch_columns : kernel_columns;
}

/* Fills the cells shared by the kernel and API tables; returns the next column. */
static size_t put_time_stats(gs_cell *c, double time_pct, const gs_dur_stats *s)
{
    const int64_t values[] = {s->total, (int64_t)s->count, s->avg, s->med,
                              s->min,   s->max,            s->stddev};
    c[0].f = time_pct;
    for (size_t k = 0; k < COUNT_OF(values); k++)
        c[1 + k].i = values[k];
    return 1 + COUNT_OF(values);
}

int gs_kernel_table(const gs_kernel_summary *s, gs_table *out)
{
    size_t ncols;
    const gs_column *cols = gs_kernel_columns(s->by_launch, &ncols);
    gs_table_init(out, cols, ncols, "no GPU kernels in the selected traces");
    for (size_t r = 0; r < s->nrows; r++) {
        const gs_kernel_row *row = &s->rows[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        size_t k = put_time_stats(c, row->time_pct, &row->time);
        if (s->by_launch) {
            for (int d = 0; d < 3; d++) {
                c[k].xyz[d] = row->grid[d];
                c[k + 1].xyz[d] = row->block[d];
            }
            k += 2;
        }
        c[k].text = row->name;
    }
    return 0;
}

/* ---- API calls ------------------------------------------------------------------------------ */

static const gs_column api_columns[] = {
    TIME_COLUMNS,
    {"calls", "calls", "Num Calls", "Num Calls", GS_COL_COUNT, 0},
    DURATION_STATS_COLUMNS,
    {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
};

const gs_column *gs_api_columns(size_t *ncols)
{
    *ncols = COUNT_OF(api_columns);
    return api_columns;
}

int gs_api_table(const gs_api_summary *s, gs_table *out)
{
    gs_table_init(out, api_columns, COUNT_OF(api_columns),
                  "no CUDA API calls in the selected traces");
    for (size_t r = 0; r < s->nrows; r++) {
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        size_t k = put_time_stats(c, s->rows[r].time_pct, &s->rows[r].time);
        c[k].text = s->rows[r].name;
    }
    return 0;
}

/* ---- operators ------------------------------------------------------------------------------ */

#define OP_COLUMNS                                                                                 \
    {"name", "name", "Name", "Name", GS_COL_TEXT, 0},                                              \
        {"calls", "calls", "Calls", "Calls", GS_COL_COUNT, 0},                                     \
        {"self_cpu_ns", "self_cpu", "Self CPU", "Self CPU (ns)", GS_COL_NS, 0},                    \
        {"cpu_total_ns", "cpu_total", "CPU total", "CPU Total (ns)", GS_COL_NS, 0},                \
        {"self_cuda_ns", "self_cuda", "Self CUDA", "Self CUDA (ns)", GS_COL_NS, 0},                \
        {"cuda_total_ns", "cuda_total", "CUDA total", "CUDA Total (ns)", GS_COL_NS, 0}

static const gs_column op_columns[] = {OP_COLUMNS};
static const gs_column op_shape_columns[] = {
    OP_COLUMNS,
    {"input_dims", "input_dims", "Input Shapes", "Input Shapes", GS_COL_TEXT, 0},
};

const gs_column *gs_op_columns(bool by_shape, size_t *ncols)
{
    *ncols = by_shape ? COUNT_OF(op_shape_columns) : COUNT_OF(op_columns);
    return by_shape ? op_shape_columns : op_columns;
}

int gs_op_table(const gs_op_summary *s, gs_table *out)
{
    size_t ncols;
    const gs_column *cols = gs_op_columns(s->by_shape, &ncols);
    gs_table_init(out, cols, ncols, "no operators or annotations in the selected traces");
    for (size_t r = 0; r < s->nrows; r++) {
        const gs_op_row *row = &s->rows[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[0].text = row->name;
        c[1].i = (int64_t)row->calls;
        c[2].i = row->self_cpu;
        c[3].i = row->cpu_total;
        c[4].i = row->self_cuda;
        c[5].i = row->cuda_total;
        if (s->by_shape)
            c[6].text = row->input_dims;
    }
    return 0;
}

/* ---- memory copies and sets ----------------------------------------------------------------- */

static const gs_column memcpy_columns[] = {
    TIME_COLUMNS,
    {"count", "count", "Count", "Count", GS_COL_COUNT, 0},
    {"avg_ns", "avg", "Avg", "Avg (ns)", GS_COL_NS, 0},
    {"med_ns", "med", "Med", "Med (ns)", GS_COL_NS, 0},
    {"min_ns", "min", "Min", "Min (ns)", GS_COL_NS, 0},
    {"max_ns", "max", "Max", "Max (ns)", GS_COL_NS, 0},
    {"total_bytes", "bytes", "Bytes", "Total (bytes)", GS_COL_BYTES, 0},
    {"bandwidth_gbps", "bandwidth", "Bandwidth", "Bandwidth (GB/s)", GS_COL_GBPS, 0},
    {"operation", "operation", "Operation", "Operation", GS_COL_TEXT, 0},
    {"kind", "kind", "Kind", "Kind", GS_COL_TEXT, GS_COL_JSON_ONLY},
    {"src", "src", "Source", "Source", GS_COL_TEXT, GS_COL_JSON_ONLY},
    {"dst", "dst", "Destination", "Destination", GS_COL_TEXT, GS_COL_JSON_ONLY},
};

const gs_column *gs_memcpy_columns(size_t *ncols)
{
    *ncols = COUNT_OF(memcpy_columns);
    return memcpy_columns;
}

static const char *location_or_null(uint8_t loc)
{
    return loc == GS_LOC_UNKNOWN ? NULL : gs_mem_loc_name(loc);
}

int gs_memcpy_table(const gs_memcpy_summary *s, gs_table *out)
{
    gs_table_init(out, memcpy_columns, COUNT_OF(memcpy_columns),
                  "no memory copies or sets in the selected traces");
    for (size_t r = 0; r < s->nrows; r++) {
        const gs_memcpy_row *row = &s->rows[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        const int64_t times[] = {row->time.total, (int64_t)row->time.count, row->time.avg,
                                 row->time.med, row->time.min, row->time.max};
        c[0].f = row->time_pct;
        for (size_t k = 0; k < COUNT_OF(times); k++)
            c[1 + k].i = times[k];
        c[7].i = (int64_t)row->bytes;
        c[8].f = row->bandwidth_gbps;
        c[9].text = row->operation;
        c[10].text = gs_memop_kind_name(row->kind);
        c[11].text = location_or_null(row->src);
        c[12].text = location_or_null(row->dst);
    }
    return 0;
}

/* ---- what was profiled ---------------------------------------------------------------------- */

static const gs_column file_columns[] = {
    {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    {"world_size", "world_size", "World", "World Size", GS_COL_COUNT, GS_COL_JSON_ONLY},
    {"format", "format", "Format", "Format", GS_COL_TEXT, 0},
    {"span_ns", "span", "Span", "Span (ns)", GS_COL_NS, 0},
    {"steps", "steps", "Steps", "Steps", GS_COL_COUNT, 0},
    {"path", "path", "Path", "Path", GS_COL_TEXT, 0},
};

int gs_file_table(const gs_profile_facts *f, gs_table *out)
{
    gs_table_init(out, file_columns, COUNT_OF(file_columns), "no traces selected");
    for (size_t i = 0; i < f->nfiles; i++) {
        const gs_file_facts *file = &f->files[i];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[0].i = file->rank;
        c[1].i = file->world_size;
        c[2].text = file->format;
        c[3].i = file->span;
        c[4].i = (int64_t)file->steps;
        c[5].text = file->path;
    }
    return 0;
}

static const gs_column device_columns[] = {
    {"id", "id", "GPU", "GPU", GS_COL_COUNT, 0},
    {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
    {"total_memory_bytes", "memory", "Memory", "Memory (bytes)", GS_COL_BYTES, 0},
    {"sms", "sms", "SMs", "SMs", GS_COL_COUNT, 0},
    {"compute_capability", "cc", "CC", "Compute Capability", GS_COL_TEXT, 0},
};

int gs_device_table(const gs_profile_facts *f, gs_table *out)
{
    gs_table_init(out, device_columns, COUNT_OF(device_columns),
                  "no GPU properties in the selected traces");
    for (size_t i = 0; i < f->ndevices; i++) {
        const gs_device_facts *d = &f->devices[i];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[0].i = d->id;
        c[1].text = d->name;
        c[2].i = (int64_t)d->total_memory;
        c[3].i = d->num_sms;
        c[4].text = d->capability[0] ? d->capability : NULL;
    }
    return 0;
}
