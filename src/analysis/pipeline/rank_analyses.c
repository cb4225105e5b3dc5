#include "analysis/pipeline/rank_analyses.h"

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "analysis/base/stage_times.h"
#include "common/util.h"

void gs_rank_analyses_free(gs_rank_analyses *a)
{
    gs_profile_facts_free(&a->facts);
    gs_breakdown_free(&a->breakdown);
    gs_launch_summary_free(&a->launch);
    gs_sync_summary_free(&a->sync);
    gs_memory_summary_free(&a->memory);
    gs_temporal_free(&a->temporal);
    gs_idle_free(&a->idle);
    gs_comm_free(&a->comm);
    gs_kernel_summary_free(&a->kernels);
    gs_op_summary_free(&a->ops);
    gs_memcpy_summary_free(&a->memcpy);
    gs_rank_roof_free(&a->roof);
}

/* The analyses are pure functions of the context. The replay runs on a thread of its own; the
 * others, each only where its stage is asked for, are taken in order from a queue by whichever
 * thread is free: one from the start, the replay's once its runs are done. */
typedef struct analysis_queue {
    pthread_mutex_t mu;
    pthread_cond_t cv; /* an analysis was taken or done, or one failed */
    size_t next;       /* the next analysis to take */
    uint32_t done;     /* TIMED_BIT of each analysis done, or passed over as not asked */
    bool stop;         /* one failed: no more are taken, no wait goes on */
} analysis_queue;

/* An analysis by its row in -v's table, which names each once. */
#define TIMED_BIT(timed) (1u << (timed))
_Static_assert(GS_TIMED__COUNT <= 32, "analysis_queue.done: one bit per timed row");

typedef struct analysis_job {
    const gs_trace_ctx *c;
    const gs_summarise_opts *o; /* stages: with their dependencies */
    gs_rank_analyses *a;
    analysis_queue *queue;
    gs_error err;
    int rc;
} analysis_job;

static bool asked(const analysis_job *j, unsigned stage)
{
    return (j->o->stages & stage) != 0;
}

/* Each analysis, building its result from the job's context. */
typedef int (*analysis_fn)(analysis_job *j);

static int build_breakdown(analysis_job *j)
{
    return gs_breakdown_build(j->c, false, &j->a->breakdown, &j->err);
}

static int build_launch(analysis_job *j)
{
    return gs_launch_build(j->c, &j->a->launch, &j->err);
}

static int build_sync(analysis_job *j)
{
    return gs_sync_build(j->c, &j->a->sync, &j->err);
}

static int build_kernels(analysis_job *j)
{
    return gs_kernel_summary_build(j->c, false, &j->a->kernels, &j->err);
}

/* The GPU's time over the kept steps, the window the step breakdown's utilization is over. */
static int build_temporal(analysis_job *j)
{
    const gs_trace_ctx kept = gs_trace_ctx_over(j->c, &j->c->kept);
    return gs_temporal_build(&kept, false, &j->a->temporal, &j->err);
}

static int build_facts(analysis_job *j)
{
    return gs_profile_facts_build(j->c, &j->a->facts, &j->err);
}

static int build_memory(analysis_job *j)
{
    return gs_memory_build(j->c, &j->a->memory, &j->err);
}

/* The gaps of the kept steps: warm-up is left out of every per-step number the report gives. */
static int build_idle(analysis_job *j)
{
    const gs_trace_ctx kept = gs_trace_ctx_over(j->c, &j->c->kept);
    const gs_idle_opts idle_opts = {.max_gaps = GS_RANK_GAPS};
    return gs_idle_build(&kept, &idle_opts, &j->a->idle, &j->err);
}

static int build_comm(analysis_job *j)
{
    return gs_comm_build(j->c, j->o->hta_compat, &j->a->comm, &j->err);
}

static int build_ops(analysis_job *j)
{
    return gs_op_summary_build(j->c, false, &j->a->ops, &j->err);
}

static int build_copies(analysis_job *j)
{
    return gs_memcpy_summary_build(j->c, &j->a->memcpy, &j->err);
}

/* The verdict's inputs from the analyses before it in its group, but the replay's (put in with
 * the summary). */
