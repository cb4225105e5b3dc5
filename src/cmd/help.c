/* --help made from what it describes: the "options:" lines from the options the parser takes
 * (cmd/option_table.h: each option's own help, the shared options' usual help or the command's
 * wording of it), the column lines from the column tables (gs_column.help). An option or a
 * column added without help shows as a bare name, which tests/cli/test_docs.sh refuses. */
#include <stdio.h>
#include <string.h>

#include "cmd/option_table.h"
#include "cmd/options.h"
#include "common/util.h"

/* Help texts are wrapped by hand to end by this column; --sort's list is wrapped to it, and a
 * name too wide for its column takes a line of its own when its help would pass it. */
#define HELP_WIDTH 80
#define USUAL_INDENT 19

enum { MAX_COLUMNS = 64 }; /* more than the tables of any one --help hold */

/* What the shared options take and their usual help (GS_CLI_OPT_FROM and after). */
static const struct shared_option {
    const char *arg, *help;
} shared_options[] = {
    [GS_CLI_OPT_FROM] = {"TIME", "only what starts TIME or later after the trace's first\n"
                                 "event (ms, or with a unit: 1.5s, 200ms, 50us, 10ns)"},
    [GS_CLI_OPT_TO] = {"TIME", "only what starts before TIME after the trace's first event"},
    [GS_CLI_OPT_RANGE] = {"NAME", "only what starts inside the operator, annotation or NVTX\n"
                                  "ranges named NAME (nsys stats --filter-nvtx)"},
    [GS_CLI_OPT_ALL_STEPS] = {NULL, "the whole trace, not only the kept steps"},
    [GS_CLI_OPT_STEP] = {"REGEX", "steps are the annotation or NVTX ranges matching REGEX\n"
                                  "(default: ProfilerStep#N, else detected)"},
    [GS_CLI_OPT_DETECT_STEPS] = {NULL, "steps from the repeating kernel sequence, not ranges"},
    [GS_CLI_OPT_KEEP_WARMUP] = {NULL, "count the warm-up steps too"},
    [GS_CLI_OPT_FORMAT] = {"FORMAT", "table (default), csv or json"},
    [GS_CLI_OPT_SORT] = {"COLUMN", NULL},
    [GS_CLI_OPT_LIMIT] = {"N", "show the first N rows (default: all)"},
    [GS_CLI_OPT_RANK] = {"R", "only the traces of rank R"},
    [GS_CLI_OPT_HELP] = {NULL, "show this help"},
};
_Static_assert(COUNT_OF(shared_options) == GS_CLI_OPT_HELP + 1, "every shared option");

/* Appends `s` to the string in buf, as much as fits. */
static void append(char *buf, size_t size, const char *s, size_t n)
{
    size_t len = strlen(buf);
    if (n > size - 1 - len)
        n = size - 1 - len;
    memcpy(buf + len, s, n);
    buf[len + n] = '\0';
}

static void append_str(char *buf, size_t size, const char *s)
{
    append(buf, size, s, strlen(s));
}

/* `text` broken into lines that end by HELP_WIDTH when they start at `indent`; a '\n' in it
 * breaks a line too. */
static void wrap(const char *text, int indent, char *out, size_t size)
{
    size_t col = (size_t)indent;
    bool empty = true; /* nothing on this line yet */
    out[0] = '\0';
    for (const char *p = text; *p;) {
        size_t word = strcspn(p, " \n");
        if (*p == ' ' || *p == '\n') {
            if (*p == '\n') {
                append_str(out, size, "\n");
                col = (size_t)indent;
                empty = true;
            }
            p++;
            continue;
        }
        if (!empty && col + 1 + word > HELP_WIDTH) {
            append_str(out, size, "\n");
            col = (size_t)indent;
            empty = true;
        }
        if (!empty) {
            append_str(out, size, " ");
            col++;
        }
        append(out, size, p, word);
        col += word;
        empty = false;
        p += word;
    }
}

/* "  NAME  HELP": the name at column 2, the help's lines from column `indent`. A name too wide
 * for that column is followed by two spaces, or by a line break where its help's first line
 * would pass HELP_WIDTH. */
