/* gpuscope idle: where the GPU waits (temporal breakdown, idle gaps, the largest gaps with what
 * the host was doing). */
#include "analysis/trace/idle.h"
#include "analysis/trace/temporal.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "common/util.h"
#include "render/idle_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/idle.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char intro[] =
    "usage: gpuscope idle [OPTIONS] TRACE...\n"
    "\n"
    "Where the GPU waits: the temporal breakdown per rank (idle, compute, non-compute\n"
    "over the GPU window), idle gaps per stream and GPU-wide classified host-wait,\n"
    "kernel-wait or other, the largest gaps with what the host was doing during\n"
    "them, and GPU idle time per step.\n"
    "\n"
    "By default, when a trace has steps, only its kept steps count: the warm-up\n"
    "steps and the time outside every step are left out, as the line above the\n"
    "results says. Host events count where they start, GPU work where the call\n"
    "that launched it started.\n"
    "\n";

enum { HTA };  /* its flag */
enum { GAPS }; /* its count */

static const gs_cli_flag flags[] = {
    [HTA] = {"hta", .help = "reproduce Holistic Trace Analysis: drop the last ProfilerStep\n"
                            "and GPU work without a launch call before it, round times to\n"
                            "whole us, classify kernels by HTA's names, sum per-stream gaps\n"
                            "between consecutive activities as HTA does"},
};
static const gs_cli_count counts[] = {
    [GAPS] = {"gaps", .max = 1000000, .initial = GS_IDLE_DEFAULT_GAPS, .arg = "N",
              .help = "list the N largest gaps of 1 ms or 5 % of their step or more\n"
                      "(default: 10; 0 lists none)"},
};

static const char *const help_order[] = {"gaps", "hta", NULL};

static const char *const defined_keys[] = {"window_ns", "idle_ns", "compute_ns",
                                            "non_compute_ns", NULL};

/* The times defined are columns of the temporal breakdown; the classes of gaps are values of the
 * gaps' Class column (and name columns of several tables), so they are defined here. */
static const gs_cli_help_part help_parts[] = {
    {"\ndefinitions:\n", {gs_idle_temporal_columns}, .indent = 15, .keys = defined_keys},
    {"  host-wait    the launch call of the work after the gap began after the work\n"
     "               before it ended\n"
     "  kernel-wait  not host-wait and shorter than 30 us\n"
     "  other        the remaining gaps\n"
     "Durations are whole ns in csv and json; csv writes one block per section.\n"},
};

typedef struct idle_state {
    gs_temporal temporal;
    gs_idle idle;
} idle_state;

static int init(const gs_view_args *a, void *state, gs_error *err)
{
    idle_state *s = state;
    const gs_idle_opts opts = {.max_gaps = a->count[GAPS], .hta_compat = a->flag[HTA]};
    return gs_idle_init(&s->idle, &opts, err);
}

static int add(const gs_trace_ctx *c, const gs_view_args *a, void *state, gs_error *err)
{
    idle_state *s = state;
    return gs_temporal_add(&s->temporal, c, a->flag[HTA], err) != 0 ||
                   gs_idle_add(&s->idle, c, err) != 0
               ? -1
               : 0;
}

static int finish(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    idle_state *s = state;
    gs_temporal_finish(&s->temporal);
    return gs_idle_finish(&s->idle, err);
}

static int render(FILE *out, void *state, const gs_view_args *a, const gs_text_style *style)
{
    idle_state *s = state;
    gs_idle_tables tables;
    int rc = gs_idle_tables_make(&s->temporal, &s->idle, &tables);
    if (rc == 0)
        rc = gs_render_idle(out, &tables, &s->idle, a->flag[HTA], &a->window, a->cli.format, style,
                            a->cli.limit);
    gs_idle_tables_free(&tables);
    return rc;
}

/* HTA selects its own steps (it drops the last one): the whole trace, unless a window is asked
 * for. */
static void context(const gs_view_args *a, gs_ctx_opts *o)
{
    const gs_window_spec *w = &a->cli.select.window;
    if (a->flag[HTA] && !w->has_from && !w->has_to && !w->range && !a->cli.steps.regex &&
        !a->cli.steps.keep_warmup)
        o->window.on = false;
}

static void free_idle(void *state)
{
    idle_state *s = state;
    gs_idle_free(&s->idle);
    gs_temporal_free(&s->temporal);
}

const gs_view gs_view_idle = {
    .spec = {.command = "idle",
             .help = {.intro = intro, .order = help_order,
                      .limit = "show the first N rows of each section (default: all)",
                      .parts = help_parts, .nparts = COUNT_OF(help_parts)},
             .csv = true, .step = true, .keep_warmup = true, .window = true, .flags = flags,
             .nflags = 1, .counts = counts, .ncounts = 1},
    .summary = "GPU idle time per rank, idle gaps and what the host was doing",
    .state_size = sizeof(idle_state),
    .init = init,
    .add = add,
    .finish = finish,
    .render = render,
    .free = free_idle,
    .context = context,
};
