#include "render/view_tables.h"
#include "common/util.h"

#include <math.h>
#include <string.h>

/* Time (%) and Total, first in the kernel, API and copy tables; the arguments are their slots and
 * what Total sums (its help). */
#define TIME_COLUMNS(time_pct, total, total_help)                                                  \
    [time_pct] = {"time_pct", "time", "Time (%)", "Time (%)", GS_COL_PCT, 0,                       \
                  "Total of the row / sum of the Totals of all rows x 100"},                       \
    [total] = {"total_ns", "total", "Total", "Total Time (ns)", GS_COL_NS, 0, total_help}

/* The help of the median and of the shortest and longest, in every table of duration
 * statistics. */
#define MED_HELP "median duration; mean of the two middle ones for an even count"
#define MIN_MAX_HELP "shortest and longest duration"

/* nsys stats columns shared by the kernel and API tables: the time, the count (each table names
 * it), then the duration statistics. */
enum stats_col {
    STATS_COL_TIME_PCT, STATS_COL_TOTAL_NS, STATS_COL_COUNT, STATS_COL_AVG_NS, STATS_COL_MED_NS,
    STATS_COL_MIN_NS, STATS_COL_MAX_NS, STATS_COL_STDDEV_NS, STATS_NCOLS
};

/* The arguments are the help of Total, Avg and StdDev, which name what the table counts. */
#define DURATION_STATS_COLUMNS(total_help, avg_help, stddev_help)                                  \
    TIME_COLUMNS(STATS_COL_TIME_PCT, STATS_COL_TOTAL_NS, total_help),                              \
    [STATS_COL_AVG_NS] = {"avg_ns", "avg", "Avg", "Avg (ns)", GS_COL_NS, 0, avg_help},             \
    [STATS_COL_MED_NS] = {"med_ns", "med", "Med", "Med (ns)", GS_COL_NS, 0, MED_HELP},             \
    [STATS_COL_MIN_NS] = {"min_ns", "min", "Min", "Min (ns)", GS_COL_NS, 0, MIN_MAX_HELP},         \
    [STATS_COL_MAX_NS] = {"max_ns", "max", "Max", "Max (ns)", GS_COL_NS, 0, ""},                   \
    [STATS_COL_STDDEV_NS] = {"stddev_ns", "stddev", "StdDev", "StdDev (ns)", GS_COL_NS, 0,         \
                             stddev_help}

/* ---- kernels -------------------------------------------------------------------------------- */

enum kernel_col { KERNEL_COL_OP = STATS_NCOLS, KERNEL_COL_OP_PCT, KERNEL_COL_NAME, KERNEL_NCOLS };

/* The operator that launched the kernel (most of its time), as the TensorBoard plugin's kernel
 * view and HTA show it. */
#define LAUNCHING_OP_COLUMNS(op, pct)                                                              \
    [op] = {"operator", "operator", "Operator", "Operator", GS_COL_TEXT, 0,                        \
            "the operator that launched most of the row's time: the innermost\n"                   \
            "framework operator around the launch call (else an NVTX range;\n"                     \
            "never a step or annotation), as the TensorBoard plugin's kernel\n"                    \
            "view and HTA show it; '-' when none launched it"},                                    \
    [pct] = {"operator_pct", "operator_pct", "Op (%)", "Op (%)", GS_COL_PCT, 0,                    \
             "the share of the row's time that operator launched"}

#define KERNEL_STATS_COLUMNS                                                                       \
    DURATION_STATS_COLUMNS("sum of the kernels' durations", "Total / Instances",                   \
                           "sample standard deviation (n - 1); 0 for one instance"),               \
    [STATS_COL_COUNT] = {"instances", "instances", "Instances", "Instances", GS_COL_COUNT, 0,      \
                         "number of kernels"}
#define KERNEL_NAME_COLUMN {"name", "name", "Name", "Name", GS_COL_TEXT, 0, "kernel name"}

static const gs_column kernel_columns[] = {
    KERNEL_STATS_COLUMNS,
    LAUNCHING_OP_COLUMNS(KERNEL_COL_OP, KERNEL_COL_OP_PCT),
    [KERNEL_COL_NAME] = KERNEL_NAME_COLUMN,
};
_Static_assert(COUNT_OF(kernel_columns) == KERNEL_NCOLS, "one column per enum kernel_col");

