#include "analysis/pipeline/runs.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/strbuf.h"
#include "common/util.h"
#include "common/vec.h"
#include "ingest/rank_parts.h"

/* A trace's time span on the Unix clock: its first to last event, and the group a rule puts it
 * in (NO_GROUP: the rule cannot place it). */
typedef struct span {
    size_t index;
    gs_ns start, end;
    size_t group;
} span;

#define NO_GROUP SIZE_MAX

/* Times from 1973 on are on the Unix clock (a Kineto trace up to PyTorch 2.3 carries epoch µs
 * with epoch_ns 0); earlier ones are a clock of the trace's own (a legacy export's µs since the
 * profiler started), which says nothing about when it ran. */
#define UNIX_CLOCK_FLOOR_NS INT64_C(100000000000000000)

static void span_of(const gs_rank_summary *s, size_t i, span *out)
{
    gs_ns first = 0, last = 0;
    if (s->series.has_util) {
        first = s->series.util.first;
        last = s->series.util.last;
    } else if (s->steps.n) {
        first = s->steps.v[0].start;
        last = s->steps.v[s->steps.n - 1].end;
    } else {
        first = s->temporal.window_start;
        last = s->temporal.window_end;
    }
    *out = (span){i, s->id.epoch_ns + first, s->id.epoch_ns + last, NO_GROUP};
}

static int cmp_start(const void *pa, const void *pb)
{
    const span *a = pa, *b = pb;
    return (a->start > b->start) - (a->start < b->start);
}

static int cmp_index(const void *pa, const void *pb)
{
    const span *a = pa, *b = pb;
    return (a->index > b->index) - (a->index < b->index);
}

/* Groups the spans by time: a span that starts more than `gap` after every span before it ends
 * opens a new group. Spans with only_unix_clock and a start before the Unix-clock floor are left
 * out. Returns the number of groups; the spans end in index order. */
static size_t group_by_time(span *s, size_t n, gs_ns gap, bool only_unix_clock)
{
    qsort(s, n, sizeof *s, cmp_start);
    size_t groups = 0;
    gs_ns end = 0; /* the latest end of the spans so far */
    for (size_t i = 0; i < n; i++) {
        if (only_unix_clock && s[i].start < UNIX_CLOCK_FLOOR_NS)
            continue;
        if (groups == 0 || s[i].start - end > gap) {
            groups++;
            end = s[i].end;
        } else if (s[i].end > end) {
            end = s[i].end;
        }
        s[i].group = groups - 1;
    }
    qsort(s, n, sizeof *s, cmp_index);
    return groups;
}

/* ---- the rules ------------------------------------------------------------------------------ */

/* One rule of consistency: it puts each trace in a group, or none, and returns how many groups
 * it found; the traces are refused when they are `refused_at` groups or more. `label` names group
 * g, `refuse` says what the groups are. */
typedef struct rule {
    size_t (*group)(const gs_rank_summary *v, size_t n, span *s);
    size_t refused_at;
    void (*label)(gs_strbuf *b, const gs_rank_summary *v, const span *s, size_t n, size_t g);
    int (*refuse)(size_t n, size_t groups, const char *list, const char *pick, gs_error *err);
} rule;

/* World size: the traces that say it must say the same (the others are in no group). */
static size_t group_world_size(const gs_rank_summary *v, size_t n, span *s)
{
    size_t groups = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i].id.world_size <= 0)
            continue;
        for (size_t j = 0; j < i && s[i].group == NO_GROUP; j++)
            if (s[j].group != NO_GROUP && v[j].id.world_size == v[i].id.world_size)
                s[i].group = s[j].group;
        if (s[i].group == NO_GROUP)
            s[i].group = groups++;
    }
    return groups;
}

static void label_world_size(gs_strbuf *b, const gs_rank_summary *v, const span *s, size_t n,
                             size_t g)
{
    for (size_t i = 0; i < n; i++)
        if (s[i].group == g) {
            gs_strbuf_appendf(b, "world size %" PRId32, v[i].id.world_size);
            return;
        }
}

static int refuse_world_size(size_t n, size_t groups, const char *list, const char *pick,
                             gs_error *err)
{
    (void)groups;
    return gs_fail(err, GS_EXIT_INPUT,
                   "the %zu traces are not one job, their world sizes differ: %s. Name one "
                   "job's traces to report it, e.g. gpuscope report%s", n, list, pick);
}

/* A rank twice: traces of one run overlap in time, so the runs are the groups of overlapping
 * spans; 0 groups when no rank repeats. One group, repeats that overlap, is refused too: they
 * cannot be told apart by time. */
static size_t group_repeated_rank(const gs_rank_summary *v, size_t n, span *s)
{
    bool repeats = false;
    for (size_t i = 1; i < n; i++) /* sorted by rank */
        repeats |= v[i].id.rank == v[i - 1].id.rank;
    return repeats ? group_by_time(s, n, 0, false) : 0;
}

static void label_run(gs_strbuf *b, const gs_rank_summary *v, const span *s, size_t n, size_t g)
{
    (void)v, (void)s, (void)n;
    gs_strbuf_appendf(b, "run %zu", g + 1);
}

