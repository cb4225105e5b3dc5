#include "render/whatif.h"

#include <math.h>
#include <string.h>

#include "common/util.h"
#include "render/json.h"
#include "render/units.h"

enum rank_col {
    RANK_COL_RANK, RANK_COL_STEPS, RANK_COL_MEASURED, RANK_COL_REPLAYED, RANK_COL_ERROR,
    RANK_COL_STRUCTURAL, RANK_COL_STRUCTURAL_ERROR, RANK_COL_PATH, RANK_COL_WHY, RANK_NCOLS
};

/* The last field is what --help says of the column (render/table.h). */
static const gs_column rank_columns[] = {
    [RANK_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [RANK_COL_STEPS] = {"steps", "steps", "Steps", "Steps", GS_COL_COUNT, 0,
                        "the kept steps replayed"},
    [RANK_COL_MEASURED] = {"measured_step_ns", "measured", "Measured", "Measured Step (ns)",
                           GS_COL_NS, 0, "the mean kept step as the trace has it"},
    [RANK_COL_REPLAYED] = {"replay_step_ns", "replayed", "Replayed", "Replayed Step (ns)",
                           GS_COL_NS, 0, "the mean kept step the model gives with no action"},
    [RANK_COL_ERROR] = {"replay_error_pct", "error", "Error (%)", "Replay Error (%)",
                        GS_COL_PCT, 0,
                        "(Replayed / Measured - 1) x 100: how far the unchanged\n"
                        "model is from the trace (0 by construction, but for\n"
                        "times the trace's dependencies contradict)"},
    [RANK_COL_STRUCTURAL] = {"structural_step_ns", "structural", "Structural", "Structural Step (ns)",
                             GS_COL_NS, 0,
                             "the mean kept step with every gap that decided a GPU\n"
                             "op's start cut to the usual most of its kind"},
    [RANK_COL_STRUCTURAL_ERROR] = {"structural_error_pct", "structural_error", "Struct. err (%)",
                                   "Structural Error (%)", GS_COL_PCT, 0,
                                   "(Structural / Measured - 1) x 100: the waits the\n"
                                   "model's dependencies do not explain"},
    [RANK_COL_PATH] = {"path", "path", "Trace", "Trace", GS_COL_TEXT, GS_COL_CUT_START},
    [RANK_COL_WHY] = {"why", "why", "Not replayed", "Not Replayed", GS_COL_TEXT, 0,
                      "why a trace has nothing to replay"},
};
_Static_assert(COUNT_OF(rank_columns) == RANK_NCOLS, "one column per enum rank_col");

enum together_col {
    TOGETHER_COL_RANK, TOGETHER_COL_EXPECTED, TOGETHER_COL_SPEEDUP, TOGETHER_COL_PRODUCT,
    TOGETHER_NCOLS
};

static const gs_column together_columns[] = {
    [TOGETHER_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [TOGETHER_COL_EXPECTED] = {"expected_step_ns", "expected", "Expected step",
                               "Expected Step (ns)", GS_COL_NS, 0, "Measured / Speedup"},
    [TOGETHER_COL_SPEEDUP] = {"expected_speedup", "speedup", "Speedup", "Speedup (x)",
                              GS_COL_FLOAT, 0,
                              "Replayed / the mean step replayed with the action(s)"},
    [TOGETHER_COL_PRODUCT] = {"alone_product", "product", "Product alone",
                              "Product of Speedups Alone (x)", GS_COL_FLOAT, 0,
                              "the chosen actions' speedups alone, multiplied: what\n"
                              "the actions would give if they did not interact"},
};
_Static_assert(COUNT_OF(together_columns) == TOGETHER_NCOLS, "one column per enum together_col");

enum alone_col {
    ALONE_COL_RANK, ALONE_COL_ACTION, ALONE_COL_EXPECTED, ALONE_COL_SPEEDUP,
    ALONE_COL_HOST_BEFORE, ALONE_COL_HOST_AFTER, ALONE_COL_GPU_BEFORE, ALONE_COL_GPU_AFTER,
    ALONE_COL_ITEMS, ALONE_NCOLS
};

static const gs_column alone_columns[] = {
    [ALONE_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [ALONE_COL_ACTION] = {"name", "action", "Action", "Action", GS_COL_TEXT, 0,
                          "what --action takes"},
    [ALONE_COL_EXPECTED] = {"expected_step_ns", "expected", "Expected step",
                            "Expected Step (ns)", GS_COL_NS, 0},
    [ALONE_COL_SPEEDUP] = {"expected_speedup", "speedup", "Speedup", "Speedup (x)", GS_COL_FLOAT,
                           0},
    [ALONE_COL_HOST_BEFORE] = {"host_before_ns", "host_before", "Host before",
                               "Host Before (ns)", GS_COL_NS, 0,
                               "host time per step that the action changes, before and\n"
                               "after it"},
    [ALONE_COL_HOST_AFTER] = {"host_after_ns", "host_after", "Host after", "Host After (ns)",
                              GS_COL_NS, 0, ""},
    [ALONE_COL_GPU_BEFORE] = {"gpu_before_ns", "gpu_before", "GPU before", "GPU Before (ns)",
                              GS_COL_NS, 0,
                              "GPU time per step that the action changes, before and\n"
                              "after it"},
    [ALONE_COL_GPU_AFTER] = {"gpu_after_ns", "gpu_after", "GPU after", "GPU After (ns)",
                             GS_COL_NS, 0, ""},
    [ALONE_COL_ITEMS] = {"items", "items", "Items", "Items", GS_COL_COUNT, 0,
                         "host calls, CPU segments and GPU ops it changed, in all"},
};
_Static_assert(COUNT_OF(alone_columns) == ALONE_NCOLS, "one column per enum alone_col");

enum input_col {
    INPUT_COL_RANK, INPUT_COL_HOST_LANES, INPUT_COL_GPU_LANES, INPUT_COL_HOST_CALLS,
    INPUT_COL_HOST_SEGMENTS, INPUT_COL_GPU_OPS, INPUT_COL_BLOCKING, INPUT_COL_STREAM_WAITS,
    INPUT_COL_THREAD_WAITS, INPUT_COL_CLIPPED, INPUT_COL_LAUNCH_LATENCY, INPUT_COL_STREAM_GAP,
    INPUT_COL_LAUNCH_LATENCY_MAX, INPUT_COL_STREAM_GAP_MAX,
    INPUT_NCOLS
};

static const gs_column input_columns[] = {
    [INPUT_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [INPUT_COL_HOST_LANES] = {"host_lanes", "host_lanes", "Host threads", "Host Threads",
                              GS_COL_COUNT, 0},
    [INPUT_COL_GPU_LANES] = {"gpu_lanes", "gpu_lanes", "GPU streams", "GPU Streams",
                             GS_COL_COUNT, 0},
    [INPUT_COL_HOST_CALLS] = {"host_calls", "host_calls", "Host calls", "Host Calls",
                              GS_COL_COUNT, 0},
    [INPUT_COL_HOST_SEGMENTS] = {"host_segments", "host_segments", "CPU segments",
                                 "CPU Segments", GS_COL_COUNT, 0},
    [INPUT_COL_GPU_OPS] = {"gpu_ops", "gpu_ops", "GPU ops", "GPU Ops", GS_COL_COUNT, 0},
    [INPUT_COL_BLOCKING] = {"blocking_waits", "blocking_waits", "Blocking waits",
                            "Blocking Waits", GS_COL_COUNT, 0},
    [INPUT_COL_STREAM_WAITS] = {"stream_waits", "stream_waits", "Stream waits", "Stream Waits",
                                GS_COL_COUNT, 0},
    [INPUT_COL_THREAD_WAITS] = {"thread_waits", "thread_waits", "Thread waits", "Thread Waits",
                                GS_COL_COUNT, 0},
    [INPUT_COL_CLIPPED] = {"clipped", "clipped", "Clipped", "Clipped", GS_COL_COUNT, 0},
    [INPUT_COL_LAUNCH_LATENCY] = {"launch_latency_ns", "launch_latency", "Launch latency",
                                  "Launch Latency (ns)", GS_COL_NS, 0},
    [INPUT_COL_STREAM_GAP] = {"stream_gap_ns", "stream_gap", "Stream gap", "Stream Gap (ns)",
                              GS_COL_NS, 0},
    [INPUT_COL_LAUNCH_LATENCY_MAX] = {"launch_latency_max_ns", "launch_latency_max",
                                      "Launch latency max", "Launch Latency Max (ns)", GS_COL_NS, 0},
    [INPUT_COL_STREAM_GAP_MAX] = {"stream_gap_max_ns", "stream_gap_max", "Stream gap max",
                                  "Stream Gap Max (ns)", GS_COL_NS, 0},
};
_Static_assert(COUNT_OF(input_columns) == INPUT_NCOLS, "one column per enum input_col");

enum step_col { STEP_COL_RANK, STEP_COL_STEP, STEP_COL_MEASURED, STEP_COL_REPLAYED,
                STEP_COL_CHANGED, STEP_NCOLS };

static const gs_column step_columns[] = {
    [STEP_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [STEP_COL_STEP] = {"step", "step", "Step", "Step", GS_COL_COUNT, 0},
    [STEP_COL_MEASURED] = {"measured_ns", "measured", "Measured", "Measured (ns)", GS_COL_NS, 0},
    [STEP_COL_REPLAYED] = {"replay_ns", "replayed", "Replayed", "Replayed (ns)", GS_COL_NS, 0},
    [STEP_COL_CHANGED] = {"changed_ns", "changed", "With actions", "With Actions (ns)",
                          GS_COL_NS, 0},
};
_Static_assert(COUNT_OF(step_columns) == STEP_NCOLS, "one column per enum step_col");

const gs_column *gs_whatif_rank_columns(size_t *ncols)
{
    *ncols = COUNT_OF(rank_columns);
    return rank_columns;
}

const gs_column *gs_whatif_together_columns(size_t *ncols)
{
    *ncols = COUNT_OF(together_columns);
    return together_columns;
}

const gs_column *gs_whatif_alone_columns(size_t *ncols)
{
    *ncols = COUNT_OF(alone_columns);
    return alone_columns;
}

/* The "Not replayed" column only when a rank was not. */
static int rank_table(const gs_whatif *w, gs_table *t)
{
    size_t ncols = w->replayed < w->n ? RANK_NCOLS : RANK_COL_WHY;
    gs_table_init(t, rank_columns, ncols, "no trace");
    for (size_t i = 0; i < w->n; i++) {
        const gs_whatif_rank *r = &w->ranks[i];
        gs_cell *c = gs_table_add_row(t);
        if (!c)
            return -1;
        bool done = !r->why;
        c[RANK_COL_RANK].i = r->rank;
        c[RANK_COL_STEPS].i = gs_cell_known((int64_t)r->unchanged.nsteps, done);
        c[RANK_COL_MEASURED].i = gs_cell_known(r->unchanged.measured_mean_ns, done);
        c[RANK_COL_REPLAYED].i = gs_cell_known(r->unchanged.replayed_mean_ns, done);
        c[RANK_COL_ERROR].f = done ? 100 * r->unchanged.error : NAN;
        c[RANK_COL_STRUCTURAL].i = gs_cell_known(r->unchanged.structural_mean_ns, done);
        c[RANK_COL_STRUCTURAL_ERROR].f = done ? 100 * r->unchanged.structural_error : NAN;
        c[RANK_COL_PATH].text = r->path;
        if (ncols > RANK_COL_WHY)
            c[RANK_COL_WHY].text = r->why;
    }
    return 0;
}

static int together_table(const gs_whatif *w, gs_table *t)
{
    gs_table_init(t, together_columns, COUNT_OF(together_columns), "no trace replayed");
    for (size_t i = 0; i < w->n; i++) {
        const gs_whatif_rank *r = &w->ranks[i];
        gs_cell *c = r->why ? NULL : gs_table_add_row(t);
        if (r->why)
            continue;
        if (!c)
            return -1;
        c[TOGETHER_COL_RANK].i = r->rank;
        c[TOGETHER_COL_EXPECTED].i = r->together.expected_step_ns;
        c[TOGETHER_COL_SPEEDUP].f = r->together.speedup;
        c[TOGETHER_COL_PRODUCT].f = r->alone_product;
    }
    return 0;
}

/* Each rank's shown actions, best first. */
static int alone_table(const gs_whatif *w, gs_table *t)
{
    gs_table_init(t, alone_columns, COUNT_OF(alone_columns), "no trace replayed");
    for (size_t i = 0; i < w->n; i++) {
        const gs_whatif_rank *r = &w->ranks[i];
        for (size_t k = 0; k < r->norder; k++) {
            int a = r->order[k];
            const gs_replay_result *res = &r->alone[a];
            const gs_replay_change *ch = &res->change[a];
            gs_cell *c = gs_table_add_row(t);
            if (!c)
                return -1;
            c[ALONE_COL_RANK].i = r->rank;
            c[ALONE_COL_ACTION].text = gs_replay_action_get(a)->name;
            c[ALONE_COL_EXPECTED].i = res->expected_step_ns;
            c[ALONE_COL_SPEEDUP].f = res->speedup;
            c[ALONE_COL_HOST_BEFORE].i = ch->host_before;
            c[ALONE_COL_HOST_AFTER].i = ch->host_after;
            c[ALONE_COL_GPU_BEFORE].i = ch->gpu_before;
            c[ALONE_COL_GPU_AFTER].i = ch->gpu_after;
            c[ALONE_COL_ITEMS].i = (int64_t)ch->items;
        }
    }
    return 0;
}

static int input_table(const gs_whatif *w, gs_table *t)
{
    gs_table_init(t, input_columns, COUNT_OF(input_columns), "no trace replayed");
    for (size_t i = 0; i < w->n; i++) {
        const gs_whatif_rank *r = &w->ranks[i];
        const gs_replay_inputs *in = &r->unchanged.inputs;
        gs_cell *c = r->why ? NULL : gs_table_add_row(t);
        if (r->why)
            continue;
        if (!c)
            return -1;
        c[INPUT_COL_RANK].i = r->rank;
        c[INPUT_COL_HOST_LANES].i = (int64_t)in->host_lanes;
        c[INPUT_COL_GPU_LANES].i = (int64_t)in->gpu_lanes;
        c[INPUT_COL_HOST_CALLS].i = (int64_t)in->host_calls;
        c[INPUT_COL_HOST_SEGMENTS].i = (int64_t)in->host_segments;
        c[INPUT_COL_GPU_OPS].i = (int64_t)in->gpu_ops;
        c[INPUT_COL_BLOCKING].i = (int64_t)in->blocking_waits;
        c[INPUT_COL_STREAM_WAITS].i = (int64_t)in->stream_waits;
        c[INPUT_COL_THREAD_WAITS].i = (int64_t)in->thread_waits;
        c[INPUT_COL_CLIPPED].i = (int64_t)in->clipped;
        c[INPUT_COL_LAUNCH_LATENCY].i = in->launch_latency_ns;
        c[INPUT_COL_STREAM_GAP].i = in->stream_gap_ns;
        c[INPUT_COL_LAUNCH_LATENCY_MAX].i = in->launch_latency_max_ns;
        c[INPUT_COL_STREAM_GAP_MAX].i = in->stream_gap_max_ns;
    }
    return 0;
}

/* Every replayed step: measured, the unchanged model's, with the chosen actions. */
static int step_table(const gs_whatif *w, gs_table *t)
{
    gs_table_init(t, step_columns, COUNT_OF(step_columns), "no trace replayed");
    for (size_t i = 0; i < w->n; i++) {
        const gs_whatif_rank *r = &w->ranks[i];
        for (size_t s = 0; s < r->together.nsteps; s++) {
            const gs_replay_step *st = &r->together.steps[s];
            gs_cell *c = gs_table_add_row(t);
            if (!c)
                return -1;
            c[STEP_COL_RANK].i = r->rank;
            c[STEP_COL_STEP].i = st->number;
            c[STEP_COL_MEASURED].i = st->measured_ns;
            c[STEP_COL_REPLAYED].i = st->replayed_ns;
            c[STEP_COL_CHANGED].i = st->changed_ns;
        }
    }
    return 0;
}

enum whatif_table { T_RANKS, T_TOGETHER, T_ALONE, T_INPUTS, T_STEPS, T__COUNT };

static int (*const table_makers[T__COUNT])(const gs_whatif *, gs_table *) = {
    [T_RANKS] = rank_table, [T_TOGETHER] = together_table, [T_ALONE] = alone_table,
    [T_INPUTS] = input_table, [T_STEPS] = step_table,
};

/* ---- text ------------------------------------------------------------------------------------ */

/* The model's inputs of each rank, in words. */
static void put_inputs_text(FILE *out, const gs_whatif *w, const gs_text_style *style)
{
    putc('\n', out);
    gs_put_title(out, style, "What the model is made of", 0, 0);
    for (size_t i = 0; i < w->n; i++) {
        const gs_whatif_rank *r = &w->ranks[i];
        const gs_replay_inputs *in = &r->unchanged.inputs;
        if (r->why)
            continue;
        char line[1024];
        char latency[GS_UNIT_BUF], gap[GS_UNIT_BUF], latency_max[GS_UNIT_BUF],
            gap_max[GS_UNIT_BUF];
        gs_fmt_duration(latency, sizeof latency, in->launch_latency_ns);
        gs_fmt_duration(gap, sizeof gap, in->stream_gap_ns);
        gs_fmt_duration(latency_max, sizeof latency_max, in->launch_latency_max_ns);
        gs_fmt_duration(gap_max, sizeof gap_max, in->stream_gap_max_ns);
        snprintf(line, sizeof line,
                 "rank %d: %zu host threads and %zu GPU streams; %zu CUDA calls (outermost), "
                 "%zu CPU segments between the bounds of operators, annotations and calls, %zu "
                 "GPU ops; %zu blocking calls joined to the GPU work they waited for, %zu GPU "
                 "ops waiting for another stream, %zu hand-offs between host threads; %zu "
                 "points whose measured time their dependencies contradict (clipped); launch "
                 "latency %s least, %s usual most; gap between two GPU ops of a stream %s "
                 "least, %s usual most.",
                 (int)r->rank, in->host_lanes, in->gpu_lanes, in->host_calls, in->host_segments,
                 in->gpu_ops, in->blocking_waits, in->stream_waits, in->thread_waits,
                 in->clipped, latency, latency_max, gap, gap_max);
        gs_text_put_wrapped(out, line, 0, 2, gs_text_width(style));
        putc('\n', out);
    }
}

/* What each shown action changes and assumes. */
static void put_actions_text(FILE *out, const gs_whatif *w, const gs_text_style *style)
{
    putc('\n', out);
    gs_put_title(out, style, "What each action changes and assumes", 0, 0);
    for (int a = GS_REPLAY_NONE + 1; a < GS_REPLAY__COUNT; a++) {
        if (!(gs_whatif_shown(w) & GS_REPLAY_BIT(a)))
            continue;
        const gs_replay_action_info *info = gs_replay_action_get(a);
        fprintf(out, "%s (%s)\n  changes: ", info->name, info->title);
        gs_text_put_wrapped(out, info->models, 11, 11, gs_text_width(style));
        fputs("\n  assumes: ", out);
        gs_text_put_wrapped(out, info->assumes, 11, 11, gs_text_width(style));
        putc('\n', out);
    }
}

/* The chosen actions as "cuda_graphs + compile", into buf. */
static const char *actions_named(gs_replay_set set, char *buf, size_t cap)
{
    size_t at = 0;
    buf[0] = 0;
    for (int a = GS_REPLAY_NONE + 1; a < GS_REPLAY__COUNT && at < cap; a++)
        if (set & GS_REPLAY_BIT(a))
            at += (size_t)snprintf(buf + at, cap - at, "%s%s", at ? " + " : "",
                                   gs_replay_action_get(a)->name);
    return buf;
}

/* ---- JSON ------------------------------------------------------------------------------------ */

static void put_actions_json(gs_json_writer *j, const char *key, gs_replay_set set)
{
    gs_json_begin_array(j, key, GS_JSON_INLINE);
    for (int a = GS_REPLAY_NONE + 1; a < GS_REPLAY__COUNT; a++)
        if (set & GS_REPLAY_BIT(a))
            gs_json_put_str(j, NULL, gs_replay_action_get(a)->name);
    gs_json_end(j);
}

static void put_alone_json(gs_json_writer *j, const gs_whatif_rank *r, bool explain)
{
    gs_json_begin_array(j, "alone", GS_JSON_BLOCK);
    for (size_t k = 0; k < r->norder; k++) {
        int a = r->order[k];
        const gs_replay_change *ch = &r->alone[a].change[a];
        const gs_replay_action_info *info = gs_replay_action_get(a);
        gs_json_begin_object(j, NULL, GS_JSON_INLINE);
        gs_json_put_str(j, "name", info->name);
        gs_json_put_int(j, "expected_step_ns", r->alone[a].expected_step_ns);
        gs_json_put_real(j, "expected_speedup", r->alone[a].speedup, 6);
        gs_json_begin_object(j, "change", GS_JSON_INLINE);
        gs_json_put_uint(j, "items", ch->items);
        gs_json_put_int(j, "host_before_ns", ch->host_before);
        gs_json_put_int(j, "host_after_ns", ch->host_after);
        gs_json_put_int(j, "gpu_before_ns", ch->gpu_before);
        gs_json_put_int(j, "gpu_after_ns", ch->gpu_after);
        gs_json_end(j);
        if (explain) {
            gs_json_put_str(j, "models", info->models);
            gs_json_put_str(j, "assumes", info->assumes);
        }
        gs_json_end(j);
    }
    gs_json_end(j);
}

/* Where a rank's rows are in the inputs and steps tables the JSON is written from: the next
 * replayed rank's, one inputs row each and its steps' rows in order. */
typedef struct json_rows {
    const gs_table *inputs, *steps;
    size_t input_row, step_row;
} json_rows;

/* The rank's inputs and steps, from their tables' rows (the rank column left out). */
static void put_model_json(gs_json_writer *j, const gs_whatif_rank *r, json_rows *rows)
{
    gs_json_begin_object(j, "inputs", GS_JSON_INLINE);
    gs_json_cells(j, rows->inputs, rows->input_row++, INPUT_COL_RANK + 1);
    gs_json_end(j);
    gs_json_begin_array(j, "per_step", GS_JSON_BLOCK);
    for (size_t s = 0; s < r->together.nsteps; s++) {
        gs_json_begin_object(j, NULL, GS_JSON_INLINE);
        gs_json_cells(j, rows->steps, rows->step_row++, STEP_COL_RANK + 1);
        gs_json_end(j);
    }
    gs_json_end(j);
}

static void put_rank_json(gs_json_writer *j, const gs_whatif *w, const gs_whatif_rank *r,
                          bool explain, json_rows *rows)
{
    gs_json_begin_object(j, NULL, GS_JSON_BLOCK);
    gs_json_put_int(j, "rank", r->rank);
    gs_json_put_str(j, "path", r->path);
    if (r->why) {
        gs_json_put_str(j, "why", r->why);
        gs_json_end(j);
        return;
    }
    gs_json_put_uint(j, "steps", r->unchanged.nsteps);
    gs_json_put_int(j, "measured_step_ns", r->unchanged.measured_mean_ns);
    gs_json_put_int(j, "replay_step_ns", r->unchanged.replayed_mean_ns);
    gs_json_put_real(j, "replay_error", r->unchanged.error, 6);
    gs_json_put_int(j, "structural_step_ns", r->unchanged.structural_mean_ns);
    gs_json_put_real(j, "structural_error", r->unchanged.structural_error, 6);
    put_actions_json(j, "actions", w->actions);
    gs_json_put_int(j, "expected_step_ns", r->together.expected_step_ns);
    gs_json_put_real(j, "expected_speedup", r->together.speedup, 6);
    if (w->actions)
        gs_json_put_real(j, "alone_product", r->alone_product, 6);
    put_alone_json(j, r, explain);
    put_model_json(j, r, rows);
    gs_json_end(j);
}

static void put_json(FILE *out, const gs_whatif *w, bool explain, const gs_table *t)
{
    json_rows rows = {&t[T_INPUTS], &t[T_STEPS], 0, 0};
    gs_json_writer j;
    gs_json_writer_init(&j, out);
    gs_json_begin_object(&j, NULL, GS_JSON_BLOCK);
    gs_json_put_str(&j, "command", "whatif");
    put_actions_json(&j, "actions", w->actions);
    gs_json_put_int(&j, "dataloader_workers", w->params.dataloader_workers);
    gs_json_begin_array(&j, "ranks", GS_JSON_BLOCK);
    for (size_t i = 0; i < w->n; i++)
        put_rank_json(&j, w, &w->ranks[i], explain, &rows);
    gs_json_end(&j);
    gs_json_end(&j);
}

/* ---- the document ---------------------------------------------------------------------------- */

/* Text and CSV: the ranks, the actions together (when chosen), each alone; with --explain the
 * inputs (CSV: a table; text: in words, with what each action changes and assumes) and steps. */
static int put_sections(FILE *out, const gs_whatif *w, gs_table *t, bool explain,
                        enum gs_format format, const gs_text_style *style)
{
    char named[512], together[600];
    snprintf(together, sizeof together, "Together: %s",
             actions_named(w->actions, named, sizeof named));
    gs_section s[T__COUNT];
    size_t n = 0;
    s[n++] = (gs_section){"ranks", "The replay against the trace (mean kept step)", &t[T_RANKS]};
    if (w->actions)
        s[n++] = (gs_section){"together", together, &t[T_TOGETHER]};
    s[n++] = (gs_section){"alone",
                          w->actions ? "Each chosen action alone"
                                     : "Each action alone, best first",
                          &t[T_ALONE]};
    if (explain && format == GS_FORMAT_CSV)
        s[n++] = (gs_section){"inputs", "Model inputs", &t[T_INPUTS]};
    int rc = gs_render_sections(out, NULL, s, n, format, style, 0, false);
    if (!explain)
        return rc;
    gs_section steps = {"steps", "Every step (measured, replayed, with the actions)", &t[T_STEPS]};
    if (format == GS_FORMAT_CSV) {
        putc('\n', out);
        return gs_render_sections(out, NULL, &steps, 1, format, style, 0, false) | rc;
    }
    put_inputs_text(out, w, style);
    put_actions_text(out, w, style);
    return gs_render_sections(out, NULL, &steps, 1, format, style, 0, true) | rc;
}

int gs_render_whatif(FILE *out, const gs_whatif *w, bool explain, enum gs_format format,
                     const gs_text_style *style)
{
    gs_table t[T__COUNT];
    int rc = 0;
    size_t made = 0;
    for (; made < T__COUNT && rc == 0; made++)
        rc = table_makers[made](w, &t[made]);
    if (rc == 0 && format == GS_FORMAT_JSON)
        put_json(out, w, explain, t);
    else if (rc == 0)
        rc = put_sections(out, w, t, explain, format, style);
    for (size_t i = 0; i < made; i++)
        gs_table_free(&t[i]);
    return rc;
}
