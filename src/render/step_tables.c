#include "render/step_tables.h"

#include <inttypes.h>
#include <stdio.h>

#include "common/util.h"
#include "render/json.h"
#include "render/units.h"

static const struct {
    const char *title, *key;
} source_names[] = {
    [GS_STEPS_PROFILER] = {"ProfilerStep#N", "profiler_step"},
    [GS_STEPS_REGEX] = {"--step regex", "regex"},
    [GS_STEPS_WINDOW] = {"whole trace", "window"},
    [GS_STEPS_DETECTED] = {"the repeating kernel sequence", "detected"},
};

const char *gs_step_source_title(enum gs_step_source s)
{
    return s < COUNT_OF(source_names) ? source_names[s].title : "?";
}

const char *gs_step_source_text(const gs_steps *s, char *buf, size_t size)
{
    if (s->source != GS_STEPS_DETECTED)
        return gs_step_source_title(s->source);
    snprintf(buf, size,
             "detected from the repeating kernel sequence: %" PRIu32
             " launches per step, %.0f %% of them repeat",
             s->period, s->confidence * 100);
    return buf;
}

const char *gs_step_source_key(enum gs_step_source s)
{
    return s < COUNT_OF(source_names) ? source_names[s].key : "?";
}

enum step_col {
    STEP_COL_RANK, STEP_COL_STEP, STEP_COL_START_NS, STEP_COL_DURATION_NS, STEP_COL_HOST_NS,
    STEP_COL_GPU_OPS, STEP_COL_WARMUP, STEP_NCOLS
};

static const gs_column step_columns[] = {
    [STEP_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0, "the trace's rank"},
    [STEP_COL_STEP] = {"step", "step", "Step", "Step", GS_COL_COUNT, 0,
                       "N of ProfilerStep#N; 0, 1, ... for --step, detected steps\n"
                       "and the window"},
    [STEP_COL_START_NS] = {"start_ns", "start", "Start", "Start (ns)", GS_COL_NS, 0,
                           "step start, from the trace's first event"},
    [STEP_COL_DURATION_NS] = {"duration_ns", "duration", "Duration", "Duration (ns)", GS_COL_NS, 0,
                              "the step the statistics use: from the later of its host\n"
                              "start and the previous step's end, to the later of its host\n"
                              "end and the end of the GPU work it launched; shorter than\n"
                              "Host Duration when the previous step's GPU work ran into it"},
    [STEP_COL_HOST_NS] = {"host_ns", "host", "Host Duration", "Host Duration (ns)", GS_COL_NS, 0,
                          "the range as the host recorded it (detected steps: from the\n"
                          "host's return from the call before the first launch)"},
    [STEP_COL_GPU_OPS] = {"gpu_ops", "gpu_ops", "GPU Ops", "GPU Ops", GS_COL_COUNT, 0,
                          "kernels, copies and sets launched inside the host range"},
    [STEP_COL_WARMUP] = {"warmup", "warmup", "Warm-up", "Warm-up", GS_COL_TEXT, 0,
                         "yes for a leading step slower than 1.5x the median of\n"
                         "the steps after it"},
};
_Static_assert(COUNT_OF(step_columns) == STEP_NCOLS, "one column per enum step_col");

const gs_column *gs_step_columns(size_t *ncols)
{
    *ncols = COUNT_OF(step_columns);
    return step_columns;
}

void gs_step_table_init(gs_table *out)
{
    gs_table_init(out, step_columns, COUNT_OF(step_columns), "no steps: the trace has no events");
}

int gs_step_table(const gs_steps_view *v, size_t limit, gs_table *out)
{
    const gs_steps *s = &v->steps;
    for (size_t i = 0; i < s->n && (!limit || i < limit); i++) {
        const gs_step *st = &s->v[i];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[STEP_COL_RANK].i = v->id.rank;
        c[STEP_COL_STEP].i = st->number;
        c[STEP_COL_START_NS].i = st->start - v->origin;
        c[STEP_COL_DURATION_NS].i = st->end - st->start;
        c[STEP_COL_HOST_NS].i = st->host_end - st->host_start;
        c[STEP_COL_GPU_OPS].i = st->gpu_ops;
        c[STEP_COL_WARMUP].text = st->warmup ? "yes" : "no";
    }
    return 0;
}

/* The statistics, in the order the text and JSON show them; `steps --help` lists them from here
 * (their help is the line's, "" joining the line of the one before it there). */
