#include "render/launch_tables.h"

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The numbers of one window, after the columns that say which window it is. JSON-only columns
 * carry the sums the shown ones are made from. */
#define LAUNCH_STATS_COLUMNS                                                                       \
    {"kernels", "kernels", "Kernels", "Kernels", GS_COL_COUNT, GS_COL_JSON_ONLY},                  \
        {"med_kernel_ns", "med_kernel", "Med Kernel", "Med Kernel (ns)", GS_COL_NS, 0},            \
        {"med_launch_ns", "med_launch", "Med Launch", "Med Launch (ns)", GS_COL_NS, 0},            \
        {"short_kernels", "short", "Short", "Short Kernels", GS_COL_COUNT, 0},                     \
        {"short_pct", "short_pct", "Short (%)", "Short (%)", GS_COL_PCT, 0},                       \
        {"short_time_pct", "short_time", "Short Time (%)", "Short Time (%)", GS_COL_PCT, 0},       \
        {"delay_med_ns", "delay_med", "Delay Med", "Delay Med (ns)", GS_COL_NS, 0},                \
        {"delay_p95_ns", "delay_p95", "Delay P95", "Delay P95 (ns)", GS_COL_NS, 0},                \
        {"delay_max_ns", "delay_max", "Delay Max", "Delay Max (ns)", GS_COL_NS, 0},                \
        {"delay_outliers", "delay_outliers", "Delay >100us", "Delay >100us", GS_COL_COUNT, 0},     \
        {"graph_kernels", "graph", "Graph", "Graph Kernels", GS_COL_COUNT, 0},                     \
        {"driver_launches", "driver", "Driver", "Driver Launches", GS_COL_COUNT, 0},               \
        {"launched", "launched", "Launched", "Launched", GS_COL_COUNT, GS_COL_JSON_ONLY},          \
        {"launch_calls", "launch_calls", "Launch Calls", "Launch Calls", GS_COL_COUNT,             \
         GS_COL_JSON_ONLY},                                                                        \
        {"kernel_time_ns", "kernel_time", "Kernel Time", "Kernel Time (ns)", GS_COL_NS,            \
         GS_COL_JSON_ONLY},                                                                        \
        {"short_kernel_time_ns", "short_kernel_time", "Short Kernel Time",                         \
         "Short Kernel Time (ns)", GS_COL_NS, GS_COL_JSON_ONLY},                                   \
        {"launch_cost_ns", "launch_cost", "Launch Cost", "Launch Cost (ns)", GS_COL_NS,            \
         GS_COL_JSON_ONLY},                                                                        \
        {"cost_outliers", "cost_outliers", "Launch >50us", "Launch >50us", GS_COL_COUNT,           \
         GS_COL_JSON_ONLY},                                                                        \
        {"graph_launches", "graph_launches", "Graph Launches", "Graph Launches", GS_COL_COUNT,     \
         GS_COL_JSON_ONLY}

static const gs_column rank_columns[] = {
    {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    {"steps", "steps", "Steps", "Steps", GS_COL_COUNT, 0},
    {"kernels_per_step", "kernels_per_step", "Kernels/Step", "Kernels/Step", GS_COL_FLOAT, 0},
    {"launches_per_s", "launches_per_s", "Launches/s", "Launches/s", GS_COL_FLOAT, 0},
    LAUNCH_STATS_COLUMNS,
    {"trace_kernels", "trace_kernels", "Trace Kernels", "Trace Kernels", GS_COL_COUNT,
     GS_COL_JSON_ONLY},
};

static const gs_column step_columns[] = {
    {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0},
    {"step", "step", "Step", "Step", GS_COL_COUNT, 0},
    {"warmup", "warmup", "Warm-up", "Warm-up", GS_COL_TEXT, 0},
    {"launches_per_s", "launches_per_s", "Launches/s", "Launches/s", GS_COL_FLOAT, 0},
    LAUNCH_STATS_COLUMNS,
    {"duration_ns", "duration", "Duration", "Duration (ns)", GS_COL_NS, GS_COL_JSON_ONLY},
};

static double share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Fills LAUNCH_STATS_COLUMNS from c[0]; returns the column after them. */
static size_t put_stats(gs_cell *c, const gs_launch_stats *s)
{
    size_t k = 0;
    c[k++].i = (int64_t)s->kernels;
    c[k++].i = s->med_kernel;
    c[k++].i = s->med_launch_cost;
    c[k++].i = (int64_t)s->short_kernels;
    c[k++].f = share(s->short_kernels, s->launched);
    c[k++].f = s->short_time_pct;
    c[k++].i = s->delay_med;
    c[k++].i = s->delay_p95;
    c[k++].i = s->delay_max;
    c[k++].i = (int64_t)s->delay_outliers;
    c[k++].i = (int64_t)s->graph_kernels;
    c[k++].i = (int64_t)s->driver_launches;
    c[k++].i = (int64_t)s->launched;
    c[k++].i = (int64_t)s->launch_calls;
    c[k++].i = s->kernel_time;
    c[k++].i = s->short_kernel_time;
    c[k++].i = s->launch_cost;
    c[k++].i = (int64_t)s->cost_outliers;
    c[k++].i = (int64_t)s->graph_launches;
    return k;
}

static int rank_rows(const gs_launch_summary *s, gs_table *out)
{
    gs_table_init(out, rank_columns, COUNT_OF(rank_columns), "no traces selected");
    for (size_t r = 0; r < s->nranks; r++) {
        const gs_launch_rank *rk = &s->ranks[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[0].i = rk->rank;
        c[1].i = (int64_t)rk->nkept;
        c[2].f = rk->kernels_per_step;
        c[3].f = rk->launches_per_s;
        size_t k = 4 + put_stats(c + 4, &rk->kept);
        c[k].i = (int64_t)rk->total.kernels;
    }
    return 0;
}

static int step_rows(const gs_launch_summary *s, gs_table *out)
{
    gs_table_init(out, step_columns, COUNT_OF(step_columns), "no steps in the selected traces");
    for (size_t r = 0; r < s->nranks; r++) {
        const gs_launch_rank *rk = &s->ranks[r];
        for (size_t i = 0; i < rk->nsteps; i++) {
            const gs_launch_step *st = &rk->steps[i];
            gs_cell *c = gs_table_add_row(out);
            if (!c)
                return -1;
            c[0].i = rk->rank;
            c[1].i = st->number;
            c[2].text = st->warmup ? "yes" : NULL;
            c[3].f = st->launches_per_s;
            size_t k = 4 + put_stats(c + 4, &st->s);
            c[k].i = st->end - st->start;
        }
    }
    return 0;
}

int gs_launch_table(const gs_launch_summary *s, bool per_step, gs_table *out)
{
    return per_step ? step_rows(s, out) : rank_rows(s, out);
}
