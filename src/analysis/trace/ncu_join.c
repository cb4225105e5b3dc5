/* Joining ncu's kernels with the trace's, and the numbers ncu's own sections derive. */
#include "analysis/trace/ncu_join.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/kernel_function.h"
#include "analysis/base/window.h"
#include "analysis/trace/kernel_costs.h"
#include "common/demangle.h"
#include "common/util.h"
#include "common/vec.h"

/* A name's function (analysis/base/kernel_function.h), demangled first when it is mangled. */
typedef struct gs_ncu_function {
    char *demangled; /* owned, NULL when the name was not mangled */
    const char *start;
    size_t len;
} function_name;

static int function_of(const char *name, function_name *f, gs_error *err)
{
    if (gs_demangle(name, strlen(name), &f->demangled, err) != 0)
        return -1;
    f->len = gs_kernel_function(f->demangled ? f->demangled : name, &f->start);
    return 0;
}

static bool same_function(const function_name *a, const function_name *b)
{
    return a->len == b->len && !memcmp(a->start, b->start, a->len);
}

static bool same_launch(const gs_ncu_kernel *k, const gs_kernel_row *r)
{
    return !memcmp(k->grid, r->grid, sizeof k->grid) && !memcmp(k->block, r->block, sizeof k->block);
}

/* The occupancy limiter: the resource that allows the fewest blocks per SM (ncu's Occupancy
 * section, "Block Limit ..."); ties name the first in this order. "none" when the theoretical
 * occupancy is 100 %: then no resource limits it. */
static const char *limiter_of(const gs_ncu_kernel *k)
{
    if (k->metric[GS_NCU_THEORETICAL_OCC_PCT] >= 100)
        return "none";
    static const struct { enum gs_ncu_metric slot; const char *name; } limits[] = {
        {GS_NCU_LIMIT_REGISTERS, "registers"},
        {GS_NCU_LIMIT_SHARED_MEM, "shared memory"},
        {GS_NCU_LIMIT_WARPS, "warps"},
        {GS_NCU_LIMIT_BARRIERS, "barriers"},
        {GS_NCU_LIMIT_SM, "blocks per SM"},
    };
    const char *best = NULL;
    double least = INFINITY;
    for (size_t i = 0; i < COUNT_OF(limits); i++) {
        double v = k->metric[limits[i].slot];
        if (!isnan(v) && v < least)
            least = v, best = limits[i].name;
    }
    return best;
}

/* The FP32 roofline of ncu's SpeedOfLight_RooflineChart section: achieved work
 * (fadd + fmul + 2 ffma per cycle) x SM clock, over DRAM bytes per second; the ridge point is the
 * peak (2 ffma per cycle at peak x SM clock) over the DRAM peak (bytes per cycle x DRAM clock). */
static void roofline_of(const gs_ncu_kernel *k, gs_ncu_row *row)
{
    const double *m = k->metric;
    row->flop_per_s = (m[GS_NCU_FADD_PER_CYCLE] + m[GS_NCU_FMUL_PER_CYCLE] +
                       2 * m[GS_NCU_FFMA_PER_CYCLE]) * m[GS_NCU_SMSP_CYCLES_PER_S];
    double bytes = m[GS_NCU_DRAM_BYTES_PER_S];
    row->intensity = bytes > 0 ? row->flop_per_s / bytes : NAN;
    double peak_flop = 2 * m[GS_NCU_FFMA_PEAK_PER_CYCLE] * m[GS_NCU_SM_CYCLES_PER_S];
    double peak_bytes = m[GS_NCU_DRAM_PEAK_BYTES_PER_CYCLE] * m[GS_NCU_DRAM_CYCLES_PER_S];
    row->ridge = peak_bytes > 0 ? peak_flop / peak_bytes : NAN;
    row->bound = NULL;
    if (!isnan(row->intensity) && !isnan(row->ridge))
        row->bound = row->intensity >= row->ridge ? "compute" : "memory";
}

/* Each kernel's findings and the one with the largest estimated speedup: one pass over them. */
static void rules_of(const gs_ncu_report *ncu, gs_ncu_row *rows)
{
    for (size_t i = 0; i < ncu->rules.n; i++) {
        const gs_ncu_rule *r = &ncu->rules.v[i];
        gs_ncu_row *row = &rows[r->kernel];
        row->nrules++;
        if (!isnan(r->speedup_pct) &&
            (!row->top_rule || r->speedup_pct > row->top_rule->speedup_pct))
            row->top_rule = r;
    }
}