enum launch_col {
    LAUNCH_COL_GRID = STATS_NCOLS, LAUNCH_COL_BLOCK, LAUNCH_COL_OP, LAUNCH_COL_OP_PCT,
    LAUNCH_COL_NAME, LAUNCH_NCOLS
};

static const gs_column kernel_launch_columns[] = {
    KERNEL_STATS_COLUMNS,
    [LAUNCH_COL_GRID] = {"grid", "grid", "GridXYZ", "GridXYZ", GS_COL_XYZ, 0,
                         "grid dimensions (--by-launch)"},
    [LAUNCH_COL_BLOCK] = {"block", "block", "BlockXYZ", "BlockXYZ", GS_COL_XYZ, 0,
                          "block dimensions (--by-launch)"},
    LAUNCHING_OP_COLUMNS(LAUNCH_COL_OP, LAUNCH_COL_OP_PCT),
    [LAUNCH_COL_NAME] = KERNEL_NAME_COLUMN,
};
_Static_assert(COUNT_OF(kernel_launch_columns) == LAUNCH_NCOLS, "one column per enum launch_col");

const gs_column *gs_kernel_columns(bool by_launch, size_t *ncols)
{
    *ncols = by_launch ? COUNT_OF(kernel_launch_columns) : COUNT_OF(kernel_columns);
    return by_launch ? kernel_launch_columns : kernel_columns;
}

/* Fills the stats columns shared by the kernel and API tables. */
static void put_time_stats(gs_cell *c, double time_pct, const gs_dur_stats *s)
{
    c[STATS_COL_TIME_PCT].f = time_pct;
    c[STATS_COL_TOTAL_NS].i = s->total;
    c[STATS_COL_COUNT].i = (int64_t)s->count;
    c[STATS_COL_AVG_NS].i = s->avg;
    c[STATS_COL_MED_NS].i = s->med;
    c[STATS_COL_MIN_NS].i = s->min;
    c[STATS_COL_MAX_NS].i = s->max;
    c[STATS_COL_STDDEV_NS].i = s->stddev;
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
        put_time_stats(c, row->time_pct, &row->time);
        size_t op = s->by_launch ? LAUNCH_COL_OP : KERNEL_COL_OP;
        c[op].text = row->op;
        c[op + 1].f = row->op ? row->op_pct : NAN; /* the share column follows the operator */
        if (s->by_launch) {
            memcpy(c[LAUNCH_COL_GRID].xyz, row->grid, sizeof c[LAUNCH_COL_GRID].xyz);
            memcpy(c[LAUNCH_COL_BLOCK].xyz, row->block, sizeof c[LAUNCH_COL_BLOCK].xyz);
            c[LAUNCH_COL_NAME].text = row->name;
        } else {
            c[KERNEL_COL_NAME].text = row->name;
        }
    }
    return 0;
}

/* ---- API calls ------------------------------------------------------------------------------ */

enum api_col { API_COL_NAME = STATS_NCOLS, API_NCOLS };

static const gs_column api_columns[] = {
    DURATION_STATS_COLUMNS("sum of the calls' durations", "Total / Num Calls",
                           "sample standard deviation (n - 1); 0 for one call"),
    [STATS_COL_COUNT] = {"calls", "calls", "Num Calls", "Num Calls", GS_COL_COUNT, 0,
                         "number of calls"},
    [API_COL_NAME] = {"name", "name", "Name", "Name", GS_COL_TEXT, 0, "API function"},
};
_Static_assert(COUNT_OF(api_columns) == API_NCOLS, "one column per enum api_col");

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
        put_time_stats(c, s->rows[r].time_pct, &s->rows[r].time);
        c[API_COL_NAME].text = s->rows[r].name;
    }
    return 0;
}

/* ---- operators ------------------------------------------------------------------------------ */

