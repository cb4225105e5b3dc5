#include "render/sync_tables.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

static const gs_column cause_columns[] = {
    {"step_pct", "step_pct", "Step (%)", "Step (%)", GS_COL_PCT, 0},
    {"blocked_ns", "blocked", "Blocked", "Blocked (ns)", GS_COL_NS, 0},
    {"calls", "calls", "Calls", "Calls", GS_COL_COUNT, 0},
    {"avg_ns", "avg", "Avg", "Avg (ns)", GS_COL_NS, 0},
    {"max_ns", "max", "Max", "Max (ns)", GS_COL_NS, 0},
    {"gpu_wait_ns", "gpu_wait", "GPU Wait", "GPU Wait (ns)", GS_COL_NS, 0},
    {"kind", "kind", "Kind", "Kind", GS_COL_TEXT, 0},
    {"api", "api", "API", "API", GS_COL_TEXT, 0},
    {"operator", "operator", "Operator", "Operator", GS_COL_TEXT, 0},
};

static const gs_column step_columns[] = {
    {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    {"step", "step", "Step", "Step", GS_COL_COUNT, 0},
    {"warmup", "warmup", "Warm-up", "Warm-up", GS_COL_TEXT, 0},
    {"duration_ns", "duration", "Duration", "Duration (ns)", GS_COL_NS, 0},
    {"calls", "calls", "Calls", "Calls", GS_COL_COUNT, 0},
    {"blocked_ns", "blocked", "Blocked", "Blocked (ns)", GS_COL_NS, 0},
    {"step_pct", "step_pct", "Step (%)", "Step (%)", GS_COL_PCT, 0},
};

static int cause_rows(const gs_sync_summary *s, gs_table *out)
{
    gs_table_init(out, cause_columns, COUNT_OF(cause_columns),
                  "no synchronizing calls in the selected traces");
    for (size_t r = 0; r < s->ncauses; r++) {
        const gs_sync_cause *cause = &s->causes[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[0].f = cause->step_pct;
        c[1].i = cause->blocked;
        c[2].i = (int64_t)cause->calls;
        c[3].i = cause->calls ? cause->blocked / (gs_ns)cause->calls : 0;
        c[4].i = cause->max;
        c[5].i = cause->gpu_wait;
        c[6].text = gs_sync_kind_name(cause->kind);
        c[7].text = cause->api;
        c[8].text = cause->op;
    }
    return 0;
}

static int step_rows(const gs_sync_summary *s, gs_table *out)
{
    gs_table_init(out, step_columns, COUNT_OF(step_columns), "no steps in the selected traces");
    for (size_t r = 0; r < s->nranks; r++) {
        const gs_sync_rank *rk = &s->ranks[r];
        for (size_t i = 0; i < rk->nsteps; i++) {
            const gs_sync_step *st = &rk->steps[i];
            gs_cell *c = gs_table_add_row(out);
            if (!c)
                return -1;
            c[0].i = rk->rank;
            c[1].i = st->number;
            c[2].text = st->warmup ? "yes" : NULL;
            c[3].i = st->end - st->start;
            c[4].i = (int64_t)st->calls;
            c[5].i = st->blocked;
            c[6].f = st->pct;
        }
    }
    return 0;
}

int gs_sync_table(const gs_sync_summary *s, bool per_step, gs_table *out)
{
    return per_step ? step_rows(s, out) : cause_rows(s, out);
}
