#include "render/idle_tables.h"

#include <string.h>


#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- temporal breakdown --------------------------------------------------------------------- */

static const gs_column temporal_columns[] = {
    {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    {"window_ns", "window", "GPU window", "GPU Window (ns)", GS_COL_NS, 0},
    {"idle_ns", "idle", "Idle", "Idle (ns)", GS_COL_NS, 0},
    {"idle_pct", "idle_pct", "Idle (%)", "Idle (%)", GS_COL_PCT, 0},
    {"compute_ns", "compute", "Compute", "Compute (ns)", GS_COL_NS, 0},
    {"compute_pct", "compute_pct", "Compute (%)", "Compute (%)", GS_COL_PCT, 0},
    {"non_compute_ns", "non_compute", "Non-compute", "Non-compute (ns)", GS_COL_NS, 0},
    {"non_compute_pct", "non_compute_pct", "Non-compute (%)", "Non-compute (%)", GS_COL_PCT, 0},
    {"communication_ns", "communication", "Comm", "Communication (ns)", GS_COL_NS, 0},
    {"memory_ns", "memory", "Memory", "Memory (ns)", GS_COL_NS, 0},
    {"activities", "activities", "Activities", "Activities", GS_COL_COUNT, 0},
    {"file", "file", "File", "File", GS_COL_TEXT, 0},
};

static int temporal_table(const gs_temporal *tp, gs_table *out)
{
    gs_table_init(out, temporal_columns, COUNT_OF(temporal_columns),
                  "no GPU activity in the selected traces");
    for (size_t r = 0; r < tp->nrows; r++) {
        const gs_temporal_row *row = &tp->rows[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[0].i = row->rank;
        c[1].i = row->window;
        c[2].i = row->idle;
        c[3].f = row->idle_pct;
        c[4].i = row->compute;
        c[5].f = row->compute_pct;
        c[6].i = row->non_compute;
        c[7].f = row->non_compute_pct;
        c[8].i = row->communication;
        c[9].i = row->memory;
        c[10].i = (int64_t)row->activities;
        c[11].text = row->path;
    }
    return 0;
}

/* ---- idle per stream and per GPU ------------------------------------------------------------ */

#define GAP_TOTAL_COLUMNS                                                                          \
    {"activities", "activities", "Activities", "Activities", GS_COL_COUNT, 0},                     \
        {"idle_ns", "idle", "Idle", "Idle (ns)", GS_COL_NS, 0},                                    \
        {"host_wait_ns", "host_wait", "Host-wait", "Host-wait (ns)", GS_COL_NS, 0},                \
        {"host_wait_pct", "host_wait_pct", "HW (%)", "Host-wait (%)", GS_COL_PCT, 0},              \
        {"host_wait_gaps", "host_wait_gaps", "HW gaps", "Host-wait Gaps", GS_COL_COUNT, 0},        \
        {"kernel_wait_ns", "kernel_wait", "Kernel-wait", "Kernel-wait (ns)", GS_COL_NS, 0},        \
        {"kernel_wait_pct", "kernel_wait_pct", "KW (%)", "Kernel-wait (%)", GS_COL_PCT, 0},        \
        {"kernel_wait_gaps", "kernel_wait_gaps", "KW gaps", "Kernel-wait Gaps", GS_COL_COUNT, 0},  \
        {"other_ns", "other", "Other", "Other (ns)", GS_COL_NS, 0},                                \
        {"other_pct", "other_pct", "Other (%)", "Other (%)", GS_COL_PCT, 0},                       \
        {"other_gaps", "other_gaps", "Other gaps", "Other Gaps", GS_COL_COUNT, 0}

static const gs_column stream_columns[] = {
    {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    {"device", "device", "Device", "Device", GS_COL_COUNT, 0},
    {"stream", "stream", "Stream", "Stream", GS_COL_COUNT, 0},
    GAP_TOTAL_COLUMNS,
};

static const gs_column gpu_columns[] = {
    {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    {"device", "device", "Device", "Device", GS_COL_COUNT, 0},
    GAP_TOTAL_COLUMNS,
};

static void put_totals(gs_cell *c, const gs_idle_scope *s)
{
    c[0].i = (int64_t)s->activities;
    c[1].i = s->gaps.idle;
    for (int k = 0; k < GS_GAP__COUNT; k++) {
        c[2 + 3 * k].i = s->gaps.total[k];
        c[3 + 3 * k].f = s->gaps.share_pct[k];
        c[4 + 3 * k].i = (int64_t)s->gaps.count[k];
    }
}

static int scope_table(const gs_idle_scope *v, size_t n, bool per_stream, gs_table *out)
{
    if (per_stream)
        gs_table_init(out, stream_columns, COUNT_OF(stream_columns), "no GPU streams");
    else
        gs_table_init(out, gpu_columns, COUNT_OF(gpu_columns), "no GPUs with activity");
    for (size_t r = 0; r < n; r++) {
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[0].i = v[r].rank;
        c[1].i = v[r].device;
        if (per_stream)
            c[2].i = v[r].stream;
        put_totals(c + (per_stream ? 3 : 2), &v[r]);
    }
    return 0;
}

/* ---- the largest gaps ----------------------------------------------------------------------- */

static const gs_column gap_columns[] = {
    {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    {"device", "device", "Device", "Device", GS_COL_COUNT, 0},
    {"start_ns", "start", "Start", "Start (ns)", GS_COL_NS, GS_COL_JSON_ONLY},
    {"offset_ns", "offset", "At", "Offset (ns)", GS_COL_NS, 0},
    {"duration_ns", "duration", "Gap", "Duration (ns)", GS_COL_NS, 0},
    {"class", "class", "Class", "Class", GS_COL_TEXT, 0},
    {"step", "step", "Step", "Step", GS_COL_COUNT, 0},
    {"step_pct", "step_pct", "Of step (%)", "Of Step (%)", GS_COL_PCT, 0},
    {"dataloader_ns", "dataloader", "DataLoader", "DataLoader (ns)", GS_COL_NS, 0},
    {"sync", "sync", "Sync call", "Sync Call", GS_COL_TEXT, 0},
    {"sync_ns", "sync_ns", "Sync", "Sync (ns)", GS_COL_NS, 0},
    {"host_api", "host_api", "API call", "API Call", GS_COL_TEXT, 0},
    {"host_api_ns", "host_api_ns", "API", "API (ns)", GS_COL_NS, 0},
    {"host_op_ns", "host_op_ns", "Op", "Op (ns)", GS_COL_NS, 0},
    {"host_op", "host_op", "Host op", "Host Op", GS_COL_TEXT, 0},
    {"after_stream", "after_stream", "Stream", "Stream", GS_COL_COUNT, GS_COL_JSON_ONLY},
    {"launch_start_ns", "launch_start", "Launch", "Launch Start (ns)", GS_COL_NS,
     GS_COL_JSON_ONLY},
    {"before", "before", "Before", "Before", GS_COL_TEXT, GS_COL_JSON_ONLY},
    {"after", "after", "After", "After", GS_COL_TEXT, 0},
};

static int gap_table(const gs_idle *idle, gs_table *out)
{
    gs_table_init(out, gap_columns, COUNT_OF(gap_columns),
                  "no gap of 1 ms or 5 % of a step or more");
    for (size_t r = 0; r < idle->ngaps; r++) {
        const gs_gap *g = &idle->gaps[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[0].i = g->rank;
        c[1].i = g->device;
        c[2].i = g->start;
        c[3].i = g->offset;
        c[4].i = g->end - g->start;
        c[5].text = gs_gap_class_name(g->cls);
        c[6].i = g->step_number;
        c[7].f = g->step_pct;
        c[8].i = g->host.dataloader_ns;
        c[9].text = g->host.sync_api;
        c[10].i = g->host.sync_ns;
        c[11].text = g->host.api;
        c[12].i = g->host.api_ns;
        c[13].i = g->host.op_ns;
        c[14].text = g->host.op;
        c[15].i = g->after_stream;
        c[16].i = g->launch_start;
        c[17].text = g->before;
        c[18].text = g->after;
    }
    return 0;
}

/* ---- per step ------------------------------------------------------------------------------- */

static const gs_column step_columns[] = {
    {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    {"step", "step", "Step", "Step", GS_COL_COUNT, 0},
    {"warmup", "warmup", "Warm-up", "Warm-up", GS_COL_TEXT, 0},
    {"duration_ns", "duration", "Duration", "Duration (ns)", GS_COL_NS, 0},
    {"idle_ns", "idle", "GPU idle", "GPU Idle (ns)", GS_COL_NS, 0},
    {"idle_pct", "idle_pct", "Idle (%)", "Idle (%)", GS_COL_PCT, 0},
    {"host_wait_ns", "host_wait", "Host-wait", "Host-wait (ns)", GS_COL_NS, 0},
    {"kernel_wait_ns", "kernel_wait", "Kernel-wait", "Kernel-wait (ns)", GS_COL_NS, 0},
    {"other_ns", "other", "Other", "Other (ns)", GS_COL_NS, 0},
};

static int step_table(const gs_idle *idle, gs_table *out)
{
    gs_table_init(out, step_columns, COUNT_OF(step_columns), "no steps");
    for (size_t r = 0; r < idle->nsteps; r++) {
        const gs_idle_step *s = &idle->steps[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[0].i = s->rank;
        c[1].i = s->number;
        c[2].text = s->warmup ? "yes" : NULL;
        c[3].i = s->end - s->start;
        c[4].i = s->idle_total;
        c[5].f = s->idle_pct;
        for (int k = 0; k < GS_GAP__COUNT; k++)
            c[6 + k].i = s->idle[k];
    }
    return 0;
}

int gs_idle_tables_make(const gs_temporal *tp, const gs_idle *idle, gs_idle_tables *out)
{
    memset(out, 0, sizeof *out);
    int rc = temporal_table(tp, &out->temporal);
    rc |= scope_table(idle->streams, idle->nstreams, true, &out->streams);
    rc |= scope_table(idle->devices, idle->ndevices, false, &out->gpus);
    rc |= gap_table(idle, &out->gaps);
    rc |= step_table(idle, &out->steps);
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
                   enum gs_format format, const gs_text_style *style, size_t limit)
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
    if (format == GS_FORMAT_JSON) {
        fputs("{\n  \"command\": \"idle\",\n", out);
        fprintf(out, "  \"hta_compat\": %s,\n", hta_compat ? "true" : "false");
        fprintf(out, "  \"gaps_worth_listing\": %zu", idle->gaps_worth_listing);
    }
    int rc = gs_render_sections(out, sections, COUNT_OF(sections), format, style, limit, false);
    if (format == GS_FORMAT_JSON)
        fputs("\n}\n", out);
    return rc;
}