/* The operator table: key_averages' columns (the CPU shares are of the profiled CPU time, the sum
 * of every event's self time with the CUDA calls', as PyTorch's profiler table computes them, so
 * no CPU total % is over 100; the CUDA shares of the sum of Self CUDA); the ops view has two
 * columns more, FLOPs and TFLOP/s (doc/flops.md), and grouped by shape one more, Input Shapes. */
enum op_col {
    OP_COL_NAME, OP_COL_CALLS, OP_COL_SELF_CPU_NS, OP_COL_SELF_CPU_PCT, OP_COL_CPU_TOTAL_NS,
    OP_COL_CPU_TOTAL_PCT, OP_COL_CPU_AVG_NS, OP_COL_SELF_CUDA_NS, OP_COL_SELF_CUDA_PCT,
    OP_COL_CUDA_TOTAL_NS, OP_COL_CUDA_AVG_NS, OP_NBASE
};

#define OP_COLUMNS                                                                                 \
    [OP_COL_NAME] = {"name", "name", "Name", "Name", GS_COL_TEXT, 0,                               \
                     "operator, annotation or NVTX range"},                                        \
    [OP_COL_CALLS] = {"calls", "calls", "Calls", "Calls", GS_COL_COUNT, 0, "number of ranges"},    \
    [OP_COL_SELF_CPU_NS] = {"self_cpu_ns", "self_cpu", "Self CPU", "Self CPU (ns)", GS_COL_NS, 0,  \
                            "sum of each range's duration minus the ranges and CUDA calls\n"       \
                            "directly inside it on its thread"},                                   \
    [OP_COL_SELF_CPU_PCT] = {"self_cpu_pct", "self_cpu_pct", "Self CPU %", "Self CPU (%)",         \
                             GS_COL_PCT, 0,                                                        \
                             "Self CPU / the profiled CPU time x 100: every row's Self CPU\n"      \
                             "and the CUDA calls' time (PyTorch's key_averages table counts\n"     \
                             "those as rows; gpuscope api lists them), so no row is over 100"},    \
    [OP_COL_CPU_TOTAL_NS] = {"cpu_total_ns", "cpu_total", "CPU total", "CPU Total (ns)",           \
                             GS_COL_NS, 0, "sum of the ranges' durations"},                        \
    [OP_COL_CPU_TOTAL_PCT] = {"cpu_total_pct", "cpu_total_pct", "CPU total %", "CPU Total (%)",    \
                              GS_COL_PCT, 0,                                                       \
                              "CPU total / the profiled CPU time x 100 (a parent holds its\n"      \
                              "children)"},                                                        \
    [OP_COL_CPU_AVG_NS] = {"cpu_avg_ns", "cpu_avg", "CPU avg", "CPU Avg (ns)", GS_COL_NS,          \
                           GS_COL_NARROW_DROP,                                                     \
                           "CPU total / Calls"},                                                   \
    [OP_COL_SELF_CUDA_NS] = {"self_cuda_ns", "self_cuda", "Self CUDA", "Self CUDA (ns)",           \
                             GS_COL_NS, 0,                                                         \
                             "sum of the durations of the kernels, copies and sets launched\n"     \
                             "directly by the ranges, on the thread that launched them"},          \
    [OP_COL_SELF_CUDA_PCT] = {"self_cuda_pct", "self_cuda_pct", "Self CUDA %", "Self CUDA (%)",    \
                              GS_COL_PCT, 0,                                                       \
                              "Self CUDA / the sum of every row's Self CUDA x 100"},               \
    [OP_COL_CUDA_TOTAL_NS] = {"cuda_total_ns", "cuda_total", "CUDA total", "CUDA Total (ns)",      \
                              GS_COL_NS, 0,                                                        \
                              "Self CUDA plus the GPU time launched by every range inside them;\n" \
                              "for a step, the GPU work launched by every thread of the process\n" \
                              "while the step was open (backward runs on its own thread), as\n"    \
                              "the step breakdown counts it"},                                     \
    [OP_COL_CUDA_AVG_NS] = {"cuda_avg_ns", "cuda_avg", "CUDA avg", "CUDA Avg (ns)", GS_COL_NS,     \
                            GS_COL_NARROW_DROP,                                                    \
                            "CUDA total / Calls"}