static int build_verdict_inputs(analysis_job *j)
{
    const gs_rank_analyses *a = j->a;
    gs_diag_sources src = {
        .breakdown = &a->breakdown.v[0],
        .launch = a->launch.nranks ? &a->launch.ranks[0] : NULL,
        .sync = a->sync.nranks ? &a->sync.ranks[0] : NULL,
        .sync_top_op = a->sync.ncauses ? a->sync.causes[0].op : NULL,
        .memory = &a->memory,
        .comm = a->comm.nranks ? &a->comm.ranks[0] : NULL,
        .facts = &a->trace_facts,
    };
    return gs_diag_inputs_build(j->c, &src, &j->a->inputs, &j->err);
}

static int build_compute(analysis_job *j)
{
    return gs_compute_build(j->c, &j->a->compute, &j->err);
}

/* The profiler's cost per event and what ran, which the replay and the verdict's inputs read. */
static int build_trace_facts(analysis_job *j)
{
    return gs_trace_facts_build(j->c, &j->a->trace_facts, &j->err);
}

/* The kept steps' roofline, whose largest group one action brings up and which the verdict's
 * inputs read too. */
static int build_roof(analysis_job *j)
{
    const gs_trace_ctx kept = gs_trace_ctx_over(j->c, &j->c->kept);
    return gs_rank_roof_build(&kept, &j->a->roof, &j->err);
}

typedef struct analysis {
    unsigned stage;       /* the stage that asks for it */
    enum gs_timed timed;  /* its row in -v's table of stage times */
    uint32_t needs;       /* TIMED_BIT of the analyses it reads, all before it */
    analysis_fn build;
} analysis;

/* The queue beside the replay: about 0.6 s on the 521 MB trace of doc/performance.md (-v's table
 * of stage times), as long as the replay. The trace facts and the roofline first: the replay
 * waits for them. */
static const analysis queued[] = {
    {GS_STAGE_DIAGNOSIS, GS_TIMED_TRACE_FACTS, 0, build_trace_facts},
    {GS_STAGE_DIAGNOSIS, GS_TIMED_ROOFLINE, 0, build_roof},
    {GS_STAGE_BREAKDOWN, GS_TIMED_BREAKDOWN, 0, build_breakdown},
    {GS_STAGE_LAUNCH, GS_TIMED_LAUNCH, 0, build_launch},
    {GS_STAGE_SYNC, GS_TIMED_SYNC, 0, build_sync},
    {GS_STAGE_MEMORY, GS_TIMED_MEMORY, 0, build_memory},
    {GS_STAGE_COMM, GS_TIMED_COMM, 0, build_comm},
    {GS_STAGE_KERNELS, GS_TIMED_KERNELS, 0, build_kernels},
    {GS_STAGE_TEMPORAL, GS_TIMED_TEMPORAL, 0, build_temporal},
    {GS_STAGE_IDLE, GS_TIMED_IDLE, 0, build_idle},
    {GS_STAGE_FACTS, GS_TIMED_FACTS, 0, build_facts},
    {GS_STAGE_DIAGNOSIS, GS_TIMED_DIAGNOSIS,
     TIMED_BIT(GS_TIMED_TRACE_FACTS) | TIMED_BIT(GS_TIMED_BREAKDOWN) | TIMED_BIT(GS_TIMED_LAUNCH) |
         TIMED_BIT(GS_TIMED_SYNC) | TIMED_BIT(GS_TIMED_MEMORY) | TIMED_BIT(GS_TIMED_COMM),
     build_verdict_inputs},
    {GS_STAGE_OPS, GS_TIMED_OPS, 0, build_ops},
    {GS_STAGE_DIAGNOSIS, GS_TIMED_COMPUTE, 0, build_compute},
    {GS_STAGE_COPIES, GS_TIMED_COPIES, 0, build_copies},
};

/* Waits until the analyses `needs` names are done: false when one failed instead. */
static bool wait_for(analysis_queue *q, uint32_t needs)
{
    pthread_mutex_lock(&q->mu);
    while ((q->done & needs) != needs && !q->stop)
        pthread_cond_wait(&q->cv, &q->mu);
    bool ok = !q->stop;
    pthread_mutex_unlock(&q->mu);
    return ok;
}

