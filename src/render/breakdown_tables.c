#include "render/breakdown_tables.h"

#include <math.h>

#include "common/util.h"
#include "render/json.h"
#include "render/step_tables.h"
#include "render/units.h"

/* Rank, Step and Duration, then one column per category (STEP_COL_CATEGORY + enum gs_bd_cat),
 * then Warm-up. */
enum step_col {
    STEP_COL_RANK, STEP_COL_STEP, STEP_COL_DURATION_NS, STEP_COL_CATEGORY,
    STEP_COL_WARMUP = STEP_COL_CATEGORY + GS_BD__COUNT, STEP_NCOLS
};

/* The categories' help is what each category holds, for breakdown's --help "categories:". */
static const gs_column step_columns[] = {
    [STEP_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [STEP_COL_STEP] = {"step", "step", "Step", "Step", GS_COL_COUNT, 0},
    [STEP_COL_DURATION_NS] = {"duration_ns", "duration", "Duration", "Duration (ns)", GS_COL_NS, 0},
    [STEP_COL_CATEGORY + GS_BD_KERNEL] = {"kernel_ns", "kernel", "Kernel", "Kernel (ns)", GS_COL_NS,
                                          0, "GPU kernels other than communication kernels"},
    [STEP_COL_CATEGORY + GS_BD_MEMCPY] = {"memcpy_ns", "memcpy", "Memcpy", "Memcpy (ns)", GS_COL_NS,
                                          0, "GPU copies and sets"},
    [STEP_COL_CATEGORY + GS_BD_MEMSET] = {"memset_ns", "memset", "Memset", "Memset (ns)", GS_COL_NS,
                                          0, ""},
    [STEP_COL_CATEGORY + GS_BD_COMM] = {"communication_ns", "communication", "Communication",
                                        "Communication (ns)", GS_COL_NS, 0,
                                        "NCCL kernels, and host ops named nccl:* or gloo:*"},
    [STEP_COL_CATEGORY + GS_BD_RUNTIME] = {"runtime_ns", "runtime", "Runtime", "Runtime (ns)",
                                           GS_COL_NS, 0, "CUDA runtime and driver calls"},
    [STEP_COL_CATEGORY + GS_BD_DATALOADER] = {
        "dataloader_ns", "dataloader", "DataLoader", "DataLoader (ns)", GS_COL_NS, 0,
        "enumerate(DataLoader)#...__next__, enumerate(DataPipe)#..."},
    [STEP_COL_CATEGORY + GS_BD_CPU_EXEC] = {"cpu_exec_ns", "cpu_exec", "CPU Exec", "CPU Exec (ns)",
                                            GS_COL_NS, 0,
                                            "other operators, annotations and NVTX ranges"},
    [STEP_COL_CATEGORY + GS_BD_OTHER] = {"other_ns", "other", "Other", "Other (ns)", GS_COL_NS, 0,
                                         "step time covered by none of these"},
    [STEP_COL_WARMUP] = {"warmup", "warmup", "Warm-up", "Warm-up", GS_COL_TEXT, 0},
};
_Static_assert(COUNT_OF(step_columns) == STEP_NCOLS, "one column per enum step_col");

const gs_column *gs_bd_category_columns(size_t *ncols)
{
    *ncols = GS_BD__COUNT;
    return &step_columns[STEP_COL_CATEGORY];
}

void gs_bd_step_table_init(gs_table *out)
{
    gs_table_init(out, step_columns, COUNT_OF(step_columns), "no steps: the trace has no events");
}

int gs_bd_step_table(const gs_bd_trace *b, size_t limit, gs_table *out)
{
    for (size_t i = 0; i < b->steps.n && (!limit || i < limit); i++) {
        const gs_bd_step *s = &b->step[i];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[STEP_COL_RANK].i = b->id.rank;
        c[STEP_COL_STEP].i = s->number;
        c[STEP_COL_DURATION_NS].i = s->end - s->start;
        for (int k = 0; k < GS_BD__COUNT; k++)
            c[STEP_COL_CATEGORY + k].i = s->ns[k];
        c[STEP_COL_WARMUP].text = s->warmup ? "yes" : "no";
    }
    return 0;
}

enum avg_col {
    AVG_COL_CATEGORY, AVG_COL_AVG_NS, AVG_COL_PCT, AVG_NCOLS
};

static const gs_column avg_columns[] = {
    [AVG_COL_CATEGORY] = {"category", "category", "Category", "Category", GS_COL_TEXT, 0},
    [AVG_COL_AVG_NS] = {"avg_ns", "avg", "Avg/Step", "Avg/Step (ns)", GS_COL_NS, 0},
    [AVG_COL_PCT] = {"pct", "pct", "Step (%)", "Step (%)", GS_COL_PCT, 0},
};
_Static_assert(COUNT_OF(avg_columns) == AVG_NCOLS, "one column per enum avg_col");

int gs_bd_avg_table(const gs_bd_trace *b, gs_table *out)
{
    gs_table_init(out, avg_columns, COUNT_OF(avg_columns), "no steps kept");
    if (!b->nkept)
        return 0;
    for (int k = 0; k < GS_BD__COUNT; k++) {
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[AVG_COL_CATEGORY].text = gs_bd_cat_title((enum gs_bd_cat)k);
        c[AVG_COL_AVG_NS].i = llround(b->avg_ns[k]);
        c[AVG_COL_PCT].f = b->avg_pct[k];
    }
    return 0;
}

enum gpu_col {
    GPU_COL_DEVICE, GPU_COL_UTILIZATION_PCT, GPU_COL_SM_EFFICIENCY_PCT, GPU_COL_OCCUPANCY_PCT,
    GPU_COL_BUSY_NS, GPU_COL_WINDOW_NS, GPU_NCOLS
};

/* The metrics' help is their definition, for breakdown's --help "GPU metrics". */
static const gs_column gpu_columns[] = {
    [GPU_COL_DEVICE] = {"device", "device", "GPU", "GPU", GS_COL_COUNT, 0},
    [GPU_COL_UTILIZATION_PCT] = {"utilization_pct", "utilization", "Utilization (%)",
                                 "Utilization (%)", GS_COL_PCT, 0,
                                 "time with at least one kernel running / window"},
    [GPU_COL_SM_EFFICIENCY_PCT] = {"sm_efficiency_pct", "sm_efficiency", "Est. SM Efficiency (%)",
                                   "Est. SM Efficiency (%)", GS_COL_PCT, 0,
                                   "time-weighted min(sum of running kernels' blocks\n"
                                   "per SM, 1) / window"},
    [GPU_COL_OCCUPANCY_PCT] = {"occupancy_pct", "occupancy", "Est. Achieved Occupancy (%)",
                               "Est. Achieved Occupancy (%)", GS_COL_PCT, 0,
                               "kernel-time-weighted mean of the kernels'\n"
                               "estimated achieved occupancy"},
    [GPU_COL_BUSY_NS] = {"busy_ns", "busy", "Kernel Busy", "Kernel Busy (ns)", GS_COL_NS, 0},
    [GPU_COL_WINDOW_NS] = {"window_ns", "window", "Window", "Window (ns)", GS_COL_NS, 0,
                           "the window the shares are of: first kept step's start to\n"
                           "last step's end"},
};
_Static_assert(COUNT_OF(gpu_columns) == GPU_NCOLS, "one column per enum gpu_col");

const gs_column *gs_bd_gpu_columns(size_t *ncols)
{
    *ncols = COUNT_OF(gpu_columns);
    return gpu_columns;
}

/* The window the metrics are of, printed beside them: the GPU time table next to them in the
 * report has its own (first to last GPU activity). A rank summary read from a .gsum keeps the
 * device's busy time and utilization, not the window: it is their quotient. -1 when unknown. */
static gs_ns metrics_window(const gs_gpu_metrics *g, const gs_gpu_device_metrics *m)
{
    if (g->window_end > g->window_start)
        return g->window_end - g->window_start;
    return m->utilization > 0 ? (gs_ns)llround((double)m->busy_ns / m->utilization) : -1;
}

int gs_bd_gpu_table(const gs_bd_trace *b, gs_table *out)
{
    gs_table_init(out, gpu_columns, COUNT_OF(gpu_columns), "no GPU kernels");
    for (size_t i = 0; i < b->gpu.n; i++) {
        const gs_gpu_device_metrics *m = &b->gpu.v[i];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[GPU_COL_DEVICE].i = m->device;
        c[GPU_COL_UTILIZATION_PCT].f = m->utilization * 100.0;
        c[GPU_COL_SM_EFFICIENCY_PCT].f = m->has_sm_efficiency ? m->sm_efficiency * 100.0 : NAN;
        c[GPU_COL_OCCUPANCY_PCT].f = m->has_occupancy ? m->occupancy_pct : NAN;
        c[GPU_COL_BUSY_NS].i = m->busy_ns;
        gs_ns window = metrics_window(&b->gpu, m);
        c[GPU_COL_WINDOW_NS].i = gs_cell_known(window, window >= 0);
    }
    return 0;
}

typedef int (*table_fn)(const gs_bd_trace *b, gs_table *out);

static int render_one(FILE *out, const gs_bd_trace *b, table_fn fn, const gs_text_style *style)
{
    gs_table t;
    int rc = fn(b, &t);
    if (rc == 0)
        rc = gs_render_text(out, &t, style);
    gs_table_free(&t);
    return rc;
}

static int render_text(FILE *out, const gs_breakdown *bd, const gs_text_style *style,
                       size_t limit)
{
    for (size_t i = 0; i < bd->n; i++) {
        const gs_bd_trace *b = &bd->v[i];
        const gs_steps *s = &b->steps;
        char avg[GS_UNIT_BUF];
        gs_fmt_duration(avg, sizeof avg, llround(b->avg_total_ns));
        fprintf(out, "%s%s (rank %d): %zu step%s from %s, average over %zu: %s\n", i ? "\n" : "",
                b->id.path ? b->id.path : "-", b->id.rank, s->n, s->n == 1 ? "" : "s",
                gs_step_source_title(s->source), b->nkept, avg);
        if (s->nwarmup && !s->keep_warmup)
            fprintf(out, "(%zu warm-up step%s left out; --keep-warmup counts them)\n", s->nwarmup,
                    s->nwarmup == 1 ? "" : "s");
        fputs("\n", out);
        if (render_one(out, b, gs_bd_avg_table, style) != 0)
            return -1;
        fputs("\nper step:\n", out);
        gs_table t;
        gs_bd_step_table_init(&t);
        int rc = gs_bd_step_table(b, limit, &t);
        if (rc == 0)
            rc = gs_render_text(out, &t, style);
        gs_table_free(&t);
        if (rc != 0)
            return -1;
        fputs("\nGPU metrics over the kept steps:\n", out);
        if (render_one(out, b, gs_bd_gpu_table, style) != 0)
            return -1;
    }
    return 0;
}

static int put_json_table(gs_json_writer *w, const char *key, const gs_bd_trace *b, table_fn fn)
{
    gs_table t;
    int rc = fn(b, &t);
    if (rc == 0)
        gs_json_rows(w, key, &t);
    gs_table_free(&t);
    return rc;
}

static void put_json_average(gs_json_writer *w, const gs_bd_trace *b)
{
    gs_json_begin_object(w, "average", GS_JSON_INLINE);
    gs_json_put_fixed(w, "step_ns", b->avg_total_ns, 1);
    for (int k = 0; k < GS_BD__COUNT; k++) {
        char key[64];
        snprintf(key, sizeof key, "%s_ns", gs_bd_cat_key((enum gs_bd_cat)k));
        gs_json_put_fixed(w, key, b->avg_ns[k], 1);
        snprintf(key, sizeof key, "%s_pct", gs_bd_cat_key((enum gs_bd_cat)k));
        gs_json_put_fixed(w, key, b->avg_pct[k], 4);
    }
    gs_json_end(w);
}

static int render_json(FILE *out, const gs_breakdown *bd, size_t limit)
{
    gs_json_writer w;
    gs_json_writer_init(&w, out);
    gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
    gs_json_put_str(&w, "command", "breakdown");
    gs_json_begin_array(&w, "traces", GS_JSON_BLOCK);
    for (size_t i = 0; i < bd->n; i++) {
        const gs_bd_trace *b = &bd->v[i];
        gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
        gs_json_put_str(&w, "path", b->id.path);
        gs_json_put_int(&w, "rank", b->id.rank);
        gs_json_put_str(&w, "source", gs_step_source_key(b->steps.source));
        gs_json_put_uint(&w, "steps", b->steps.n);
        gs_json_put_uint(&w, "kept_steps", b->nkept);
        gs_json_put_int(&w, "window_start_ns", b->gpu.window_start);
        gs_json_put_int(&w, "window_end_ns", b->gpu.window_end);
        put_json_average(&w, b);
        if (put_json_table(&w, "gpus", b, gs_bd_gpu_table) != 0)
            return -1;
        gs_table t;
        gs_bd_step_table_init(&t);
        int rc = gs_bd_step_table(b, limit, &t);
        if (rc == 0)
            gs_json_rows(&w, "rows", &t);
        gs_table_free(&t);
        if (rc != 0)
            return -1;
        gs_json_end(&w);
    }
    gs_json_end(&w);
    gs_json_end(&w);
    return 0;
}

int gs_render_breakdown(FILE *out, const gs_breakdown *b, enum gs_format format,
                        const gs_text_style *style, size_t limit)
{
    if (format == GS_FORMAT_JSON)
        return render_json(out, b, limit);
    if (format == GS_FORMAT_TABLE)
        return render_text(out, b, style, limit);
    gs_table t;
    gs_bd_step_table_init(&t);
    int rc = 0;
    for (size_t i = 0; i < b->n && rc == 0; i++)
        rc = gs_bd_step_table(&b->v[i], limit, &t);
    if (rc == 0)
        gs_render_csv(out, &t);
    gs_table_free(&t);
    return rc;
}