#define OP_FLOPS_COLUMN                                                                            \
    {"flops", "flops", "FLOPs", "FLOPs", GS_COL_COUNT, 0,                                          \
     "floating-point operations of the calls, from the trace's flops\n"                            \
     "or the input shapes, for matmuls, convolutions and attention\n"                              \
     "(doc/flops.md); - for other operators or without shapes"}
#define OP_TFLOPS_COLUMN                                                                           \
    {"tflops", "tflops", "TFLOP/s", "TFLOP/s", GS_COL_FLOAT, 0, "FLOPs / CUDA total"}
#define OP_DIMS_COLUMN                                                                             \
    {"input_dims", "input_dims", "Input Shapes", "Input Shapes", GS_COL_TEXT, 0,                   \
     "input dimensions as the trace recorded them (--group-by-shape)"}

static const gs_column op_columns[] = {OP_COLUMNS};
_Static_assert(COUNT_OF(op_columns) == OP_NBASE, "one column per enum op_col");
static const gs_column op_shape_columns[] = {OP_COLUMNS, [OP_NBASE] = OP_DIMS_COLUMN};
static const gs_column op_flops_columns[] = {OP_COLUMNS, [OP_NBASE] = OP_FLOPS_COLUMN,
                                             OP_TFLOPS_COLUMN};
static const gs_column op_flops_shape_columns[] = {
    OP_COLUMNS, [OP_NBASE] = OP_FLOPS_COLUMN, OP_TFLOPS_COLUMN, OP_DIMS_COLUMN};

const gs_column *gs_op_columns(bool by_shape, bool with_flops, size_t *ncols)
{
    if (with_flops) {
        *ncols = by_shape ? COUNT_OF(op_flops_shape_columns) : COUNT_OF(op_flops_columns);
        return by_shape ? op_flops_shape_columns : op_flops_columns;
    }
    *ncols = by_shape ? COUNT_OF(op_shape_columns) : COUNT_OF(op_columns);
    return by_shape ? op_shape_columns : op_columns;
}

