#include "render/roofline_tables.h"

#include <math.h>
#include <string.h>

#include "common/util.h"
#include "render/json.h"

enum roof_col {
    ROOF_COL_NAME, ROOF_COL_CLASS, ROOF_COL_DTYPE, ROOF_COL_CALLS, ROOF_COL_GPU_NS,
    ROOF_COL_GPU_PCT, ROOF_COL_FLOPS, ROOF_COL_BYTES, ROOF_COL_INTENSITY, ROOF_COL_TFLOPS,
    ROOF_COL_TBPS, ROOF_COL_ROOF_TFLOPS, ROOF_COL_ROOF_PCT, ROOF_COL_BOUND, ROOF_COL_KERNELS,
    ROOF_COL_MODELLED_CALLS, ROOF_COL_MODELLED_NS, ROOF_COL_PEAK_TFLOPS, ROOF_COL_PEAK_TBPS,
    ROOF_COL_RIDGE, ROOF_COL_IDEAL_NS, ROOF_COL_GPU_MODEL, ROOF_NBASE
};

#define ROOF_NAME_COLUMN(help)                                                                     \
    [ROOF_COL_NAME] = {"name", "name", "Name", "Name", GS_COL_TEXT, 0, help}

#define ROOF_COLUMNS                                                                               \
    [ROOF_COL_CLASS] = {"class", "class", "Class", "Class", GS_COL_TEXT, 0,                        \
                        "its traffic model: gemm, conv, attention, elementwise,\n"                 \
                        "reduction, norm, softmax, embedding, copy; none without one"},           \
    [ROOF_COL_DTYPE] = {"dtype", "dtype", "Type", "Type", GS_COL_TEXT, 0,                          \
                        "the element type most of its time ran in (tf32: fp32 matrix\n"           \
                        "work on Tensor Cores); - when not recorded"},                             \
    [ROOF_COL_CALLS] = {"calls", "calls", "Calls", "Calls", GS_COL_COUNT, 0,                       \
                        "operator calls that launched GPU work"},                                  \
    [ROOF_COL_GPU_NS] = {"gpu_ns", "gpu", "GPU Time", "GPU Time (ns)", GS_COL_NS, 0,               \
                         "the kernels, memsets and device-to-device copies they launched"},        \
    [ROOF_COL_GPU_PCT] = {"gpu_pct", "gpu_pct", "GPU %", "GPU Time (%)", GS_COL_PCT,               \
                          GS_COL_NARROW_DROP,                                                      \
                          "GPU Time / the GPU time every operator launched x 100"},               \
    [ROOF_COL_FLOPS] = {"flops", "flops", "FLOPs", "FLOPs", GS_COL_COUNT, 0,                       \
                        "floating-point operations of the calls with a model and shapes"},        \
    [ROOF_COL_BYTES] = {"bytes", "bytes", "Bytes", "Bytes", GS_COL_BYTES, 0,                       \
                        "their minimum traffic: each input read once, each output\n"              \
                        "written once"},                                                           \
    [ROOF_COL_INTENSITY] = {"intensity", "intensity", "FLOP/B", "FLOP/Byte", GS_COL_FLOAT, 0,      \
                            "arithmetic intensity: FLOPs / Bytes"},                                \
    [ROOF_COL_TFLOPS] = {"tflops", "tflops", "TFLOP/s", "TFLOP/s", GS_COL_FLOAT, 0,                \
                         "FLOPs / the GPU time of those calls"},                                   \
    [ROOF_COL_TBPS] = {"tbps", "tbps", "TB/s", "TB/s", GS_COL_FLOAT, 0,                            \
                       "Bytes / that time (1 TB = 10^12 bytes)"},                                  \
    [ROOF_COL_ROOF_TFLOPS] = {"roof_tflops", "roof", "Roof", "Roof (TFLOP/s)", GS_COL_FLOAT,       \
                              GS_COL_NARROW_DROP,                                                  \
                              "the roof at that intensity: min(compute peak, FLOP/B x\n"          \
                              "memory bandwidth) for the GPU, the type and the class"},            \
    [ROOF_COL_ROOF_PCT] = {"roof_pct", "roof_pct", "% of Roof", "Roof Reached (%)", GS_COL_PCT,   \
                           0,                                                                      \
                           "time at the roof / GPU time x 100, the time at the roof\n"            \
                           "being max(FLOPs / compute peak, Bytes / bandwidth)"},                 \
    [ROOF_COL_BOUND] = {"bound", "bound", "Bound", "Bound", GS_COL_TEXT, 0,                        \
                        "memory (below the ridge), compute (above it) or latency\n"               \
                        "(each call under 5 us at the roof and under half of it\n"                \
                        "reached); - when unknown"},                                               \
    [ROOF_COL_KERNELS] = {"kernels", "kernels", "Kernels", "Kernels", GS_COL_COUNT,                \
                          GS_COL_JSON_ONLY, NULL},                                                 \
    [ROOF_COL_MODELLED_CALLS] = {"modelled_calls", "modelled_calls", "Modelled", "Modelled Calls", \
                                 GS_COL_COUNT, GS_COL_JSON_ONLY, NULL},                            \
    [ROOF_COL_MODELLED_NS] = {"modelled_ns", "modelled_ns", "Modelled Time",                       \
                              "Modelled Time (ns)", GS_COL_NS, GS_COL_JSON_ONLY, NULL},            \
    [ROOF_COL_PEAK_TFLOPS] = {"peak_tflops", "peak_tflops", "Peak", "Peak (TFLOP/s)",              \
                              GS_COL_FLOAT, GS_COL_JSON_ONLY, NULL},                               \
    [ROOF_COL_PEAK_TBPS] = {"peak_tbps", "peak_tbps", "Bandwidth", "Bandwidth (TB/s)",             \
                            GS_COL_FLOAT, GS_COL_JSON_ONLY, NULL},                                 \
    [ROOF_COL_RIDGE] = {"ridge", "ridge", "Ridge", "Ridge (FLOP/Byte)", GS_COL_FLOAT,              \
                        GS_COL_JSON_ONLY, NULL},                                                   \
    [ROOF_COL_IDEAL_NS] = {"ideal_ns", "ideal_ns", "At Roof", "Time At Roof (ns)", GS_COL_NS,      \
                           GS_COL_JSON_ONLY, NULL},                                                \
    [ROOF_COL_GPU_MODEL] = {"gpu_model", "gpu_model", "GPU", "GPU", GS_COL_TEXT, GS_COL_JSON_ONLY, \
                            NULL}

