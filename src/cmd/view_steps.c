/* gpuscope steps: the steps of each trace, their statistics and warm-up (doc/design.md §10). */
#include <stdlib.h>
#include <string.h>

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

static const char *const stat_keys[] = {"mean_ns", "std_ns", "min_ns", "max_ns",
                                        "med_ns",  "p95_ns", "p99_ns", NULL};

static const gs_cli_help_part help_parts[] = {
    {"\nstatistics (over the kept steps):\n", {gs_step_stat_columns}, .indent = 18, .keys = stat_keys},
    {"\ncolumns:\n", {gs_step_columns}, .indent = 18},
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
    for (size_t i = 0; i < s->n; i++) {
        gs_rank_id_free(&s->views[i].id);
        gs_steps_free(&s->views[i].steps);
    }
    free(s->views);
    memset(s, 0, sizeof *s);
}

static int add(const gs_trace_ctx *c, const gs_view_args *a, void *state, gs_error *err)
{
    (void)a;
    steps_state *s = state;
    gs_steps_view *grown = realloc(s->views, (s->n + 1) * sizeof *grown);
    if (!grown)
        return gs_fail_oom(err);
    s->views = grown;
    gs_steps_view *v = &s->views[s->n];
    memset(v, 0, sizeof *v);
    gs_ns last;
    gs_trace_span(c->trace, &v->origin, &last);
    if (gs_rank_id_copy(&v->id, &c->trace->id) != 0 || gs_steps_copy(&v->steps, &c->steps) != 0) {
        gs_rank_id_free(&v->id);
        return gs_fail_oom(err);
    }
    s->n++;
    return 0;
}

static int cmp_view(const void *a, const void *b)
{
    return gs_rank_id_cmp(&((const gs_steps_view *)a)->id, &((const gs_steps_view *)b)->id);
}

static int finish(const gs_view_args *a, void *state, gs_error *err)
{
    (void)a, (void)err;
    steps_state *s = state;
    if (s->n > 1)
        qsort(s->views, s->n, sizeof *s->views, cmp_view);
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
    .add = add,
    .finish = finish,
    .render = render,
    .free = free_steps,
};