int gs_op_table(const gs_op_summary *s, gs_table *out)
{
    size_t ncols;
    const gs_column *cols = gs_op_columns(s->by_shape, s->with_flops, &ncols);
    gs_table_init(out, cols, ncols, "no operators or annotations in the selected traces");
    size_t dims = s->with_flops ? OP_NBASE + 2 : OP_NBASE;
    double self_cpu = 0, self_cuda = 0;
    for (size_t r = 0; r < s->nrows; r++) {
        self_cpu += (double)s->rows[r].self_cpu;
        self_cuda += (double)s->rows[r].self_cuda;
    }
    if (s->cpu_base > 0) /* unknown (a summary from an older .gsum): the rows' Self CPU */
        self_cpu = (double)s->cpu_base;
    for (size_t r = 0; r < s->nrows; r++) {
        const gs_op_row *row = &s->rows[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        int64_t calls = row->calls ? (int64_t)row->calls : 1;
        c[OP_COL_NAME].text = row->name;
        c[OP_COL_CALLS].i = (int64_t)row->calls;
        c[OP_COL_SELF_CPU_NS].i = row->self_cpu;
        c[OP_COL_SELF_CPU_PCT].f = self_cpu > 0 ? 100.0 * (double)row->self_cpu / self_cpu : NAN;
        c[OP_COL_CPU_TOTAL_NS].i = row->cpu_total;
        c[OP_COL_CPU_TOTAL_PCT].f = self_cpu > 0 ? 100.0 * (double)row->cpu_total / self_cpu : NAN;
        c[OP_COL_CPU_AVG_NS].i = (row->cpu_total + calls / 2) / calls;
        c[OP_COL_SELF_CUDA_NS].i = row->self_cuda;
        c[OP_COL_SELF_CUDA_PCT].f =
            self_cuda > 0 ? 100.0 * (double)row->self_cuda / self_cuda : NAN;
        c[OP_COL_CUDA_TOTAL_NS].i = row->cuda_total;
        c[OP_COL_CUDA_AVG_NS].i = (row->cuda_total + calls / 2) / calls;
        if (s->with_flops) {
            bool rate = row->has_flops && row->cuda_total > 0;
            c[OP_NBASE].i = gs_cell_known((int64_t)row->flops, row->has_flops);
            c[OP_NBASE + 1].f = rate ? row->flops / (double)row->cuda_total / 1e3 : NAN;
        }
        if (s->by_shape)
            c[dims].text = row->input_dims;
    }
    return 0;
}

/* ---- memory copies and sets ----------------------------------------------------------------- */

enum memcpy_col {
    MEMCPY_COL_TIME_PCT, MEMCPY_COL_TOTAL_NS, MEMCPY_COL_COUNT, MEMCPY_COL_AVG_NS,
    MEMCPY_COL_MED_NS, MEMCPY_COL_MIN_NS, MEMCPY_COL_MAX_NS, MEMCPY_COL_TOTAL_BYTES,
    MEMCPY_COL_BANDWIDTH_GBPS, MEMCPY_COL_OPERATION, MEMCPY_COL_KIND, MEMCPY_COL_SRC,
    MEMCPY_COL_DST, MEMCPY_NCOLS
};

static const gs_column memcpy_columns[] = {
    TIME_COLUMNS(MEMCPY_COL_TIME_PCT, MEMCPY_COL_TOTAL_NS, "sum of the operations' durations"),
    [MEMCPY_COL_COUNT] = {"count", "count", "Count", "Count", GS_COL_COUNT, 0,
                          "number of operations"},
    [MEMCPY_COL_AVG_NS] = {"avg_ns", "avg", "Avg", "Avg (ns)", GS_COL_NS, 0, "Total / Count"},
    [MEMCPY_COL_MED_NS] = {"med_ns", "med", "Med", "Med (ns)", GS_COL_NS, 0, MED_HELP},
    [MEMCPY_COL_MIN_NS] = {"min_ns", "min", "Min", "Min (ns)", GS_COL_NS, 0, MIN_MAX_HELP},
    [MEMCPY_COL_MAX_NS] = {"max_ns", "max", "Max", "Max (ns)", GS_COL_NS, 0, ""},
    [MEMCPY_COL_TOTAL_BYTES] = {"total_bytes", "bytes", "Bytes", "Total (bytes)", GS_COL_BYTES, 0,
                                "bytes copied or set"},
    [MEMCPY_COL_BANDWIDTH_GBPS] = {"bandwidth_gbps", "bandwidth", "Bandwidth", "Bandwidth (GB/s)",
                                   GS_COL_GBPS, 0, "Bytes / Total, in GB/s (1 GB = 10^9 bytes)"},
    [MEMCPY_COL_OPERATION] = {"operation", "operation", "Operation", "Operation", GS_COL_TEXT, 0,
                              "kind (HtoD, DtoH, DtoD, HtoH, PtoP, Memset) and, when the trace\n"
                              "says, the memory on each side: Pageable, Pinned, Device, Array,\n"
                              "Managed. A pageable side makes an async copy synchronous."},
    [MEMCPY_COL_KIND] = {"kind", "kind", "Kind", "Kind", GS_COL_TEXT, GS_COL_JSON_ONLY},
    [MEMCPY_COL_SRC] = {"src", "src", "Source", "Source", GS_COL_TEXT, GS_COL_JSON_ONLY},
    [MEMCPY_COL_DST] = {"dst", "dst", "Destination", "Destination", GS_COL_TEXT, GS_COL_JSON_ONLY},
};
_Static_assert(COUNT_OF(memcpy_columns) == MEMCPY_NCOLS, "one column per enum memcpy_col");

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
        c[MEMCPY_COL_TIME_PCT].f = row->time_pct;
        c[MEMCPY_COL_TOTAL_NS].i = row->time.total;
        c[MEMCPY_COL_COUNT].i = (int64_t)row->time.count;
        c[MEMCPY_COL_AVG_NS].i = row->time.avg;
        c[MEMCPY_COL_MED_NS].i = row->time.med;
        c[MEMCPY_COL_MIN_NS].i = row->time.min;
        c[MEMCPY_COL_MAX_NS].i = row->time.max;
        c[MEMCPY_COL_TOTAL_BYTES].i = (int64_t)row->bytes;
        c[MEMCPY_COL_BANDWIDTH_GBPS].f = row->bandwidth_gbps;
        c[MEMCPY_COL_OPERATION].text = row->operation;
        c[MEMCPY_COL_KIND].text = gs_memop_kind_name(row->kind);
        c[MEMCPY_COL_SRC].text = location_or_null(row->src);
        c[MEMCPY_COL_DST].text = location_or_null(row->dst);
    }
    return 0;
}

