#include "render/diff_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- step time ------------------------------------------------------------------------------ */

static const gs_column step_columns[] = {
    {"base_rank", "base_rank", "Base Rank", "Base Rank", GS_COL_COUNT, 0},
    {"new_rank", "new_rank", "New Rank", "New Rank", GS_COL_COUNT, 0},
    {"base_steps", "base_steps", "Base Steps", "Base Steps", GS_COL_COUNT, 0},
    {"new_steps", "new_steps", "New Steps", "New Steps", GS_COL_COUNT, 0},
    {"base_med_ns", "base_med", "Base Med", "Base Med (ns)", GS_COL_NS, 0},
    {"new_med_ns", "new_med", "New Med", "New Med (ns)", GS_COL_NS, 0},
    {"change_ns", "change", "Change", "Change (ns)", GS_COL_NS, 0},
    {"change_pct", "change_pct", "Change (%)", "Change (%)", GS_COL_PCT, 0},
    {"ci_low_pct", "ci_low", "CI Low (%)", "CI Low (%)", GS_COL_PCT, 0},
    {"ci_high_pct", "ci_high", "CI High (%)", "CI High (%)", GS_COL_PCT, 0},
    {"ci_low_ns", "ci_low_ns", "CI Low", "CI Low (ns)", GS_COL_NS, GS_COL_JSON_ONLY},
    {"ci_high_ns", "ci_high_ns", "CI High", "CI High (ns)", GS_COL_NS, GS_COL_JSON_ONLY},
    {"p", "p", "Mann-Whitney p", "Mann-Whitney p", GS_COL_TEXT, 0},
    {"p_value", "p_value", "p", "p", GS_COL_FLOAT, GS_COL_JSON_ONLY},
    {"u", "u", "U", "U", GS_COL_FLOAT, GS_COL_JSON_ONLY},
    {"p_exact", "p_exact", "Exact", "Exact", GS_COL_TEXT, GS_COL_JSON_ONLY},
    {"significant", "significant", "Significant", "Significant", GS_COL_TEXT, 0},
};

static void format_p(char *buf, size_t size, double p)
{
    if (p < 0.001)
        snprintf(buf, size, "< 0.001");
    else
        snprintf(buf, size, "%.3f", p);
}

static int step_table(const gs_diff *d, gs_table *t, char (*pvalues)[16])
{
    gs_table_init(t, step_columns, COUNT_OF(step_columns), NULL);
    for (size_t p = 0; p < d->npairs; p++) {
        const gs_rank_change *rc = &d->pairs[p];
        gs_cell *c = gs_table_add_row(t);
        if (!c)
            return -1;
        const gs_step_stats *b = &rc->bd[GS_SIDE_BASE]->steps.stats;
        const gs_step_stats *n = &rc->bd[GS_SIDE_NEW]->steps.stats;
        c[0].i = rc->bd[GS_SIDE_BASE]->rank;
        c[1].i = rc->bd[GS_SIDE_NEW]->rank;
        c[2].i = (int64_t)rc->kept[GS_SIDE_BASE];
        c[3].i = (int64_t)rc->kept[GS_SIDE_NEW];
        c[4].i = b->med;
        c[5].i = n->med;
        c[6].i = n->med - b->med;
        c[7].f = rc->has_ci ? rc->ci.pct : NAN;
        c[8].f = rc->has_ci ? rc->ci.pct_lo : NAN;
        c[9].f = rc->has_ci ? rc->ci.pct_hi : NAN;
        c[10].i = rc->has_ci ? rc->ci.diff_lo : 0;
        c[11].i = rc->has_ci ? rc->ci.diff_hi : 0;
        if (rc->has_ci)
            format_p(pvalues[p], sizeof pvalues[p], rc->mw.p);
        c[12].text = rc->has_ci ? pvalues[p] : NULL;
        c[13].f = rc->has_ci ? rc->mw.p : NAN;
        c[14].f = rc->has_ci ? rc->mw.u : NAN;
        c[15].text = rc->has_ci ? (rc->mw.exact ? "yes" : "no") : NULL;
        c[16].text = rc->has_ci ? (rc->significant ? "yes" : "no") : NULL;
    }
    return 0;
}

