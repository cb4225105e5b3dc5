#include "cmd/options.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "ingest/load.h"

enum {
    OPT_FORMAT = 256,
    OPT_SORT,
    OPT_LIMIT,
    OPT_RANK,
    OPT_STEP,
    OPT_KEEP_WARMUP,
    OPT_TEXT = 384,  /* OPT_TEXT + i: the command's i-th text option */
    OPT_COUNT = 512, /* OPT_COUNT + i: the command's i-th count option */
    OPT_FLAG = 768,  /* OPT_FLAG + i: the command's i-th flag */
};

enum { MAX_FLAGS = 8, MAX_COUNTS = 4, MAX_TEXTS = 2 };

static const struct format_name {
    const char *name;
    enum gs_format format;
} format_names[] = {
    {"table", GS_FORMAT_TABLE},
    {"csv", GS_FORMAT_CSV},
    {"json", GS_FORMAT_JSON},
};

int gs_cli_usage(const char *command, const char *fmt, const char *arg)
{
    fprintf(stderr, "gpuscope: %s: ", command);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see 'gpuscope %s --help')\n", command);
    return GS_EXIT_USAGE;
}

static int usage_error(const gs_cli_spec *spec, const char *fmt, const char *arg)
{
    return gs_cli_usage(spec->command, fmt, arg);
}

bool gs_cli_parse_number(const char *arg, double max, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (errno || end == arg || *end || !(v >= 0) || v > max)
        return false;
    *out = v;
    return true;
}

static int parse_format(const gs_cli_spec *spec, const char *arg, enum gs_format *out)
{
    for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++) {
        if (strcmp(arg, format_names[i].name) != 0)
            continue;
        if (format_names[i].format == GS_FORMAT_CSV && !spec->csv)
            break;
        *out = format_names[i].format;
        return GS_CLI_RUN;
    }
    return usage_error(spec, "unknown format '%s'", arg);
}

/* A whole decimal number in [0, max]; strtoll alone accepts spaces, signs and trailing junk. */
static bool parse_uint(const char *arg, long long max, long long *out)
{
    if (!*arg || arg[strspn(arg, "0123456789")] != '\0')
        return false;
    errno = 0;
    long long v = strtoll(arg, NULL, 10);
    if (errno || v > max)
        return false;
    *out = v;
    return true;
}

static void build_options(const gs_cli_spec *spec, struct option *opts)
{
    size_t n = 0;
    opts[n++] = (struct option){"format", required_argument, NULL, OPT_FORMAT};
    if (spec->sort)
        opts[n++] = (struct option){"sort", required_argument, NULL, OPT_SORT};
    opts[n++] = (struct option){"limit", required_argument, NULL, OPT_LIMIT};
    opts[n++] = (struct option){"rank", required_argument, NULL, OPT_RANK};
    opts[n++] = (struct option){"help", no_argument, NULL, 'h'};
    if (spec->step)
        opts[n++] = (struct option){"step", required_argument, NULL, OPT_STEP};
    if (spec->keep_warmup)
        opts[n++] = (struct option){"keep-warmup", no_argument, NULL, OPT_KEEP_WARMUP};
    for (size_t i = 0; i < spec->ncounts && i < MAX_COUNTS; i++)
        opts[n++] = (struct option){spec->counts[i].name, required_argument, NULL,
                                    OPT_COUNT + (int)i};
    for (size_t i = 0; i < spec->nflags && i < MAX_FLAGS; i++)
        opts[n++] = (struct option){spec->flags[i].name, no_argument, NULL, OPT_FLAG + (int)i};
    for (size_t i = 0; i < spec->ntexts && i < MAX_TEXTS; i++)
        opts[n++] = (struct option){spec->texts[i].name, required_argument, NULL,
                                    OPT_TEXT + (int)i};
    opts[n] = (struct option){0};
}

/* getopt reports a bad option by returning '?' (unknown) or ':' (value missing); optopt holds an
 * unknown short option's letter, else the option is the argument getopt just passed. */