/* ---- what was profiled ---------------------------------------------------------------------- */

enum file_col {
    FILE_COL_RANK, FILE_COL_WORLD_SIZE, FILE_COL_FORMAT, FILE_COL_SPAN_NS, FILE_COL_STEPS,
    FILE_COL_STEPS_FROM, FILE_COL_PATH, FILE_COL_TRACING_COST_NS, FILE_COL_GRAPH_CAPTURES,
    FILE_COL_GRAPH_INSTANTIATIONS, FILE_COL_GRAPH_LAUNCHES, FILE_COL_GRAPH_KERNELS,
    FILE_COL_STARTUP_NS, FILE_NCOLS
};

static const gs_column file_columns[] = {
    [FILE_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0, "the trace's rank"},
    [FILE_COL_WORLD_SIZE] = {"world_size", "world_size", "World", "World Size", GS_COL_COUNT,
                             GS_COL_JSON_ONLY},
    [FILE_COL_FORMAT] = {"format", "format", "Format", "Format", GS_COL_TEXT, 0,
                         "kineto, legacy (torch.autograd.profiler) or gst (gpuscope run)"},
    [FILE_COL_SPAN_NS] = {"span_ns", "span", "Span", "Span (ns)", GS_COL_NS, 0,
                          "the trace's first to last event"},
    [FILE_COL_STEPS] = {"steps", "steps", "Steps", "Steps", GS_COL_COUNT, 0,
                        "the steps the report uses, warm-up included"},
    [FILE_COL_STEPS_FROM] = {"steps_from", "steps_from", "From", "Steps From", GS_COL_TEXT, 0,
                             "where they came from: ProfilerStep#N, --step, detected (the\n"
                             "repeating kernel sequence) or whole trace (one window)"},
    [FILE_COL_PATH] = {"path", "path", "Path", "Path", GS_COL_TEXT, GS_COL_CUT_START,
                       "the trace's file"},
    [FILE_COL_TRACING_COST_NS] = {"tracing_cost_ns", "tracing_cost", "Tracing Cost",
                                  "Tracing Cost (ns)", GS_COL_NS, GS_COL_JSON_ONLY},
    [FILE_COL_STARTUP_NS] = {"startup_ns", "startup", "Start-up", "Start-up (ns)", GS_COL_NS,
                             GS_COL_JSON_ONLY},
    /* CUDA graphs (doc/launch.md): null when a summary does not say */
    [FILE_COL_GRAPH_CAPTURES] = {"graph_captures", "graph_captures", "Graph Captures",
                                 "Graph Captures", GS_COL_COUNT, GS_COL_JSON_ONLY},
    [FILE_COL_GRAPH_INSTANTIATIONS] = {"graph_instantiations", "graph_instantiations",
                                       "Graph Instantiations", "Graph Instantiations",
                                       GS_COL_COUNT, GS_COL_JSON_ONLY},
    [FILE_COL_GRAPH_LAUNCHES] = {"graph_launches", "graph_launches", "Graph Launches",
                                 "Graph Launches", GS_COL_COUNT, GS_COL_JSON_ONLY},
    [FILE_COL_GRAPH_KERNELS] = {"graph_kernels", "graph_kernels", "Graph Kernels",
                                "Graph Kernels", GS_COL_COUNT, GS_COL_JSON_ONLY},
};
_Static_assert(COUNT_OF(file_columns) == FILE_NCOLS, "one column per enum file_col");

const gs_column *gs_file_columns(size_t *ncols)
{
    *ncols = COUNT_OF(file_columns);
    return file_columns;
}

