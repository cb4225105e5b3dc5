#include "render/diff_tables.h"
#include "common/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- step time ------------------------------------------------------------------------------ */

enum step_col {
    STEP_COL_BASE_RANK, STEP_COL_NEW_RANK, STEP_COL_BASE_STEPS, STEP_COL_NEW_STEPS,
    STEP_COL_BASE_MED_NS, STEP_COL_NEW_MED_NS, STEP_COL_CHANGE_NS, STEP_COL_CHANGE_PCT,
    STEP_COL_CI_LOW_PCT, STEP_COL_CI_HIGH_PCT, STEP_COL_CI_LOW_NS, STEP_COL_CI_HIGH_NS, STEP_COL_P,
    STEP_COL_P_VALUE, STEP_COL_U, STEP_COL_P_EXACT, STEP_COL_SIGNIFICANT, STEP_NCOLS
};

static const gs_column step_columns[] = {
    [STEP_COL_BASE_RANK] = {"base_rank", "base_rank", "Base Rank", "Base Rank", GS_COL_COUNT, 0},
    [STEP_COL_NEW_RANK] = {"new_rank", "new_rank", "New Rank", "New Rank", GS_COL_COUNT, 0},
    [STEP_COL_BASE_STEPS] = {"base_steps", "base_steps", "Base Steps", "Base Steps", GS_COL_COUNT,
                             0},
    [STEP_COL_NEW_STEPS] = {"new_steps", "new_steps", "New Steps", "New Steps", GS_COL_COUNT, 0},
    [STEP_COL_BASE_MED_NS] = {"base_med_ns", "base_med", "Base Med", "Base Med (ns)", GS_COL_NS, 0},
    [STEP_COL_NEW_MED_NS] = {"new_med_ns", "new_med", "New Med", "New Med (ns)", GS_COL_NS, 0},
    [STEP_COL_CHANGE_NS] = {"change_ns", "change", "Change", "Change (ns)", GS_COL_NS, 0},
    [STEP_COL_CHANGE_PCT] = {"change_pct", "change_pct", "Change (%)", "Change (%)", GS_COL_PCT, 0},
    [STEP_COL_CI_LOW_PCT] = {"ci_low_pct", "ci_low", "CI Low (%)", "CI Low (%)", GS_COL_PCT, 0},
    [STEP_COL_CI_HIGH_PCT] = {"ci_high_pct", "ci_high", "CI High (%)", "CI High (%)", GS_COL_PCT,
                              0},
    [STEP_COL_CI_LOW_NS] = {"ci_low_ns", "ci_low_ns", "CI Low", "CI Low (ns)", GS_COL_NS,
                            GS_COL_JSON_ONLY},
    [STEP_COL_CI_HIGH_NS] = {"ci_high_ns", "ci_high_ns", "CI High", "CI High (ns)", GS_COL_NS,
                             GS_COL_JSON_ONLY},
    [STEP_COL_P] = {"p", "p", "Mann-Whitney p", "Mann-Whitney p", GS_COL_TEXT, 0},
    [STEP_COL_P_VALUE] = {"p_value", "p_value", "p", "p", GS_COL_FLOAT, GS_COL_JSON_ONLY},
    [STEP_COL_U] = {"u", "u", "U", "U", GS_COL_FLOAT, GS_COL_JSON_ONLY},
    [STEP_COL_P_EXACT] = {"p_exact", "p_exact", "Exact", "Exact", GS_COL_TEXT, GS_COL_JSON_ONLY},
    [STEP_COL_SIGNIFICANT] = {"significant", "significant", "Significant", "Significant",
                              GS_COL_TEXT, 0},
};
_Static_assert(COUNT_OF(step_columns) == STEP_NCOLS, "one column per enum step_col");

static void format_p(char *buf, size_t size, double p)
{
    if (p < 0.001)
        snprintf(buf, size, "< 0.001");
    else
        snprintf(buf, size, "%.3f", p);
}