static int bad_option(const gs_cli_spec *spec, int c, char **argv)
{
    char shortopt[3] = {'-', (char)optopt, '\0'};
    bool letter = c == '?' && optopt > 0 && optopt < 128;
    const char *opt = letter ? shortopt : argv[optind - 1];
    return usage_error(spec, c == ':' ? "option '%s' needs a value" : "unknown option '%s'", opt);
}

int gs_cli_parse(const gs_cli_spec *spec, int argc, char **argv, gs_cli *cli)
{
    *cli = (gs_cli){.spec = spec, .format = GS_FORMAT_TABLE, .limit = spec->default_limit};
    struct option opts[10 + MAX_COUNTS + MAX_FLAGS + MAX_TEXTS];
    build_options(spec, opts);
    long long v;
    int c;
    opterr = 0; /* messages are ours, in our format */
    optind = 1;
    char letters[3 + 2 * MAX_TEXTS] = ":h";
    for (size_t i = 0, n = 2; i < spec->ntexts && i < MAX_TEXTS; i++)
        if (spec->texts[i].letter) {
            letters[n++] = spec->texts[i].letter;
            letters[n++] = ':';
            letters[n] = '\0';
        }
    while ((c = getopt_long(argc, argv, letters, opts, NULL)) != -1) {
        for (size_t i = 0; i < spec->ntexts && i < MAX_TEXTS; i++)
            if (spec->texts[i].letter && c == spec->texts[i].letter)
                c = OPT_TEXT + (int)i;
        int rc = GS_CLI_RUN;
        switch (c) {
        case 'h':
            fputs(spec->help, stdout);
            return GS_EXIT_OK;
        case OPT_FORMAT:
            rc = parse_format(spec, optarg, &cli->format);
            break;
        case OPT_SORT:
            cli->sort = optarg;
            break;
        case OPT_LIMIT:
            if (!parse_uint(optarg, INT32_MAX, &v))
                return usage_error(spec, "--limit wants a whole number, not '%s'", optarg);
            cli->limit = (size_t)v;
            break;
        case OPT_RANK:
            if (!parse_uint(optarg, INT32_MAX, &v))
                return usage_error(spec, "--rank wants a whole number, not '%s'", optarg);
            cli->select = (gs_select){.by_rank = true, .rank = (int32_t)v};
            break;
        case OPT_STEP:
            cli->steps.regex = optarg;
            break;
        case OPT_KEEP_WARMUP:
            cli->steps.keep_warmup = true;
            break;
        case '?':
        case ':':
            return bad_option(spec, c, argv);
        default:
            if (c >= OPT_FLAG) {
                *spec->flags[c - OPT_FLAG].value = true;
            } else if (c < OPT_COUNT) {
                const gs_cli_text *text = &spec->texts[c - OPT_TEXT];
                if (!*optarg)
                    return usage_error(spec, "option '--%s' needs a value", text->name);
                *text->value = optarg;
            } else {
                const gs_cli_count *count = &spec->counts[c - OPT_COUNT];
                if (!parse_uint(optarg, (long long)count->max, &v)) {
                    char fmt[96];
                    snprintf(fmt, sizeof fmt, "--%s wants a whole number up to %zu, not '%%s'",
                             count->name, count->max);
                    return usage_error(spec, fmt, optarg);
                }
                *count->value = (size_t)v;
            }
        }
        if (rc != GS_CLI_RUN)
            return rc;
    }
    if (optind >= argc)
        return usage_error(spec, "%s", "no trace given");
    cli->paths = (const char *const *)(argv + optind);
    cli->npaths = (size_t)(argc - optind);
    return GS_CLI_RUN;
}

