#include "render/launch_tables.h"
#include "common/util.h"

#include <math.h>

/* The numbers of one window, after the columns that say which window it is (`first`). JSON-only
 * columns carry the sums the shown ones are made from. */
enum stats_col {
    STATS_COL_KERNELS, STATS_COL_MED_KERNEL_NS, STATS_COL_MED_LAUNCH_NS, STATS_COL_SHORT_KERNELS,
    STATS_COL_SHORT_PCT, STATS_COL_SHORT_TIME_PCT, STATS_COL_DELAY_MED_NS, STATS_COL_DELAY_P95_NS,
    STATS_COL_DELAY_MAX_NS, STATS_COL_DELAY_OUTLIERS, STATS_COL_GRAPH_KERNELS,
    STATS_COL_DRIVER_LAUNCHES, STATS_COL_LAUNCHED, STATS_COL_LAUNCH_CALLS, STATS_COL_KERNEL_TIME_NS,
    STATS_COL_SHORT_KERNEL_TIME_NS, STATS_COL_LAUNCH_COST_NS, STATS_COL_COST_OUTLIERS,
    STATS_COL_GRAPH_LAUNCHES, STATS_NCOLS
};

#define LAUNCH_STATS_COLUMNS(first)                                                                \
    [(first) + STATS_COL_KERNELS] = {"kernels", "kernels", "Kernels", "Kernels", GS_COL_COUNT,     \
                                     GS_COL_JSON_ONLY},                                            \
    [(first) + STATS_COL_MED_KERNEL_NS] = {"med_kernel_ns", "med_kernel", "Med Kernel",            \
                                           "Med Kernel (ns)", GS_COL_NS, 0,                        \
                                           "median kernel duration"},                              \
    [(first) + STATS_COL_MED_LAUNCH_NS] = {"med_launch_ns", "med_launch", "Med Launch",            \
                                           "Med Launch (ns)", GS_COL_NS, 0,                        \
                                           "median duration of the launching API calls"},          \
    [(first) + STATS_COL_SHORT_KERNELS] = {                                                        \
        "short_kernels", "short", "Short", "Short Kernels", GS_COL_COUNT, 0,                       \
        "kernels shorter than their launch call, the call <= 50 us"},                              \
    [(first) + STATS_COL_SHORT_PCT] = {"short_pct", "short_pct", "Short (%)", "Short (%)",         \
                                       GS_COL_PCT, 0,                                              \
                                       "Short / kernels with a launch call x 100"},                \
    [(first) + STATS_COL_SHORT_TIME_PCT] = {"short_time_pct", "short_time", "Short Time (%)",      \
                                            "Short Time (%)", GS_COL_PCT, 0,                       \
                                            "time in short kernels / kernel time x 100"},          \
    [(first) + STATS_COL_DELAY_MED_NS] = {"delay_med_ns", "delay_med", "Delay Med",                \
                                          "Delay Med (ns)", GS_COL_NS, 0,                          \
                                          "launch delay: kernel start - launch call end (>= 0)"},  \
    [(first) + STATS_COL_DELAY_P95_NS] = {"delay_p95_ns", "delay_p95", "Delay P95",                \
                                          "Delay P95 (ns)", GS_COL_NS, 0, ""},                     \
    [(first) + STATS_COL_DELAY_MAX_NS] = {"delay_max_ns", "delay_max", "Delay Max",                \
                                          "Delay Max (ns)", GS_COL_NS, 0, ""},                     \
    [(first) + STATS_COL_DELAY_OUTLIERS] = {"delay_outliers", "delay_outliers", "Delay >100us",    \
                                            "Delay >100us", GS_COL_COUNT, 0,                       \
                                            "launches delayed more than 100 us"},                  \
    [(first) + STATS_COL_GRAPH_KERNELS] = {                                                        \
        "graph_kernels", "graph", "Graph", "Graph Kernels", GS_COL_COUNT, 0,                       \
        "kernels run from a CUDA graph (graph id or graph launch)"},                               \
    [(first) + STATS_COL_DRIVER_LAUNCHES] = {"driver_launches", "driver", "Driver",                \
                                             "Driver Launches", GS_COL_COUNT, 0,                   \
                                             "kernels launched by cuLaunchKernel (Triton) or\n"    \
                                             "hip(Ext)ModuleLaunchKernel"},                        \
    [(first) + STATS_COL_LAUNCHED] = {"launched", "launched", "Launched", "Launched",              \
                                      GS_COL_COUNT, GS_COL_JSON_ONLY},                             \
    [(first) + STATS_COL_LAUNCH_CALLS] = {"launch_calls", "launch_calls", "Launch Calls",          \
                                          "Launch Calls", GS_COL_COUNT, GS_COL_JSON_ONLY},         \
    [(first) + STATS_COL_KERNEL_TIME_NS] = {"kernel_time_ns", "kernel_time", "Kernel Time",        \
                                            "Kernel Time (ns)", GS_COL_NS, GS_COL_JSON_ONLY},      \
    [(first) + STATS_COL_SHORT_KERNEL_TIME_NS] = {"short_kernel_time_ns", "short_kernel_time",     \
                                                  "Short Kernel Time", "Short Kernel Time (ns)",   \
                                                  GS_COL_NS, GS_COL_JSON_ONLY},                    \
    [(first) + STATS_COL_LAUNCH_COST_NS] = {"launch_cost_ns", "launch_cost", "Launch Cost",        \
                                            "Launch Cost (ns)", GS_COL_NS, GS_COL_JSON_ONLY},      \
    [(first) + STATS_COL_COST_OUTLIERS] = {"cost_outliers", "cost_outliers", "Launch >50us",       \
                                           "Launch >50us", GS_COL_COUNT, GS_COL_JSON_ONLY},        \
    [(first) + STATS_COL_GRAPH_LAUNCHES] = {"graph_launches", "graph_launches", "Graph Launches",  \
                                            "Graph Launches", GS_COL_COUNT, GS_COL_JSON_ONLY}

