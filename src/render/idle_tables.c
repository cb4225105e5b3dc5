#include "render/idle_tables.h"
#include "common/util.h"

#include <math.h>
#include <string.h>


/* ---- temporal breakdown --------------------------------------------------------------------- */

enum temporal_col {
    TEMPORAL_COL_RANK, TEMPORAL_COL_WINDOW_NS, TEMPORAL_COL_IDLE_NS, TEMPORAL_COL_IDLE_PCT,
    TEMPORAL_COL_COMPUTE_NS, TEMPORAL_COL_COMPUTE_PCT, TEMPORAL_COL_NON_COMPUTE_NS,
    TEMPORAL_COL_NON_COMPUTE_PCT, TEMPORAL_COL_COMMUNICATION_NS, TEMPORAL_COL_MEMORY_NS,
    TEMPORAL_COL_ACTIVITIES, TEMPORAL_COL_FILE, TEMPORAL_NCOLS
};

/* The help of the times that idle's --help defines ("definitions:"). */
static const gs_column temporal_columns[] = {
    [TEMPORAL_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [TEMPORAL_COL_WINDOW_NS] = {"window_ns", "window", "GPU window", "GPU Window (ns)", GS_COL_NS,
                                0,
                                "first GPU activity start to last GPU activity end (kernels,\n"
                                "copies, sets, and GPU-side waits on a stream such as Stream Wait\n"
                                "Event, which count as busy non-compute time as in HTA)"},
    [TEMPORAL_COL_IDLE_NS] = {"idle_ns", "idle", "Idle", "Idle (ns)", GS_COL_NS, 0,
                              "window - |union of all GPU activity|"},
    [TEMPORAL_COL_IDLE_PCT] = {"idle_pct", "idle_pct", "Idle (%)", "Idle (%)", GS_COL_PCT, 0},
    [TEMPORAL_COL_COMPUTE_NS] = {
        "compute_ns", "compute", "Compute", "Compute (ns)", GS_COL_NS, 0,
        "|union of compute kernels| (not communication kernels:\n"
        "doc/name_rules.md)"},
    [TEMPORAL_COL_COMPUTE_PCT] = {"compute_pct", "compute_pct", "Compute (%)", "Compute (%)",
                                  GS_COL_PCT, 0},
    [TEMPORAL_COL_NON_COMPUTE_NS] = {"non_compute_ns", "non_compute", "Non-compute",
                                     "Non-compute (ns)", GS_COL_NS, 0,
                                     "|union of all activity| - Compute"},
    [TEMPORAL_COL_NON_COMPUTE_PCT] = {"non_compute_pct", "non_compute_pct", "Non-compute (%)",
                                      "Non-compute (%)", GS_COL_PCT, 0},
    /* parts of Non-compute, and a count: left out of a table too narrow for them */
    [TEMPORAL_COL_COMMUNICATION_NS] = {"communication_ns", "communication", "Comm",
                                       "Communication (ns)", GS_COL_NS, GS_COL_NARROW_DROP},
    [TEMPORAL_COL_MEMORY_NS] = {"memory_ns", "memory", "Memory", "Memory (ns)", GS_COL_NS,
                                GS_COL_NARROW_DROP},
    [TEMPORAL_COL_ACTIVITIES] = {"activities", "activities", "Activities", "Activities",
                                 GS_COL_COUNT, GS_COL_NARROW_DROP},
    [TEMPORAL_COL_FILE] = {"file", "file", "File", "File", GS_COL_TEXT, GS_COL_CUT_START},
};
_Static_assert(COUNT_OF(temporal_columns) == TEMPORAL_NCOLS, "one column per enum temporal_col");

const gs_column *gs_idle_temporal_columns(size_t *ncols)
{
    *ncols = COUNT_OF(temporal_columns);
    return temporal_columns;
}

static int fill_temporal_table(const gs_temporal *tp, gs_table *out)
{
    gs_table_init(out, temporal_columns, COUNT_OF(temporal_columns),
                  "no GPU activity in the selected traces");
    for (size_t r = 0; r < tp->nrows; r++) {
        const gs_temporal_row *row = &tp->rows[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[TEMPORAL_COL_RANK].i = row->rank;
        c[TEMPORAL_COL_WINDOW_NS].i = row->window;
        c[TEMPORAL_COL_IDLE_NS].i = row->idle;
        c[TEMPORAL_COL_IDLE_PCT].f = row->idle_pct;
        c[TEMPORAL_COL_COMPUTE_NS].i = row->compute;
        c[TEMPORAL_COL_COMPUTE_PCT].f = row->compute_pct;
        c[TEMPORAL_COL_NON_COMPUTE_NS].i = row->non_compute;
        c[TEMPORAL_COL_NON_COMPUTE_PCT].f = row->non_compute_pct;
        c[TEMPORAL_COL_COMMUNICATION_NS].i = row->communication;
        c[TEMPORAL_COL_MEMORY_NS].i = row->memory;
        c[TEMPORAL_COL_ACTIVITIES].i = (int64_t)row->activities;
        c[TEMPORAL_COL_FILE].text = row->path;
    }
    return 0;
}

/* ---- idle per stream and per GPU ------------------------------------------------------------ */

/* A stream's or a GPU's gap totals, after the columns that say which one it is (`first`). */
enum total_col {
    TOTAL_COL_ACTIVITIES, TOTAL_COL_IDLE_NS, TOTAL_COL_HOST_WAIT_NS, TOTAL_COL_HOST_WAIT_PCT,
    TOTAL_COL_HOST_WAIT_GAPS, TOTAL_COL_KERNEL_WAIT_NS, TOTAL_COL_KERNEL_WAIT_PCT,
    TOTAL_COL_KERNEL_WAIT_GAPS, TOTAL_COL_OTHER_NS, TOTAL_COL_OTHER_PCT, TOTAL_COL_OTHER_GAPS,
    TOTAL_NCOLS
};

#define GAP_TOTAL_COLUMNS(first)                                                                   \
    [(first) + TOTAL_COL_ACTIVITIES] = {"activities", "activities", "Activities", "Activities",    \
                                        GS_COL_COUNT, 0},                                          \
    [(first) + TOTAL_COL_IDLE_NS] = {"idle_ns", "idle", "Idle", "Idle (ns)", GS_COL_NS, 0},        \
    [(first) + TOTAL_COL_HOST_WAIT_NS] = {"host_wait_ns", "host_wait", "Host-wait",                \
                                          "Host-wait (ns)", GS_COL_NS, 0},                         \
    [(first) + TOTAL_COL_HOST_WAIT_PCT] = {"host_wait_pct", "host_wait_pct", "HW (%)",             \
                                           "Host-wait (%)", GS_COL_PCT, 0},                        \
    [(first) + TOTAL_COL_HOST_WAIT_GAPS] = {"host_wait_gaps", "host_wait_gaps", "HW gaps",         \
                                            "Host-wait Gaps", GS_COL_COUNT, 0},                    \
    [(first) + TOTAL_COL_KERNEL_WAIT_NS] = {"kernel_wait_ns", "kernel_wait", "Kernel-wait",        \
                                            "Kernel-wait (ns)", GS_COL_NS, 0},                     \
    [(first) + TOTAL_COL_KERNEL_WAIT_PCT] = {"kernel_wait_pct", "kernel_wait_pct", "KW (%)",       \
                                             "Kernel-wait (%)", GS_COL_PCT, 0},                    \
    [(first) + TOTAL_COL_KERNEL_WAIT_GAPS] = {"kernel_wait_gaps", "kernel_wait_gaps", "KW gaps",   \
                                              "Kernel-wait Gaps", GS_COL_COUNT, 0},                \
    [(first) + TOTAL_COL_OTHER_NS] = {"other_ns", "other", "Other", "Other (ns)", GS_COL_NS, 0},   \
    [(first) + TOTAL_COL_OTHER_PCT] = {"other_pct", "other_pct", "Other (%)", "Other (%)",         \
                                       GS_COL_PCT, 0},                                             \
    [(first) + TOTAL_COL_OTHER_GAPS] = {"other_gaps", "other_gaps", "Other gaps", "Other Gaps",    \
                                        GS_COL_COUNT, 0}

/* Each gap class's columns among the totals. */
static const struct {
    int ns, pct, gaps;
} class_columns[GS_GAP__COUNT] = {
    [GS_GAP_HOST_WAIT] = {TOTAL_COL_HOST_WAIT_NS, TOTAL_COL_HOST_WAIT_PCT,
                          TOTAL_COL_HOST_WAIT_GAPS},
    [GS_GAP_KERNEL_WAIT] = {TOTAL_COL_KERNEL_WAIT_NS, TOTAL_COL_KERNEL_WAIT_PCT,
                            TOTAL_COL_KERNEL_WAIT_GAPS},
    [GS_GAP_OTHER] = {TOTAL_COL_OTHER_NS, TOTAL_COL_OTHER_PCT, TOTAL_COL_OTHER_GAPS},
};

enum stream_col {
    STREAM_COL_RANK, STREAM_COL_DEVICE, STREAM_COL_STREAM, STREAM_COL_TOTALS,
    STREAM_NCOLS = STREAM_COL_TOTALS + TOTAL_NCOLS
};

static const gs_column stream_columns[] = {
    [STREAM_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [STREAM_COL_DEVICE] = {"device", "device", "Device", "Device", GS_COL_COUNT, 0},
    [STREAM_COL_STREAM] = {"stream", "stream", "Stream", "Stream", GS_COL_COUNT, 0},
    GAP_TOTAL_COLUMNS(STREAM_COL_TOTALS),
};
_Static_assert(COUNT_OF(stream_columns) == STREAM_NCOLS, "one column per enum stream_col");

enum gpu_col {
    GPU_COL_RANK, GPU_COL_DEVICE, GPU_COL_TOTALS, GPU_NCOLS = GPU_COL_TOTALS + TOTAL_NCOLS
};

static const gs_column gpu_columns[] = {
    [GPU_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [GPU_COL_DEVICE] = {"device", "device", "Device", "Device", GS_COL_COUNT, 0},
    GAP_TOTAL_COLUMNS(GPU_COL_TOTALS),
};
_Static_assert(COUNT_OF(gpu_columns) == GPU_NCOLS, "one column per enum gpu_col");

/* Fills the totals of one stream or GPU; `c` points at its first total column. */
static void put_totals(gs_cell *c, const gs_idle_scope *s)
{
    c[TOTAL_COL_ACTIVITIES].i = (int64_t)s->activities;
    c[TOTAL_COL_IDLE_NS].i = s->gaps.idle;
    for (int k = 0; k < GS_GAP__COUNT; k++) {
        c[class_columns[k].ns].i = s->gaps.total[k];
        c[class_columns[k].pct].f = s->gaps.share_pct[k];
        c[class_columns[k].gaps].i = (int64_t)s->gaps.count[k];
    }
}

static int fill_scope_table(const gs_idle_scope *v, size_t n, bool per_stream, gs_table *out)
{
    if (per_stream)
        gs_table_init(out, stream_columns, COUNT_OF(stream_columns), "no GPU streams");
    else
        gs_table_init(out, gpu_columns, COUNT_OF(gpu_columns), "no GPUs with activity");
    for (size_t r = 0; r < n; r++) {
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        if (per_stream) {
            c[STREAM_COL_RANK].i = v[r].rank;
            c[STREAM_COL_DEVICE].i = v[r].device;
            c[STREAM_COL_STREAM].i = v[r].stream;
            put_totals(c + STREAM_COL_TOTALS, &v[r]);
        } else {
            c[GPU_COL_RANK].i = v[r].rank;
            c[GPU_COL_DEVICE].i = v[r].device;
            put_totals(c + GPU_COL_TOTALS, &v[r]);
        }
    }
    return 0;
}

/* ---- the largest gaps ----------------------------------------------------------------------- */

enum gap_col {
    GAP_COL_RANK, GAP_COL_DEVICE, GAP_COL_START_NS, GAP_COL_OFFSET_NS, GAP_COL_DURATION_NS,
    GAP_COL_CLASS, GAP_COL_STEP, GAP_COL_STEP_PCT, GAP_COL_DATALOADER_NS, GAP_COL_SYNC,
    GAP_COL_SYNC_NS, GAP_COL_HOST_API, GAP_COL_HOST_API_NS, GAP_COL_HOST_OP_NS, GAP_COL_HOST_OP,
    GAP_COL_AFTER_STREAM, GAP_COL_LAUNCH_START_NS, GAP_COL_BEFORE, GAP_COL_AFTER, GAP_NCOLS
};

static const gs_column gap_columns[] = {
    [GAP_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [GAP_COL_DEVICE] = {"device", "device", "Device", "Device", GS_COL_COUNT, 0},
    [GAP_COL_START_NS] = {"start_ns", "start", "Start", "Start (ns)", GS_COL_NS, GS_COL_JSON_ONLY},
    [GAP_COL_OFFSET_NS] = {"offset_ns", "offset", "At", "Offset (ns)", GS_COL_NS, 0},
    [GAP_COL_DURATION_NS] = {"duration_ns", "duration", "Gap", "Duration (ns)", GS_COL_NS, 0},
    [GAP_COL_CLASS] = {"class", "class", "Class", "Class", GS_COL_TEXT, 0},
    [GAP_COL_STEP] = {"step", "step", "Step", "Step", GS_COL_COUNT, 0},
    [GAP_COL_STEP_PCT] = {"step_pct", "step_pct", "Of step (%)", "Of Step (%)", GS_COL_PCT, 0},
    [GAP_COL_DATALOADER_NS] = {"dataloader_ns", "dataloader", "DataLoader", "DataLoader (ns)",
                               GS_COL_NS, 0},
    /* The host's calls in detail and the kernel after: left out, right to left, of a table too
     * narrow for them (the class says what the host did; the gap, step and operator stay). */
    [GAP_COL_SYNC] = {"sync", "sync", "Sync call", "Sync Call", GS_COL_TEXT, GS_COL_NARROW_DROP},
    [GAP_COL_SYNC_NS] = {"sync_ns", "sync_ns", "Sync", "Sync (ns)", GS_COL_NS,
                         GS_COL_NARROW_DROP},
    [GAP_COL_HOST_API] = {"host_api", "host_api", "API call", "API Call", GS_COL_TEXT,
                          GS_COL_NARROW_DROP},
    [GAP_COL_HOST_API_NS] = {"host_api_ns", "host_api_ns", "API", "API (ns)", GS_COL_NS,
                             GS_COL_NARROW_DROP},
    [GAP_COL_HOST_OP_NS] = {"host_op_ns", "host_op_ns", "Op", "Op (ns)", GS_COL_NS, 0},
    [GAP_COL_HOST_OP] = {"host_op", "host_op", "Host op", "Host Op", GS_COL_TEXT, 0},
    [GAP_COL_AFTER_STREAM] = {"after_stream", "after_stream", "Stream", "Stream", GS_COL_COUNT,
                              GS_COL_JSON_ONLY},
    [GAP_COL_LAUNCH_START_NS] = {"launch_start_ns", "launch_start", "Launch", "Launch Start (ns)",
                                 GS_COL_NS, GS_COL_JSON_ONLY},
    [GAP_COL_BEFORE] = {"before", "before", "Before", "Before", GS_COL_TEXT, GS_COL_JSON_ONLY},
    [GAP_COL_AFTER] = {"after", "after", "After", "After", GS_COL_TEXT, GS_COL_NARROW_DROP},
};
_Static_assert(COUNT_OF(gap_columns) == GAP_NCOLS, "one column per enum gap_col");

static int fill_gap_table(const gs_idle *idle, gs_table *out)
{
    gs_table_init(out, gap_columns, COUNT_OF(gap_columns),
                  "no gap of 1 ms or 5 % of a step or more");
    for (size_t r = 0; r < idle->ngaps; r++) {
        const gs_gap *g = &idle->gaps[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[GAP_COL_RANK].i = g->rank;
        c[GAP_COL_DEVICE].i = g->device;
        c[GAP_COL_START_NS].i = g->start;
        c[GAP_COL_OFFSET_NS].i = g->offset;
        c[GAP_COL_DURATION_NS].i = g->end - g->start;
        c[GAP_COL_CLASS].text = gs_gap_class_name(g->cls);
        /* A gap outside every step, or with no call or operator on the host: not recorded. */
        c[GAP_COL_STEP].i = gs_cell_known(g->step_number, g->step >= 0);
        c[GAP_COL_STEP_PCT].f = g->step >= 0 ? g->step_pct : NAN;
        c[GAP_COL_DATALOADER_NS].i = g->host.dataloader_ns;
        c[GAP_COL_SYNC].text = g->host.sync_api;
        c[GAP_COL_SYNC_NS].i = gs_cell_known(g->host.sync_ns, g->host.sync_api != NULL);
        c[GAP_COL_HOST_API].text = g->host.api;
        c[GAP_COL_HOST_API_NS].i = gs_cell_known(g->host.api_ns, g->host.api != NULL);
        c[GAP_COL_HOST_OP_NS].i = gs_cell_known(g->host.op_ns, g->host.op != NULL);
        c[GAP_COL_HOST_OP].text = g->host.op;
        c[GAP_COL_AFTER_STREAM].i = g->after_stream;
        c[GAP_COL_LAUNCH_START_NS].i = gs_cell_known(g->launch_start, g->launch_start >= 0);
        c[GAP_COL_BEFORE].text = g->before;
        c[GAP_COL_AFTER].text = g->after;
    }
    return 0;
}

/* ---- per step ------------------------------------------------------------------------------- */

enum step_col {
    STEP_COL_RANK, STEP_COL_STEP, STEP_COL_WARMUP, STEP_COL_DURATION_NS, STEP_COL_IDLE_NS,
    STEP_COL_IDLE_PCT, STEP_COL_HOST_WAIT_NS, STEP_COL_KERNEL_WAIT_NS, STEP_COL_OTHER_NS, STEP_NCOLS
};

static const gs_column step_columns[] = {
    [STEP_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [STEP_COL_STEP] = {"step", "step", "Step", "Step", GS_COL_COUNT, 0},
    [STEP_COL_WARMUP] = {"warmup", "warmup", "Warm-up", "Warm-up", GS_COL_TEXT, 0},
    [STEP_COL_DURATION_NS] = {"duration_ns", "duration", "Duration", "Duration (ns)", GS_COL_NS, 0},
    [STEP_COL_IDLE_NS] = {"idle_ns", "idle", "GPU idle", "GPU Idle (ns)", GS_COL_NS, 0},
    [STEP_COL_IDLE_PCT] = {"idle_pct", "idle_pct", "Idle (%)", "Idle (%)", GS_COL_PCT, 0},
    [STEP_COL_HOST_WAIT_NS] = {"host_wait_ns", "host_wait", "Host-wait", "Host-wait (ns)",
                               GS_COL_NS, 0},
    [STEP_COL_KERNEL_WAIT_NS] = {"kernel_wait_ns", "kernel_wait", "Kernel-wait", "Kernel-wait (ns)",
                                 GS_COL_NS, 0},
    [STEP_COL_OTHER_NS] = {"other_ns", "other", "Other", "Other (ns)", GS_COL_NS, 0},
};
_Static_assert(COUNT_OF(step_columns) == STEP_NCOLS, "one column per enum step_col");

/* Each gap class's idle time column. */
static const int step_idle_columns[GS_GAP__COUNT] = {
    [GS_GAP_HOST_WAIT] = STEP_COL_HOST_WAIT_NS,
    [GS_GAP_KERNEL_WAIT] = STEP_COL_KERNEL_WAIT_NS,
    [GS_GAP_OTHER] = STEP_COL_OTHER_NS,
};

static int fill_step_table(const gs_idle *idle, gs_table *out)
{
    gs_table_init(out, step_columns, COUNT_OF(step_columns), "no steps");
    for (size_t r = 0; r < idle->nsteps; r++) {
        const gs_idle_step *s = &idle->steps[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[STEP_COL_RANK].i = s->rank;
        c[STEP_COL_STEP].i = s->number;
        c[STEP_COL_WARMUP].text = s->warmup ? "yes" : NULL;
        c[STEP_COL_DURATION_NS].i = s->end - s->start;
        c[STEP_COL_IDLE_NS].i = s->idle_total;
        c[STEP_COL_IDLE_PCT].f = s->idle_pct;
        for (int k = 0; k < GS_GAP__COUNT; k++)
            c[step_idle_columns[k]].i = s->idle[k];
    }
    return 0;
}

int gs_idle_tables_make(const gs_temporal *tp, const gs_idle *idle, gs_idle_tables *out)
{
    memset(out, 0, sizeof *out);
    int rc = fill_temporal_table(tp, &out->temporal);
    rc |= fill_scope_table(idle->streams, idle->nstreams, true, &out->streams);
    rc |= fill_scope_table(idle->devices, idle->ndevices, false, &out->gpus);
    rc |= fill_gap_table(idle, &out->gaps);
    rc |= fill_step_table(idle, &out->steps);
    return rc ? -1 : 0;
}

void gs_idle_tables_free(gs_idle_tables *t)
{
    gs_table_free(&t->temporal);
    gs_table_free(&t->streams);
    gs_table_free(&t->gpus);
    gs_table_free(&t->gaps);
    gs_table_free(&t->steps);
}

/* ---- the document --------------------------------------------------------------------------- */

int gs_render_idle(FILE *out, gs_idle_tables *t, const gs_idle *idle, bool hta_compat,
                   const gs_window_notes *window, enum gs_format format,
                   const gs_text_style *style, size_t limit)
{
    /* The gaps table holds its own selection; its heading counts every gap worth listing. */
    gs_section sections[] = {
        {"temporal", "Temporal breakdown per rank (GPU window = first GPU start to last GPU end)",
         &t->temporal, false, 0},
        {"streams", "Idle gaps per stream", &t->streams, false, 0},
        {"gpus", "Idle gaps GPU-wide (gaps in the union of all streams)", &t->gpus, false, 0},
        {"gaps", "Largest GPU-wide gaps (>= 1 ms or >= 5 % of their step) and the host", &t->gaps,
         true, idle->gaps_worth_listing},
        {"steps", "GPU idle per step", &t->steps, false, 0},
    };
    gs_json_writer w;
    gs_json_writer_init(&w, out);
    if (format == GS_FORMAT_JSON) {
        gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
        gs_json_put_str(&w, "command", "idle");
        gs_json_put_bool(&w, "hta_compat", hta_compat);
        gs_json_put_uint(&w, "gaps_worth_listing", idle->gaps_worth_listing);
        if (window)
            gs_window_notes_json(&w, window);
    }
    bool noted = format == GS_FORMAT_TABLE && window && window->restricts;
    if (noted)
        gs_window_notes_text(out, window, style);
    int rc = gs_render_sections(out, &w, sections, COUNT_OF(sections), format, style, limit,
                                noted);
    if (format == GS_FORMAT_JSON)
        gs_json_end(&w);
    return rc;
}
