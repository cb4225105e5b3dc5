/* Joining ncu's kernels with the trace's, and the numbers ncu's own sections derive. */
#include "analysis/trace/ncu_join.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/kernel_function.h"
#include "common/demangle.h"
#include "common/util.h"

/* A name's function (analysis/base/kernel_function.h), demangled first when it is mangled. */
typedef struct function_name {
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
    function_name *fns = calloc(out->kernels.nrows ? out->kernels.nrows : 1, sizeof *fns);
    out->rows = calloc(n ? n : 1, sizeof *out->rows);
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