static const gs_column stat_columns[] = {
    {"mean_ns", "mean", "mean", "Mean (ns)", GS_COL_NS, 0, "mean and population standard deviation"},
    {"std_ns", "std", "std", "Std (ns)", GS_COL_NS, 0, ""},
    {"min_ns", "min", "min", "Min (ns)", GS_COL_NS, 0, "shortest and longest step"},
    {"med_ns", "med", "med", "Med (ns)", GS_COL_NS, 0,
     "nearest-rank percentiles (rank = ceil(p/100 x n))"},
    {"p95_ns", "p95", "p95", "P95 (ns)", GS_COL_NS, 0, ""},
    {"p99_ns", "p99", "p99", "P99 (ns)", GS_COL_NS, 0, ""},
    {"max_ns", "max", "max", "Max (ns)", GS_COL_NS, 0, ""},
};
static const size_t stat_offsets[COUNT_OF(stat_columns)] = {
    offsetof(gs_step_stats, mean), offsetof(gs_step_stats, std), offsetof(gs_step_stats, min),
    offsetof(gs_step_stats, med),  offsetof(gs_step_stats, p95), offsetof(gs_step_stats, p99),
    offsetof(gs_step_stats, max),
};

const gs_column *gs_step_stat_columns(size_t *ncols)
{
    *ncols = COUNT_OF(stat_columns);
    return stat_columns;
}

static gs_ns stat_value(const gs_step_stats *st, size_t i)
{
    return *(const gs_ns *)((const char *)st + stat_offsets[i]);
}

static void put_text_summary(FILE *out, const gs_steps_view *v)
{
    const gs_steps *s = &v->steps;
    char how[160];
    fprintf(out, "%s (rank %d): %zu step%s %s%s", v->id.path ? v->id.path : "-",
            v->id.rank, s->n, s->n == 1 ? "" : "s",
            s->source == GS_STEPS_DETECTED ? "" : "from ", gs_step_source_text(s, how, sizeof how));
    if (s->nwarmup)
        fprintf(out, ", %zu warm-up (%s)", s->nwarmup,
                s->keep_warmup ? "kept: --keep-warmup" : "left out of the statistics");
    fputs("\n", out);
    if (!s->stats.n)
        return;
    fprintf(out, "step time over %zu step%s:", s->stats.n, s->stats.n == 1 ? "" : "s");
    for (size_t i = 0; i < COUNT_OF(stat_columns); i++) {
        char buf[GS_UNIT_BUF];
        gs_fmt_duration(buf, sizeof buf, stat_value(&s->stats, i));
        fprintf(out, "%s %s %s", i ? "," : "", stat_columns[i].title, buf);
    }
    fputs("\n\n", out);
}

static int render_text(FILE *out, const gs_steps_view *v, size_t n, const gs_text_style *style,
                       size_t limit)
{
    for (size_t i = 0; i < n; i++) {
        if (i)
            fputs("\n", out);
        put_text_summary(out, &v[i]);
        gs_table t;
        gs_step_table_init(&t);
        int rc = gs_step_table(&v[i], limit, &t);
        if (rc == 0)
            rc = gs_render_text(out, &t, style);
        gs_table_free(&t);
        if (rc != 0)
            return -1;
    }
    return 0;
}

static int render_json(FILE *out, const gs_steps_view *v, size_t n, size_t limit)
{
    gs_json_writer w;
    gs_json_writer_init(&w, out);
    gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
    gs_json_put_str(&w, "command", "steps");
    gs_json_begin_array(&w, "traces", GS_JSON_BLOCK);
    for (size_t i = 0; i < n; i++) {
        const gs_steps *s = &v[i].steps;
        gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
        gs_json_put_str(&w, "path", v[i].id.path);
        gs_json_put_int(&w, "rank", v[i].id.rank);
        gs_json_put_str(&w, "source", gs_step_source_key(s->source));
        gs_json_put_uint(&w, "steps", s->n);
        gs_json_put_uint(&w, "warmup_steps", s->nwarmup);
        if (s->source == GS_STEPS_DETECTED) {
            gs_json_put_uint(&w, "period_launches", s->period);
            gs_json_put_fixed(&w, "confidence", s->confidence, 4);
        } else {
            gs_json_put_null(&w, "period_launches");
            gs_json_put_null(&w, "confidence");
        }
        gs_json_put_bool(&w, "keep_warmup", s->keep_warmup);
        gs_json_begin_object(&w, "stats", GS_JSON_INLINE);
        gs_json_put_uint(&w, "n", s->stats.n);
        for (size_t k = 0; k < COUNT_OF(stat_columns); k++)
            gs_json_put_int(&w, stat_columns[k].key, stat_value(&s->stats, k));
        gs_json_end(&w);
        gs_table t;
        gs_step_table_init(&t);
        int rc = gs_step_table(&v[i], limit, &t);
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

int gs_render_steps(FILE *out, const gs_steps_view *v, size_t n, enum gs_format format,
                    const gs_text_style *style, size_t limit)
{
    if (format == GS_FORMAT_JSON)
        return render_json(out, v, n, limit);
    if (format == GS_FORMAT_TABLE)
        return render_text(out, v, n, style, limit);
    gs_table t;
    gs_step_table_init(&t);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = gs_step_table(&v[i], limit, &t);
    if (rc == 0)
        gs_render_csv(out, &t);
    gs_table_free(&t);
    return rc;
}
