#include "cmd/rank_inputs.h"

#include <inttypes.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/rank_merge.h"
#include "common/log.h"
#include "ingest/gsum.h"
#include "ingest/load.h"

/* One trace in memory at a time, so peak memory stays within about twice the largest rank (issue 7:
 * measured 1.7-1.9x on 8 ranks of 30 MB each, 2.8x with two workers, 0.93 s against 0.71 s).
 * Both cores still work: a gzipped trace is inflated and parsed on two threads, and the report's
 * analyses of a rank run on two. */
enum { WORKERS = 1 };

typedef struct work {
    char **paths;
    size_t n, next;
    gs_step_opts steps;
    bool detail;
    gs_rank_summary *out; /* parallel to paths */
    pthread_mutex_t lock;
    bool failed;
    gs_error err; /* the first failure */
} work;

static int summarise(const char *path, const gs_step_opts *steps, bool detail,
                     gs_rank_summary *out, gs_error *err)
{
    if (gs_is_gsum_path(path))
        return gs_gsum_read(path, out, err);
    gs_trace *t;
    if (gs_load_trace(path, NULL, &t, err) != 0)
        return -1;
    int rc = gs_rank_summary_build(t, steps, detail, out, err);
    gs_trace_delete(t); /* the trace goes as soon as it is summarised: memory stays one rank's */
    if (rc == 0)
        GS_LOG(GS_LOG_INFO, "%s: summarised as rank %" PRId32 " and dropped", path, out->id.rank);
    return rc;
}

static void *worker(void *arg)
{
    work *w = arg;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        size_t i = w->failed ? w->n : w->next++;
        pthread_mutex_unlock(&w->lock);
        if (i >= w->n)
            return NULL;
        gs_error err = {0};
        if (summarise(w->paths[i], &w->steps, w->detail, &w->out[i], &err) != 0) {
            pthread_mutex_lock(&w->lock);
            if (!w->failed)
                w->err = err;
            w->failed = true;
            pthread_mutex_unlock(&w->lock);
        }
    }
}

/* The number of input files, and whether one is a .gsum; 0 when they cannot be listed (the
 * loader will say what is wrong). */
static size_t list_inputs(const gs_cli *cli, bool *any_summary)
{
    char **paths = NULL;
    size_t n = 0;
    gs_error err;
    *any_summary = false;
    if (gs_list_inputs(cli->paths, cli->npaths, &paths, &n, &err) != 0)
        return 0;
    for (size_t i = 0; i < n; i++) {
        *any_summary |= gs_is_gsum_path(paths[i]);
        free(paths[i]);
    }
    free(paths);
    return n;
}

bool gs_cli_has_summaries(const gs_cli *cli)
{
    bool any;
    list_inputs(cli, &any);
    return any;
}

size_t gs_cli_count_inputs(const gs_cli *cli)
{
    bool any;
    return list_inputs(cli, &any);
}

/* Keeps the summaries --rank selects (at least one, or a usage error). */
static int select_rank(const gs_cli *cli, gs_rank_set *s)
{
    if (!cli->select.by_rank)
        return GS_CLI_RUN;
    size_t kept = 0;
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].id.rank == cli->select.rank)
            kept++;
    if (kept == 0) {
        fprintf(stderr, "gpuscope: %s: no trace has rank %" PRId32 " (ranks:", cli->spec->command,
                cli->select.rank);
        for (size_t i = 0; i < s->n; i++)
            fprintf(stderr, " %" PRId32, s->v[i].id.rank);
        fputs(")\n", stderr);
        return GS_EXIT_USAGE;
    }
    kept = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->v[i].id.rank == cli->select.rank)
            s->v[kept++] = s->v[i];
        else
            gs_rank_summary_free(&s->v[i]);
    }
    s->n = kept;
    gs_rank_summaries_sort(s->v, s->n); /* the moved stubs' paths are pointed at again */
    return GS_CLI_RUN;
}

int gs_cli_load_ranks(const gs_cli *cli, bool detail, gs_rank_set *out)
{
    memset(out, 0, sizeof *out);
    /* A trace's large arrays are mapped and unmapped, not kept in the heap: glibc raises its mmap
     * threshold after a large free and then keeps each rank's freed arrays, so peak memory grew
     * with the number of ranks (123 MB for 64 ranks of 33 MB; 44 MB with the threshold fixed,
     * bench/bench_ranks.sh, for about a quarter more time). */
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    work w = {.steps = cli->steps, .detail = detail};
    if (gs_list_inputs(cli->paths, cli->npaths, &w.paths, &w.n, &w.err) != 0)
        return gs_cli_fail(&w.err);
    GS_LOG(GS_LOG_INFO, "%zu input(s) rank by rank: traces summarised one at a time, .gsum "
           "summaries read as they are", w.n);
    w.out = calloc(w.n ? w.n : 1, sizeof *w.out);
    if (!w.out || pthread_mutex_init(&w.lock, NULL) != 0) {
        free(w.out);
        w.out = NULL;
        w.failed = true;
        gs_fail_oom(&w.err);
    } else {
        pthread_t threads[WORKERS];
        size_t started = 0;
        while (started < WORKERS && started < w.n &&
               pthread_create(&threads[started], NULL, worker, &w) == 0)
            started++;
        if (started == 0)
            worker(&w); /* no thread to be had: on this one */
        for (size_t i = 0; i < started; i++)
            pthread_join(threads[i], NULL);
        pthread_mutex_destroy(&w.lock);
    }
    for (size_t i = 0; i < w.n; i++) {
        out->from_summaries |= gs_is_gsum_path(w.paths[i]);
        free(w.paths[i]);
    }
    free(w.paths);
    out->v = w.out;
    out->n = w.n;
    if (w.failed) {
        gs_rank_set_free(out);
        return gs_cli_fail(&w.err);
    }
    gs_rank_summaries_sort(out->v, out->n);
    int rc = select_rank(cli, out);
    if (rc != GS_CLI_RUN)
        gs_rank_set_free(out);
    return rc;
}

void gs_rank_set_free(gs_rank_set *s)
{
    for (size_t i = 0; s->v && i < s->n; i++)
        gs_rank_summary_free(&s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}