static void write_entry(FILE *out, const char *name, const char *help, int indent)
{
    int col = fprintf(out, "  %s", name);
    if (!help || !*help) {
        fputc('\n', out);
        return;
    }
    int first = (int)strcspn(help, "\n");
    if (col + 2 > indent && col + 2 + first > HELP_WIDTH) {
        fputc('\n', out);
        col = 0;
    }
    fprintf(out, "%*s", col + 2 > indent ? 2 : indent - col, "");
    for (const char *line = help;;) {
        size_t n = strcspn(line, "\n");
        fprintf(out, "%.*s\n", (int)n, line);
        if (!line[n])
            break;
        line += n + 1;
        fprintf(out, "%*s", indent, "");
    }
}

/* --sort's help: the sort names of the view's columns ("a, b or c"), then its own words. */
static void sort_help(const gs_cli_spec *s, int indent, char *out, size_t size)
{
    char text[1024] = "";
    size_t ncols = 0, nshown = 0, shown = 0;
    const gs_column *cols = s->help.sort_columns ? s->help.sort_columns(&ncols) : NULL;
    for (size_t c = 0; c < ncols; c++)
        nshown += !(cols[c].flags & GS_COL_JSON_ONLY);
    for (size_t c = 0; c < ncols; c++) {
        if (cols[c].flags & GS_COL_JSON_ONLY)
            continue;
        append_str(text, sizeof text, shown == 0 ? "" : shown + 1 == nshown ? " or " : ", ");
        append_str(text, sizeof text, cols[c].sort);
        shown++;
    }
    append_str(text, sizeof text, s->help.sort ? s->help.sort : "");
    wrap(text, indent, out, size);
}

/* The command's own help of a shared option, or NULL for the usual one. */
static const char *shared_wording(const gs_cli_spec *s, enum gs_cli_opt_kind kind)
{
    const gs_cli_help *h = &s->help;
    switch (kind) {
    case GS_CLI_OPT_FORMAT:
        return h->format ? h->format : s->csv ? NULL : "table (default) or json";
    case GS_CLI_OPT_LIMIT:
        return h->limit;
    case GS_CLI_OPT_RANK:
        return h->rank;
    case GS_CLI_OPT_STEP:
        return h->step;
    case GS_CLI_OPT_KEEP_WARMUP:
        return h->keep_warmup;
    default:
        return NULL;
    }
}

/* The line of the i-th option of the table. */
static void write_option(FILE *out, const gs_cli_spec *s, const gs_cli_opt_table *t, size_t i,
                         int indent)
{
    const gs_cli_opt_ref *r = &t->refs[i];
    const char *arg = NULL, *help = NULL;
    char sort[2048];
    switch (r->kind) {
    case GS_CLI_OPT_FLAG:
        help = s->flags[r->index].help;
        break;
    case GS_CLI_OPT_COUNT:
        arg = s->counts[r->index].arg;
        help = s->counts[r->index].help;
        break;
    case GS_CLI_OPT_NUMBER:
        arg = s->numbers[r->index].arg;
        help = s->numbers[r->index].help;
        break;
    case GS_CLI_OPT_TEXT:
        arg = s->texts[r->index].arg;
        help = s->texts[r->index].help;
        break;
    case GS_CLI_OPT_CHOICE:
        arg = s->choices[r->index].arg;
        help = s->choices[r->index].help;
        break;
    default:
        arg = shared_options[r->kind].arg;
        help = shared_wording(s, r->kind);
        if (r->kind == GS_CLI_OPT_SORT) {
            sort_help(s, indent, sort, sizeof sort);
            help = sort;
        } else if (!help) {
            help = shared_options[r->kind].help;
        }
    }
    char name[128] = "";
    if (r->letter)
        snprintf(name, sizeof name, "-%c, ", r->letter);
    append_str(name, sizeof name, "--");
    append_str(name, sizeof name, t->longs[i].name);
    if (arg) {
        append_str(name, sizeof name, " ");
        append_str(name, sizeof name, arg);
    }
    write_entry(out, name, help, indent);
}