#define OP_NAME_HELP "the operator that launched the GPU work"

static const gs_column roof_columns[] = {ROOF_NAME_COLUMN(OP_NAME_HELP), ROOF_COLUMNS};
_Static_assert(COUNT_OF(roof_columns) == ROOF_NBASE, "one column per enum roof_col");
static const gs_column roof_shape_columns[] = {
    ROOF_NAME_COLUMN(OP_NAME_HELP),
    ROOF_COLUMNS,
    [ROOF_NBASE] = {"input_dims", "input_dims", "Input Shapes", "Input Shapes", GS_COL_TEXT, 0,
                    "input dimensions as the trace recorded them (--group-by-shape)"},
    {"input_types", "input_types", "Input Types", "Input Types", GS_COL_TEXT, GS_COL_NARROW_DROP,
     "input types as the trace recorded them"},
};

/* By kernel, Name is the kernel's; Class is the traffic model of the operator that launched it. */
static const gs_column roof_kernel_columns[] = {
    ROOF_NAME_COLUMN("the kernel"),
    ROOF_COLUMNS,
    [ROOF_NBASE] = {"operator", "operator", "Operator", "Operator", GS_COL_TEXT, 0,
                    "the operator that launched it, and only it (memsets aside)"},
};

const gs_column *gs_roofline_columns(enum gs_roof_key key, size_t *ncols)
{
    switch (key) {
    case GS_ROOF_BY_SHAPE: *ncols = COUNT_OF(roof_shape_columns); return roof_shape_columns;
    case GS_ROOF_BY_KERNEL: *ncols = COUNT_OF(roof_kernel_columns); return roof_kernel_columns;
    default: *ncols = COUNT_OF(roof_columns); return roof_columns;
    }
}

static double known(double v)
{
    return v >= 0 ? v : NAN;
}

int gs_roofline_table(const gs_roofline *r, gs_table *out)
{
    size_t ncols;
    const gs_column *cols = gs_roofline_columns(r->key, &ncols);
    gs_table_init(out, cols, ncols, "no GPU work launched by operators in the selected traces");
    for (size_t i = 0; i < r->nrows; i++) {
        const gs_roof_row *row = &r->rows[i];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        bool modelled = row->modelled_calls > 0;
        c[ROOF_COL_NAME].text = row->name;
        c[ROOF_COL_CLASS].text = gs_op_class_name(row->cls);
        c[ROOF_COL_DTYPE].text = row->dtype != GS_DTYPE_UNKNOWN ? gs_dtype_name(row->dtype) : NULL;
        c[ROOF_COL_CALLS].i = (int64_t)row->calls;
        c[ROOF_COL_GPU_NS].i = row->gpu_ns;
        c[ROOF_COL_GPU_PCT].f =
            r->gpu_ns > 0 ? 100.0 * (double)row->gpu_ns / (double)r->gpu_ns : NAN;
        c[ROOF_COL_FLOPS].i = gs_cell_known((int64_t)row->flops, modelled);
        c[ROOF_COL_BYTES].i = gs_cell_known((int64_t)row->bytes, modelled && row->bytes > 0);
        c[ROOF_COL_INTENSITY].f = known(row->intensity);
        c[ROOF_COL_TFLOPS].f = known(row->tflops);
        c[ROOF_COL_TBPS].f = known(row->tbps);
        c[ROOF_COL_ROOF_TFLOPS].f = known(row->roof_tflops);
        c[ROOF_COL_ROOF_PCT].f = row->roof_share >= 0 ? 100.0 * row->roof_share : NAN;
        c[ROOF_COL_BOUND].text =
            row->bound != GS_BOUND_UNKNOWN ? gs_roof_bound_name(row->bound) : NULL;
        c[ROOF_COL_KERNELS].i = (int64_t)row->kernels;
        c[ROOF_COL_MODELLED_CALLS].i = (int64_t)row->modelled_calls;
        c[ROOF_COL_MODELLED_NS].i = row->modelled_ns;
        c[ROOF_COL_PEAK_TFLOPS].f = row->peak_tflops > 0 ? row->peak_tflops : NAN;
        c[ROOF_COL_PEAK_TBPS].f = row->peak_tbps > 0 ? row->peak_tbps : NAN;
        c[ROOF_COL_RIDGE].f = known(row->ridge);
        c[ROOF_COL_IDEAL_NS].i = gs_cell_known((int64_t)row->ideal_ns, row->ideal_ns >= 0);
        c[ROOF_COL_GPU_MODEL].text = row->gpu_model;
        if (r->key == GS_ROOF_BY_SHAPE) {
            c[ROOF_NBASE].text = row->input_dims;
            c[ROOF_NBASE + 1].text = row->input_types;
        } else if (r->key == GS_ROOF_BY_KERNEL) {
            c[ROOF_NBASE].text = row->op_name;
        }
    }
    return 0;
}

