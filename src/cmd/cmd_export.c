/* gpuscope export: the traces as Chrome trace JSON, an SQLite database or the views' CSV. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "common/output_file.h"
#include "common/util.h"
#include "export/chrome.h"
#include "export/out_file.h"
#include "export/sqlite.h"

/* The start of --help: the rest is made from the spec and the column tables it names.
 * doc/export.md shows the whole; tests/cli/test_docs.sh keeps the two equal. */
static const char export_intro[] =
    "usage: gpuscope export [--format chrome|sqlite|csv] [-o OUT] TRACE...\n"
    "\n"
    "Writes the traces in another format: Chrome trace JSON in the PyTorch profiler\n"
    "(Kineto) dialect, which Perfetto, chrome://tracing, HTA and gpuscope read; an\n"
    "SQLite database with a schema modelled on nsys's export; or the view tables\n"
    "as CSV.\n"
    "\n";

static const char *const help_order[] = {"format", "output", "table", NULL};

static const gs_cli_help_part help_parts[] = {
    {"\n"
     "Several traces (ranks) make one output: in chrome each rank is a group of\n"
     "processes named \"rank R ...\"; in sqlite every table has a rank column; csv\n"
     "sums them as the views do.\n"},
};

enum export_format { EXPORT_CHROME, EXPORT_SQLITE, EXPORT_CSV };

static const char *const format_names[] = {[EXPORT_CHROME] = "chrome", [EXPORT_SQLITE] = "sqlite",
                                           [EXPORT_CSV] = "csv"};

/* --format csv: these views' tables, in the order a folder gets them. */
static const gs_view *const csv_views[] = {&gs_view_kernels, &gs_view_ops, &gs_view_api,
                                           &gs_view_memcpy};

enum { NCSV = COUNT_OF(csv_views), NO_TABLE = NCSV };

typedef struct export_args {
    size_t format; /* enum export_format */
    const char *out;
    size_t table; /* index into csv_views, or NO_TABLE */
} export_args;

static int usage_error(const char *message)
{
    return gs_cli_usage("export", "%s", message);
}

/* The rules between the options. */
static int check_options(const export_args *a)
{
    if (a->table != NO_TABLE && a->format != EXPORT_CSV)
        return usage_error("--table goes with --format csv");
    if (a->format == EXPORT_SQLITE && gs_out_is_stdout(a->out))
        return usage_error("--format sqlite needs -o FILE");
    if (a->format == EXPORT_CSV && a->table == NO_TABLE && gs_out_is_stdout(a->out))
        return usage_error("--format csv needs -o FOLDER, or --table NAME");
    return GS_CLI_RUN;
}

/* An output that is one of the traces read would destroy it. */
static int refuse_input(const gs_profile *all, const char *out, gs_error *err)
{
    for (size_t i = 0; i < all->traces.n; i++)
        if (gs_output_check_inputs(out, (const char *const *)&all->traces.v[i]->id.path, 1,
                                   err) != 0)
            return -1;
    return 0;
}

/* Writes a stream format (chrome, or one CSV table) to -o or standard output. */
static int write_stream(const gs_profile *p, const gs_cli *cli, const export_args *a,
                        gs_error *err)
{
    gs_out out;
    if (gs_out_open(&out, a->out, err) != 0)
        return -1;
    const char *name = gs_out_is_stdout(a->out) ? cli->paths[0] : a->out;
    int rc = a->format == EXPORT_CHROME
                 ? gs_export_chrome(p, out.f, name, err)
                 : gs_view_write_csv(csv_views[a->table], p, out.f, err);
    if (gs_out_close(&out, rc == 0, err) != 0)
        rc = -1;
    return rc;
}

/* Every CSV view into `dir` (created when absent) as NAME.csv; none may be one of the traces
 * read (`all`). */
static int write_csv_dir(const gs_profile *p, const gs_profile *all, const char *dir,
                         gs_error *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return gs_fail(err, GS_EXIT_ENV, "%s: cannot create the folder: %s", dir, strerror(errno));
    for (size_t i = 0; i < NCSV; i++) {
        char path[4096];
        if ((size_t)snprintf(path, sizeof path, "%s/%s.csv", dir, csv_views[i]->spec.command) >=
            sizeof path)
            return gs_fail(err, GS_EXIT_USAGE, "%s: path too long", dir);
        gs_out out;
        if (refuse_input(all, path, err) != 0 || gs_out_open(&out, path, err) != 0)
            return -1;
        int rc = gs_view_write_csv(csv_views[i], p, out.f, err);
        if (gs_out_close(&out, rc == 0, err) != 0)
            return -1;
    }
    return 0;
}

int cmd_export(int argc, char **argv)
{
    export_args a = {EXPORT_CHROME, NULL, NO_TABLE};
    const char *table_names[NCSV];
    for (size_t i = 0; i < NCSV; i++)
        table_names[i] = csv_views[i]->spec.command;
    const gs_cli_text texts[] = {
        {"output", &a.out, 'o', .arg = "OUT",
         .help = "chrome: a file, gzip-compressed when it ends in .gz\n"
                 "(default: standard output)\n"
                 "sqlite: the database file (required; replaced if present)\n"
                 "csv: a folder that gets kernels.csv, ops.csv, api.csv and\n"
                 "memcpy.csv; with --table, a file (default: standard output)"},
    };
    const gs_cli_choice choices[] = {
        {"format", format_names, COUNT_OF(format_names), &a.format, "unknown format '%s'",
         .arg = "FORMAT", .help = "chrome (default), sqlite or csv"},
        {"table", table_names, NCSV, &a.table, "no table '%s' (kernels, ops, api or memcpy)",
         .arg = "NAME", .help = "csv: only this table: kernels, ops, api or memcpy"},
    };
    const gs_cli_spec spec = {
        .command = "export",
        .help = {.intro = export_intro, .order = help_order, .indent = 20, .parts = help_parts,
                 .nparts = COUNT_OF(help_parts)},
        .no_format = true, .no_limit = true, .texts = texts, .ntexts = 1, .choices = choices,
        .nchoices = 2};
    gs_cli cli;
    int rc = gs_cli_parse(&spec, argc, argv, &cli);
    if (rc != GS_CLI_RUN || (rc = check_options(&a)) != GS_CLI_RUN)
        return rc;
    gs_profile profile;
    if ((rc = gs_cli_load(&cli, &profile)) != GS_CLI_RUN)
        return rc;
    /* --rank: the selected traces, borrowed from the loaded profile. */
    gs_profile chosen = {0};
    gs_error err = {0};
    int fail = 0;
    for (size_t i = 0; i < profile.traces.n && !fail; i++)
        if (gs_selected(&cli.select, &profile.traces.v[i]->id)) {
            gs_trace **slot = GS_VEC_PUSH(&chosen.traces);
            fail = slot ? 0 : gs_fail_oom(&err);
            if (slot)
                *slot = profile.traces.v[i];
        }
    bool to_folder = a.format == EXPORT_CSV && a.table == NO_TABLE;
    if (!fail && !to_folder && !gs_out_is_stdout(a.out))
        fail = refuse_input(&profile, a.out, &err);
    if (!fail) {
        if (a.format == EXPORT_SQLITE)
            fail = gs_export_sqlite(&chosen, a.out, &err);
        else if (to_folder)
            fail = write_csv_dir(&chosen, &profile, a.out, &err);
        else
            fail = write_stream(&chosen, &cli, &a, &err);
    }
    GS_VEC_FREE(&chosen.traces);
    gs_profile_free(&profile);
    return fail ? gs_cli_fail(&err) : GS_EXIT_OK;
}
