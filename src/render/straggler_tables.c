#include "render/straggler_tables.h"

#include <string.h>

#include "analysis/base/thresholds.h"
#include "common/util.h"
#include "render/json.h"
#include "render/units.h"

enum rank_col {
    RANK_COL_RANK, RANK_COL_OFFSET_NS, RANK_COL_RESIDUAL_MED_NS, RANK_COL_RESIDUAL_MAX_NS,
    RANK_COL_LAST, RANK_COL_LAST_PCT, RANK_COL_MEAN_LATENESS_NS, RANK_COL_WAIT_PER_STEP_NS,
    RANK_COL_COMPUTE_PER_STEP_NS, RANK_COL_COMPUTE_VS_MEDIAN_PCT, RANK_COL_STEP_NS,
    RANK_COL_STRAGGLER, RANK_COL_FILE, RANK_NCOLS
};

/* The help of the columns that stragglers' --help defines ("definitions:"). */
static const gs_column rank_columns[] = {
    [RANK_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [RANK_COL_OFFSET_NS] = {"offset_ns", "offset", "Clock offset", "Clock Offset (ns)", GS_COL_NS,
                            0,
                            "median over matched collectives of (end on this rank - end on\n"
                            "the first rank); subtracted from this rank's times"},
    [RANK_COL_RESIDUAL_MED_NS] = {"residual_med_ns", "residual", "Residual med",
                                  "Residual Med (ns)", GS_COL_NS, 0,
                                  "|aligned end - median aligned end of the collective|"},
    [RANK_COL_RESIDUAL_MAX_NS] = {"residual_max_ns", "residual_max", "Residual max",
                                  "Residual Max (ns)", GS_COL_NS, 0, ""},
    [RANK_COL_LAST] = {"last", "last", "Last", "Last", GS_COL_COUNT, 0,
                       "collectives this rank arrived at last (latest aligned start)"},
    [RANK_COL_LAST_PCT] = {"last_pct", "last_pct", "Last (%)", "Last (%)", GS_COL_PCT, 0},
    [RANK_COL_MEAN_LATENESS_NS] = {"mean_lateness_ns", "lateness", "Mean lateness",
                                   "Mean Lateness (ns)", GS_COL_NS, 0},
    [RANK_COL_WAIT_PER_STEP_NS] = {"wait_per_step_ns", "wait", "Wait/step", "Wait per Step (ns)",
                                   GS_COL_NS, 0,
                                   "time this rank's collective kernels ran before the last rank\n"
                                   "arrived, per kept step"},
    [RANK_COL_COMPUTE_PER_STEP_NS] = {"compute_per_step_ns", "compute", "Compute/step",
                                      "Compute per Step (ns)", GS_COL_NS, 0,
                                      "|union of compute kernels| per kept step"},
    [RANK_COL_COMPUTE_VS_MEDIAN_PCT] = {"compute_vs_median_pct", "compute_vs_median",
                                        "vs median (%)", "Compute vs Median (%)", GS_COL_PCT, 0},
    [RANK_COL_STEP_NS] = {"step_ns", "step", "Step", "Step (ns)", GS_COL_NS, 0},
    [RANK_COL_STRAGGLER] = {"straggler", "straggler", "Straggler", "Straggler", GS_COL_TEXT, 0,
                            "last at more than 60 % of at least 3 collectives, and the\n"
                            "others wait for it more than 5 % of the median step"},
    [RANK_COL_FILE] = {"file", "file", "File", "File", GS_COL_TEXT, GS_COL_CUT_START},
};
_Static_assert(COUNT_OF(rank_columns) == RANK_NCOLS, "one column per enum rank_col");

const gs_column *gs_straggler_rank_columns(size_t *ncols)
{
    *ncols = COUNT_OF(rank_columns);
    return rank_columns;
}

enum kind_col {
    KIND_COL_KIND, KIND_COL_INSTANCES, KIND_COL_SKEW_MED_NS, KIND_COL_SKEW_P95_NS,
    KIND_COL_SKEW_MAX_NS, KIND_NCOLS
};

static const gs_column kind_columns[] = {
    [KIND_COL_KIND] = {"kind", "kind", "Collective", "Collective", GS_COL_TEXT, 0},
    [KIND_COL_INSTANCES] = {"instances", "instances", "Instances", "Instances", GS_COL_COUNT, 0},
    [KIND_COL_SKEW_MED_NS] = {"skew_med_ns", "skew", "Skew med", "Skew Med (ns)", GS_COL_NS, 0},
    [KIND_COL_SKEW_P95_NS] = {"skew_p95_ns", "skew_p95", "Skew p95", "Skew P95 (ns)", GS_COL_NS, 0},
    [KIND_COL_SKEW_MAX_NS] = {"skew_max_ns", "skew_max", "Skew max", "Skew Max (ns)", GS_COL_NS, 0},
};
_Static_assert(COUNT_OF(kind_columns) == KIND_NCOLS, "one column per enum kind_col");

enum collective_col {
    COLLECTIVE_COL_STEP, COLLECTIVE_COL_KIND, COLLECTIVE_COL_SEQ, COLLECTIVE_COL_LAST_RANK,
    COLLECTIVE_COL_LATENESS_NS, COLLECTIVE_COL_SKEW_NS, COLLECTIVE_NCOLS
};

/* The help of the lateness and skew that stragglers' --help defines. */
static const gs_column collective_columns[] = {
    [COLLECTIVE_COL_STEP] = {"step", "step", "Step", "Step", GS_COL_COUNT, 0},
    [COLLECTIVE_COL_KIND] = {"kind", "kind", "Collective", "Collective", GS_COL_TEXT, 0},
    [COLLECTIVE_COL_SEQ] = {"seq", "seq", "Seq", "Seq", GS_COL_COUNT, 0},
    [COLLECTIVE_COL_LAST_RANK] = {"last_rank", "last_rank", "Last rank", "Last Rank", GS_COL_COUNT,
                                  0},
    [COLLECTIVE_COL_LATENESS_NS] = {"lateness_ns", "lateness", "Lateness", "Lateness (ns)",
                                    GS_COL_NS, 0,
                                    "the last rank's start - the median start of the others"},
    [COLLECTIVE_COL_SKEW_NS] = {"skew_ns", "skew", "Skew", "Skew (ns)", GS_COL_NS, 0,
                                "latest - earliest aligned start of one collective"},
};
_Static_assert(COUNT_OF(collective_columns) == COLLECTIVE_NCOLS,
               "one column per enum collective_col");

const gs_column *gs_straggler_collective_columns(size_t *ncols)
{
    *ncols = COUNT_OF(collective_columns);
    return collective_columns;
}

static int fill_rank_table(const gs_stragglers *s, gs_table *out)
{
    gs_table_init(out, rank_columns, COUNT_OF(rank_columns), "no traces selected");
    for (size_t r = 0; r < s->nranks; r++) {
        const gs_strag_rank *x = &s->ranks[r];
        const gs_clock_rank *k = &s->clock.ranks[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[RANK_COL_RANK].i = x->id->rank;
        c[RANK_COL_OFFSET_NS].i = k->offset_ns;
        c[RANK_COL_RESIDUAL_MED_NS].i = k->residual_med_ns;
        c[RANK_COL_RESIDUAL_MAX_NS].i = k->residual_max_ns;
        c[RANK_COL_LAST].i = (int64_t)x->last;
        c[RANK_COL_LAST_PCT].f = 100.0 * x->last_share;
        c[RANK_COL_MEAN_LATENESS_NS].i = x->mean_lateness_ns;
        c[RANK_COL_WAIT_PER_STEP_NS].i = x->wait_ns;
        c[RANK_COL_COMPUTE_PER_STEP_NS].i = x->compute_ns;
        c[RANK_COL_COMPUTE_VS_MEDIAN_PCT].f = s->median_compute_ns > 0
                     ? 100.0 * ((double)x->compute_ns / (double)s->median_compute_ns - 1.0)
                     : 0.0;
        c[RANK_COL_STEP_NS].i = x->step_ns;
        c[RANK_COL_STRAGGLER].text = s->straggler == (int)r ? "yes" : NULL;
        c[RANK_COL_FILE].text = x->id->path;
    }
    return 0;
}

static int fill_kind_table(const gs_stragglers *s, gs_table *out)
{
    gs_table_init(out, kind_columns, COUNT_OF(kind_columns), "no collective on every rank");
    for (int k = 0; k <= GS_COLL__COUNT; k++) {
        const gs_skew_stats *st = k < GS_COLL__COUNT ? &s->skew[k] : &s->skew_all;
        /* "all" only when it adds something: more than one kind */
        if (st->n == 0 || (k == GS_COLL__COUNT && st->n == s->skew[s->v[0].kind].n))
            continue;
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[KIND_COL_KIND].text = k < GS_COLL__COUNT ? gs_coll_kind_key((gs_coll_kind)k) : "all";
        c[KIND_COL_INSTANCES].i = (int64_t)st->n;
        c[KIND_COL_SKEW_MED_NS].i = st->med;
        c[KIND_COL_SKEW_P95_NS].i = st->p95;
        c[KIND_COL_SKEW_MAX_NS].i = st->max;
    }
    return 0;
}

static int fill_collective_table(const gs_stragglers *s, gs_table *out)
{
    gs_table_init(out, collective_columns, COUNT_OF(collective_columns),
                  "no collective on every rank");
    for (size_t i = 0; i < s->n; i++) {
        const gs_strag_instance *x = &s->v[i];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[COLLECTIVE_COL_STEP].i = x->step;
        c[COLLECTIVE_COL_KIND].text = gs_coll_kind_key(x->kind);
        c[COLLECTIVE_COL_SEQ].i = x->seq;
        c[COLLECTIVE_COL_LAST_RANK].i = s->ranks[x->last].id->rank;
        c[COLLECTIVE_COL_LATENESS_NS].i = x->lateness_ns;
        c[COLLECTIVE_COL_SKEW_NS].i = x->skew_ns;
    }
    return 0;
}

int gs_straggler_tables_make(const gs_stragglers *s, bool each, gs_straggler_tables *out)
{
    memset(out, 0, sizeof *out);
    out->each = each;
    int rc = fill_rank_table(s, &out->ranks);
    rc |= fill_kind_table(s, &out->kinds);
    rc |= fill_collective_table(s, &out->collectives);
    return rc ? -1 : 0;
}

void gs_straggler_tables_free(gs_straggler_tables *t)
{
    gs_table_free(&t->ranks);
    gs_table_free(&t->kinds);
    gs_table_free(&t->collectives);
}

/* ---- the document --------------------------------------------------------------------------- */

static int32_t rank_of(const gs_stragglers *s, int i)
{
    return i >= 0 ? s->ranks[i].id->rank : -1;
}

/* What was aligned, and the finding or why there is none, for people. */
static void put_summary_text(FILE *out, const gs_stragglers *s)
{
    char a[GS_UNIT_BUF], b[GS_UNIT_BUF];
    if (s->nranks < 2) {
        fputs("one rank selected: nothing to compare\n", out);
        return;
    }
    if (s->n == 0) {
        fputs("no collective on every rank: clocks not aligned, no straggler to find\n", out);
        return;
    }
    gs_fmt_duration(a, sizeof a, s->clock.residual_med_ns);
    gs_fmt_duration(b, sizeof b, s->clock.residual_max_ns);
    if (s->clock.aligned)
        fprintf(out, "clocks aligned on rank %d from %zu collectives on every rank; residual med "
                     "%s, max %s\n",
                rank_of(s, 0), s->n, a, b);
    else
        fprintf(out, "clocks not aligned (--no-align): the files' own clocks; ends differ by med "
                     "%s, max %s\n",
                a, b);
    const gs_strag_rank *c = &s->ranks[s->candidate];
    double wait_pct = s->median_step_ns > 0
                          ? 100.0 * (double)s->others_wait_ns / (double)s->median_step_ns
                          : 0.0;
    gs_fmt_duration(a, sizeof a, c->mean_lateness_ns);
    gs_fmt_duration(b, sizeof b, s->others_wait_ns);
    if (s->straggler >= 0) {
        fprintf(out, "straggler: rank %d arrived last at %.0f %% of %zu collectives, on average "
                     "%s after the others; they wait for it %s per step (%.1f %% of the step); "
                     "its compute per step is %+.1f %% vs the median rank's\n",
                rank_of(s, s->candidate), 100.0 * c->last_share, s->n, a, b, wait_pct,
                100.0 * s->compute_excess);
        return;
    }
    /* No straggler: say first which test failed (straggler.h's, in its order), then the facts,
     * so a large wait is not read as a verdict. */
    if (s->n < GS_TH_STRAGGLER_MIN_COLLECTIVES)
        fprintf(out, "no straggler can be named: %zu collective%s matched on every rank, fewer "
                     "than the %d that show a rank is consistently last\n",
                s->n, s->n == 1 ? "" : "s", GS_TH_STRAGGLER_MIN_COLLECTIVES);
    else if (c->last_share <= GS_TH_STRAGGLER_LAST_SHARE)
        fprintf(out, "no straggler: no rank is consistently last (rank %d, last most often, at "
                     "%.0f %% of %zu collectives; a straggler is last at more than %.0f %%)\n",
                rank_of(s, s->candidate), 100.0 * c->last_share, s->n,
                100.0 * GS_TH_STRAGGLER_LAST_SHARE);
    else
        fprintf(out, "no straggler: rank %d is last at %.0f %% of %zu collectives, but the others "
                     "wait for it only %.1f %% of the step (a straggler costs more than %.0f %%)\n",
                rank_of(s, s->candidate), 100.0 * c->last_share, s->n, wait_pct,
                100.0 * GS_TH_STRAGGLER_WAIT_SHARE);
    fprintf(out, "rank %d arrived last at %.0f %% of them, on average %s after the others, who "
                 "waited for it %s per step (%.1f %% of the step); its compute per step is "
                 "%+.1f %% vs the median rank's\n",
            rank_of(s, s->candidate), 100.0 * c->last_share, a, b, wait_pct,
            100.0 * s->compute_excess);
}

/* A rank, or null when there is none. */
static void put_rank_json(gs_json_writer *w, const char *key, const gs_stragglers *s, int i)
{
    if (i >= 0)
        gs_json_put_int(w, key, rank_of(s, i));
    else
        gs_json_put_null(w, key);
}

static void put_summary_json(gs_json_writer *w, const gs_stragglers *s)
{
    gs_json_put_bool(w, "aligned", s->clock.aligned);
    gs_json_put_int(w, "reference_rank", rank_of(s, s->nranks ? 0 : -1));
    gs_json_put_uint(w, "matched", s->n);
    gs_json_put_int(w, "residual_med_ns", s->clock.residual_med_ns);
    gs_json_put_int(w, "residual_max_ns", s->clock.residual_max_ns);
    put_rank_json(w, "straggler", s, s->straggler);
    put_rank_json(w, "most_often_last", s, s->candidate);
    gs_json_put_int(w, "others_wait_per_step_ns", s->others_wait_ns);
    gs_json_put_fixed(w, "compute_excess_pct", 100.0 * s->compute_excess, 2);
}

int gs_render_stragglers(FILE *out, const gs_stragglers *s, gs_straggler_tables *t,
                         enum gs_format format, const gs_text_style *style, size_t limit)
{
    gs_section sections[] = {
        {"ranks", "Per rank (times on the common clock)", &t->ranks, false, 0},
        {"skew", "Skew of arrivals (latest - earliest start) per collective", &t->kinds, false, 0},
        {"collectives", "Each collective on every rank: who arrived last", &t->collectives, false,
         0},
    };
    gs_json_writer w;
    gs_json_writer_init(&w, out);
    if (format == GS_FORMAT_JSON) {
        gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
        gs_json_put_str(&w, "command", "stragglers");
        put_summary_json(&w, s);
    } else if (format == GS_FORMAT_TABLE) {
        put_summary_text(out, s);
    }
    /* The summary lines precede the first table: a blank line before every title. */
    int rc = gs_render_sections(out, &w, sections, t->each ? 3 : 2, format, style, limit, true);
    if (format == GS_FORMAT_JSON)
        gs_json_end(&w);
    return rc;
}
