#include "cmd/options.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "analysis/base/window.h"
#include "cmd/option_table.h"
#include "cmd/say.h"
#include "common/term_text.h"
#include "common/util.h"
#include "ingest/load.h"

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
    char what[1024];
    snprintf(what, sizeof what, fmt, arg);
    gs_say("%s: %s (see 'gpuscope %s --help')", command, what, command);
    return GS_EXIT_USAGE;
}

static int usage_error(const gs_cli_spec *spec, const char *fmt, const char *arg)
{
    return gs_cli_usage(spec->command, fmt, arg);
}

/* A plain non-negative decimal number up to max (seconds, rates): false for anything else. */
static bool parse_number(const char *arg, double max, double *out)
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
    for (size_t i = 0; i < COUNT_OF(format_names); i++) {
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

static void add_option(gs_cli_opt_table *t, const char *name, int has_arg,
                       enum gs_cli_opt_kind kind, size_t index, char letter)
{
    t->longs[t->n] = (struct option){name, has_arg, NULL, GS_CLI_OPT_BASE + (int)t->n};
    t->refs[t->n] = (gs_cli_opt_ref){kind, index, letter};
    t->n++;
    if (letter) {
        size_t len = strlen(t->letters);
        t->letters[len++] = letter;
        if (has_arg != no_argument)
            t->letters[len++] = ':';
        if (has_arg == optional_argument)
            t->letters[len++] = ':';
        t->letters[len] = '\0';
    }
}

void gs_cli_opt_table_build(const gs_cli_spec *spec, gs_cli_opt_table *t)
{
    bool traces = spec->operands == GS_CLI_TRACES;
    t->n = 0;
    /* '+': stop at the program, so that its own options stay its own; ':': a missing value is
     * told apart from an unknown option. */
    strcpy(t->letters, spec->operands == GS_CLI_PROGRAM ? "+:" : ":");
    for (size_t i = 0; i < spec->nflags && i < GS_CLI_MAX_FLAGS; i++)
        add_option(t, spec->flags[i].name, no_argument, GS_CLI_OPT_FLAG, i, spec->flags[i].letter);
    for (size_t i = 0; i < spec->ncounts && i < GS_CLI_MAX_COUNTS; i++)
        add_option(t, spec->counts[i].name, required_argument, GS_CLI_OPT_COUNT, i, 0);
    for (size_t i = 0; i < spec->nnumbers && i < GS_CLI_MAX_NUMBERS; i++)
        add_option(t, spec->numbers[i].name, required_argument, GS_CLI_OPT_NUMBER, i, 0);
    for (size_t i = 0; i < spec->ntexts && i < GS_CLI_MAX_TEXTS; i++)
        add_option(t, spec->texts[i].name,
                   spec->texts[i].bare ? optional_argument : required_argument, GS_CLI_OPT_TEXT, i,
                   spec->texts[i].letter);
    for (size_t i = 0; i < spec->nchoices && i < GS_CLI_MAX_CHOICES; i++)
        add_option(t, spec->choices[i].name, required_argument, GS_CLI_OPT_CHOICE, i, 0);
    if (spec->window) {
        add_option(t, "from", required_argument, GS_CLI_OPT_FROM, 0, 0);
        add_option(t, "to", required_argument, GS_CLI_OPT_TO, 0, 0);
        add_option(t, "range", required_argument, GS_CLI_OPT_RANGE, 0, 0);
        add_option(t, "all-steps", no_argument, GS_CLI_OPT_ALL_STEPS, 0, 0);
    }
    if (spec->step) {
        add_option(t, "step", required_argument, GS_CLI_OPT_STEP, 0, 0);
        add_option(t, "detect-steps", no_argument, GS_CLI_OPT_DETECT_STEPS, 0, 0);
    }
    if (spec->keep_warmup)
        add_option(t, "keep-warmup", no_argument, GS_CLI_OPT_KEEP_WARMUP, 0, 0);
    if (!spec->no_format)
        add_option(t, "format", required_argument, GS_CLI_OPT_FORMAT, 0, 0);
    if (spec->sort)
        add_option(t, "sort", required_argument, GS_CLI_OPT_SORT, 0, 0);
    if (traces && !spec->no_limit)
        add_option(t, "limit", required_argument, GS_CLI_OPT_LIMIT, 0, 0);
    if (traces && !spec->no_rank)
        add_option(t, "rank", required_argument, GS_CLI_OPT_RANK, 0, 0);
    add_option(t, "help", no_argument, GS_CLI_OPT_HELP, 0, 'h');
    t->longs[t->n] = (struct option){0};
}

static const gs_cli_opt_ref *find_option(const gs_cli_opt_table *t, int c)
{
    if (c >= GS_CLI_OPT_BASE)
        return &t->refs[c - GS_CLI_OPT_BASE];
    for (size_t i = 0; i < t->n; i++)
        if (t->refs[i].letter && t->refs[i].letter == c)
            return &t->refs[i];
    return NULL;
}

/* getopt reports a bad option by returning '?' (unknown, or a value given to an option that
 * takes none) or ':' (value missing). optopt holds an unknown letter, 0 for an unknown long
 * option, the option's value for a long one given a value; for every long option the text is
 * the argument getopt just passed (a letter may sit inside a cluster such as -qx). */
static int bad_option(const gs_cli_spec *spec, int c, char **argv)
{
    char shortopt[3] = {'-', (char)optopt, '\0'};
    bool letter = c == '?' && optopt > 0 && optopt < GS_CLI_OPT_BASE;
    const char *opt = letter ? shortopt : argv[optind - 1];
    return usage_error(spec, c == ':' ? "option '%s' needs a value" : "unknown option '%s'", opt);
}

static int take_count(const gs_cli_spec *spec, const gs_cli_count *count, const char *arg)
{
    long long v;
    if (!parse_uint(arg, (long long)count->max, &v)) {
        char fmt[96];
        snprintf(fmt, sizeof fmt, "--%s wants a whole number up to %zu, not '%%s'", count->name,
                 count->max);
        return usage_error(spec, fmt, arg);
    }
    *count->value = (size_t)v;
    return GS_CLI_RUN;
}

static int take_number(const gs_cli_spec *spec, const gs_cli_number *number, const char *arg)
{
    double v;
    if (!parse_number(arg, number->max, &v) || v < number->min ||
        (number->whole && v != (double)(unsigned long long)v))
        return usage_error(spec, number->refusal, arg);
    *number->value = v;
    if (number->given)
        *number->given = arg;
    return GS_CLI_RUN;
}

/* `arg` is NULL for an optional text left out. */
static int take_text(const gs_cli_spec *spec, const gs_cli_text *text, const char *arg, int argc,
                     char **argv)
{
    if (!arg && text->bare)
        arg = optind < argc && argv[optind][0] != '-' ? argv[optind++] : text->bare;
    if (!*arg)
        return usage_error(spec, "option '--%s' needs a value", text->name);
    if (text->valid && !text->valid(arg))
        return usage_error(spec, text->refusal, arg);
    if (text->values) {
        if (*text->nvalues == text->max_values)
            return usage_error(spec, "option '--%s' given too many times", text->name);
        text->values[(*text->nvalues)++] = arg;
    }
    *text->value = arg;
    return GS_CLI_RUN;
}

static int take_choice(const gs_cli_spec *spec, const gs_cli_choice *choice, const char *arg)
{
    for (size_t i = 0; i < choice->nnames; i++)
        if (!strcmp(arg, choice->names[i])) {
            *choice->value = i;
            return GS_CLI_RUN;
        }
    return usage_error(spec, choice->refusal, arg);
}

/* One option and its value (NULL when it takes none). */
static int take_option(const gs_cli_spec *spec, const gs_cli_opt_ref *r, const char *arg,
                       int argc, char **argv, gs_cli *cli)
{
    long long v;
    switch (r->kind) {
    case GS_CLI_OPT_HELP:
        gs_cli_help_write(stdout, spec);
        return GS_EXIT_OK;
    case GS_CLI_OPT_FORMAT:
        return parse_format(spec, arg, &cli->format);
    case GS_CLI_OPT_SORT:
        cli->sort = arg;
        return GS_CLI_RUN;
    case GS_CLI_OPT_LIMIT:
        if (!parse_uint(arg, INT32_MAX, &v))
            return usage_error(spec, "--limit wants a whole number, not '%s'", arg);
        cli->limit = (size_t)v;
        return GS_CLI_RUN;
    case GS_CLI_OPT_RANK:
        if (!parse_uint(arg, INT32_MAX, &v))
            return usage_error(spec, "--rank wants a whole number, not '%s'", arg);
        cli->select.by_rank = true;
        cli->select.rank = (int32_t)v;
        return GS_CLI_RUN;
    case GS_CLI_OPT_FROM:
    case GS_CLI_OPT_TO: {
        gs_window_spec *w = &cli->select.window;
        bool from = r->kind == GS_CLI_OPT_FROM;
        if (!gs_window_parse_time(arg, from ? &w->from : &w->to))
            return usage_error(spec, from ? "--from wants a time from the trace's start (ms, or "
                                            "with a unit: 1.5s, 200ms, 50us), not '%s'"
                                          : "--to wants a time from the trace's start (ms, or "
                                            "with a unit: 1.5s, 200ms, 50us), not '%s'", arg);
        *(from ? &w->has_from : &w->has_to) = true;
        return GS_CLI_RUN;
    }
    case GS_CLI_OPT_RANGE:
        if (!*arg)
            return usage_error(spec, "%s", "--range wants a range name");
        cli->select.window.range = arg;
        return GS_CLI_RUN;
    case GS_CLI_OPT_ALL_STEPS:
        cli->select.window.all_steps = true;
        return GS_CLI_RUN;
    case GS_CLI_OPT_STEP:
        cli->steps.regex = arg;
        return GS_CLI_RUN;
    case GS_CLI_OPT_DETECT_STEPS:
        cli->steps.detect = true;
        return GS_CLI_RUN;
    case GS_CLI_OPT_KEEP_WARMUP:
        cli->steps.keep_warmup = true;
        return GS_CLI_RUN;
    case GS_CLI_OPT_FLAG:
        *spec->flags[r->index].value = true;
        return GS_CLI_RUN;
    case GS_CLI_OPT_COUNT:
        return take_count(spec, &spec->counts[r->index], arg);
    case GS_CLI_OPT_NUMBER:
        return take_number(spec, &spec->numbers[r->index], arg);
    case GS_CLI_OPT_TEXT:
        return take_text(spec, &spec->texts[r->index], arg, argc, argv);
    case GS_CLI_OPT_CHOICE:
        return take_choice(spec, &spec->choices[r->index], arg);
    }
    return GS_CLI_RUN;
}

/* "--ops, --timeline and --per-step exclude each other" when more than one was given. */
static int check_exclusive(const gs_cli_spec *spec)
{
    char names[256] = "";
    size_t given = 0, len = 0;
    for (size_t i = 0; i < spec->nflags; i++) {
        given += *spec->flags[i].value;
        const char *sep = i == 0 ? "" : i + 1 == spec->nflags ? " and " : ", ";
        if (len < sizeof names)
            len += (size_t)snprintf(names + len, sizeof names - len, "%s--%s", sep,
                                    spec->flags[i].name);
    }
    return given > 1 ? usage_error(spec, "%s exclude each other", names) : GS_CLI_RUN;
}

/* The window is on for a view that offers it (over the steps --step and --keep-warmup name).
 * --to before --from is refused. */
static int check_window(const gs_cli_spec *spec, gs_cli *cli)
{
    gs_window_spec *w = &cli->select.window;
    w->on = true;
    if (w->has_from && w->has_to && w->to <= w->from)
        return usage_error(spec, "%s", "--to must be later than --from");
    return GS_CLI_RUN;
}

static int take_operands(const gs_cli_spec *spec, int argc, char **argv, gs_cli *cli)
{
    switch (spec->operands) {
    case GS_CLI_TRACES:
        if (optind >= argc)
            return usage_error(spec, "%s", "no trace given");
        cli->paths = (const char *const *)(argv + optind);
        cli->npaths = (size_t)(argc - optind);
        break;
    case GS_CLI_NONE:
        if (optind < argc)
            return usage_error(spec, "unexpected argument '%s'", argv[optind]);
        break;
    case GS_CLI_PROGRAM:
        if (optind >= argc)
            return usage_error(spec, "%s", "no COMMAND to run");
        cli->program = argv + optind;
        break;
    case GS_CLI_PROCESS:
        if (argc - optind > 1)
            return usage_error(spec, "unexpected argument '%s'", argv[optind + 1]);
        cli->paths = (const char *const *)(argv + optind);
        cli->npaths = (size_t)(argc - optind);
        break;
    }
    return GS_CLI_RUN;
}

int gs_cli_parse(const gs_cli_spec *spec, int argc, char **argv, gs_cli *cli)
{
    *cli = (gs_cli){.spec = spec, .format = GS_FORMAT_TABLE, .limit = spec->default_limit};
    gs_cli_opt_table t;
    gs_cli_opt_table_build(spec, &t);
    opterr = 0; /* messages are ours, in our format */
    optind = 1;
    int c, rc = GS_CLI_RUN;
    while (rc == GS_CLI_RUN && (c = getopt_long(argc, argv, t.letters, t.longs, NULL)) != -1) {
        const gs_cli_opt_ref *r = c == '?' || c == ':' ? NULL : find_option(&t, c);
        rc = r ? take_option(spec, r, optarg, argc, argv, cli) : bad_option(spec, c, argv);
    }
    if (rc == GS_CLI_RUN)
        rc = take_operands(spec, argc, argv, cli);
    if (rc == GS_CLI_RUN && spec->exclusive_flags)
        rc = check_exclusive(spec);
    if (rc == GS_CLI_RUN && spec->window)
        rc = check_window(spec, cli);
    return rc;
}

/* ---- loading -------------------------------------------------------------------------------- */

/* A progress line on a terminal, only for loads that take long enough for one to help. */
#define PROGRESS_AFTER_S 1.0
#define PROGRESS_EVERY_S 0.1

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void show_progress(void *ctx, const char *path, uint64_t done, uint64_t total)
{
    gs_cli_progress *p = ctx;
    double t = now_s();
    if (t - p->start < PROGRESS_AFTER_S || t - p->last < PROGRESS_EVERY_S)
        return;
    p->last = t;
    p->shown = true;
    char safe[1024];
    gs_term_escape(safe, sizeof safe, path);
    if (total)
        fprintf(stderr, "\rgpuscope: reading %s %3d%%\033[K", safe, (int)(done * 100 / total));
    else
        fprintf(stderr, "\rgpuscope: reading %s\033[K", safe);
}

static int no_such_rank(const gs_cli *cli, const gs_profile *profile)
{
    fprintf(stderr, "gpuscope: %s: no trace has rank %" PRId32 " (ranks:", cli->spec->command,
            cli->select.rank);
    for (size_t i = 0; i < profile->traces.n; i++)
        fprintf(stderr, " %" PRId32, profile->traces.v[i]->id.rank);
    fputs(")\n", stderr);
    return GS_EXIT_USAGE;
}

gs_load_opts gs_cli_progress_start(gs_cli_progress *p)
{
    *p = (gs_cli_progress){.start = now_s()};
    if (!isatty(STDERR_FILENO))
        return (gs_load_opts){0};
    return (gs_load_opts){.progress = show_progress, .progress_ctx = p};
}

void gs_cli_progress_end(const gs_cli_progress *p)
{
    if (p->shown)
        fputs("\r\033[K", stderr);
}

int gs_cli_load(const gs_cli *cli, gs_profile *profile)
{
    gs_cli_progress prog;
    gs_load_opts opts = gs_cli_progress_start(&prog);
    gs_error err = {0};
    memset(profile, 0, sizeof *profile);
    int rc = gs_load_profile(cli->paths, cli->npaths, &opts, profile, &err);
    gs_cli_progress_end(&prog);
    if (rc != 0) {
        gs_profile_free(profile);
        return gs_cli_fail(&err);
    }
    bool any = false;
    for (size_t i = 0; i < profile->traces.n; i++)
        any |= gs_selected(&cli->select, &profile->traces.v[i]->id);
    if (!any) {
        rc = no_such_rank(cli, profile);
        gs_profile_free(profile);
        return rc;
    }
    for (size_t i = 0; i < profile->traces.n; i++)
        if (gs_selected(&cli->select, &profile->traces.v[i]->id))
            gs_cli_note_losses(profile->traces.v[i]->id.path, profile->traces.v[i]->lost);
    return GS_CLI_RUN;
}

void gs_cli_note_losses(const char *path, const uint64_t lost[GS_LOSS__COUNT])
{
    char note[256];
    if (*gs_loss_note(lost, note, sizeof note))
        gs_say("%s: %s", path, note);
}

int gs_cli_fail(const gs_error *err)
{
    gs_say("%s", err->msg);
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
