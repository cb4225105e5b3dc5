/* gpuscope whatif: what a change would buy, from a replay of each trace's kept steps with the
 * change applied (analysis/replay/replay.h), instead of an upper bound per bottleneck. */
#include <stdio.h>
#include <string.h>

#include "analysis/pipeline/whatif.h"
#include "cmd/cmd.h"
#include "cmd/options.h"
#include "cmd/rank_cli.h"
#include "cmd/say.h"
#include "common/util.h"
#include "render/whatif.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/whatif.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char whatif_intro[] =
    "usage: gpuscope whatif [OPTIONS] TRACE... [--action NAME[,NAME...]]\n"
    "\n"
    "What a change would buy: each trace's kept steps are replayed on a model of\n"
    "their events and dependencies, unchanged (against the trace: exact, and\n"
    "structural, with the waits the dependencies do not explain cut: the model's\n"
    "accuracy), then with each action alone, best first. With --action, the chosen\n"
    "actions together beside each alone and the product of their speedups: changes\n"
    "interact, so together is not the product.\n"
    "\n";

static const char *const help_order[] = {"action", "workers", "explain", NULL};

static const char *const defined_keys[] = {
    "steps", "measured_step_ns", "replay_step_ns", "replay_error_pct", "expected_step_ns",
    "expected_speedup", "alone_product", "host_before_ns", "host_after_ns", "gpu_before_ns",
    "gpu_after_ns", "items", "why", NULL};

/* The actions for --help as a column list (name, then title), made from the replay's table so
 * that --help names exactly the actions --action takes. */
static const gs_column *action_columns(size_t *ncols)
{
    static gs_column cols[GS_REPLAY__COUNT - 1];
    for (int a = GS_REPLAY_NONE + 1; a < GS_REPLAY__COUNT; a++) {
        const gs_replay_action_info *info = gs_replay_action_get(a);
        cols[a - 1] = (gs_column){info->name, info->name, info->name, info->name, GS_COL_TEXT, 0,
                                  info->title};
    }
    *ncols = COUNT_OF(cols);
    return cols;
}

static const gs_cli_help_part help_parts[] = {
    {"\nactions (doc/whatif.md says what each changes and assumes, as --explain):\n",
     {action_columns}, .indent = 22},
    {"\ndefinitions:\n",
     {gs_whatif_rank_columns, gs_whatif_together_columns, gs_whatif_alone_columns},
     .indent = 17, .keys = defined_keys},
    {"Durations are whole ns in csv and json; csv writes one block per section.\n"},
};

/* Refuses --action's list: every action's name follows the message. */
static int refuse_actions(const char *what, const char *arg)
{
    char fmt[1024];
    size_t at = (size_t)snprintf(fmt, sizeof fmt, "%s; actions:", what);
    for (int a = GS_REPLAY_NONE + 1; a < GS_REPLAY__COUNT && at < sizeof fmt; a++)
        at += (size_t)snprintf(fmt + at, sizeof fmt - at, " %s", gs_replay_action_get(a)->name);
    return gs_cli_usage("whatif", fmt, arg);
}

/* --action NAME[,NAME...] into *set; a name given twice counts once. GS_CLI_RUN or exit 2. */
static int parse_actions(const char *list, gs_replay_set *set)
{
    *set = 0;
    for (const char *p = list;; p++) {
        size_t len = strcspn(p, ",");
        if (!len)
            return refuse_actions("--action takes action names separated by commas, not '%s'",
                                  list);
        enum gs_replay_action a = gs_replay_action_find(p, len);
        if (a == GS_REPLAY_NONE) {
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(len < 255 ? len : 255), p);
            return refuse_actions("no action is named '%s'", name);
        }
        *set |= GS_REPLAY_BIT(a);
        p += len;
        if (!*p)
            return GS_CLI_RUN;
    }
}

static int add_trace(const gs_trace_ctx *c, void *user, gs_error *err)
{
    gs_cli_note_losses(c->trace->id.path, c->trace->lost);
    return gs_whatif_add(user, c, err);
}

/* Exit 3 when no trace had anything to replay: the first one's reason. */
static int nothing_replayed(const gs_whatif *w)
{
    const gs_whatif_rank *r = &w->ranks[0];
    if (w->n == 1)
        gs_say("%s: nothing to replay: %s", r->path, r->why);
    else
        gs_say("whatif: none of the %zu traces has anything to replay (%s: %s)", w->n, r->path,
               r->why);
    return GS_EXIT_INPUT;
}

static int replay_inputs(const gs_cli *cli, const gs_rank_inputs *in, gs_whatif *w, bool explain)
{
    gs_cli_progress prog;
    gs_rank_load_opts o = {.ctx = {.steps = cli->steps}, .select = cli->select,
                           .load = gs_cli_progress_start(&prog)};
    gs_error err;
    int rc = gs_traces_each(in, &o, add_trace, w, &err);
    gs_cli_progress_end(&prog);
    if (rc != 0)
        return gs_cli_pipeline_fail(cli, &err);
    gs_whatif_finish(w);
    if (!w->replayed)
        return nothing_replayed(w);
    gs_text_style style = gs_cli_text_style();
    return gs_render_whatif(stdout, w, explain, cli->format, &style) == 0
               ? GS_EXIT_OK
               : gs_cli_out_of_memory();
}

int cmd_whatif(int argc, char **argv)
{
    const char *actions = NULL;
    double workers = 0;
    bool explain = false;
    const gs_cli_flag flags[] = {
        {"explain", &explain,
         .help = "also the model's inputs, what each action changes and\n"
                 "assumes, and every step replayed"},
    };
    const gs_cli_number numbers[] = {
        {"workers", &workers, 1, 1024, true,
         "--workers takes a whole number of DataLoader workers from 1 to 1024, not '%s'",
         .arg = "K",
         .help = "DataLoader workers after the change when the trace loads in\n"
                 "the main process (dataloader_workers; default 4); with\n"
                 "workers already, their number is unknown: twice as many"},
    };
    const gs_cli_text texts[] = {
        {"action", &actions, .arg = "NAMES",
         .help = "replay the actions NAMES (names below, separated by\n"
                 "commas) together, and each alone beside them"},
    };
    const gs_cli_spec spec = {
        .command = "whatif",
        .help = {.intro = whatif_intro, .order = help_order,
                 .keep_warmup = "count the warm-up steps too (replayed as kept steps)",
                 .parts = help_parts, .nparts = COUNT_OF(help_parts)},
        .csv = true, .step = true, .keep_warmup = true, .no_limit = true,
        .flags = flags, .nflags = COUNT_OF(flags), .numbers = numbers,
        .nnumbers = COUNT_OF(numbers), .texts = texts, .ntexts = COUNT_OF(texts)};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN)
        return rc;
    gs_whatif w = {.params = {.dataloader_workers = (int)workers}};
    if (actions && (rc = parse_actions(actions, &w.actions)) != GS_CLI_RUN)
        return rc;
    gs_rank_inputs in;
    if ((rc = gs_cli_list_ranks(&cli, false, &in)) != GS_CLI_RUN)
        return rc;
    rc = replay_inputs(&cli, &in, &w, explain);
    gs_whatif_free(&w);
    gs_rank_inputs_free(&in);
    return rc;
}