static int refuse_repeated_rank(size_t n, size_t groups, const char *list, const char *pick,
                                gs_error *err)
{
    if (groups == 1)
        return gs_fail(err, GS_EXIT_INPUT,
                       "a rank appears in several of the %zu traces, which overlap in time: %s. "
                       "Name one trace per rank to report them", n, list);
    return gs_fail(err, GS_EXIT_INPUT,
                   "the %zu traces are %zu runs, not one (a rank appears in several; their "
                   "times do not overlap): %s. Name one run's traces to report it, e.g. "
                   "gpuscope report%s", n, groups, list, pick);
}

/* Clocks: the ranks of one job run at the same time; traces on the Unix clock whose spans are
 * more than GS_RUNS_CLOCK_GAP_NS apart are different jobs, whatever their ranks. */
static size_t group_clock(const gs_rank_summary *v, size_t n, span *s)
{
    (void)v;
    return group_by_time(s, n, GS_RUNS_CLOCK_GAP_NS, true);
}

/* "run 2 (from 2026-11-27 10:00:00 UTC)": when the group's first trace starts. */
static void label_clock(gs_strbuf *b, const gs_rank_summary *v, const span *s, size_t n, size_t g)
{
    (void)v;
    gs_ns first = INT64_MAX;
    for (size_t i = 0; i < n; i++)
        if (s[i].group == g && s[i].start < first)
            first = s[i].start;
    time_t secs = (time_t)(first / 1000000000);
    struct tm tm;
    char when[32] = "?";
    if (gmtime_r(&secs, &tm))
        strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
    gs_strbuf_appendf(b, "run %zu (from %s UTC)", g + 1, when);
}

static int refuse_clock(size_t n, size_t groups, const char *list, const char *pick,
                        gs_error *err)
{
    return gs_fail(err, GS_EXIT_INPUT,
                   "the %zu traces are %zu runs, not one job: their times are more than an hour "
                   "apart: %s. Name one run's traces to report it, e.g. gpuscope report%s",
                   n, groups, list, pick);
}

/* In this order: a world size that differs says most about why, then a rank twice, then clocks
 * (two runs of one job are both a rank twice and far apart). */
static const rule rules[] = {
    {group_world_size, 2, label_world_size, refuse_world_size},
    {group_repeated_rank, 1, label_run, refuse_repeated_rank},
    {group_clock, 2, label_clock, refuse_clock},
};

/* ---- the message ---------------------------------------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path ? path : "-";
}

/* " DIR/NAME" of trace i's file into `pick`, once for the ranks of one file (an export of
 * several ranks): the way out must be a command line one can type. */
static void pick_file(gs_strbuf *pick, const gs_rank_summary *v, size_t i, const char **last,
                      size_t *last_len)
{
    const char *name = base_name(v[i].id.path);
    size_t len = gs_part_file_len(name, v[i].id.rank);
    if (*last && *last_len == len && memcmp(*last, name, len) == 0)
        return;
    gs_strbuf_appendf(pick, " DIR/%.*s", (int)len, name);
    *last = name;
    *last_len = len;
}

/* Refuses the traces: "GROUP: rank 0 a.json, rank 1 b.json; GROUP: ...", and the first group's
 * files as the way out. */
static int refuse(const rule *r, const gs_rank_summary *v, const span *s, size_t n,
                  size_t groups, gs_error *err)
{
    gs_strbuf list, pick;
    gs_strbuf_init(&list);
    gs_strbuf_init(&pick);
    const char *last = NULL;
    size_t last_len = 0;
    for (size_t g = 0; g < groups; g++) {
        bool first = true;
        for (size_t i = 0; i < n; i++) {
            if (s[i].group != g)
                continue;
            if (first) {
                gs_strbuf_append(&list, g ? "; " : "");
                r->label(&list, v, s, n, g);
                gs_strbuf_append(&list, ":");
            }
            gs_strbuf_appendf(&list, "%s rank %d %s", first ? "" : ",", (int)v[i].id.rank,
                              base_name(v[i].id.path));
            first = false;
            if (g == 0)
                pick_file(&pick, v, i, &last, &last_len);
        }
    }
    int rc = gs_strbuf_failed(&list) || gs_strbuf_failed(&pick)
                 ? gs_fail_oom(err)
                 : r->refuse(n, groups, gs_strbuf_str(&list), gs_strbuf_str(&pick), err);
    gs_strbuf_free(&list);
    gs_strbuf_free(&pick);
    return rc;
}

int gs_runs_check(const gs_rank_summary *v, size_t n, gs_error *err)
{
    if (n < 2)
        return 0;
    span *s = gs_array_new(n, sizeof *s);
    if (!s)
        return gs_fail_oom(err);
    int rc = 0;
    for (size_t r = 0; r < COUNT_OF(rules) && rc == 0; r++) {
        for (size_t i = 0; i < n; i++)
            span_of(&v[i], i, &s[i]);
        size_t groups = rules[r].group(v, n, s);
        if (groups >= rules[r].refused_at)
            rc = refuse(&rules[r], v, s, n, groups, err);
    }
    free(s);
    return rc;
}