/* The next analysis asked for, or NULL when none is left or one failed. */
static const analysis *take(analysis_job *j)
{
    analysis_queue *q = j->queue;
    pthread_mutex_lock(&q->mu);
    while (q->next < COUNT_OF(queued) && !asked(j, queued[q->next].stage))
        q->done |= TIMED_BIT(queued[q->next++].timed);
    const analysis *a = q->next < COUNT_OF(queued) && !q->stop ? &queued[q->next++] : NULL;
    pthread_cond_broadcast(&q->cv);
    pthread_mutex_unlock(&q->mu);
    return a;
}

/* Builds analyses from the queue until none is left; the first failure stops every taker. */
static void run_queue(analysis_job *j)
{
    const analysis *a;
    while ((a = take(j)) && wait_for(j->queue, a->needs)) {
        double since = gs_stage_clock();
        j->rc = a->build(j);
        gs_stage_time_add(a->timed, since);
        pthread_mutex_lock(&j->queue->mu);
        j->queue->done |= j->rc == 0 ? TIMED_BIT(a->timed) : 0;
        j->queue->stop |= j->rc != 0;
        pthread_cond_broadcast(&j->queue->cv);
        pthread_mutex_unlock(&j->queue->mu);
        if (j->rc != 0)
            return;
    }
}

/* wait_for, the wait left out of a row of -v's table that began at *since. */
static bool wait_untimed(analysis_queue *q, uint32_t needs, double *since)
{
    double waited_from = gs_stage_clock();
    bool ok = wait_for(q, needs);
    *since += gs_stage_clock() - waited_from;
    return ok;
}

/* The replay reads only the context and the trace's facts: it runs beside the other analyses, on
 * a thread of its own, since it takes about as long as they do together. Its graph is built while
 * the queue finds the facts and the roofline; the profiler's cost in the model then waits for the
 * facts, its runs for the roofline; then it helps with what is left of the queue. */
static void *run_replay(void *arg)
{
    analysis_job *j = arg;
    double since = gs_stage_clock();
    gs_replay *m = NULL;
    j->rc = gs_diag_replay_model(j->c, &m, &j->err);
    bool facts = wait_untimed(j->queue, TIMED_BIT(GS_TIMED_TRACE_FACTS), &since);
    if (j->rc == 0 && m && facts && gs_replay_finish(m, &j->a->trace_facts, &j->err) != 0) {
        m = NULL; /* freed */
        j->rc = -1;
    }
    bool roofed = wait_untimed(j->queue, TIMED_BIT(GS_TIMED_ROOFLINE), &since);
    if (j->rc == 0 && facts && roofed) {
        gs_replay_params p = {0};
        gs_rank_roof_target(&j->a->roof, &p);
        j->rc = gs_diag_replay_runs(m, &p, &j->a->replay, &j->err);
    }
    gs_replay_free(m);
    gs_stage_time_add(GS_TIMED_REPLAY, since);
    if (j->rc == 0)
        run_queue(j);
    return NULL;
}

int gs_rank_analyses_run(const gs_trace_ctx *c, const gs_summarise_opts *o, gs_rank_analyses *a,
                         gs_error *err)
{
    memset(a, 0, sizeof *a);
    double since = gs_stage_clock();
    analysis_queue queue = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
    analysis_job others = {c, o, a, &queue, {0}, 0}, replay = others;
    pthread_t replay_thread;
    bool replayed = asked(&replay, GS_STAGE_DIAGNOSIS);
    bool threaded = replayed && pthread_create(&replay_thread, NULL, run_replay, &replay) == 0;
    run_queue(&others);
    if (threaded)
        pthread_join(replay_thread, NULL);
    else if (replayed)
        run_replay(&replay); /* no second thread to be had: after the others, roofline done */
    gs_stage_time_add(GS_TIMED_ANALYSES, since);
    const analysis_job *failed = others.rc ? &others : replay.rc ? &replay : NULL;
    if (!failed)
        return 0;
    if (err)
        *err = failed->err;
    gs_rank_analyses_free(a);
    return -1;
}

