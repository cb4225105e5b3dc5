#include "analysis/pipeline/inputs.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/stage_times.h"
#include "analysis/pipeline/gsum_read.h"
#include "analysis/pipeline/merge.h"
#include "analysis/pipeline/summarise.h"
#include "common/log.h"
#include "common/util.h"
#include "common/vec.h"

/* Several inputs are summarised on one worker thread, one trace in memory at a time, so peak
 * memory stays within about twice the largest rank (measured 1.7-1.9x on 8 ranks of 30 MB
 * each, 2.8x with two workers, for 0.93 s against 0.71 s; doc/report.md). Both cores still
 * work: a plain trace is parsed in chunks on every core, a gzipped one inflated and parsed on
 * two threads, and a rank's analyses run on three. */
enum { WORKERS = 1 };

int gs_rank_inputs_list(const char *const *paths, size_t npaths, bool with_gsum,
                        gs_rank_inputs *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    if (gs_list_inputs(paths, npaths, with_gsum, &out->paths, &out->parts, &out->n, err) != 0)
        return -1;
    for (size_t i = 0; i < out->n; i++)
        out->ngsum += gs_is_gsum_path(out->paths[i]);
    return 0;
}

void gs_rank_inputs_free(gs_rank_inputs *in)
{
    for (size_t i = 0; i < in->n; i++)
        free(in->paths[i]);
    free(in->paths);
    free(in->parts);
    memset(in, 0, sizeof *in);
}

/* Loads path (its part) and builds its context when --rank keeps it (*selected). On success the
 * caller frees both: the context (when selected), then the trace. */
static int open_trace(const char *path, uint32_t part, const gs_rank_load_opts *o, gs_trace **t,
                      gs_trace_ctx *c, bool *selected, gs_error *err)
{
    gs_load_opts load = o->load;
    load.part = part;
    double since = gs_stage_clock();
    int rc = gs_load_trace(path, &load, t, err);
    gs_stage_time_add(GS_TIMED_LOAD, since);
    if (rc != 0)
        return -1;
    *selected = gs_selected(&o->select, &(*t)->id);
    since = gs_stage_clock();
    rc = *selected ? gs_trace_ctx_build(*t, &o->ctx, c, err) : 0;
    gs_stage_time_add(GS_TIMED_CONTEXT, since);
    if (rc != 0) {
        gs_trace_delete(*t);
        return -1;
    }
    return 0;
}

/* Frees the context (when selected), then the trace. */
static void drop_trace(gs_trace *t, gs_trace_ctx *c, bool selected)
{
    double since = gs_stage_clock();
    if (selected)
        gs_trace_ctx_free(c);
    gs_trace_delete(t);
    gs_stage_time_add(GS_TIMED_DROP, since);
}

static int summarise_trace(const char *path, uint32_t part, const gs_rank_load_opts *o,
                           gs_rank_summary *out, gs_error *err)
{
    gs_trace *t;
    gs_trace_ctx c;
    bool selected;
    if (open_trace(path, part, o, &t, &c, &selected, err) != 0) {
        memset(out, 0, sizeof *out);
        return -1;
    }
    /* A rank --rank leaves out stands in by its id alone, for the message when none is kept. */
    int rc = selected ? gs_rank_summarise(&c, &o->summary, out, err)
                      : gs_rank_summary_init(out, &t->id, err);
    drop_trace(t, &c, selected); /* as soon as it is summarised: memory stays one rank's */
    if (rc == 0)
        GS_LOG(GS_LOG_INFO, "%s: summarised as rank %" PRId32 " and dropped", out->id.path,
               out->id.rank);
    return rc;
}

int gs_rank_trace_summarise(const char *path, const gs_rank_load_opts *o, gs_rank_summary *out,
                            gs_error *err)
{
    gs_rank_load_opts all = *o;
    all.select.by_rank = false;
    return summarise_trace(path, 0, &all, out, err);
}

static int summarise_input(const gs_rank_inputs *in, size_t i, const gs_rank_load_opts *o,
                           gs_rank_summary *out, gs_error *err)
{
    return gs_is_gsum_path(in->paths[i]) ? gs_gsum_read(in->paths[i], out, err)
                                         : summarise_trace(in->paths[i], in->parts[i], o, out, err);
}

/* ---- the worker ---------------------------------------------------------------------------- */

typedef struct work {
    const gs_rank_inputs *in;
    const gs_rank_load_opts *opts;
    size_t next;
    gs_rank_summary *out; /* parallel to in->paths */
    pthread_mutex_t lock;
    bool failed;
    gs_error err; /* the first failure */
} work;

static void *summarise_inputs(void *arg)
{
    work *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        size_t i = w->failed ? w->in->n : w->next++;
        pthread_mutex_unlock(&w->lock);
        if (i >= w->in->n)
            return NULL;
        gs_error err = {0};
        if (summarise_input(w->in, i, w->opts, &w->out[i], &err) != 0) {
            pthread_mutex_lock(&w->lock);
            if (!w->failed)
                w->err = err;
            w->failed = true;
            pthread_mutex_unlock(&w->lock);
        }
    }
}