/* The trace row joined to k: the same name first, else the same function; the largest total
 * among several (rows are by total, descending). */
static int join_one(const gs_ncu_join *j, const function_name *fns, const gs_ncu_kernel *k,
                    gs_ncu_row *row, gs_error *err)
{
    function_name f;
    if (function_of(row->name, &f, err) != 0)
        return -1;
    row->trace = NULL;
    row->match = GS_NCU_UNMATCHED;
    for (size_t i = 0; i < j->kernels.nrows; i++) {
        const gs_kernel_row *r = &j->kernels.rows[i];
        if (!same_launch(k, r))
            continue;
        if (!strcmp(r->name, row->name)) {
            row->trace = r, row->match = GS_NCU_MATCH_NAME;
            break;
        }
        if (!row->trace && same_function(&f, &fns[i]))
            row->trace = r, row->match = GS_NCU_MATCH_FUNCTION;
    }
    free(f.demangled);
    return 0;
}

int gs_ncu_join_build(gs_kernel_summary *kernels, const gs_ncu_report *ncu, gs_ncu_join *out,
                      gs_error *err)
{
    *out = (gs_ncu_join){.ncu = ncu, .kernels = *kernels};
    memset(kernels, 0, sizeof *kernels);
    size_t n = ncu->kernels.n;
    function_name *fns = gs_array_zeroed(out->kernels.nrows, sizeof *fns);
    out->rows = gs_array_zeroed(n, sizeof *out->rows);
    if (!fns || !out->rows) {
        free(fns);
        gs_ncu_join_free(out);
        return gs_fail_oom(err);
    }
    int rc = 0;
    for (size_t i = 0; i < out->kernels.nrows && rc == 0; i++)
        rc = function_of(out->kernels.rows[i].name, &fns[i], err);
    for (size_t i = 0; i < n && rc == 0; i++) {
        const gs_ncu_kernel *k = &ncu->kernels.v[i];
        gs_ncu_row *row = &out->rows[i];
        row->k = k;
        row->name = gs_ncu_str(ncu, k->name);
        rc = join_one(out, fns, k, row, err);
        row->limiter = limiter_of(k);
        roofline_of(k, row);
        gs_ncu_measure(k, GS_DTYPE_UNKNOWN, &row->measured);
        row->flops_ratio = row->bytes_ratio = NAN;
        out->matched += row->trace != NULL;
    }
    for (size_t i = 0; i < out->kernels.nrows; i++)
        free(fns[i].demangled);
    free(fns);
    if (rc != 0) {
        gs_ncu_join_free(out);
        return -1;
    }
    out->nrows = n;
    rules_of(ncu, out->rows);
    return 0;
}

void gs_ncu_join_free(gs_ncu_join *j)
{
    free(j->rows);
    gs_kernel_summary_free(&j->kernels);
    *j = (gs_ncu_join){0};
}

/* ---- the estimates ----------------------------------------------------------------------- */

/* At most this many distinct costs are kept per ncu kernel; more are counted, not kept. */
#define MAX_SHAPES 16

typedef struct shape {
    gs_op_cost cost;
    uint64_t kernels;
    gs_ns total; /* their time in the trace */
} shape;

typedef struct gs_ncu_shapes {
    shape v[MAX_SHAPES];
    uint32_t n, distinct;
} gs_ncu_shapes;

void gs_ncu_estimates_free(gs_ncu_estimates *e)
{
    if (e->functions)
        for (size_t i = 0; i < e->ncu->kernels.n; i++)
            free(e->functions[i].demangled);
    free(e->functions);
    free(e->per_kernel);
    *e = (gs_ncu_estimates){0};
}

int gs_ncu_estimates_init(gs_ncu_estimates *e, const gs_ncu_report *ncu, gs_error *err)
{
    size_t n = ncu->kernels.n ? ncu->kernels.n : 1;
    *e = (gs_ncu_estimates){.ncu = ncu, .per_kernel = gs_array_zeroed(n, sizeof *e->per_kernel),
                            .functions = gs_array_zeroed(n, sizeof *e->functions)};
    if (!e->per_kernel || !e->functions) {
        gs_ncu_estimates_free(e);
        return gs_fail_oom(err);
    }
    for (size_t i = 0; i < ncu->kernels.n; i++)
        if (function_of(gs_ncu_str(ncu, ncu->kernels.v[i].name), &e->functions[i], err) != 0) {
            gs_ncu_estimates_free(e);
            return -1;
        }
    return 0;
}

