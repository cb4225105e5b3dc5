#include "render/comm_tables.h"
#include "common/util.h"

#include <math.h>
#include <string.h>


/* A share or bandwidth the analysis marks unknown with a negative value shows as "-" / null. */
static double known(double v)
{
    return v < 0 ? NAN : v;
}

/* ---- per rank ---------------------------------------------------------------------------------- */

enum rank_col {
    RANK_COL_RANK, RANK_COL_STEPS, RANK_COL_STEP_MEDIAN_NS, RANK_COL_WINDOW_NS, RANK_COL_COMPUTE_NS,
    RANK_COL_COMMUNICATION_NS, RANK_COL_OVERLAP_NS, RANK_COL_OVERLAP_PCT, RANK_COL_EXPOSED_NS,
    RANK_COL_EXPOSED_PCT, RANK_COL_EXPOSED_PER_STEP_NS, RANK_COL_EXPOSED_STEP_PCT, RANK_COL_IDLE_NS,
    RANK_COL_IDLE_PCT, RANK_COL_COLLECTIVES, RANK_COL_FILE, RANK_NCOLS
};

/* The help of the times that comm's --help defines ("definitions:"). */
static const gs_column rank_columns[] = {
    [RANK_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [RANK_COL_STEPS] = {"steps", "steps", "Steps", "Steps", GS_COL_COUNT, 0},
    [RANK_COL_STEP_MEDIAN_NS] = {"step_median_ns", "step", "Step (med)", "Step Median (ns)",
                                 GS_COL_NS, 0},
    [RANK_COL_WINDOW_NS] = {"window_ns", "window", "GPU window", "GPU Window (ns)", GS_COL_NS, 0},
    [RANK_COL_COMPUTE_NS] = {"compute_ns", "compute", "Compute", "Compute (ns)", GS_COL_NS, 0,
                             "|union of compute kernels| (every other kernel)"},
    [RANK_COL_COMMUNICATION_NS] = {
        "communication_ns", "communication", "Comm", "Communication (ns)", GS_COL_NS, 0,
        "|union of communication kernels| (NCCL, RCCL, HCCL, NVSHMEM,\n"
        "DeepEP, custom all-reduce: doc/name_rules.md)"},
    [RANK_COL_OVERLAP_NS] = {"overlap_ns", "overlap", "Overlap", "Overlap (ns)", GS_COL_NS, 0,
                             "|compute and communication at once|"},
    [RANK_COL_OVERLAP_PCT] = {"overlap_pct", "overlap_pct", "Overlap (%)", "Overlap (%)",
                              GS_COL_PCT, 0, "Overlap / Comm"},
    [RANK_COL_EXPOSED_NS] = {"exposed_ns", "exposed", "Exposed", "Exposed (ns)", GS_COL_NS, 0,
                             "Comm - Overlap: communication no compute hides"},
    [RANK_COL_EXPOSED_PCT] = {"exposed_pct", "exposed_pct", "Exp. (% win)", "Exposed (% of window)",
                              GS_COL_PCT, 0},
    [RANK_COL_EXPOSED_PER_STEP_NS] = {"exposed_per_step_ns", "exposed_per_step", "Exp./step",
                                      "Exposed per Step (ns)", GS_COL_NS, 0},
    [RANK_COL_EXPOSED_STEP_PCT] = {"exposed_step_pct", "exposed_step_pct", "Exp. (% step)",
                                   "Exposed (% of step)", GS_COL_PCT, 0},
    [RANK_COL_IDLE_NS] = {"idle_ns", "idle", "Idle", "Idle (ns)", GS_COL_NS, 0,
                          "GPU window - |union of all GPU activity| (as gpuscope idle)"},
    [RANK_COL_IDLE_PCT] = {"idle_pct", "idle_pct", "Idle (%)", "Idle (%)", GS_COL_PCT, 0},
    [RANK_COL_COLLECTIVES] = {"collectives", "collectives", "Collectives", "Collectives",
                              GS_COL_COUNT, 0},
    [RANK_COL_FILE] = {"file", "file", "File", "File", GS_COL_TEXT, GS_COL_CUT_START},
};
_Static_assert(COUNT_OF(rank_columns) == RANK_NCOLS, "one column per enum rank_col");

const gs_column *gs_comm_rank_columns(size_t *ncols)
{
    *ncols = COUNT_OF(rank_columns);
    return rank_columns;
}

static int fill_rank_table(const gs_comm *c, gs_table *out)
{
    gs_table_init(out, rank_columns, COUNT_OF(rank_columns), "no traces selected");
    for (size_t i = 0; i < c->nranks; i++) {
        const gs_comm_rank *r = &c->ranks[i];
        gs_cell *v = gs_table_add_row(out);
        if (!v)
            return -1;
        v[RANK_COL_RANK].i = r->rank;
        v[RANK_COL_STEPS].i = (int64_t)r->steps;
        v[RANK_COL_STEP_MEDIAN_NS].i = r->step_median;
        v[RANK_COL_WINDOW_NS].i = r->window;
        v[RANK_COL_COMPUTE_NS].i = r->compute;
        v[RANK_COL_COMMUNICATION_NS].i = r->communication;
        v[RANK_COL_OVERLAP_NS].i = r->overlap;
        v[RANK_COL_OVERLAP_PCT].f = known(r->overlap_pct);
        v[RANK_COL_EXPOSED_NS].i = r->exposed;
        v[RANK_COL_EXPOSED_PCT].f = r->exposed_pct;
        v[RANK_COL_EXPOSED_PER_STEP_NS].i = r->exposed_per_step;
        v[RANK_COL_EXPOSED_STEP_PCT].f = r->exposed_step_pct;
        v[RANK_COL_IDLE_NS].i = r->idle;
        v[RANK_COL_IDLE_PCT].f = r->idle_pct;
        v[RANK_COL_COLLECTIVES].i = (int64_t)r->collectives;
        v[RANK_COL_FILE].text = r->path;
    }
    return 0;
}

/* ---- per rank and collective kind -------------------------------------------------------------- */

enum kind_col {
    KIND_COL_RANK, KIND_COL_COLLECTIVE, KIND_COL_COUNT, KIND_COL_TOTAL_NS, KIND_COL_MEAN_NS,
    KIND_COL_MIN_NS, KIND_COL_MAX_NS, KIND_COL_SIZED, KIND_COL_BYTES, KIND_COL_ALGBW_GBPS,
    KIND_COL_BUSBW_GBPS, KIND_COL_GROUP_SIZE, KIND_NCOLS
};

/* The help of the size and bandwidths that comm's --help defines. */
static const gs_column kind_columns[] = {
    [KIND_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [KIND_COL_COLLECTIVE] = {"collective", "collective", "Collective", "Collective", GS_COL_TEXT,
                             0},
    [KIND_COL_COUNT] = {"count", "count", "Count", "Count", GS_COL_COUNT, 0},
    [KIND_COL_TOTAL_NS] = {"total_ns", "total", "Total", "Total (ns)", GS_COL_NS, 0},
    [KIND_COL_MEAN_NS] = {"mean_ns", "mean", "Mean", "Mean (ns)", GS_COL_NS, 0},
    [KIND_COL_MIN_NS] = {"min_ns", "min", "Min", "Min (ns)", GS_COL_NS, 0},
    [KIND_COL_MAX_NS] = {"max_ns", "max", "Max", "Max (ns)", GS_COL_NS, 0},
    [KIND_COL_SIZED] = {"sized", "sized", "Sized", "Sized", GS_COL_COUNT, 0},
    [KIND_COL_BYTES] = {"bytes", "bytes", "Bytes", "Bytes", GS_COL_BYTES, 0,
                        "message size from the collective's args: the larger of In/Out msg\n"
                        "nelems times the dtype's size"},
    [KIND_COL_ALGBW_GBPS] = {"algbw_gbps", "algbw", "algbw", "algbw (GB/s)", GS_COL_GBPS, 0,
                             "Bytes / Total over the collectives whose size is known (GB/s)"},
    [KIND_COL_BUSBW_GBPS] = {"busbw_gbps", "busbw", "busbw", "busbw (GB/s)", GS_COL_GBPS, 0,
                             "algbw times nccl-tests' factor for n ranks: all-reduce 2(n-1)/n;\n"
                             "all-gather, reduce-scatter, all-to-all (n-1)/n; others 1"},
    [KIND_COL_GROUP_SIZE] = {"group_size", "group_size", "Ranks", "Group Size", GS_COL_COUNT, 0},
};
_Static_assert(COUNT_OF(kind_columns) == KIND_NCOLS, "one column per enum kind_col");

const gs_column *gs_comm_kind_columns(size_t *ncols)
{
    *ncols = COUNT_OF(kind_columns);
    return kind_columns;
}

static int fill_kind_table(const gs_comm *c, gs_table *out)
{
    gs_table_init(out, kind_columns, COUNT_OF(kind_columns), "no communication kernels");
    for (size_t i = 0; i < c->nkinds; i++) {
        const gs_comm_kind *k = &c->kinds[i];
        gs_cell *v = gs_table_add_row(out);
        if (!v)
            return -1;
        v[KIND_COL_RANK].i = k->rank;
        v[KIND_COL_COLLECTIVE].text = gs_coll_kind_key(k->kind);
        v[KIND_COL_COUNT].i = (int64_t)k->count;
        v[KIND_COL_TOTAL_NS].i = k->total;
        v[KIND_COL_MEAN_NS].i = k->mean;
        v[KIND_COL_MIN_NS].i = k->min;
        v[KIND_COL_MAX_NS].i = k->max;
        v[KIND_COL_SIZED].i = (int64_t)k->sized;
        v[KIND_COL_BYTES].i = k->bytes;
        v[KIND_COL_ALGBW_GBPS].f = known(k->algbw_gbps);
        v[KIND_COL_BUSBW_GBPS].f = known(k->busbw_gbps);
        v[KIND_COL_GROUP_SIZE].i = k->group_size > 0 ? k->group_size : 0;
    }
    return 0;
}

/* ---- per step ---------------------------------------------------------------------------------- */

enum step_col {
    STEP_COL_RANK, STEP_COL_STEP, STEP_COL_WARMUP, STEP_COL_DURATION_NS, STEP_COL_COMPUTE_NS,
    STEP_COL_COMMUNICATION_NS, STEP_COL_OVERLAP_NS, STEP_COL_EXPOSED_NS, STEP_COL_EXPOSED_PCT,
    STEP_NCOLS
};

static const gs_column step_columns[] = {
    [STEP_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [STEP_COL_STEP] = {"step", "step", "Step", "Step", GS_COL_COUNT, 0},
    [STEP_COL_WARMUP] = {"warmup", "warmup", "Warm-up", "Warm-up", GS_COL_TEXT, 0},
    [STEP_COL_DURATION_NS] = {"duration_ns", "duration", "Duration", "Duration (ns)", GS_COL_NS, 0},
    [STEP_COL_COMPUTE_NS] = {"compute_ns", "compute", "Compute", "Compute (ns)", GS_COL_NS, 0},
    [STEP_COL_COMMUNICATION_NS] = {"communication_ns", "communication", "Comm",
                                   "Communication (ns)", GS_COL_NS, 0},
    [STEP_COL_OVERLAP_NS] = {"overlap_ns", "overlap", "Overlap", "Overlap (ns)", GS_COL_NS, 0},
    [STEP_COL_EXPOSED_NS] = {"exposed_ns", "exposed", "Exposed", "Exposed (ns)", GS_COL_NS, 0},
    [STEP_COL_EXPOSED_PCT] = {"exposed_pct", "exposed_pct", "Exposed (%)", "Exposed (%)",
                              GS_COL_PCT, 0},
};
_Static_assert(COUNT_OF(step_columns) == STEP_NCOLS, "one column per enum step_col");

static int fill_step_table(const gs_comm *c, gs_table *out)
{
    gs_table_init(out, step_columns, COUNT_OF(step_columns), "no steps");
    for (size_t i = 0; i < c->nsteps; i++) {
        const gs_comm_step *s = &c->steps[i];
        gs_cell *v = gs_table_add_row(out);
        if (!v)
            return -1;
        v[STEP_COL_RANK].i = s->rank;
        v[STEP_COL_STEP].i = s->number;
        v[STEP_COL_WARMUP].text = s->warmup ? "yes" : NULL;
        v[STEP_COL_DURATION_NS].i = s->end - s->start;
        v[STEP_COL_COMPUTE_NS].i = s->compute;
        v[STEP_COL_COMMUNICATION_NS].i = s->communication;
        v[STEP_COL_OVERLAP_NS].i = s->overlap;
        v[STEP_COL_EXPOSED_NS].i = s->exposed;
        v[STEP_COL_EXPOSED_PCT].f = s->exposed_pct;
    }
    return 0;
}

int gs_comm_tables_make(const gs_comm *comm, bool per_step, gs_comm_tables *out)
{
    memset(out, 0, sizeof *out);
    out->per_step = per_step;
    int rc = fill_rank_table(comm, &out->ranks);
    rc |= fill_kind_table(comm, &out->collectives);
    if (per_step)
        rc |= fill_step_table(comm, &out->steps);
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
    gs_json_writer w;
    gs_json_writer_init(&w, out);
    if (format == GS_FORMAT_JSON) {
        gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
        gs_json_put_str(&w, "command", "comm");
        gs_json_put_bool(&w, "hta_compat", hta_compat);
    }
    int rc = gs_render_sections(out, &w, sections, t->per_step ? 3 : 2, format, style, limit,
                                false);
    if (format == GS_FORMAT_JSON)
        gs_json_end(&w);
    return rc;
}