static int fill_step_table(const gs_diff *d, gs_table *t, char (*pvalues)[16])
{
    gs_table_init(t, step_columns, COUNT_OF(step_columns), NULL);
    for (size_t p = 0; p < d->npairs; p++) {
        const gs_rank_change *rc = &d->pairs[p];
        gs_cell *c = gs_table_add_row(t);
        if (!c)
            return -1;
        const gs_step_stats *b = &rc->bd[GS_SIDE_BASE]->steps.stats;
        const gs_step_stats *n = &rc->bd[GS_SIDE_NEW]->steps.stats;
        c[STEP_COL_BASE_RANK].i = rc->bd[GS_SIDE_BASE]->id.rank;
        c[STEP_COL_NEW_RANK].i = rc->bd[GS_SIDE_NEW]->id.rank;
        c[STEP_COL_BASE_STEPS].i = (int64_t)rc->kept[GS_SIDE_BASE];
        c[STEP_COL_NEW_STEPS].i = (int64_t)rc->kept[GS_SIDE_NEW];
        c[STEP_COL_BASE_MED_NS].i = b->med;
        c[STEP_COL_NEW_MED_NS].i = n->med;
        c[STEP_COL_CHANGE_NS].i = n->med - b->med;
        c[STEP_COL_CHANGE_PCT].f = rc->has_ci ? rc->ci.pct : NAN;
        c[STEP_COL_CI_LOW_PCT].f = rc->has_ci ? rc->ci.pct_lo : NAN;
        c[STEP_COL_CI_HIGH_PCT].f = rc->has_ci ? rc->ci.pct_hi : NAN;
        c[STEP_COL_CI_LOW_NS].i = rc->has_ci ? rc->ci.diff_lo : 0;
        c[STEP_COL_CI_HIGH_NS].i = rc->has_ci ? rc->ci.diff_hi : 0;
        if (rc->has_ci)
            format_p(pvalues[p], sizeof pvalues[p], rc->mw.p);
        c[STEP_COL_P].text = rc->has_ci ? pvalues[p] : NULL;
        c[STEP_COL_P_VALUE].f = rc->has_ci ? rc->mw.p : NAN;
        c[STEP_COL_U].f = rc->has_ci ? rc->mw.u : NAN;
        c[STEP_COL_P_EXACT].text = rc->has_ci ? (rc->mw.exact ? "yes" : "no") : NULL;
        c[STEP_COL_SIGNIFICANT].text = rc->has_ci ? (rc->significant ? "yes" : "no") : NULL;
    }
    return 0;
}

/* ---- breakdown shift ------------------------------------------------------------------------ */

enum breakdown_col {
    BREAKDOWN_COL_CATEGORY, BREAKDOWN_COL_BASE_NS, BREAKDOWN_COL_NEW_NS, BREAKDOWN_COL_CHANGE_NS,
    BREAKDOWN_COL_CHANGE_PCT, BREAKDOWN_COL_BASE_PCT, BREAKDOWN_COL_NEW_PCT,
    BREAKDOWN_COL_CHANGE_PP, BREAKDOWN_NCOLS
};

/* Change (pp)'s help is its definition in diff's --help ("definitions:"). */
static const gs_column breakdown_columns[] = {
    [BREAKDOWN_COL_CATEGORY] = {"category", "category", "Category", "Category", GS_COL_TEXT, 0},
    [BREAKDOWN_COL_BASE_NS] = {"base_ns", "base", "Base/Step", "Base per Step (ns)", GS_COL_NS, 0},
    [BREAKDOWN_COL_NEW_NS] = {"new_ns", "new", "New/Step", "New per Step (ns)", GS_COL_NS, 0},
    [BREAKDOWN_COL_CHANGE_NS] = {"change_ns", "change", "Change", "Change (ns)", GS_COL_NS, 0},
    [BREAKDOWN_COL_CHANGE_PCT] = {"change_pct", "change_pct", "Change (%)", "Change (%)",
                                  GS_COL_PCT, 0},
    [BREAKDOWN_COL_BASE_PCT] = {"base_pct", "base_pct", "Base (%)", "Base (% of step)", GS_COL_PCT,
                                0},
    [BREAKDOWN_COL_NEW_PCT] = {"new_pct", "new_pct", "New (%)", "New (% of step)", GS_COL_PCT, 0},
    [BREAKDOWN_COL_CHANGE_PP] = {"change_pp", "change_pp", "Change (pp)", "Change (pp)", GS_COL_PCT,
                                 0, "New (%) - Base (%), in percentage points of the step"},
};
_Static_assert(COUNT_OF(breakdown_columns) == BREAKDOWN_NCOLS, "one column per enum breakdown_col");