static bool same_cost(const gs_op_cost *a, const gs_op_cost *b)
{
    return a->cls == b->cls && a->flops == b->flops && a->bytes == b->bytes && a->dtype == b->dtype;
}

static void tally(gs_ncu_shapes *s, const gs_op_cost *cost, gs_ns dur)
{
    for (uint32_t i = 0; i < s->n; i++)
        if (same_cost(&s->v[i].cost, cost)) {
            s->v[i].kernels++, s->v[i].total += dur;
            return;
        }
    s->distinct++;
    if (s->n < MAX_SHAPES)
        s->v[s->n++] = (shape){.cost = *cost, .kernels = 1, .total = dur};
}

static bool same_kernel_launch(const gs_ncu_kernel *n, const gs_kernel *k)
{
    return !memcmp(n->grid, k->grid, sizeof k->grid) && !memcmp(n->block, k->block, sizeof k->block);
}

/* Trace kernel i's cost, tallied for every ncu kernel of its function and launch: found once,
 * and only for a kernel whose launch some ncu kernel has. */
static int add_kernel(gs_ncu_estimates *e, const gs_kernel_costs *costs, size_t i, gs_error *err)
{
    const gs_trace *t = costs->trace;
    const gs_kernel *k = &t->kernels.v[i];
    function_name f = {0};
    bool have_f = false, have_cost = false, modelled = false;
    gs_op_cost cost = {0};
    int rc = 0;
    for (size_t n = 0; n < e->ncu->kernels.n && rc == 0; n++) {
        if (!same_kernel_launch(&e->ncu->kernels.v[n], k))
            continue;
        if (!have_f && (rc = function_of(gs_trace_str(t, k->name), &f, err)) != 0)
            break;
        have_f = true;
        if (!same_function(&f, &e->functions[n]))
            continue;
        if (!have_cost)
            modelled = gs_kernel_cost(costs, i, &cost), have_cost = true;
        if (modelled)
            tally(&e->per_kernel[n], &cost, k->end - k->start);
    }
    free(f.demangled);
    return rc;
}

int gs_ncu_estimates_add(gs_ncu_estimates *e, const gs_trace_ctx *c, gs_error *err)
{
    const gs_trace *t = c->trace;
    gs_kernel_costs costs;
    int rc = gs_kernel_costs_init(&costs, t, err);
    for (size_t i = 0; i < t->kernels.n && rc == 0; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        if (gs_window_holds_gpu(&c->window, t, k->start, k->api))
            rc = add_kernel(e, &costs, i, err);
    }
    gs_kernel_costs_free(&costs);
    if (rc != 0)
        gs_ncu_estimates_free(e);
    return rc;
}

/* The shape whose kernels' mean time is nearest (by ratio) ncu's duration of the launch it
 * profiled; the most frequent when ncu gave no duration. */
static const shape *nearest_shape(const gs_ncu_shapes *s, double duration_ns)
{
    const shape *best = NULL;
    double best_gap = INFINITY;
    for (uint32_t i = 0; i < s->n; i++) {
        const shape *x = &s->v[i];
        double mean = (double)x->total / (double)x->kernels;
        double gap = duration_ns > 0 && mean > 0 ? fabs(log(duration_ns / mean))
                                                 : -(double)x->kernels;
        if (gap < best_gap)
            best_gap = gap, best = x;
    }
    return best;
}

static double ratio(double measured, double estimated)
{
    return estimated > 0 && !isnan(measured) ? measured / estimated : NAN;
}

void gs_ncu_join_estimate(gs_ncu_join *j, const gs_ncu_estimates *e)
{
    for (size_t i = 0; i < j->nrows; i++) {
        gs_ncu_row *row = &j->rows[i];
        const gs_ncu_shapes *s = &e->per_kernel[i];
        const shape *best = nearest_shape(s, row->k->metric[GS_NCU_DURATION_NS]);
        row->shapes = s->distinct;
        row->estimate = best ? best->cost : (gs_op_cost){0};
        gs_ncu_measure(row->k, row->estimate.dtype, &row->measured);
        row->flops_ratio = ratio(row->measured.flops, row->estimate.flops);
        row->bytes_ratio = ratio(row->measured.dram_bytes, row->estimate.bytes);
    }
}
