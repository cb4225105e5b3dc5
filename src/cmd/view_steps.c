/* gpuscope steps: the steps of each trace, their statistics and warm-up (doc/design.md §10). */
#include <stdlib.h>

#include "analysis/base/steps.h"
#include "cmd/cmd.h"
#include "cmd/view.h"
#include "common/util.h"
#include "render/step_tables.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/steps.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char intro[] =
    "usage: gpuscope steps [OPTIONS] TRACE...\n"
    "\n"
    "The steps of each trace: where they come from, step-time statistics over\n"
    "the kept steps, and one row per step. Steps are the ProfilerStep#N ranges,\n"
    "else the iterations of the repeating sequence of GPU launches (detected,\n"
    "with the launches per step and the share that repeats), else the whole\n"
    "trace after its start-up; each runs from the end of the step before it to\n"
    "the end of the GPU work it launched, as the TensorBoard profiler plugin's\n"
    "steps do, so Duration can be longer or shorter than the host's range.\n"
    "\n";

static const gs_cli_help_part help_parts[] = {
    {"\n"
     "statistics (over the kept steps):\n"
     "  mean, std       mean and population standard deviation\n"
     "  min, max        shortest and longest step\n"
     "  med, p95, p99   nearest-rank percentiles (rank = ceil(p/100 x n))\n"
     "\n"
     "columns:\n",
     {gs_step_columns}, .indent = 18},
    {"Durations are whole ns in csv and json.\n"},
};

/* The steps of each selected trace. */
typedef struct steps_state {
    gs_steps_view *views;
    size_t n;
} steps_state;

static void free_steps(void *state)
{
    steps_state *s = state;
    for (size_t i = 0; i < s->n; i++)
        gs_steps_free(&s->views[i].steps);
    free(s->views);
}

static int build(const gs_profile *p, const gs_view_args *a, void *state, gs_error *err)
{
    steps_state *s = state;
    s->views = calloc(p->traces.n ? p->traces.n : 1, sizeof *s->views);
    if (!s->views)
        return gs_fail_oom(err);
    for (size_t i = 0; i < p->traces.n; i++) {
        const gs_trace *t = p->traces.v[i];
        if (!gs_selected(&a->cli.select, t))
            continue;
        s->views[s->n].trace = t;
        if (gs_steps_find(t, &a->cli.steps, &s->views[s->n].steps, err) != 0) {
            free_steps(s);
            return -1;
        }
        s->n++;
    }
    return 0;
}

static int render(FILE *out, void *state, const gs_view_args *a, const gs_text_style *style)
{
    steps_state *s = state;
    return gs_render_steps(out, s->views, s->n, a->cli.format, style, a->cli.limit);
}

const gs_view gs_view_steps = {
    .spec = {.command = "steps",
             .help = {.intro = intro,
                      .step = "steps are the annotation or NVTX ranges matching REGEX\n"
                              "(POSIX extended regex)",
                      .keep_warmup = "count the warm-up steps in the statistics too",
                      .limit = "show the first N steps of each trace (default: all)",
                      .parts = help_parts, .nparts = COUNT_OF(help_parts)},
             .csv = true, .step = true, .keep_warmup = true},
    .summary = "steps found, warm-up, step-time statistics and per-step table",
    .state_size = sizeof(steps_state),
    .build = build,
    .render = render,
    .free = free_steps,
};
