/* The one body of every view command: parse → load → build → print → free. */
#include "cmd/view.h"

#include <stdlib.h>

#include "analysis/base/stage_times.h"
#include "cmd/rank_cli.h"
#include "cmd/say.h"
#include "common/log.h"
#include "render/json.h"

/* The parser writes an option through its value pointer; a view's entry cannot hold one (it is
 * shared and constant), so its options are bound to this run's arguments here. */
typedef struct bound_spec {
    gs_cli_spec spec;
    gs_cli_flag flags[GS_CLI_MAX_FLAGS];
    gs_cli_count counts[GS_CLI_MAX_COUNTS];
    gs_cli_text texts[GS_CLI_MAX_TEXTS];
} bound_spec;

static void bind_options(const gs_view *v, gs_view_args *a, bound_spec *b)
{
    b->spec = v->spec;
    b->spec.sort = v->columns != NULL;
    b->spec.nflags = v->spec.nflags < GS_CLI_MAX_FLAGS ? v->spec.nflags : GS_CLI_MAX_FLAGS;
    b->spec.ncounts = v->spec.ncounts < GS_CLI_MAX_COUNTS ? v->spec.ncounts : GS_CLI_MAX_COUNTS;
    for (size_t i = 0; i < b->spec.nflags; i++) {
        b->flags[i] = v->spec.flags[i];
        b->flags[i].value = &a->flag[i];
    }
    for (size_t i = 0; i < b->spec.ncounts; i++) {
        b->counts[i] = v->spec.counts[i];
        b->counts[i].value = &a->count[i];
        a->count[i] = v->spec.counts[i].initial;
    }
    b->spec.ntexts = v->spec.ntexts < GS_CLI_MAX_TEXTS ? v->spec.ntexts : GS_CLI_MAX_TEXTS;
    for (size_t i = 0; i < b->spec.ntexts; i++) {
        b->texts[i] = v->spec.texts[i];
        b->texts[i].value = &a->text[i];
    }
    b->spec.flags = b->flags;
    b->spec.counts = b->counts;
    b->spec.texts = b->texts;
}

/* The column --sort names (-1 when --sort was not given), checked before loading so a typo does
 * not wait for a large trace. */
static int sort_column(const gs_view *v, const gs_view_args *a, int *col)
{
    *col = -1;
    if (!a->cli.sort)
        return GS_CLI_RUN;
    size_t ncols;
    const gs_column *cols = v->columns(a, &ncols);
    *col = gs_columns_find_sort(cols, ncols, a->cli.sort);
    if (*col >= 0)
        return GS_CLI_RUN;
    char names[1024] = "";
    for (size_t c = 0; c < ncols; c++)
        if (!(cols[c].flags & GS_COL_JSON_ONLY))
            gs_log_append(names, sizeof names, " %s", cols[c].sort);
    gs_say("%s: cannot sort by '%s'; columns:%s", v->spec.command, a->cli.sort, names);
    return GS_EXIT_USAGE;
}

/* A one-table view: sorted by the --sort column (if any), cut to --limit rows, in --format. */
static int emit_table(FILE *out, const gs_view *v, const gs_view_args *a, const void *state,
                      int sort_col, const gs_text_style *style)
{
    gs_table table;
    int rc = v->table(state, a, &table);
    if (rc == 0 && sort_col >= 0)
        rc = gs_table_sort(&table, (size_t)sort_col);
    if (rc == 0) {
        gs_table_limit(&table, a->cli.limit);
        if (a->cli.format == GS_FORMAT_JSON && a->window.restricts) {
            gs_json_writer w;
            gs_json_writer_init(&w, out);
            gs_json_begin_object(&w, NULL, GS_JSON_BLOCK);
            gs_json_put_str(&w, "command", v->spec.command);
            gs_window_notes_json(&w, &a->window);
            gs_json_rows(&w, "rows", &table);
            gs_json_end(&w);
        } else {
            if (a->cli.format == GS_FORMAT_TABLE)
                gs_window_notes_text(out, &a->window, style);
            rc = gs_render(out, &table, a->cli.format, style, v->spec.command);
        }
    }
    gs_table_free(&table);
    return rc;
}

/* The trace contexts the view asks for under these options. */
static gs_ctx_opts context_opts(const gs_view *v, const gs_view_args *a)
{
    gs_ctx_opts o = {.steps = a->cli.steps, .window = a->cli.select.window};
    if (v->context)
        v->context(a, &o);
    return o;
}

/* The view's state, built from the traces one at a time. */
typedef struct view_run {
    const gs_view *v;
    gs_view_args *a;
    void *state;
    bool losses; /* say what each trace lost (on stderr) */
} view_run;

