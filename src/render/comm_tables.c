#include "render/comm_tables.h"

#include <math.h>
#include <string.h>


#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* A share or bandwidth the analysis marks unknown with a negative value shows as "-" / null. */
static double known(double v)
{
    return v < 0 ? NAN : v;
}

/* ---- per rank ---------------------------------------------------------------------------------- */

static const gs_column rank_columns[] = {
    {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    {"steps", "steps", "Steps", "Steps", GS_COL_COUNT, 0},
    {"step_median_ns", "step", "Step (med)", "Step Median (ns)", GS_COL_NS, 0},
    {"window_ns", "window", "GPU window", "GPU Window (ns)", GS_COL_NS, 0},
    {"compute_ns", "compute", "Compute", "Compute (ns)", GS_COL_NS, 0},
    {"communication_ns", "communication", "Comm", "Communication (ns)", GS_COL_NS, 0},
    {"overlap_ns", "overlap", "Overlap", "Overlap (ns)", GS_COL_NS, 0},
    {"overlap_pct", "overlap_pct", "Overlap (%)", "Overlap (%)", GS_COL_PCT, 0},
    {"exposed_ns", "exposed", "Exposed", "Exposed (ns)", GS_COL_NS, 0},
    {"exposed_pct", "exposed_pct", "Exp. (% win)", "Exposed (% of window)", GS_COL_PCT, 0},
    {"exposed_per_step_ns", "exposed_per_step", "Exp./step", "Exposed per Step (ns)", GS_COL_NS,
     0},
    {"exposed_step_pct", "exposed_step_pct", "Exp. (% step)", "Exposed (% of step)", GS_COL_PCT,
     0},
    {"idle_ns", "idle", "Idle", "Idle (ns)", GS_COL_NS, 0},
    {"idle_pct", "idle_pct", "Idle (%)", "Idle (%)", GS_COL_PCT, 0},
    {"collectives", "collectives", "Collectives", "Collectives", GS_COL_COUNT, 0},
    {"file", "file", "File", "File", GS_COL_TEXT, 0},
};

static int rank_table(const gs_comm *c, gs_table *out)
{
    gs_table_init(out, rank_columns, COUNT_OF(rank_columns), "no traces selected");
    for (size_t i = 0; i < c->nranks; i++) {
        const gs_comm_rank *r = &c->ranks[i];
        gs_cell *v = gs_table_add_row(out);
        if (!v)
            return -1;
        v[0].i = r->rank;
        v[1].i = (int64_t)r->steps;
        v[2].i = r->step_median;
        v[3].i = r->window;
        v[4].i = r->compute;
        v[5].i = r->communication;
        v[6].i = r->overlap;
        v[7].f = known(r->overlap_pct);
        v[8].i = r->exposed;
        v[9].f = r->exposed_pct;
        v[10].i = r->exposed_per_step;
        v[11].f = r->exposed_step_pct;
        v[12].i = r->idle;
        v[13].f = r->idle_pct;
        v[14].i = (int64_t)r->collectives;
        v[15].text = r->path;
    }
    return 0;
}

/* ---- per rank and collective kind -------------------------------------------------------------- */

static const gs_column kind_columns[] = {
    {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    {"collective", "collective", "Collective", "Collective", GS_COL_TEXT, 0},
    {"count", "count", "Count", "Count", GS_COL_COUNT, 0},
    {"total_ns", "total", "Total", "Total (ns)", GS_COL_NS, 0},
    {"mean_ns", "mean", "Mean", "Mean (ns)", GS_COL_NS, 0},
    {"min_ns", "min", "Min", "Min (ns)", GS_COL_NS, 0},
    {"max_ns", "max", "Max", "Max (ns)", GS_COL_NS, 0},
    {"sized", "sized", "Sized", "Sized", GS_COL_COUNT, 0},
    {"bytes", "bytes", "Bytes", "Bytes", GS_COL_BYTES, 0},
    {"algbw_gbps", "algbw", "algbw", "algbw (GB/s)", GS_COL_GBPS, 0},
    {"busbw_gbps", "busbw", "busbw", "busbw (GB/s)", GS_COL_GBPS, 0},
    {"group_size", "group_size", "Ranks", "Group Size", GS_COL_COUNT, 0},
};

static int kind_table(const gs_comm *c, gs_table *out)
{
    gs_table_init(out, kind_columns, COUNT_OF(kind_columns), "no communication kernels");
    for (size_t i = 0; i < c->nkinds; i++) {
        const gs_comm_kind *k = &c->kinds[i];
        gs_cell *v = gs_table_add_row(out);
        if (!v)
            return -1;
        v[0].i = k->rank;
        v[1].text = gs_coll_kind_key(k->kind);
        v[2].i = (int64_t)k->count;
        v[3].i = k->total;
        v[4].i = k->mean;
        v[5].i = k->min;
        v[6].i = k->max;
        v[7].i = (int64_t)k->sized;
        v[8].i = k->bytes;
        v[9].f = known(k->algbw_gbps);
        v[10].f = known(k->busbw_gbps);
        v[11].i = k->group_size > 0 ? k->group_size : 0;
    }
    return 0;
}

/* ---- per step ---------------------------------------------------------------------------------- */

static const gs_column step_columns[] = {
    {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    {"step", "step", "Step", "Step", GS_COL_COUNT, 0},
    {"warmup", "warmup", "Warm-up", "Warm-up", GS_COL_TEXT, 0},
    {"duration_ns", "duration", "Duration", "Duration (ns)", GS_COL_NS, 0},
    {"compute_ns", "compute", "Compute", "Compute (ns)", GS_COL_NS, 0},
    {"communication_ns", "communication", "Comm", "Communication (ns)", GS_COL_NS, 0},
    {"overlap_ns", "overlap", "Overlap", "Overlap (ns)", GS_COL_NS, 0},
    {"exposed_ns", "exposed", "Exposed", "Exposed (ns)", GS_COL_NS, 0},
    {"exposed_pct", "exposed_pct", "Exposed (%)", "Exposed (%)", GS_COL_PCT, 0},
};

static int step_table(const gs_comm *c, gs_table *out)
{
    gs_table_init(out, step_columns, COUNT_OF(step_columns), "no steps");
    for (size_t i = 0; i < c->nsteps; i++) {
        const gs_comm_step *s = &c->steps[i];
        gs_cell *v = gs_table_add_row(out);
        if (!v)
            return -1;
        v[0].i = s->rank;
        v[1].i = s->number;
        v[2].text = s->warmup ? "yes" : NULL;
        v[3].i = s->end - s->start;
        v[4].i = s->compute;
        v[5].i = s->communication;
        v[6].i = s->overlap;
        v[7].i = s->exposed;
        v[8].f = s->exposed_pct;
    }
    return 0;
}

int gs_comm_tables_make(const gs_comm *comm, bool per_step, gs_comm_tables *out)
{
    memset(out, 0, sizeof *out);
    out->per_step = per_step;
    int rc = rank_table(comm, &out->ranks);
    rc |= kind_table(comm, &out->collectives);
    if (per_step)
        rc |= step_table(comm, &out->steps);
    return rc ? -1 : 0;
}

void gs_comm_tables_free(gs_comm_tables *t)
{
    gs_table_free(&t->ranks);
    gs_table_free(&t->collectives);
    gs_table_free(&t->steps);
}

/* ---- the document ------------------------------------------------------------------------------ */

int gs_render_comm(FILE *out, gs_comm_tables *t, bool hta_compat, enum gs_format format,
                   const gs_text_style *style, size_t limit)
{
    gs_section sections[] = {
        {"ranks", "Communication per rank (overlap = compute and communication at once)", &t->ranks,
         false, 0},
        {"collectives", "Collectives per rank and kind (algbw, busbw as nccl-tests)",
         &t->collectives, false, 0},
        {"steps", "Communication per step", &t->steps, false, 0},
    };
    if (format == GS_FORMAT_JSON)
        fprintf(out, "{\n  \"command\": \"comm\",\n  \"hta_compat\": %s",
                hta_compat ? "true" : "false");
    int rc = gs_render_sections(out, sections, t->per_step ? 3 : 2, format, style, limit, false);
    if (format == GS_FORMAT_JSON)
        fputs("\n}\n", out);
    return rc;
}