/* The options named by help.order first, in that order, then the others in the table's. */
static void write_options(FILE *out, const gs_cli_spec *s)
{
    gs_cli_opt_table t;
    gs_cli_opt_table_build(s, &t);
    int indent = s->help.indent ? s->help.indent : USUAL_INDENT;
    bool written[GS_CLI_OPT_MAX] = {false};
    fputs("options:\n", out);
    for (const char *const *name = s->help.order; name && *name; name++)
        for (size_t i = 0; i < t.n; i++)
            if (!written[i] && !strcmp(t.longs[i].name, *name)) {
                write_option(out, s, &t, i, indent);
                written[i] = true;
            }
    for (size_t i = 0; i < t.n; i++)
        if (!written[i])
            write_option(out, s, &t, i, indent);
}

static int find_key(const gs_column *const *list, size_t n, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(list[i]->key, key))
            return (int)i;
    return -1;
}

/* The columns of a part's tables as one list, by JSON key: a column that only a later table has
 * goes before the next column of its own table already listed, beside its neighbours there. */
static size_t merge_columns(const gs_cli_help_part *part, const gs_column **list)
{
    size_t n = 0;
    for (size_t t = 0; t < GS_CLI_HELP_TABLES && part->tables[t]; t++) {
        size_t ncols;
        const gs_column *cols = part->tables[t](&ncols);
        for (size_t c = 0; c < ncols && n < MAX_COLUMNS; c++) {
            if ((cols[c].flags & GS_COL_JSON_ONLY) || find_key(list, n, cols[c].key) >= 0)
                continue;
            size_t at = n;
            for (size_t next = c + 1; next < ncols && at == n; next++) {
                int i = find_key(list, n, cols[next].key);
                if (i >= 0)
                    at = (size_t)i;
            }
            memmove(&list[at + 1], &list[at], (n - at) * sizeof *list);
            list[at] = &cols[c];
            n++;
        }
    }
    return n;
}

/* The columns of part->keys, in that order, each from the first table that shows it; a key no
 * table shows stands as a column of that title and no help, so that its line is a bare name. */
static size_t pick_columns(const gs_cli_help_part *part, const gs_column **list,
                           gs_column *unknown)
{
    size_t n = 0;
    for (const char *const *key = part->keys; *key && n < MAX_COLUMNS; key++, n++) {
        list[n] = NULL;
        for (size_t t = 0; t < GS_CLI_HELP_TABLES && part->tables[t] && !list[n]; t++) {
            size_t ncols;
            const gs_column *cols = part->tables[t](&ncols);
            for (size_t c = 0; c < ncols && !list[n]; c++)
                if (!(cols[c].flags & GS_COL_JSON_ONLY) && !strcmp(cols[c].key, *key))
                    list[n] = &cols[c];
        }
        if (!list[n]) {
            unknown[n] = (gs_column){.key = *key, .title = *key};
            list[n] = &unknown[n];
        }
    }
    return n;
}

/* A line per column; the columns whose help is "" join the titles of the one before. */
static void write_columns(FILE *out, const gs_cli_help_part *part)
{
    const gs_column *list[MAX_COLUMNS];
    gs_column unknown[MAX_COLUMNS];
    size_t n = part->keys ? pick_columns(part, list, unknown) : merge_columns(part, list);
    for (size_t i = 0; i < n;) {
        char titles[256] = "";
        const char *help = list[i]->help;
        append_str(titles, sizeof titles, list[i]->title);
        for (i++; i < n && list[i]->help && !*list[i]->help; i++) {
            append_str(titles, sizeof titles, ", ");
            append_str(titles, sizeof titles, list[i]->title);
        }
        write_entry(out, titles, help, part->indent);
    }
}

void gs_cli_help_write(FILE *out, const gs_cli_spec *spec)
{
    fputs(spec->help.intro, out);
    write_options(out, spec);
    for (size_t i = 0; i < spec->help.nparts; i++) {
        const gs_cli_help_part *part = &spec->help.parts[i];
        if (part->text)
            fputs(part->text, out);
        if (part->tables[0])
            write_columns(out, part);
    }
}
