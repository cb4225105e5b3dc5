#include "analysis/pipeline/runs.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/strbuf.h"

/* A trace's time span on the Unix clock: its first to last event. */
typedef struct span {
    size_t index;
    gs_ns start, end;
    size_t run;
} span;

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
    *out = (span){i, s->id.epoch_ns + first, s->id.epoch_ns + last, 0};
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

static bool rank_repeats(const gs_rank_summary *v, size_t n)
{
    for (size_t i = 1; i < n; i++) /* sorted by rank */
        if (v[i].id.rank == v[i - 1].id.rank)
            return true;
    return false;
}

static const char *base_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path ? path : "-";
}

int gs_runs_check(const gs_rank_summary *v, size_t n, gs_error *err)
{
    if (n < 2 || !rank_repeats(v, n))
        return 0;
    span *s = malloc(n * sizeof *s);
    if (!s)
        return gs_fail_oom(err);
    for (size_t i = 0; i < n; i++)
        span_of(&v[i], i, &s[i]);
    /* Runs: traces chained by overlapping spans. */
    qsort(s, n, sizeof *s, cmp_start);
    size_t runs = 1;
    gs_ns end = s[0].end;
    for (size_t i = 1; i < n; i++) {
        if (s[i].start > end)
            runs++;
        s[i].run = runs - 1;
        if (s[i].end > end)
            end = s[i].end;
    }
    qsort(s, n, sizeof *s, cmp_index);
    gs_strbuf list, pick;
    gs_strbuf_init(&list);
    gs_strbuf_init(&pick);
    for (size_t r = 0; r < runs; r++) {
        gs_strbuf_appendf(&list, "%srun %zu:", r ? "; " : "", r + 1);
        bool first = true;
        for (size_t i = 0; i < n; i++) {
            if (s[i].run != r)
                continue;
            gs_strbuf_appendf(&list, "%s rank %d %s", first ? "" : ",", (int)v[i].id.rank,
                              base_name(v[i].id.path));
            first = false;
            if (r == 0)
                gs_strbuf_appendf(&pick, " DIR/%s", base_name(v[i].id.path));
        }
    }
    free(s);
    int rc;
    if (gs_strbuf_failed(&list) || gs_strbuf_failed(&pick))
        rc = gs_fail_oom(err);
    else if (runs > 1)
        rc = gs_fail(err, GS_EXIT_INPUT,
                     "the %zu traces are %zu runs, not one (a rank appears in several; their "
                     "times do not overlap): %s. Name one run's traces to report it, e.g. "
                     "gpuscope report%s",
                     n, runs, gs_strbuf_str(&list), gs_strbuf_str(&pick));
    else
        rc = gs_fail(err, GS_EXIT_INPUT,
                     "a rank appears in several of the %zu traces, which overlap in time: %s. "
                     "Name one trace per rank to report them",
                     n, gs_strbuf_str(&list));
    gs_strbuf_free(&list);
    gs_strbuf_free(&pick);
    return rc;
}