static double pct(gs_ns part, gs_ns whole)
{
    return whole > 0 ? 100.0 * (double)part / (double)whole : 0;
}

/* The GPU every row was placed under, NULL when none is known or the traces ran on several. */
static const char *one_gpu(const gs_roofline *r)
{
    const char *gpu = NULL;
    for (size_t i = 0; i < r->nrows; i++) {
        const char *g = r->rows[i].gpu_model;
        if (!g || (gpu && strcmp(gpu, g)))
            return NULL;
        gpu = g;
    }
    return gpu;
}

static void coverage_line(char *buf, size_t size, const gs_roofline *r)
{
    const char *gpu = one_gpu(r);
    double bw = r->nrows ? r->rows[0].peak_tbps : 0;
    int n = gpu ? snprintf(buf, size, "Roofline on the %s (%.3g TB/s)", gpu, bw)
                : snprintf(buf, size, "Roofline (no roofs: %s)",
                           r->nrows ? "a GPU the peaks table does not know, or several"
                                    : "no GPU work");
    if (n < 0 || (size_t)n >= size)
        return;
    int m = snprintf(buf + n, size - (size_t)n,
                     ": %.1f %% of the GPU time operators launched is modelled, %.1f %% has a "
                     "model but no recorded shapes or types, %.1f %% is in operators without a "
                     "model",
                     pct(r->modelled_ns, r->gpu_ns), pct(r->no_shapes_ns, r->gpu_ns),
                     pct(r->no_model_ns, r->gpu_ns));
    if (r->key == GS_ROOF_BY_KERNEL && m > 0 && (size_t)(n + m) < size)
        snprintf(buf + n + m, size - (size_t)(n + m),
                 ", %.1f %% in calls that launched several kernels (ops --roofline shows them)",
                 pct(r->several_kernels_ns, r->gpu_ns));
}

int gs_render_roofline(FILE *out, const gs_roofline *r, const gs_window_notes *window,
                       enum gs_format format, const gs_text_style *style, size_t limit,
                       int sort_col)
{
    gs_table table;
    int rc = gs_roofline_table(r, &table);
    if (rc == 0 && sort_col >= 0)
        rc = gs_table_sort(&table, (size_t)sort_col);
    if (rc == 0) {
        gs_table_limit(&table, limit);
        char line[512];
        coverage_line(line, sizeof line, r);
        if (format == GS_FORMAT_JSON) {
            gs_json_writer w;
            gs_json_writer_init(&w, out);
            gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
            gs_json_put_str(&w, "command", r->key == GS_ROOF_BY_KERNEL ? "kernels" : "ops");
            gs_json_put_str(&w, "view", "roofline");
            if (window->restricts)
                gs_window_notes_json(&w, window);
            const char *gpu = one_gpu(r);
            if (gpu)
                gs_json_put_str(&w, "gpu_model", gpu);
            else
                gs_json_put_null(&w, "gpu_model");
            gs_json_put_int(&w, "gpu_ns", r->gpu_ns);
            gs_json_put_int(&w, "modelled_ns", r->modelled_ns);
            gs_json_put_int(&w, "no_shapes_ns", r->no_shapes_ns);
            gs_json_put_int(&w, "no_model_ns", r->no_model_ns);
            if (r->key == GS_ROOF_BY_KERNEL)
                gs_json_put_int(&w, "several_kernels_ns", r->several_kernels_ns);
            gs_json_rows(&w, "rows", &table);
            gs_json_end(&w);
        } else if (format == GS_FORMAT_CSV) {
            gs_render_csv(out, &table);
        } else {
            gs_window_notes_text(out, window, style);
            gs_text_put_wrapped(out, line, 0, 2, gs_text_width(style));
            fputs("\n\n", out);
            rc = gs_render_text(out, &table, style);
        }
    }
    gs_table_free(&table);
    return rc;
}