/* The columns both tables have besides the numbers above. */
#define RANK_COLUMN {"rank", "rank", "Rank", "Rank", GS_COL_COUNT, 0, "the trace's rank"}
#define LAUNCHES_PER_S_COLUMN                                                                      \
    {"launches_per_s", "launches_per_s", "Launches/s", "Launches/s", GS_COL_FLOAT, 0,              \
     "launch calls / step time, in seconds"}

enum rank_col {
    RANK_COL_RANK, RANK_COL_STEPS, RANK_COL_KERNELS_PER_STEP, RANK_COL_LAUNCHES_PER_S,
    RANK_COL_STATS, RANK_COL_GRAPH_PCT = RANK_COL_STATS + STATS_NCOLS, RANK_COL_KERNELS_PER_GRAPH,
    RANK_COL_GRAPH_INSTANTIATIONS, RANK_COL_TRACE_KERNELS, RANK_COL_GRAPH_CAPTURES,
    RANK_COL_CAPTURED_LAUNCHES, RANK_COL_TRACE_GRAPH_LAUNCHES, RANK_COL_TRACE_GRAPH_KERNELS,
    RANK_NCOLS
};

static const gs_column rank_columns[] = {
    [RANK_COL_RANK] = RANK_COLUMN,
    [RANK_COL_STEPS] = {"steps", "steps", "Steps", "Steps", GS_COL_COUNT, 0,
                        "kept steps (warm-up left out unless --keep-warmup)"},
    [RANK_COL_KERNELS_PER_STEP] = {"kernels_per_step", "kernels_per_step", "Kernels/Step",
                                   "Kernels/Step", GS_COL_FLOAT, 0,
                                   "kernels in the kept steps / Steps"},
    [RANK_COL_LAUNCHES_PER_S] = LAUNCHES_PER_S_COLUMN,
    LAUNCH_STATS_COLUMNS(RANK_COL_STATS),
    /* CUDA graphs (doc/launch.md): the share over the kept steps, the calls over the trace, as
     * graphs are captured and instantiated once, often before the first kept step. */
    [RANK_COL_GRAPH_PCT] = {"graph_kernel_pct", "graph_pct", "Graph (%)", "Graph (%)", GS_COL_PCT,
                            0, "Graph / kernels x 100 (per-rank rows)"},
    [RANK_COL_KERNELS_PER_GRAPH] = {"kernels_per_graph_launch", "kernels_per_graph",
                                    "Kernels/Graph", "Kernels/Graph", GS_COL_FLOAT, 0,
                                    "Graph / cudaGraphLaunch calls in the kept steps"},
    [RANK_COL_GRAPH_INSTANTIATIONS] = {
        "graph_instantiations", "graphs_instantiated", "Graphs Inst.", "Graphs Instantiated",
        GS_COL_COUNT, 0,
        "cudaGraphInstantiate calls in the whole trace; graphs\n"
        "instantiated but hardly launched are a verdict in report"},
    [RANK_COL_TRACE_KERNELS] = {"trace_kernels", "trace_kernels", "Trace Kernels", "Trace Kernels",
                                GS_COL_COUNT, GS_COL_JSON_ONLY},
    [RANK_COL_GRAPH_CAPTURES] = {"graph_captures", "graph_captures", "Graph Captures",
                                 "Graph Captures", GS_COL_COUNT, GS_COL_JSON_ONLY},
    [RANK_COL_CAPTURED_LAUNCHES] = {"captured_launches", "captured_launches", "Captured Launches",
                                    "Captured Launches", GS_COL_COUNT, GS_COL_JSON_ONLY},
    [RANK_COL_TRACE_GRAPH_LAUNCHES] = {"trace_graph_launches", "trace_graph_launches",
                                       "Trace Graph Launches", "Trace Graph Launches",
                                       GS_COL_COUNT, GS_COL_JSON_ONLY},
    [RANK_COL_TRACE_GRAPH_KERNELS] = {"trace_graph_kernels", "trace_graph_kernels",
                                      "Trace Graph Kernels", "Trace Graph Kernels", GS_COL_COUNT,
                                      GS_COL_JSON_ONLY},
};
_Static_assert(COUNT_OF(rank_columns) == RANK_NCOLS, "one column per enum rank_col");

