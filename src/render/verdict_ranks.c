/* The report's verdicts, one block per group of ranks whose verdicts say the same: the same rules,
 * severities, evidence and actions, their numbers aside. A group's numbers that differ are shown
 * as their range ("1.596-1.808 ms per step at stake"); a rank whose verdict differs keeps its own
 * block. JSON keeps every rank's findings (doc/report.md, "Verdict"). */
#include "render/verdict_ranks.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"
#include "render/verdict.h"

/* A number of the text: digits with a decimal point or thousands commas, standing alone (not
 * the 2 of conv2d or the 16 of fp16). Its length, 0 when s[i] starts none. */
static size_t number_at(const char *s, size_t i)
{
    if (!isdigit((unsigned char)s[i]) ||
        (i > 0 && (isalnum((unsigned char)s[i - 1]) || strchr("_:.#<", s[i - 1]))))
        return 0;
    size_t n = 0;
    while (isdigit((unsigned char)s[i + n]) ||
           ((s[i + n] == '.' || s[i + n] == ',') && isdigit((unsigned char)s[i + n + 1])))
        n++;
    return isalpha((unsigned char)s[i + n]) && s[i + n] != 'x' ? 0 : n;
}

/* The text with each number as '#': two verdicts alike have the same. */
static char *skeleton(const char *s)
{
    char *out = malloc(strlen(s) + 1);
    size_t at = 0;
    for (size_t i = 0; out && s[i];) {
        size_t n = number_at(s, i);
        out[at++] = n ? '#' : s[i];
        i += n ? n : 1;
    }
    if (out)
        out[at] = '\0';
    return out;
}

static double value_of(const char *s, size_t n)
{
    char buf[64];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < sizeof buf; i++)
        if (s[i] != ',')
            buf[k++] = s[i];
    buf[k] = '\0';
    return strtod(buf, NULL);
}

/* The texts (alike: one skeleton) as one, each number that differs as "min-max". */
static void merge_numbers(const char *const *texts, size_t n, gs_strbuf *out)
{
    size_t *at = calloc(n, sizeof *at);
    if (!at) {
        gs_strbuf_appendf(out, "%s", texts[0]);
        return;
    }
    while (texts[0][at[0]]) {
        size_t len0 = number_at(texts[0], at[0]);
        if (!len0) {
            gs_strbuf_appendf(out, "%c", texts[0][at[0]]);
            for (size_t k = 0; k < n; k++)
                at[k]++;
            continue;
        }
        size_t lo = 0, hi = 0;
        double vlo = value_of(texts[0] + at[0], len0), vhi = vlo;
        for (size_t k = 1; k < n; k++) {
            double v = value_of(texts[k] + at[k], number_at(texts[k], at[k]));
            lo = v < vlo ? k : lo, vlo = v < vlo ? v : vlo;
            hi = v > vhi ? k : hi, vhi = v > vhi ? v : vhi;
        }
        int nlo = (int)number_at(texts[lo], at[lo]), nhi = (int)number_at(texts[hi], at[hi]);
        if (vlo == vhi)
            gs_strbuf_appendf(out, "%.*s", nlo, texts[lo] + at[lo]);
        else
            gs_strbuf_appendf(out, "%.*s-%.*s", nlo, texts[lo] + at[lo], nhi, texts[hi] + at[hi]);
        for (size_t k = 0; k < n; k++)
            at[k] += number_at(texts[k], at[k]);
    }
    free(at);
}

/* A line of the verdict's text wrapped under where its text starts: after its number, its "- "
 * or its "why: ". */
static void put_wrapped_line(FILE *out, const char *line, size_t width)
{
    size_t hang = strspn(line, " ");
    const char *rest = line + hang;
    if (!strncmp(rest, "- ", 2))
        hang += 2;
    else if (!strncmp(rest, "why: ", 5))
        hang += 5;
    else if (isdigit((unsigned char)*rest))
        hang += strspn(rest, "0123456789") + 2;
    gs_text_put_wrapped(out, line, 0, hang, width);
    putc('\n', out);
}

/* Each rank's verdict as unwrapped text (the numbers merged before the lines are wrapped). */
static char *verdict_text(const gs_diagnosis *d)
{
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    if (!mem)
        return NULL;
    gs_text_style unwrapped = {.width = SIZE_MAX};
    gs_render_verdict_text(mem, d, &unwrapped);
    if (fclose(mem) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

/* "rank 3", "ranks 0-4, 6-7": the group's ranks, runs of consecutive ones joined. */
static void put_ranks(gs_strbuf *b, const int32_t *ranks, size_t n)
{
    gs_strbuf_appendf(b, "rank%s ", n > 1 ? "s" : "");
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && ranks[j + 1] == ranks[j] + 1)
            j++;
        gs_strbuf_appendf(b, "%s%" PRId32, i ? ", " : "", ranks[i]);
        if (j > i)
            gs_strbuf_appendf(b, "-%" PRId32, ranks[j]);
        i = j + 1;
    }
}

static void put_group(FILE *out, const gs_report *r, const char *const *texts,
                      const size_t *members, size_t n, const gs_text_style *style)
{
    int32_t *ranks = malloc(n * sizeof *ranks);
    const char **group = malloc(n * sizeof *group);
    gs_strbuf title = {0}, merged = {0};
    for (size_t k = 0; ranks && group && k < n; k++) {
        ranks[k] = r->ranks[members[k]].summary->inputs.rank;
        group[k] = texts[members[k]];
    }
    gs_strbuf_appendf(&title, "Verdict, ");
    if (ranks && group)
        put_ranks(&title, ranks, n);
    fprintf(out, "%s%s%s\n", style && style->tty ? "\033[1m" : "", gs_strbuf_str(&title),
            style && style->tty ? "\033[0m" : "");
    if (n == 1 || !ranks || !group) { /* as it is: wrapped and bold by the renderer */
        gs_render_verdict_text(out, &r->ranks[members[0]].diagnosis, style);
    } else {
        merge_numbers(group, n, &merged);
        char *lines = strdup(gs_strbuf_str(&merged));
        for (char *line = lines, *end; line && *line; line = end ? end + 1 : NULL) {
            end = strchr(line, '\n');
            if (end)
                *end = '\0';
            put_wrapped_line(out, line, gs_text_width(style));
        }
        free(lines);
    }
    putc('\n', out);
    gs_strbuf_free(&title);
    gs_strbuf_free(&merged);
    free(ranks);
    free(group);
}

int gs_render_verdicts_by_rank(FILE *out, const gs_report *r, const gs_text_style *style)
{
    size_t n = r->nranks;
    char **texts = calloc(n + 1, sizeof *texts), **skel = calloc(n + 1, sizeof *skel);
    size_t *members = malloc((n + 1) * sizeof *members);
    bool *done = calloc(n + 1, sizeof *done);
    int rc = texts && skel && members && done ? 0 : -1;
    for (size_t i = 0; i < n && rc == 0; i++) {
        texts[i] = verdict_text(&r->ranks[i].diagnosis);
        skel[i] = texts[i] ? skeleton(texts[i]) : NULL;
        rc = skel[i] ? 0 : -1;
    }
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (done[i])
            continue;
        size_t m = 0;
        for (size_t j = i; j < n; j++)
            if (!done[j] && !strcmp(skel[i], skel[j]))
                members[m++] = j, done[j] = true;
        put_group(out, r, (const char *const *)texts, members, m, style);
    }
    for (size_t i = 0; i < n && texts && skel; i++)
        free(texts[i]), free(skel[i]);
    free(texts), free(skel), free(members), free(done);
    return rc;
}