static int add_trace(const gs_trace_ctx *c, void *user, gs_error *err)
{
    view_run *r = user;
    if (r->losses)
        gs_cli_note_losses(c->trace->id.path, c->trace->lost);
    if (r->v->spec.window && gs_window_notes_add(&r->a->window, c) != 0)
        return gs_fail_oom(err);
    return r->v->add(c, r->a, r->state, err);
}

/* Writes the built view to `out`, then frees the state. */
static int write_state(FILE *out, const gs_view *v, gs_view_args *a, void *state, int sort_col,
                       const gs_text_style *style, gs_error *err)
{
    gs_window_notes_finish(&a->window);
    bool itself = v->render && (!v->renders || v->renders(a));
    int rc = itself ? v->render(out, state, a, style) : emit_table(out, v, a, state, sort_col, style);
    if (rc != 0)
        rc = gs_fail_oom(err);
    v->free(state);
    return rc;
}

/* Feeds the state each trace `each` gives (saying what each lost when `losses`), then writes the
 * view; -1 with `err` set. */
static int run_view(FILE *out, const gs_view *v, gs_view_args *a, int sort_col,
                    const gs_text_style *style, bool losses,
                    int (*each)(view_run *r, const void *from, gs_error *err), const void *from,
                    gs_error *err)
{
    void *state = calloc(1, v->state_size);
    if (!state)
        return gs_fail_oom(err);
    view_run r = {v, a, state, losses};
    int rc = v->init ? v->init(a, state, err) : 0;
    if (rc == 0)
        rc = each(&r, from, err);
    double since = gs_stage_clock();
    if (rc == 0 && v->finish)
        rc = v->finish(a, state, err);
    gs_stage_time_add(GS_TIMED_FINISH, since);
    if (rc == 0) {
        since = gs_stage_clock();
        rc = write_state(out, v, a, state, sort_col, style, err);
        gs_stage_time_add(GS_TIMED_RENDER, since);
    } else {
        v->free(state); /* what a failed step left: an analysis frees its own, so twice is fine */
    }
    free(state);
    gs_window_notes_free(&a->window);
    return rc;
}

/* The command's inputs, one trace at a time. */
static int each_input(view_run *r, const void *from, gs_error *err)
{
    gs_cli_progress prog;
    gs_rank_load_opts o = {.ctx = context_opts(r->v, r->a), .select = r->a->cli.select,
                           .load = gs_cli_progress_start(&prog)};
    int rc = gs_traces_each(from, &o, add_trace, r, err);
    gs_cli_progress_end(&prog);
    return rc;
}

int gs_view_run(const gs_view *v, int argc, char **argv)
{
    gs_view_args a = {0};
    bound_spec b;
    bind_options(v, &a, &b);
    int sort_col, rc = gs_cli_parse(&b.spec, argc, argv, &a.cli);
    if (rc != GS_CLI_RUN || (rc = sort_column(v, &a, &sort_col)) != GS_CLI_RUN)
        return rc;
    gs_rank_inputs in;
    if ((rc = gs_cli_list_ranks(&a.cli, false, &in)) != GS_CLI_RUN)
        return rc;
    gs_text_style style = gs_cli_text_style();
    gs_error err;
    rc = run_view(stdout, v, &a, sort_col, &style, true, each_input, &in, &err) == 0
             ? GS_EXIT_OK
             : gs_cli_pipeline_fail(&a.cli, &err);
    gs_rank_inputs_free(&in);
    return rc;
}

/* The traces of a loaded profile, each with its context. */
static int each_loaded(view_run *r, const void *from, gs_error *err)
{
    const gs_profile *p = from;
    const gs_ctx_opts o = context_opts(r->v, r->a);
    for (size_t i = 0; i < p->traces.n; i++) {
        gs_trace_ctx c;
        if (gs_trace_ctx_build(p->traces.v[i], &o, &c, err) != 0)
            return -1;
        int rc = add_trace(&c, r, err);
        gs_trace_ctx_free(&c);
        if (rc != 0)
            return -1;
    }
    return 0;
}

int gs_view_write_csv(const gs_view *v, const gs_profile *p, FILE *out, gs_error *err)
{
    gs_view_args a = {0};
    bound_spec b;
    bind_options(v, &a, &b);
    a.cli = (gs_cli){.spec = &b.spec, .format = GS_FORMAT_CSV};
    a.cli.select.window.on = v->spec.window; /* the view's default window: the kept steps */
    const gs_text_style style = {0};
    /* export said what the loaded traces lost */
    return run_view(out, v, &a, -1, &style, false, each_loaded, p, err);
}