const gs_column *gs_diff_breakdown_columns(size_t *ncols)
{
    *ncols = COUNT_OF(breakdown_columns);
    return breakdown_columns;
}

static double share(double part, double whole)
{
    return whole > 0 ? part / whole * 100 : NAN;
}

static int add_breakdown_row(gs_table *t, const char *title, double base, double next,
                             const double total[GS_SIDES], bool comparable)
{
    gs_cell *c = gs_table_add_row(t);
    if (!c)
        return -1;
    c[BREAKDOWN_COL_CATEGORY].text = title;
    c[BREAKDOWN_COL_BASE_NS].i = llround(base);
    c[BREAKDOWN_COL_NEW_NS].i = llround(next);
    c[BREAKDOWN_COL_CHANGE_NS].i = llround(next) - llround(base);
    c[BREAKDOWN_COL_CHANGE_PCT].f = base > 0 ? (next - base) / base * 100 : NAN;
    c[BREAKDOWN_COL_BASE_PCT].f = share(base, total[GS_SIDE_BASE]);
    c[BREAKDOWN_COL_NEW_PCT].f = share(next, total[GS_SIDE_NEW]);
    c[BREAKDOWN_COL_CHANGE_PP].f = c[BREAKDOWN_COL_NEW_PCT].f - c[BREAKDOWN_COL_BASE_PCT].f;
    if (!comparable) { /* one side did not record what this category is made of: no change */
        c[BREAKDOWN_COL_CHANGE_NS].i = gs_cell_known(0, false);
        c[BREAKDOWN_COL_CHANGE_PCT].f = NAN;
        c[BREAKDOWN_COL_CHANGE_PP].f = NAN;
    }
    return 0;
}

static int fill_breakdown_table(const gs_diff *d, gs_table *t)
{
    gs_table_init(t, breakdown_columns, COUNT_OF(breakdown_columns), NULL);
    for (int k = 0; k < GS_BD__COUNT; k++)
        if (add_breakdown_row(t, gs_bd_cat_title((enum gs_bd_cat)k), d->bd_avg[GS_SIDE_BASE][k],
                              d->bd_avg[GS_SIDE_NEW][k], d->bd_total,
                              gs_diff_category_comparable(d, (enum gs_bd_cat)k)) != 0)
            return -1;
    return add_breakdown_row(t, "Step", d->bd_total[GS_SIDE_BASE], d->bd_total[GS_SIDE_NEW],
                             d->bd_total, true);
}

/* ---- kernels and operators ------------------------------------------------------------------ */

/* The columns kernels and operators share (what: "instances" or "calls"), then each one's own.
 * Match's help, for diff's --help, holds for both: operators are only ever matched by name. */
enum delta_col {
    DELTA_COL_MATCH, DELTA_COL_BASE_NS, DELTA_COL_NEW_NS, DELTA_COL_CHANGE_NS, DELTA_COL_CHANGE_PCT,
    DELTA_COL_BASE_COUNT, DELTA_COL_NEW_COUNT, DELTA_COL_BASE_AVG_NS, DELTA_COL_NEW_AVG_NS,
    DELTA_NCOLS
};