/* ---- breakdown shift ------------------------------------------------------------------------ */

static const gs_column breakdown_columns[] = {
    {"category", "category", "Category", "Category", GS_COL_TEXT, 0},
    {"base_ns", "base", "Base/Step", "Base per Step (ns)", GS_COL_NS, 0},
    {"new_ns", "new", "New/Step", "New per Step (ns)", GS_COL_NS, 0},
    {"change_ns", "change", "Change", "Change (ns)", GS_COL_NS, 0},
    {"change_pct", "change_pct", "Change (%)", "Change (%)", GS_COL_PCT, 0},
    {"base_pct", "base_pct", "Base (%)", "Base (% of step)", GS_COL_PCT, 0},
    {"new_pct", "new_pct", "New (%)", "New (% of step)", GS_COL_PCT, 0},
    {"change_pp", "change_pp", "Change (pp)", "Change (pp)", GS_COL_PCT, 0},
};

static double share(double part, double whole)
{
    return whole > 0 ? part / whole * 100 : NAN;
}

static int breakdown_row(gs_table *t, const char *title, double base, double next,
                         const double total[GS_SIDES])
{
    gs_cell *c = gs_table_add_row(t);
    if (!c)
        return -1;
    c[0].text = title;
    c[1].i = llround(base);
    c[2].i = llround(next);
    c[3].i = llround(next) - llround(base);
    c[4].f = base > 0 ? (next - base) / base * 100 : NAN;
    c[5].f = share(base, total[GS_SIDE_BASE]);
    c[6].f = share(next, total[GS_SIDE_NEW]);
    c[7].f = c[6].f - c[5].f;
    return 0;
}

static int breakdown_table(const gs_diff *d, gs_table *t)
{
    gs_table_init(t, breakdown_columns, COUNT_OF(breakdown_columns), NULL);
    for (int k = 0; k < GS_BD__COUNT; k++)
        if (breakdown_row(t, gs_bd_cat_title((enum gs_bd_cat)k), d->bd_avg[GS_SIDE_BASE][k],
                          d->bd_avg[GS_SIDE_NEW][k], d->bd_total) != 0)
            return -1;
    return breakdown_row(t, "Step", d->bd_total[GS_SIDE_BASE], d->bd_total[GS_SIDE_NEW],
                         d->bd_total);
}

/* ---- kernels and operators ------------------------------------------------------------------ */

#define DELTA_COLUMNS(what)                                                                        \
    {"match", "match", "Match", "Match", GS_COL_TEXT, 0},                                          \
    {"base_ns", "base", "Base/Step", "Base per Step (ns)", GS_COL_NS, 0},                          \
    {"new_ns", "new", "New/Step", "New per Step (ns)", GS_COL_NS, 0},                              \
    {"change_ns", "change", "Change", "Change (ns)", GS_COL_NS, 0},                                \
    {"change_pct", "change_pct", "Change (%)", "Change (%)", GS_COL_PCT, 0},                       \
    {"base_" what, "base_" what, "Base Calls", "Base " what " per Step", GS_COL_FLOAT, 0},         \
    {"new_" what, "new_" what, "New Calls", "New " what " per Step", GS_COL_FLOAT, 0},             \
    {"base_avg_ns", "base_avg", "Base Avg", "Base Avg (ns)", GS_COL_NS, 0},                        \
    {"new_avg_ns", "new_avg", "New Avg", "New Avg (ns)", GS_COL_NS, 0}