enum step_col {
    STEP_COL_RANK, STEP_COL_STEP, STEP_COL_WARMUP, STEP_COL_LAUNCHES_PER_S, STEP_COL_STATS,
    STEP_COL_DURATION_NS = STEP_COL_STATS + STATS_NCOLS, STEP_NCOLS
};

static const gs_column step_columns[] = {
    [STEP_COL_RANK] = RANK_COLUMN,
    [STEP_COL_STEP] = {"step", "step", "Step", "Step", GS_COL_COUNT, 0,
                       "the step's number; yes for a warm-up step (--per-step)"},
    [STEP_COL_WARMUP] = {"warmup", "warmup", "Warm-up", "Warm-up", GS_COL_TEXT, 0, ""},
    [STEP_COL_LAUNCHES_PER_S] = LAUNCHES_PER_S_COLUMN,
    LAUNCH_STATS_COLUMNS(STEP_COL_STATS),
    [STEP_COL_DURATION_NS] = {"duration_ns", "duration", "Duration", "Duration (ns)", GS_COL_NS,
                              GS_COL_JSON_ONLY},
};
_Static_assert(COUNT_OF(step_columns) == STEP_NCOLS, "one column per enum step_col");

static double share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* Fills the stats columns of one window; `c` points at the first of them. */
static void put_stats(gs_cell *c, const gs_launch_stats *s)
{
    c[STATS_COL_KERNELS].i = (int64_t)s->kernels;
    c[STATS_COL_MED_KERNEL_NS].i = s->med_kernel;
    c[STATS_COL_MED_LAUNCH_NS].i = s->med_launch_cost;
    c[STATS_COL_SHORT_KERNELS].i = (int64_t)s->short_kernels;
    c[STATS_COL_SHORT_PCT].f = share(s->short_kernels, s->launched);
    c[STATS_COL_SHORT_TIME_PCT].f = s->short_time_pct;
    c[STATS_COL_DELAY_MED_NS].i = s->delay_med;
    c[STATS_COL_DELAY_P95_NS].i = s->delay_p95;
    c[STATS_COL_DELAY_MAX_NS].i = s->delay_max;
    c[STATS_COL_DELAY_OUTLIERS].i = (int64_t)s->delay_outliers;
    c[STATS_COL_GRAPH_KERNELS].i = (int64_t)s->graph_kernels;
    c[STATS_COL_DRIVER_LAUNCHES].i = (int64_t)s->driver_launches;
    c[STATS_COL_LAUNCHED].i = (int64_t)s->launched;
    c[STATS_COL_LAUNCH_CALLS].i = (int64_t)s->launch_calls;
    c[STATS_COL_KERNEL_TIME_NS].i = s->kernel_time;
    c[STATS_COL_SHORT_KERNEL_TIME_NS].i = s->short_kernel_time;
    c[STATS_COL_LAUNCH_COST_NS].i = s->launch_cost;
    c[STATS_COL_COST_OUTLIERS].i = (int64_t)s->cost_outliers;
    c[STATS_COL_GRAPH_LAUNCHES].i = (int64_t)s->graph_launches;
}