#define DELTA_COLUMNS(what)                                                                        \
    [DELTA_COL_MATCH] = {"match", "match", "Match", "Match", GS_COL_TEXT, 0,                       \
                         "name, or shape for a kernel matched by its launch shape"},               \
    [DELTA_COL_BASE_NS] = {"base_ns", "base", "Base/Step", "Base per Step (ns)", GS_COL_NS, 0},    \
    [DELTA_COL_NEW_NS] = {"new_ns", "new", "New/Step", "New per Step (ns)", GS_COL_NS, 0},         \
    [DELTA_COL_CHANGE_NS] = {"change_ns", "change", "Change", "Change (ns)", GS_COL_NS, 0},        \
    [DELTA_COL_CHANGE_PCT] = {"change_pct", "change_pct", "Change (%)", "Change (%)", GS_COL_PCT,  \
                              0},                                                                  \
    [DELTA_COL_BASE_COUNT] = {"base_" what, "base_" what, "Base Calls", "Base " what " per Step",  \
                              GS_COL_FLOAT, 0},                                                    \
    [DELTA_COL_NEW_COUNT] = {"new_" what, "new_" what, "New Calls", "New " what " per Step",       \
                             GS_COL_FLOAT, 0},                                                     \
    [DELTA_COL_BASE_AVG_NS] = {"base_avg_ns", "base_avg", "Base Avg", "Base Avg (ns)", GS_COL_NS,  \
                               0},                                                                 \
    [DELTA_COL_NEW_AVG_NS] = {"new_avg_ns", "new_avg", "New Avg", "New Avg (ns)", GS_COL_NS, 0}

enum kernel_col {
    KERNEL_COL_GRID = DELTA_NCOLS, KERNEL_COL_BLOCK, KERNEL_COL_BASE_NAME, KERNEL_COL_NAME,
    KERNEL_NCOLS
};