static const gs_column kernel_columns[] = {
    DELTA_COLUMNS("instances"),
    {"grid", "grid", "Grid", "Grid", GS_COL_XYZ, GS_COL_JSON_ONLY},
    {"block", "block", "Block", "Block", GS_COL_XYZ, GS_COL_JSON_ONLY},
    {"base_name", "base_name", "Was", "Base Name", GS_COL_TEXT, 0},
    {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
};

static const gs_column op_columns[] = {
    DELTA_COLUMNS("calls"),
    {"base_cuda_ns", "base_cuda", "Base CUDA/Step", "Base CUDA per Step (ns)", GS_COL_NS, 0},
    {"new_cuda_ns", "new_cuda", "New CUDA/Step", "New CUDA per Step (ns)", GS_COL_NS, 0},
    {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
};

static gs_cell *delta_row(gs_table *t, const gs_delta *d)
{
    gs_cell *c = gs_table_add_row(t);
    if (!c)
        return NULL;
    c[0].text = gs_match_key(d->match);
    c[1].i = llround(d->time[GS_SIDE_BASE]);
    c[2].i = llround(d->time[GS_SIDE_NEW]);
    c[3].i = c[2].i - c[1].i;
    c[4].f = d->dtime_pct;
    c[5].f = d->count[GS_SIDE_BASE];
    c[6].f = d->count[GS_SIDE_NEW];
    c[7].i = llround(d->avg[GS_SIDE_BASE]);
    c[8].i = llround(d->avg[GS_SIDE_NEW]);
    return c;
}

static int kernel_table(const gs_delta_list *l, gs_table *t)
{
    gs_table_init(t, kernel_columns, COUNT_OF(kernel_columns),
                  "no kernel of the same name or shape ran in the kept steps of both runs");
    for (size_t i = 0; i < l->n; i++) {
        const gs_delta *d = &l->v[i];
        gs_cell *c = delta_row(t, d);
        if (!c)
            return -1;
        memcpy(c[9].xyz, d->act[GS_SIDE_NEW]->grid, sizeof c[9].xyz);
        memcpy(c[10].xyz, d->act[GS_SIDE_NEW]->block, sizeof c[10].xyz);
        c[11].text = d->match == GS_MATCH_SHAPE ? d->act[GS_SIDE_BASE]->name : NULL;
        c[12].text = d->act[GS_SIDE_NEW]->name;
    }
    return 0;
}

static int op_table(const gs_delta_list *l, gs_table *t)
{
    gs_table_init(t, op_columns, COUNT_OF(op_columns),
                  "no operator of the same name ran in the kept steps of both runs");
    for (size_t i = 0; i < l->n; i++) {
        const gs_delta *d = &l->v[i];
        gs_cell *c = delta_row(t, d);
        if (!c)
            return -1;
        c[9].i = llround(d->cuda[GS_SIDE_BASE]);
        c[10].i = llround(d->cuda[GS_SIDE_NEW]);
        c[11].text = d->act[GS_SIDE_NEW]->name;
    }
    return 0;
}

/* ---- added and removed ---------------------------------------------------------------------- */

static const gs_column only_columns[] = {
    {"change", "change", "Change", "Change", GS_COL_TEXT, 0},
    {"kind", "kind", "Kind", "Kind", GS_COL_TEXT, 0},
    {"time_ns", "time", "Time/Step", "Time per Step (ns)", GS_COL_NS, 0},
    {"calls", "calls", "Calls/Step", "Calls per Step", GS_COL_FLOAT, 0},
    {"avg_ns", "avg", "Avg", "Avg (ns)", GS_COL_NS, 0},
    {"name", "name", "Name", "Name", GS_COL_TEXT, 0},
};

static int only_rows(const gs_delta_list *l, const char *kind, gs_table *t)
{
    for (size_t i = 0; i < l->n; i++) {
        const gs_delta *d = &l->v[i];
        int s = d->match == GS_MATCH_ADDED ? GS_SIDE_NEW : GS_SIDE_BASE;
        gs_cell *c = gs_table_add_row(t);
        if (!c)
            return -1;
        c[0].text = gs_match_key(d->match);
        c[1].text = kind;
        c[2].i = llround(d->time[s]);
        c[3].f = d->count[s];
        c[4].i = llround(d->avg[s]);
        c[5].text = d->act[s]->name;
    }
    return 0;
}

/* Kernels and operators in one table, by time per step (a stable sort keeps each list's order
 * among equal times). */
static int only_table(const gs_diff *d, gs_table *t)
{
    gs_table_init(t, only_columns, COUNT_OF(only_columns),
                  "none: every kernel and operator ran in both");
    if (only_rows(&d->kernels_only, "kernel", t) != 0 ||
        only_rows(&d->ops_only, "operator", t) != 0)
        return -1;
    return gs_table_sort(t, 2);
}

/* ---- memory --------------------------------------------------------------------------------- */

/* Sizes are whole bytes in csv and json. */
#define BYTES_COL(key, sort, title, csv) {key, sort, title, csv " (B)", GS_COL_BYTES, 0}
static const gs_column memory_columns[] = {
    {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    {"device", "device", "Device", "Device", GS_COL_TEXT, 0},
    BYTES_COL("base_peak_allocated", "base_alloc", "Base Peak Alloc", "Base Peak Allocated"),
    BYTES_COL("new_peak_allocated", "new_alloc", "New Peak Alloc", "New Peak Allocated"),
    BYTES_COL("allocated_change", "alloc_change", "Change", "Allocated Change"),
    {"allocated_change_pct", "alloc_change_pct", "Change (%)", "Allocated Change (%)", GS_COL_PCT,
     0},
    BYTES_COL("base_peak_reserved", "base_reserved", "Base Peak Reserved", "Base Peak Reserved"),
    BYTES_COL("new_peak_reserved", "new_reserved", "New Peak Reserved", "New Peak Reserved"),
    BYTES_COL("reserved_change", "reserved_change", "Change", "Reserved Change"),
    {"reserved_change_pct", "reserved_change_pct", "Change (%)", "Reserved Change (%)",
     GS_COL_PCT, 0},
};

static double change_pct(const gs_mem_change *m, const int64_t v[GS_SIDES])
{
    if (!m->present[GS_SIDE_BASE] || !m->present[GS_SIDE_NEW] || v[GS_SIDE_BASE] <= 0)
        return NAN;
    return (double)(v[GS_SIDE_NEW] - v[GS_SIDE_BASE]) / (double)v[GS_SIDE_BASE] * 100;
}

static int memory_table(const gs_diff *d, gs_table *t, char (*devices)[24])
{
    gs_table_init(t, memory_columns, COUNT_OF(memory_columns),
                  "no allocator records in either run (profile with profile_memory=True)");
    for (size_t i = 0; i < d->nmem; i++) {
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
        c[0].i = d->pairs[m->pair].bd[GS_SIDE_BASE]->rank;
        c[1].text = devices[i];
        c[2].i = m->peak_allocated[GS_SIDE_BASE];
        c[3].i = m->peak_allocated[GS_SIDE_NEW];
        c[4].i = c[3].i - c[2].i;
        c[5].f = change_pct(m, m->peak_allocated);
        c[6].i = m->peak_reserved[GS_SIDE_BASE];
        c[7].i = m->peak_reserved[GS_SIDE_NEW];
        c[8].i = c[7].i - c[6].i;
        c[9].f = change_pct(m, m->peak_reserved);
    }
    return 0;
}

int gs_diff_tables_make(const gs_diff *d, gs_diff_tables *out)
{
    memset(out, 0, sizeof *out);
    out->pvalues = calloc(d->npairs + 1, sizeof *out->pvalues);
    out->devices = calloc(d->nmem + 1, sizeof *out->devices);
    int rc = out->pvalues && out->devices ? 0 : -1;
    rc = rc ? rc : step_table(d, &out->steps, out->pvalues);
    rc = rc ? rc : breakdown_table(d, &out->breakdown);
    rc = rc ? rc : kernel_table(&d->kernels, &out->kernels);
    rc = rc ? rc : op_table(&d->ops, &out->ops);
    rc = rc ? rc : only_table(d, &out->only);
    rc = rc ? rc : memory_table(d, &out->memory, out->devices);
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
