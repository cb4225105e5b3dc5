#include "cmd/rank_cli.h"

#include "cmd/say.h"

int gs_cli_list_ranks(const gs_cli *cli, bool with_gsum, gs_rank_inputs *out)
{
    gs_error err;
    return gs_rank_inputs_list(cli->paths, cli->npaths, with_gsum, out, &err) == 0
               ? GS_CLI_RUN
               : gs_cli_fail(&err);
}

gs_rank_load_opts gs_cli_rank_opts(const gs_cli *cli, unsigned stages, bool detail)
{
    return (gs_rank_load_opts){.ctx = {.steps = cli->steps},
                               .summary = {.stages = stages, .detail = detail},
                               .select = cli->select};
}

int gs_cli_pipeline_fail(const gs_cli *cli, const gs_error *err)
{
    if (err->code != GS_EXIT_USAGE)
        return gs_cli_fail(err);
    gs_say("%s: %s", cli->spec->command, err->msg);
    return GS_EXIT_USAGE;
}

int gs_cli_run_pipeline(const gs_cli *cli, const gs_rank_inputs *in, const gs_pipeline_opts *o,
                        gs_report *out)
{
    gs_cli_progress prog;
    gs_pipeline_opts opts = *o;
    opts.load.load = gs_cli_progress_start(&prog);
    gs_error err;
    int rc = gs_pipeline_report(in, &opts, out, &err);
    gs_cli_progress_end(&prog);
    for (size_t i = 0; rc == 0 && i < out->nsummaries; i++)
        gs_cli_note_losses(out->summaries[i].id.path, out->summaries[i].events.lost);
    return rc == 0 ? GS_CLI_RUN : gs_cli_pipeline_fail(cli, &err);
}