static const gs_column kernel_columns[] = {
    DELTA_COLUMNS("instances"),
    [KERNEL_COL_GRID] = {"grid", "grid", "Grid", "Grid", GS_COL_XYZ, GS_COL_JSON_ONLY},
    [KERNEL_COL_BLOCK] = {"block", "block", "Block", "Block", GS_COL_XYZ, GS_COL_JSON_ONLY},
    [KERNEL_COL_BASE_NAME] = {"base_name", "base_name", "Was", "Base Name", GS_COL_TEXT, 0,
                              "BASE's name of a kernel matched by shape"},
    [KERNEL_COL_NAME] = {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
};
_Static_assert(COUNT_OF(kernel_columns) == KERNEL_NCOLS, "one column per enum kernel_col");

const gs_column *gs_diff_kernel_columns(size_t *ncols)
{
    *ncols = COUNT_OF(kernel_columns);
    return kernel_columns;
}

enum op_col {
    OP_COL_BASE_CUDA_NS = DELTA_NCOLS, OP_COL_NEW_CUDA_NS, OP_COL_NAME, OP_NCOLS
};

static const gs_column op_columns[] = {
    DELTA_COLUMNS("calls"),
    [OP_COL_BASE_CUDA_NS] = {"base_cuda_ns", "base_cuda", "Base CUDA/Step",
                             "Base CUDA per Step (ns)", GS_COL_NS, 0},
    [OP_COL_NEW_CUDA_NS] = {"new_cuda_ns", "new_cuda", "New CUDA/Step", "New CUDA per Step (ns)",
                            GS_COL_NS, 0},
    [OP_COL_NAME] = {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
};
_Static_assert(COUNT_OF(op_columns) == OP_NCOLS, "one column per enum op_col");

static gs_cell *delta_row(gs_table *t, const gs_delta *d)
{
    gs_cell *c = gs_table_add_row(t);
    if (!c)
        return NULL;
    c[DELTA_COL_MATCH].text = gs_match_key(d->match);
    c[DELTA_COL_BASE_NS].i = llround(d->time[GS_SIDE_BASE]);
    c[DELTA_COL_NEW_NS].i = llround(d->time[GS_SIDE_NEW]);
    c[DELTA_COL_CHANGE_NS].i = c[DELTA_COL_NEW_NS].i - c[DELTA_COL_BASE_NS].i;
    c[DELTA_COL_CHANGE_PCT].f = d->dtime_pct;
    c[DELTA_COL_BASE_COUNT].f = d->count[GS_SIDE_BASE];
    c[DELTA_COL_NEW_COUNT].f = d->count[GS_SIDE_NEW];
    c[DELTA_COL_BASE_AVG_NS].i = llround(d->avg[GS_SIDE_BASE]);
    c[DELTA_COL_NEW_AVG_NS].i = llround(d->avg[GS_SIDE_NEW]);
    return c;
}

static int fill_kernel_table(const gs_delta_list *l, gs_table *t)
{
    gs_table_init(t, kernel_columns, COUNT_OF(kernel_columns),
                  "no kernel of the same name or shape ran in the kept steps of both runs");
    for (size_t i = 0; i < l->n; i++) {
        const gs_delta *d = &l->v[i];
        gs_cell *c = delta_row(t, d);
        if (!c)
            return -1;
        memcpy(c[KERNEL_COL_GRID].xyz, d->act[GS_SIDE_NEW]->grid, sizeof c[KERNEL_COL_GRID].xyz);
        memcpy(c[KERNEL_COL_BLOCK].xyz, d->act[GS_SIDE_NEW]->block, sizeof c[KERNEL_COL_BLOCK].xyz);
        c[KERNEL_COL_BASE_NAME].text =
            d->match == GS_MATCH_SHAPE ? d->act[GS_SIDE_BASE]->name : NULL;
        c[KERNEL_COL_NAME].text = d->act[GS_SIDE_NEW]->name;
    }
    return 0;
}

/* not_compared: why the operators do not compare (one side recorded none), else NULL. */
static int fill_op_table(const gs_delta_list *l, gs_table *t, const char *not_compared)
{
    gs_table_init(t, op_columns, COUNT_OF(op_columns),
                  not_compared ? not_compared
                               : "no operator of the same name ran in the kept steps of both runs");
    for (size_t i = 0; !not_compared && i < l->n; i++) {
        const gs_delta *d = &l->v[i];
        gs_cell *c = delta_row(t, d);
        if (!c)
            return -1;
        c[OP_COL_BASE_CUDA_NS].i = llround(d->cuda[GS_SIDE_BASE]);
        c[OP_COL_NEW_CUDA_NS].i = llround(d->cuda[GS_SIDE_NEW]);
        c[OP_COL_NAME].text = d->act[GS_SIDE_NEW]->name;
    }
    return 0;
}

/* ---- added and removed ---------------------------------------------------------------------- */

enum only_col {
    ONLY_COL_CHANGE, ONLY_COL_KIND, ONLY_COL_TIME_NS, ONLY_COL_CALLS, ONLY_COL_AVG_NS,
    ONLY_COL_NAME, ONLY_NCOLS
};

static const gs_column only_columns[] = {
    [ONLY_COL_CHANGE] = {"change", "change", "Change", "Change", GS_COL_TEXT, 0},
    [ONLY_COL_KIND] = {"kind", "kind", "Kind", "Kind", GS_COL_TEXT, 0},
    [ONLY_COL_TIME_NS] = {"time_ns", "time", "Time/Step", "Time per Step (ns)", GS_COL_NS, 0},
    [ONLY_COL_CALLS] = {"calls", "calls", "Calls/Step", "Calls per Step", GS_COL_FLOAT, 0},
    [ONLY_COL_AVG_NS] = {"avg_ns", "avg", "Avg", "Avg (ns)", GS_COL_NS, 0},
    [ONLY_COL_NAME] = {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
};
_Static_assert(COUNT_OF(only_columns) == ONLY_NCOLS, "one column per enum only_col");

static int add_only_rows(const gs_delta_list *l, const char *kind, gs_table *t)
{
    for (size_t i = 0; i < l->n; i++) {
        const gs_delta *d = &l->v[i];
        int s = d->match == GS_MATCH_ADDED ? GS_SIDE_NEW : GS_SIDE_BASE;
        gs_cell *c = gs_table_add_row(t);
        if (!c)
            return -1;
        c[ONLY_COL_CHANGE].text = gs_match_key(d->match);
        c[ONLY_COL_KIND].text = kind;
        c[ONLY_COL_TIME_NS].i = llround(d->time[s]);
        c[ONLY_COL_CALLS].f = d->count[s];
        c[ONLY_COL_AVG_NS].i = llround(d->avg[s]);
        c[ONLY_COL_NAME].text = d->act[s]->name;
    }
    return 0;
}

/* Kernels and operators in one table, by time per step (a stable sort keeps each list's order
 * among equal times). */
static int fill_only_table(const gs_diff *d, gs_table *t)
{
    gs_table_init(t, only_columns, COUNT_OF(only_columns),
                  "none: every kernel and operator ran in both");
    if (add_only_rows(&d->kernels_only, "kernel", t) != 0 ||
        (d->setup.comparable[GS_REC_CPU_OPS] && add_only_rows(&d->ops_only, "operator", t) != 0))
        return -1;
    return gs_table_sort(t, ONLY_COL_TIME_NS);
}

/* ---- memory --------------------------------------------------------------------------------- */

/* Sizes are whole bytes in csv and json. */
#define BYTES_COL(key, sort, title, csv) {key, sort, title, csv " (B)", GS_COL_BYTES, 0}
enum memory_col {
    MEMORY_COL_RANK, MEMORY_COL_DEVICE, MEMORY_COL_BASE_PEAK_ALLOCATED,
    MEMORY_COL_NEW_PEAK_ALLOCATED, MEMORY_COL_ALLOCATED_CHANGE, MEMORY_COL_ALLOCATED_CHANGE_PCT,
    MEMORY_COL_BASE_PEAK_RESERVED, MEMORY_COL_NEW_PEAK_RESERVED, MEMORY_COL_RESERVED_CHANGE,
    MEMORY_COL_RESERVED_CHANGE_PCT, MEMORY_NCOLS
};

static const gs_column memory_columns[] = {
    [MEMORY_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    [MEMORY_COL_DEVICE] = {"device", "device", "Device", "Device", GS_COL_TEXT, 0},
    [MEMORY_COL_BASE_PEAK_ALLOCATED] = BYTES_COL("base_peak_allocated", "base_alloc",
                                                 "Base Peak Alloc", "Base Peak Allocated"),
    [MEMORY_COL_NEW_PEAK_ALLOCATED] = BYTES_COL("new_peak_allocated", "new_alloc", "New Peak Alloc",
                                                "New Peak Allocated"),
    [MEMORY_COL_ALLOCATED_CHANGE] = BYTES_COL("allocated_change", "alloc_change", "Change",
                                              "Allocated Change"),
    [MEMORY_COL_ALLOCATED_CHANGE_PCT] = {"allocated_change_pct", "alloc_change_pct", "Change (%)",
                                         "Allocated Change (%)", GS_COL_PCT, 0},
    [MEMORY_COL_BASE_PEAK_RESERVED] = BYTES_COL("base_peak_reserved", "base_reserved",
                                                "Base Peak Reserved", "Base Peak Reserved"),
    [MEMORY_COL_NEW_PEAK_RESERVED] = BYTES_COL("new_peak_reserved", "new_reserved",
                                               "New Peak Reserved", "New Peak Reserved"),
    [MEMORY_COL_RESERVED_CHANGE] = BYTES_COL("reserved_change", "reserved_change", "Change",
                                             "Reserved Change"),
    [MEMORY_COL_RESERVED_CHANGE_PCT] = {"reserved_change_pct", "reserved_change_pct", "Change (%)",
                                        "Reserved Change (%)", GS_COL_PCT, 0},
};
_Static_assert(COUNT_OF(memory_columns) == MEMORY_NCOLS, "one column per enum memory_col");

static double change_pct(const gs_mem_change *m, const int64_t v[GS_SIDES])
{
    if (!m->present[GS_SIDE_BASE] || !m->present[GS_SIDE_NEW] || v[GS_SIDE_BASE] <= 0)
        return NAN;
    return (double)(v[GS_SIDE_NEW] - v[GS_SIDE_BASE]) / (double)v[GS_SIDE_BASE] * 100;
}

static int fill_memory_table(const gs_diff *d, gs_table *t, char (*devices)[24])
{
    gs_table_init(t, memory_columns, COUNT_OF(memory_columns),
                  d->setup.comparable[GS_REC_MEMORY]
                      ? "no allocator records in either run (profile with profile_memory=True)"
                      : d->setup.why_not[GS_REC_MEMORY]);
    for (size_t i = 0; d->setup.comparable[GS_REC_MEMORY] && i < d->nmem; i++) {
        const gs_mem_change *m = &d->mem[i];
        gs_cell *c = gs_table_add_row(t);
        if (!c)
            return -1;
        if (m->device_type == 1)
            snprintf(devices[i], sizeof devices[i], "cuda:%d", (int)m->device);
        else if (m->device_type == 0)
            snprintf(devices[i], sizeof devices[i], "cpu");
        else
            snprintf(devices[i], sizeof devices[i], "type %d:%d", m->device_type, (int)m->device);
        c[MEMORY_COL_RANK].i = d->pairs[m->pair].bd[GS_SIDE_BASE]->id.rank;
        c[MEMORY_COL_DEVICE].text = devices[i];
        c[MEMORY_COL_BASE_PEAK_ALLOCATED].i = m->peak_allocated[GS_SIDE_BASE];
        c[MEMORY_COL_NEW_PEAK_ALLOCATED].i = m->peak_allocated[GS_SIDE_NEW];
        c[MEMORY_COL_ALLOCATED_CHANGE].i =
            c[MEMORY_COL_NEW_PEAK_ALLOCATED].i - c[MEMORY_COL_BASE_PEAK_ALLOCATED].i;
        c[MEMORY_COL_ALLOCATED_CHANGE_PCT].f = change_pct(m, m->peak_allocated);
        c[MEMORY_COL_BASE_PEAK_RESERVED].i = m->peak_reserved[GS_SIDE_BASE];
        c[MEMORY_COL_NEW_PEAK_RESERVED].i = m->peak_reserved[GS_SIDE_NEW];
        c[MEMORY_COL_RESERVED_CHANGE].i =
            c[MEMORY_COL_NEW_PEAK_RESERVED].i - c[MEMORY_COL_BASE_PEAK_RESERVED].i;
        c[MEMORY_COL_RESERVED_CHANGE_PCT].f = change_pct(m, m->peak_reserved);
    }
    return 0;
}

int gs_diff_tables_make(const gs_diff *d, gs_diff_tables *out)
{
    memset(out, 0, sizeof *out);
    out->pvalues = calloc(d->npairs + 1, sizeof *out->pvalues);
    out->devices = calloc(d->nmem + 1, sizeof *out->devices);
    int rc = out->pvalues && out->devices ? 0 : -1;
    rc = rc ? rc : fill_step_table(d, &out->steps, out->pvalues);
    rc = rc ? rc : fill_breakdown_table(d, &out->breakdown);
    rc = rc ? rc : fill_kernel_table(&d->kernels, &out->kernels);
    rc = rc ? rc : fill_op_table(&d->ops, &out->ops, d->setup.comparable[GS_REC_CPU_OPS] ? NULL
                                                       : d->setup.why_not[GS_REC_CPU_OPS]);
    rc = rc ? rc : fill_only_table(d, &out->only);
    rc = rc ? rc : fill_memory_table(d, &out->memory, out->devices);
    if (rc != 0)
        gs_diff_tables_free(out);
    return rc;
}

void gs_diff_tables_free(gs_diff_tables *t)
{
    gs_table *all[] = {&t->steps, &t->breakdown, &t->kernels, &t->ops, &t->only, &t->memory};
    for (size_t i = 0; i < COUNT_OF(all); i++)
        gs_table_free(all[i]);
    free(t->pvalues);
    free(t->devices);
    memset(t, 0, sizeof *t);
}