/* Short enough for the rank table's column (step_tables.c has the sentence). */
static const char *const step_source_label[] = {
    [GS_STEPS_PROFILER] = "ProfilerStep#N", [GS_STEPS_REGEX] = "--step",
    [GS_STEPS_WINDOW] = "whole trace", [GS_STEPS_DETECTED] = "detected",
};

int gs_file_table(const gs_profile_facts *f, gs_table *out)
{
    gs_table_init(out, file_columns, COUNT_OF(file_columns), "no traces selected");
    for (size_t i = 0; i < f->nfiles; i++) {
        const gs_file_facts *file = &f->files[i];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[FILE_COL_RANK].i = file->rank;
        c[FILE_COL_WORLD_SIZE].i = file->world_size;
        c[FILE_COL_FORMAT].text = file->format;
        c[FILE_COL_SPAN_NS].i = file->span;
        c[FILE_COL_STEPS].i = (int64_t)file->steps;
        size_t from = file->step_source < COUNT_OF(step_source_label) ? file->step_source
                                                                        : GS_STEPS_WINDOW;
        c[FILE_COL_STEPS_FROM].text = step_source_label[from];
        c[FILE_COL_PATH].text = file->path;
        c[FILE_COL_TRACING_COST_NS].i = gs_cell_known(file->tracing_cost, file->tracing_cost >= 0);
        c[FILE_COL_STARTUP_NS].i =
            gs_cell_known(file->startup.end - file->startup.start, file->startup.found);
        const gs_graph_facts *g = &file->graphs;
        c[FILE_COL_GRAPH_CAPTURES].i = gs_cell_known((int64_t)g->captures, file->has_graphs);
        c[FILE_COL_GRAPH_INSTANTIATIONS].i =
            gs_cell_known((int64_t)g->instantiations, file->has_graphs);
        c[FILE_COL_GRAPH_LAUNCHES].i = gs_cell_known((int64_t)g->launches, file->has_graphs);
        c[FILE_COL_GRAPH_KERNELS].i = gs_cell_known((int64_t)g->graph_kernels, file->has_graphs);
    }
    return 0;
}

enum device_col {
    DEVICE_COL_ID, DEVICE_COL_NAME, DEVICE_COL_TOTAL_MEMORY_BYTES, DEVICE_COL_SMS,
    DEVICE_COL_COMPUTE_CAPABILITY, DEVICE_NCOLS
};

static const gs_column device_columns[] = {
    [DEVICE_COL_ID] = {"id", "id", "GPU", "GPU", GS_COL_COUNT, 0, "the CUDA device index"},
    [DEVICE_COL_NAME] = {"name", "name", "Name", "Name", GS_COL_TEXT, 0, "the GPU's name"},
    [DEVICE_COL_TOTAL_MEMORY_BYTES] = {"total_memory_bytes", "memory", "Memory", "Memory (bytes)",
                                       GS_COL_BYTES, 0, "total memory (1 GB = 10^9 bytes)"},
    [DEVICE_COL_SMS] = {"sms", "sms", "SMs", "SMs", GS_COL_COUNT, 0, "streaming multiprocessors"},
    [DEVICE_COL_COMPUTE_CAPABILITY] = {"compute_capability", "cc", "CC", "Compute Capability",
                                       GS_COL_TEXT, 0, "compute capability"},
};
_Static_assert(COUNT_OF(device_columns) == DEVICE_NCOLS, "one column per enum device_col");

const gs_column *gs_device_columns(size_t *ncols)
{
    *ncols = COUNT_OF(device_columns);
    return device_columns;
}

int gs_device_table(const gs_profile_facts *f, gs_table *out)
{
    gs_table_init(out, device_columns, COUNT_OF(device_columns),
                  "no GPU properties in the selected traces");
    for (size_t i = 0; i < f->ndevices; i++) {
        const gs_device_facts *d = &f->devices[i];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[DEVICE_COL_ID].i = d->id;
        c[DEVICE_COL_NAME].text = d->name;
        c[DEVICE_COL_TOTAL_MEMORY_BYTES].i = (int64_t)d->total_memory;
        c[DEVICE_COL_SMS].i = d->num_sms;
        c[DEVICE_COL_COMPUTE_CAPABILITY].text = d->capability[0] ? d->capability : NULL;
    }
    return 0;
}
