#include "render/sync_tables.h"
#include "common/util.h"

enum cause_col {
    CAUSE_COL_STEP_PCT, CAUSE_COL_BLOCKED_NS, CAUSE_COL_CALLS, CAUSE_COL_AVG_NS, CAUSE_COL_MAX_NS,
    CAUSE_COL_GPU_WAIT_NS, CAUSE_COL_KIND, CAUSE_COL_API, CAUSE_COL_OPERATOR, CAUSE_NCOLS
};

static const gs_column cause_columns[] = {
    [CAUSE_COL_STEP_PCT] = {"step_pct", "step_pct", "Step (%)", "Step (%)", GS_COL_PCT, 0,
                            "blocked time inside the kept steps / their total time x 100"},
    [CAUSE_COL_BLOCKED_NS] = {"blocked_ns", "blocked", "Blocked", "Blocked (ns)", GS_COL_NS, 0,
                              "sum of the host durations of the calls the window holds"},
    [CAUSE_COL_CALLS] = {"calls", "calls", "Calls", "Calls", GS_COL_COUNT, 0, "number of calls"},
    [CAUSE_COL_AVG_NS] = {"avg_ns", "avg", "Avg", "Avg (ns)", GS_COL_NS, 0,
                          "Blocked / Calls and the longest call"},
    [CAUSE_COL_MAX_NS] = {"max_ns", "max", "Max", "Max (ns)", GS_COL_NS, 0, ""},
    [CAUSE_COL_GPU_WAIT_NS] = {"gpu_wait_ns", "gpu_wait", "GPU Wait", "GPU Wait (ns)", GS_COL_NS,
                               0,
                               "sum of the GPU-side synchronization records of the calls (-\n"
                               "when none was recorded)"},
    [CAUSE_COL_KIND] = {"kind", "kind", "Kind", "Kind", GS_COL_TEXT, 0,
                        "stream sync, device sync, event sync, sync memcpy, pageable\n"
                        "memcpy or stream wait event"},
    [CAUSE_COL_API] = {"api", "api", "API", "API", GS_COL_TEXT, 0, "the API call"},
    [CAUSE_COL_OPERATOR] = {"operator", "operator", "Operator", "Operator", GS_COL_TEXT, 0,
                            "outermost synchronizing operator around the call, else the\n"
                            "outermost operator, else the innermost annotation that is not\n"
                            "a step, else (no operator)"},
};
_Static_assert(COUNT_OF(cause_columns) == CAUSE_NCOLS, "one column per enum cause_col");

enum step_col {
    STEP_COL_RANK, STEP_COL_STEP, STEP_COL_WARMUP, STEP_COL_DURATION_NS, STEP_COL_CALLS,
    STEP_COL_BLOCKED_NS, STEP_COL_STEP_PCT, STEP_NCOLS
};

static const gs_column step_columns[] = {
    [STEP_COL_RANK] = {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0, "the trace's rank"},
    [STEP_COL_STEP] = {"step", "step", "Step", "Step", GS_COL_COUNT, 0,
                       "the step's number; yes for a warm-up step"},
    [STEP_COL_WARMUP] = {"warmup", "warmup", "Warm-up", "Warm-up", GS_COL_TEXT, 0, ""},
    [STEP_COL_DURATION_NS] = {"duration_ns", "duration", "Duration", "Duration (ns)", GS_COL_NS, 0,
                              "the step's duration"},
    [STEP_COL_CALLS] = {"calls", "calls", "Calls", "Calls", GS_COL_COUNT, 0,
                        "calls that start in the step (stream wait event left out)"},
    [STEP_COL_BLOCKED_NS] = {"blocked_ns", "blocked", "Blocked", "Blocked (ns)", GS_COL_NS, 0,
                             "sum of their host durations"},
    [STEP_COL_STEP_PCT] = {"step_pct", "step_pct", "Step (%)", "Step (%)", GS_COL_PCT, 0,
                           "Blocked / Duration x 100"},
};
_Static_assert(COUNT_OF(step_columns) == STEP_NCOLS, "one column per enum step_col");

static int fill_cause_table(const gs_sync_summary *s, gs_table *out)
{
    gs_table_init(out, cause_columns, COUNT_OF(cause_columns),
                  "no synchronizing calls in the selected traces");
    for (size_t r = 0; r < s->ncauses; r++) {
        const gs_sync_cause *cause = &s->causes[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[CAUSE_COL_STEP_PCT].f = cause->step_pct;
        c[CAUSE_COL_BLOCKED_NS].i = cause->blocked;
        c[CAUSE_COL_CALLS].i = (int64_t)cause->calls;
        c[CAUSE_COL_AVG_NS].i = cause->calls ? cause->blocked / (gs_ns)cause->calls : 0;
        c[CAUSE_COL_MAX_NS].i = cause->max;
        /* no GPU-side record linked to any of the calls: not recorded, not 0 */
        c[CAUSE_COL_GPU_WAIT_NS].i = gs_cell_known(cause->gpu_wait, cause->gpu_wait_records > 0);
        c[CAUSE_COL_KIND].text = gs_sync_kind_name(cause->kind);
        c[CAUSE_COL_API].text = cause->api;
        c[CAUSE_COL_OPERATOR].text = cause->op;
    }
    return 0;
}

static int fill_step_table(const gs_sync_summary *s, gs_table *out)
{
    gs_table_init(out, step_columns, COUNT_OF(step_columns), "no steps in the selected traces");
    for (size_t r = 0; r < s->nranks; r++) {
        const gs_sync_rank *rk = &s->ranks[r];
        for (size_t i = 0; i < rk->nsteps; i++) {
            const gs_sync_step *st = &rk->steps[i];
            gs_cell *c = gs_table_add_row(out);
            if (!c)
                return -1;
            c[STEP_COL_RANK].i = rk->rank;
            c[STEP_COL_STEP].i = st->number;
            c[STEP_COL_WARMUP].text = st->warmup ? "yes" : NULL;
            c[STEP_COL_DURATION_NS].i = st->end - st->start;
            c[STEP_COL_CALLS].i = (int64_t)st->calls;
            c[STEP_COL_BLOCKED_NS].i = st->blocked;
            c[STEP_COL_STEP_PCT].f = st->pct;
        }
    }
    return 0;
}

const gs_column *gs_sync_columns(bool per_step, size_t *ncols)
{
    *ncols = per_step ? COUNT_OF(step_columns) : COUNT_OF(cause_columns);
    return per_step ? step_columns : cause_columns;
}

int gs_sync_table(const gs_sync_summary *s, bool per_step, gs_table *out)
{
    return per_step ? fill_step_table(s, out) : fill_cause_table(s, out);
}