int gs_cli_sort_column(const gs_cli *cli, const gs_column *cols, size_t ncols, int *col)
{
    *col = -1;
    if (!cli->sort)
        return GS_CLI_RUN;
    *col = gs_columns_find_sort(cols, ncols, cli->sort);
    if (*col >= 0)
        return GS_CLI_RUN;
    fprintf(stderr, "gpuscope: %s: cannot sort by '%s'; columns:", cli->spec->command, cli->sort);
    for (size_t c = 0; c < ncols; c++)
        if (!(cols[c].flags & GS_COL_JSON_ONLY))
            fprintf(stderr, " %s", cols[c].sort);
    fputc('\n', stderr);
    return GS_EXIT_USAGE;
}

/* ---- loading -------------------------------------------------------------------------------- */

/* A progress line on a terminal, only for loads that take long enough for one to help. */
#define PROGRESS_AFTER_S 1.0
#define PROGRESS_EVERY_S 0.1

typedef struct progress {
    double start, last;
    bool shown;
} progress;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void show_progress(void *ctx, const char *path, uint64_t done, uint64_t total)
{
    progress *p = ctx;
    double t = now_s();
    if (t - p->start < PROGRESS_AFTER_S || t - p->last < PROGRESS_EVERY_S)
        return;
    p->last = t;
    p->shown = true;
    if (total)
        fprintf(stderr, "\rgpuscope: reading %s %3d%%\033[K", path, (int)(done * 100 / total));
    else
        fprintf(stderr, "\rgpuscope: reading %s\033[K", path);
}

static int no_such_rank(const gs_cli *cli, const gs_profile *profile)
{
    fprintf(stderr, "gpuscope: %s: no trace has rank %" PRId32 " (ranks:", cli->spec->command,
            cli->select.rank);
    for (size_t i = 0; i < profile->traces.n; i++)
        fprintf(stderr, " %" PRId32, profile->traces.v[i]->rank);
    fputs(")\n", stderr);
    return GS_EXIT_USAGE;
}

int gs_cli_load(const gs_cli *cli, gs_profile *profile)
{
    progress prog = {.start = now_s()};
    gs_load_opts opts = {0};
    if (isatty(STDERR_FILENO))
        opts = (gs_load_opts){.progress = show_progress, .progress_ctx = &prog};
    gs_error err = {0};
    memset(profile, 0, sizeof *profile);
    int rc = gs_load_profile(cli->paths, cli->npaths, &opts, profile, &err);
    if (prog.shown)
        fputs("\r\033[K", stderr);
    if (rc != 0) {
        gs_profile_free(profile);
        return gs_cli_fail(&err);
    }
    if (!cli->select.by_rank)
        return GS_CLI_RUN;
    for (size_t i = 0; i < profile->traces.n; i++)
        if (gs_selected(&cli->select, profile->traces.v[i]))
            return GS_CLI_RUN;
    rc = no_such_rank(cli, profile);
    gs_profile_free(profile);
    return rc;
}

int gs_cli_fail(const gs_error *err)
{
    fprintf(stderr, "gpuscope: %s\n", err->msg);
    return err->code ? (int)err->code : GS_EXIT_INPUT;
}

int gs_cli_out_of_memory(void)
{
    gs_error err;
    gs_fail_oom(&err);
    return gs_cli_fail(&err);
}

/* ---- output --------------------------------------------------------------------------------- */

gs_text_style gs_cli_text_style(void)
{
    gs_text_style style = {.tty = isatty(STDOUT_FILENO) == 1};
    struct winsize ws;
    if (style.tty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        style.width = ws.ws_col;
    return style;
}

int gs_cli_emit(const gs_cli *cli, gs_table *table, int sort_col)
{
    gs_text_style style = gs_cli_text_style();
    int rc = sort_col >= 0 ? gs_table_sort(table, (size_t)sort_col) : 0;
    gs_table_limit(table, cli->limit);
    if (rc == 0)
        rc = gs_render(stdout, table, cli->format, &style, cli->spec->command);
    return rc == 0 ? GS_EXIT_OK : gs_cli_out_of_memory();
}