static int fill_rank_table(const gs_launch_summary *s, gs_table *out)
{
    gs_table_init(out, rank_columns, COUNT_OF(rank_columns), "no traces selected");
    for (size_t r = 0; r < s->nranks; r++) {
        const gs_launch_rank *rk = &s->ranks[r];
        gs_cell *c = gs_table_add_row(out);
        if (!c)
            return -1;
        c[RANK_COL_RANK].i = rk->rank;
        c[RANK_COL_STEPS].i = (int64_t)rk->nkept;
        c[RANK_COL_KERNELS_PER_STEP].f = rk->kernels_per_step;
        c[RANK_COL_LAUNCHES_PER_S].f = rk->launches_per_s;
        put_stats(c + RANK_COL_STATS, &rk->kept);
        c[RANK_COL_GRAPH_PCT].f = share(rk->kept.graph_kernels, rk->kept.kernels);
        /* No graph launch in the kept steps: kernels per launch is not a number. */
        c[RANK_COL_KERNELS_PER_GRAPH].f =
            rk->kept.graph_launches
                ? (double)rk->kept.graph_kernels / (double)rk->kept.graph_launches
                : NAN;
        c[RANK_COL_GRAPH_INSTANTIATIONS].i = (int64_t)rk->graphs.instantiations;
        c[RANK_COL_TRACE_KERNELS].i = (int64_t)rk->total.kernels;
        c[RANK_COL_GRAPH_CAPTURES].i = (int64_t)rk->graphs.captures;
        c[RANK_COL_CAPTURED_LAUNCHES].i = (int64_t)rk->graphs.captured_launches;
        c[RANK_COL_TRACE_GRAPH_LAUNCHES].i = (int64_t)rk->graphs.launches;
        c[RANK_COL_TRACE_GRAPH_KERNELS].i = (int64_t)rk->graphs.graph_kernels;
    }
    return 0;
}

static int fill_step_table(const gs_launch_summary *s, gs_table *out)
{
    gs_table_init(out, step_columns, COUNT_OF(step_columns), "no steps in the selected traces");
    for (size_t r = 0; r < s->nranks; r++) {
        const gs_launch_rank *rk = &s->ranks[r];
        for (size_t i = 0; i < rk->nsteps; i++) {
            const gs_launch_step *st = &rk->steps[i];
            gs_cell *c = gs_table_add_row(out);
            if (!c)
                return -1;
            c[STEP_COL_RANK].i = rk->rank;
            c[STEP_COL_STEP].i = st->number;
            c[STEP_COL_WARMUP].text = st->warmup ? "yes" : NULL;
            c[STEP_COL_LAUNCHES_PER_S].f = st->launches_per_s;
            put_stats(c + STEP_COL_STATS, &st->s);
            c[STEP_COL_DURATION_NS].i = st->end - st->start;
        }
    }
    return 0;
}

const gs_column *gs_launch_columns(bool per_step, size_t *ncols)
{
    *ncols = per_step ? COUNT_OF(step_columns) : COUNT_OF(rank_columns);
    return per_step ? step_columns : rank_columns;
}

int gs_launch_table(const gs_launch_summary *s, bool per_step, gs_table *out)
{
    return per_step ? fill_step_table(s, out) : fill_rank_table(s, out);
}