static void run_workers(work *w)
{
    pthread_t threads[WORKERS];
    size_t started = 0;
    while (started < WORKERS && pthread_create(&threads[started], NULL, summarise_inputs, w) == 0)
        started++;
    if (started == 0)
        summarise_inputs(w); /* no thread to be had: on this one */
    for (size_t i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
}

/* ---- --rank ------------------------------------------------------------------------------- */

/* "no trace has rank R (ranks: 0 1 2 3)", the list cut short when the message is full. */
static int fail_no_rank(const int32_t *ranks, size_t n, int32_t rank, gs_error *err)
{
    char list[400] = "";
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        int w = snprintf(list + len, sizeof list - len, " %" PRId32, ranks[i]);
        if (w < 0 || (size_t)w >= sizeof list - len) {
            snprintf(list + len, sizeof list - len, " ...");
            break;
        }
        len += (size_t)w;
    }
    return gs_fail(err, GS_EXIT_USAGE, "no trace has rank %" PRId32 " (ranks:%s)", rank, list);
}

/* Keeps the summaries --rank selects, at least one. */
static int select_ranks(const gs_select *sel, gs_rank_set *s, gs_error *err)
{
    size_t kept = 0;
    for (size_t i = 0; i < s->n; i++)
        kept += gs_selected(sel, &s->v[i].id);
    if (kept == 0) {
        int32_t *ranks = gs_array_new(s->n, sizeof *ranks);
        if (!ranks)
            return gs_fail_oom(err);
        for (size_t i = 0; i < s->n; i++)
            ranks[i] = s->v[i].id.rank;
        fail_no_rank(ranks, s->n, sel->rank, err);
        free(ranks);
        return -1;
    }
    kept = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (gs_selected(sel, &s->v[i].id))
            s->v[kept++] = s->v[i];
        else
            gs_rank_summary_free(&s->v[i]);
    }
    s->n = kept;
    gs_rank_summaries_sort(s->v, s->n); /* the moved summaries' rows point at their paths again */
    return 0;
}

int gs_rank_set_load(const gs_rank_inputs *in, const gs_rank_load_opts *o, gs_rank_set *out,
                     gs_error *err)
{
    memset(out, 0, sizeof *out);
    out->v = gs_array_zeroed(in->n, sizeof *out->v);
    if (!out->v)
        return gs_fail_oom(err);
    out->n = in->n;
    work w = {.in = in, .opts = o, .out = out->v};
    if (in->n == 1) {
        /* One input: on this thread, and glibc's heap as it is (below). */
        w.failed = summarise_input(in, 0, o, &out->v[0], &w.err) != 0;
    } else {
        GS_LOG(GS_LOG_INFO, "%zu input(s) rank by rank: traces summarised one at a time, .gsum "
               "summaries read as they are", in->n);
        /* else peak memory grows with the number of ranks (bench/bench_ranks.sh): the
         * command line program has done it already, the Python module not */
        gs_map_large_arrays();
        if (pthread_mutex_init(&w.lock, NULL) != 0) {
            w.failed = true;
            gs_fail_oom(&w.err);
        } else {
            run_workers(&w);
            pthread_mutex_destroy(&w.lock);
        }
    }
    if (w.failed) {
        gs_rank_set_free(out);
        if (err)
            *err = w.err;
        return -1;
    }
    gs_rank_summaries_sort(out->v, out->n);
    if (select_ranks(&o->select, out, err) != 0) {
        gs_rank_set_free(out);
        return -1;
    }
    return 0;
}

void gs_rank_set_free(gs_rank_set *s)
{
    for (size_t i = 0; s->v && i < s->n; i++)
        gs_rank_summary_free(&s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* ---- the views' loop ------------------------------------------------------------------------- */

typedef struct input_ref {
    const char *path;
    uint32_t part;
} input_ref;

/* Inputs by path, then the ranks of one file in its order. */
static int cmp_input(const void *pa, const void *pb)
{
    const input_ref *a = pa, *b = pb;
    int c = strcmp(a->path, b->path);
    return c ? c : (a->part > b->part) - (a->part < b->part);
}

int gs_traces_each(const gs_rank_inputs *in, const gs_rank_load_opts *o, gs_trace_fn fn,
                   void *user, gs_error *err)
{
    input_ref *order = gs_array_new(in->n, sizeof *order);
    int32_t *ranks = gs_array_new(in->n, sizeof *ranks);
    if (!order || !ranks) {
        free(order);
        free(ranks);
        return gs_fail_oom(err);
    }
    for (size_t i = 0; i < in->n; i++)
        order[i] = (input_ref){in->paths[i], in->parts[i]};
    if (in->n > 1) {
        qsort(order, in->n, sizeof *order, cmp_input);
        gs_map_large_arrays(); /* as gs_rank_set_load, for the same reason */
    }
    size_t kept = 0;
    int rc = 0;
    for (size_t i = 0; i < in->n && rc == 0; i++) {
        gs_trace *t;
        gs_trace_ctx c;
        bool selected;
        rc = open_trace(order[i].path, order[i].part, o, &t, &c, &selected, err);
        if (rc != 0)
            break;
        ranks[i] = t->id.rank;
        if (selected) {
            kept++;
            double since = gs_stage_clock();
            rc = fn(&c, user, err);
            gs_stage_time_add(GS_TIMED_VIEW, since);
        }
        drop_trace(t, &c, selected);
    }
    if (rc == 0 && kept == 0 && o->select.by_rank) {
        qsort(ranks, in->n, sizeof *ranks, gs_cmp_i32);
        rc = fail_no_rank(ranks, in->n, o->select.rank, err);
    }
    free(order);
    free(ranks);
    return rc;
}
