/* Steps from the repeating sequence of GPU launches (step_detect.h). */
#include "analysis/base/step_detect.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/name_rules.h"
#include "analysis/base/stats.h"
#include "analysis/base/sync_calls.h"
#include "analysis/base/thresholds.h"
#include "common/log.h"
#include "common/util.h"
#include "common/vec.h"

/* Lags tried as the period: the most frequent distances between repeats of a name. */
#define MAX_LAGS 32
/* Operations around an iteration's first one that are searched for to find every start: one
 * before it (the previous iteration's last) and seven from it. */
#define CONTEXT_BEFORE 1
#define CONTEXT_LEN 8
/* How far a repeat may be displaced by inserted or missing ops and still match. */
#define MATCH_SLACK 2

/* How the host waited for the GPU before a launch. A loop's iteration ends with the host waiting
 * for results (an .item(), a synchronize): a strong wait. A pageable host-to-device copy blocks
 * only until its data is staged, as a batch's copies do inside an iteration: a weak one. */
enum wait { WAIT_NONE, WAIT_WEAK, WAIT_STRONG };

/* A launching call: the first GPU operation it launched names it; its GPU span covers them all. */
typedef struct launch {
    uint32_t api;
    gs_str name;
    gs_ns gpu_start, gpu_end;
} launch;

/* What one analysis run holds, freed together. */
typedef struct detector {
    const gs_trace *t;
    const gs_names *names; /* the trace's (name_rules.h) */
    launch *ops;     /* the launching process's launching calls, in order */
    uint32_t *seq;   /* their names */
    gs_ns *resume;   /* when the host came back from the calls before op i's launch */
    gs_ns *idle;     /* how long the GPU had been idle (for this process) when op i started */
    uint8_t *waited; /* how those calls waited for the GPU: enum wait */
    size_t n;
    uint32_t period;
    size_t steady;   /* first op of the steady iterations */
} detector;

static int cmp_launch(const void *pa, const void *pb)
{
    const launch *a = pa, *b = pb;
    if (a->api != b->api)
        return a->api < b->api ? -1 : 1;
    return (a->gpu_start > b->gpu_start) - (a->gpu_start < b->gpu_start);
}

/* The process that launched the most GPU operations: a loop is one process's. */
static int64_t busiest_pid(const gs_trace *t)
{
    typedef struct {
        int64_t pid;
        size_t n;
    } pcount;
    pcount counts[16];
    size_t ncounts = 0;
    for (size_t i = 0; i < t->apis.n; i++) {
        const gs_api *a = &t->apis.v[i];
        if (a->gpu_class != GS_GPU_KERNEL && a->gpu_class != GS_GPU_MEMOP)
            continue;
        size_t j = 0;
        while (j < ncounts && counts[j].pid != a->pid)
            j++;
        if (j == ncounts) {
            if (ncounts == COUNT_OF(counts))
                continue; /* more launching processes than that: the first ones decide */
            counts[ncounts++] = (pcount){.pid = a->pid};
        }
        counts[j].n++;
    }
    size_t best = 0;
    for (size_t j = 1; j < ncounts; j++) {
        if (counts[j].n > counts[best].n)
            best = j;
    }
    return ncounts ? counts[best].pid : -1;
}

static void push_op(detector *d, const gs_trace *t, int64_t pid, uint32_t api, gs_str name,
                    gs_ns gpu_start, gs_ns gpu_end)
{
    if (api == GS_NONE || api >= t->apis.n || t->apis.v[api].pid != pid)
        return;
    d->ops[d->n++] =
        (launch){.api = api, .name = name, .gpu_start = gpu_start, .gpu_end = gpu_end};
}

static int collect_ops(detector *d, const gs_trace *t, int64_t pid)
{
    size_t cap = t->kernels.n + t->memops.n;
    d->ops = gs_array_new(cap, sizeof *d->ops);
    if (!d->ops)
        return -1;
    for (size_t i = 0; i < t->kernels.n; i++)
        push_op(d, t, pid, t->kernels.v[i].api, t->kernels.v[i].name, t->kernels.v[i].start,
                t->kernels.v[i].end);
    for (size_t i = 0; i < t->memops.n; i++)
        push_op(d, t, pid, t->memops.v[i].api, t->memops.v[i].name, t->memops.v[i].start,
                t->memops.v[i].end);
    qsort(d->ops, d->n, sizeof *d->ops, cmp_launch);
    /* One entry per launching call: a CUDA graph launch launches many operations at once, and
     * the host loop repeats the launch, not the operations inside it (its first one names it). */
    size_t kept = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (kept && d->ops[kept - 1].api == d->ops[i].api) {
            launch *l = &d->ops[kept - 1];
            l->gpu_end = d->ops[i].gpu_end > l->gpu_end ? d->ops[i].gpu_end : l->gpu_end;
            continue;
        }
        d->ops[kept++] = d->ops[i];
    }
    d->n = kept;
    d->seq = gs_array_new(d->n, sizeof *d->seq);
    if (!d->seq)
        return -1;
    for (size_t i = 0; i < d->n; i++)
        d->seq[i] = d->ops[i].name;
    return 0;
}

static enum wait wait_of(const gs_trace *t, const gs_api *call, int kind)
{
    if (!gs_sync_kind_blocks(kind))
        return WAIT_NONE;
    if (kind == GS_SYNC_MEMCPY_PAGEABLE && call->gpu_class == GS_GPU_MEMOP &&
        call->gpu < t->memops.n && t->memops.v[call->gpu].kind == GS_MEMOP_HTOD)
        return WAIT_WEAK;
    return WAIT_STRONG;
}

/* For each launch, when its thread came back from the calls since the previous launch (that
 * launch included) and how one of them waited for the GPU: the host's pause before a launch is
 * its start - resume; and how long the GPU had been idle when its first operation started. */
static int host_returns(detector *d)
{
    const gs_trace *t = d->t;
    d->resume = gs_array_new(d->n, sizeof *d->resume);
    d->waited = gs_array_zeroed(d->n, sizeof *d->waited);
    d->idle = gs_array_new(d->n, sizeof *d->idle);
    if (!d->resume || !d->waited || !d->idle)
        return -1;
    gs_ns busy_until = INT64_MIN;
    for (size_t i = 0; i < d->n; i++) {
        gs_ns gap = i ? d->ops[i].gpu_start - busy_until : 0;
        d->idle[i] = gap > 0 ? gap : 0;
        busy_until = d->ops[i].gpu_end > busy_until ? d->ops[i].gpu_end : busy_until;
    }
    for (size_t i = 0; i < d->n; i++) {
        const gs_api *cur = &t->apis.v[d->ops[i].api];
        gs_ns back = cur->start;
        if (i > 0) { /* launches are distinct calls, in order (collect_ops) */
            back = INT64_MIN;
            for (uint32_t a = d->ops[i - 1].api; a < d->ops[i].api; a++) {
                const gs_api *call = &t->apis.v[a];
                if (call->tid != cur->tid || call->pid != cur->pid)
                    continue;
                back = call->end > back ? call->end : back;
                enum wait w = wait_of(t, call, gs_sync_call_kind(t, d->names, call));
                d->waited[i] = w > d->waited[i] ? (uint8_t)w : d->waited[i];
            }
            if (back == INT64_MIN || back > cur->start)
                back = cur->start;
        }
        d->resume[i] = back;
    }
    return 0;
}

/* The share of ops whose name recurs one lag later, give or take MATCH_SLACK ops: an iteration
 * that launches an extra kernel (a logging step, a norm every k iterations) shifts the ones
 * after it by one and must not hide the period. */
static double match_at(const uint32_t *seq, size_t n, size_t lag)
{
    size_t same = 0;
    for (size_t i = 0; i + lag + MATCH_SLACK < n; i++) {
        bool hit = false;
        for (size_t j = i + lag - MATCH_SLACK; j <= i + lag + MATCH_SLACK && !hit; j++)
            hit = j > i && seq[i] == seq[j];
        same += hit;
    }
    return n > lag + MATCH_SLACK ? (double)same / (double)(n - lag - MATCH_SLACK) : 0;
}

/* The distances between consecutive repeats of every name that repeats at least three times
 * and is at most half of the whole, most frequent first: names seen once per iteration
 * repeat at the period. */
static size_t candidate_lags(const detector *d, size_t nnames, uint32_t *lags, double *chance)
{
    size_t n = d->n, found = 0;
    uint32_t *count = gs_array_zeroed(nnames, sizeof *count);
    uint32_t *last = gs_array_new(nnames, sizeof *last);
    uint32_t *gaps = gs_array_new(n, sizeof *gaps);
    if (!count || !last || !gaps)
        goto out;
    memset(last, 0xff, nnames * sizeof *last);
    for (size_t i = 0; i < n; i++)
        count[d->seq[i]]++;
    *chance = 0;
    for (size_t s = 0; s < nnames; s++)
        *chance += ((double)count[s] / (double)n) * ((double)count[s] / (double)n);
    size_t ngaps = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t s = d->seq[i];
        if (count[s] >= 3 && count[s] <= n / 2 && last[s] != UINT32_MAX) {
            uint32_t gap = (uint32_t)(i - last[s]);
            if (gap >= 2 && gap <= n / 3)
                gaps[ngaps++] = gap;
        }
        last[s] = (uint32_t)i;
    }
    qsort(gaps, ngaps, sizeof *gaps, gs_cmp_u32);
    size_t runs[MAX_LAGS] = {0};
    for (size_t i = 0; i < ngaps;) {
        size_t j = i;
        while (j < ngaps && gaps[j] == gaps[i])
            j++;
        size_t run = j - i, at = found < MAX_LAGS ? found++ : MAX_LAGS;
        if (at == MAX_LAGS) { /* full: replace the least frequent when this one is more so */
            size_t least = 0;
            for (size_t k = 1; k < MAX_LAGS; k++)
                least = runs[k] < runs[least] ? k : least;
            at = run > runs[least] ? least : MAX_LAGS;
        }
        if (at < MAX_LAGS) {
            lags[at] = gaps[i];
            runs[at] = run;
        }
        i = j;
    }
out:
    free(count);
    free(last);
    free(gaps);
    return found;
}

static double exact_match_at(const uint32_t *seq, size_t n, size_t lag)
{
    size_t same = 0;
    for (size_t i = 0; i + lag < n; i++)
        same += seq[i] == seq[i + lag];
    return (double)same / (double)(n - lag);
}

/* The period: the shortest candidate lag that matches almost as well as the best (a multiple
 * of the period matches as well as the period), then, of the lags within the slack of it, the
 * one that matches best exactly. Whether it is a loop at all is judged on the steady part
 * (accept_period): a long start-up dilutes the match over the whole. */
static void find_period(detector *d, size_t nnames, double *chance)
{
    uint32_t lags[MAX_LAGS];
    double match[MAX_LAGS], best = 0;
    size_t nlags = candidate_lags(d, nnames, lags, chance);
    for (size_t i = 0; i < nlags; i++) {
        match[i] = match_at(d->seq, d->n, lags[i]);
        best = match[i] > best ? match[i] : best;
    }
    d->period = 0;
    for (size_t i = 0; i < nlags; i++) {
        if (match[i] > 0 && match[i] >= GS_TH_PERIOD_NEAR_BEST * best &&
            (!d->period || lags[i] < d->period))
            d->period = lags[i];
    }
    if (!d->period)
        return;
    size_t near = d->period, best_lag = near;
    double best_exact = -1;
    for (size_t lag = near > MATCH_SLACK + 1 ? near - MATCH_SLACK : 2; lag <= near + MATCH_SLACK;
         lag++) {
        double m = lag < d->n ? exact_match_at(d->seq, d->n, lag) : 0;
        if (m > best_exact) {
            best_exact = m;
            best_lag = lag;
        }
    }
    d->period = (uint32_t)best_lag;
}

/* The confidence: the match at the period over the steady part, which must hold at least three
 * periods, repeat at least GS_TH_PERIOD_MATCH, and that much above chance too (a sequence of one
 * kernel repeated matches itself at every lag): chance is that one of the 2 * MATCH_SLACK + 1
 * ops compared has the same name. */
static bool accept_period(const detector *d, double chance, double *confidence)
{
    size_t n = d->n - d->steady;
    *confidence = match_at(d->seq + d->steady, n, d->period);
    if (n < 3 * (size_t)d->period)
        return false;
    chance = 1 - pow(1 - chance, 2 * MATCH_SLACK + 1);
    double above = chance < 1 ? (*confidence - chance) / (1 - chance) : 0;
    return *confidence >= GS_TH_PERIOD_MATCH && above >= GS_TH_PERIOD_MATCH;
}

/* The first op from which a period's worth of ops repeats about as well as anywhere: the
 * iterations before it (start-up, the first iteration's set-up) differ. */
static void find_steady(detector *d)
{
    size_t p = d->period, stride = p / 8 ? p / 8 : 1, best = 0;
    size_t nwin = (d->n - p) / stride + 1;
    uint32_t *score = gs_array_new(nwin, sizeof *score);
    d->steady = 0;
    if (!score)
        return;
    for (size_t w = 0; w < nwin; w++) {
        size_t same = 0, from = w * stride;
        for (size_t i = from; i < from + p && i + p < d->n; i++)
            same += d->seq[i] == d->seq[i + p];
        score[w] = (uint32_t)same;
        best = same > best ? same : best;
    }
    for (size_t w = 0; w < nwin; w++) {
        if ((double)score[w] >= GS_TH_PERIOD_STEADY * (double)best) {
            d->steady = w * stride;
            break;
        }
    }
    free(score);
}

/* Which op of the steady iteration comes first: among the positions after a strong wait in
 * (nearly) every iteration, the one after which the GPU had been idle longest (median over the
 * iterations: the host drained it, then prepared the next batch), moved back over the positions
 * just before it that follow such a wait too (a batch's copies each end in a wait; the first of
 * them starts the iteration); else the same after a weak wait; else, the GPU never drained, the
 * one after the host's longest median pause (the loop's Python between iterations), provided
 * it stands out: GS_TH_PERIOD_PAUSE_RATIO times the median of every position's pause. Without a
 * wait or such a pause nothing marks an iteration's start: what repeats is more likely the
 * layers of one forward pass than a loop. Returns its offset from d->steady, -2 when nothing
 * marks a start, or -1 out of memory. */
static long first_position(const detector *d, enum wait *after)
{
    size_t p = d->period, iters = (d->n - d->steady) / p;
    gs_ns *idle = gs_array_new(iters, sizeof *idle);
    gs_ns *pause = gs_array_new(iters, sizeof *pause);
    gs_ns *pauses = gs_array_new(p, sizeof *pauses); /* each position's median pause */
    uint8_t *level = calloc(p, 1); /* the strongest wait before position k in nearly every
                                    * iteration */
    size_t npauses = 0;
    if (!idle || !pause || !pauses || !level) {
        free(idle);
        free(pause);
        free(pauses);
        free(level);
        return -1;
    }
    long best[WAIT_STRONG + 1] = {-1, -1, -1};
    gs_ns best_score[WAIT_STRONG + 1] = {INT64_MIN, INT64_MIN, INT64_MIN};
    for (size_t k = 0; k < p; k++) {
        size_t aligned = 0, waits[WAIT_STRONG + 1] = {0};
        for (size_t j = 0; j < iters; j++) {
            size_t i = d->steady + j * p + k;
            if (i == 0 || d->seq[i] != d->seq[d->steady + k])
                continue;
            idle[aligned] = d->idle[i];
            pause[aligned++] = d->t->apis.v[d->ops[i].api].start - d->resume[i];
            for (int w = WAIT_NONE; w <= d->waited[i]; w++)
                waits[w]++; /* a strong wait is a weak one too */
        }
        if (!aligned)
            continue;
        gs_ns med_idle = gs_percentile_select(idle, aligned, 50);
        gs_ns med_pause = gs_percentile_select(pause, aligned, 50);
        pauses[npauses++] = med_pause;
        for (int w = WAIT_NONE; w <= WAIT_STRONG; w++) {
            if ((double)waits[w] < GS_TH_PERIOD_SYNCED * (double)aligned)
                continue;
            level[k] = (uint8_t)w;
            gs_ns score = w == WAIT_NONE ? med_pause : med_idle;
            if (score > best_score[w]) {
                best_score[w] = score;
                best[w] = (long)k;
            }
        }
    }
    long k = 0;
    *after = WAIT_NONE;
    for (int w = WAIT_STRONG; w >= WAIT_NONE; w--) {
        if (best[w] >= 0) {
            *after = (enum wait)w;
            k = best[w];
            break;
        }
    }
    for (size_t back = 0; *after != WAIT_NONE && back + 1 < p; back++) {
        long prev = k > 0 ? k - 1 : (long)p - 1;
        if (level[prev] < *after)
            break;
        k = prev;
    }
    if (*after == WAIT_NONE && npauses &&
        (double)best_score[WAIT_NONE] <
            GS_TH_PERIOD_PAUSE_RATIO * (double)gs_percentile_select(pauses, npauses, 50))
        k = -2;
    free(idle);
    free(pause);
    free(pauses);
    free(level);
    return k;
}

/* Every op whose neighbourhood looks like the steady iteration's start: at least 3/4 of the
 * context's names in place, starts at least half a period apart (the better match wins). */
static size_t find_starts(const detector *d, size_t first, size_t *starts)
{
    size_t before = first >= CONTEXT_BEFORE ? CONTEXT_BEFORE : first;
    size_t len = d->period < CONTEXT_LEN ? d->period : CONTEXT_LEN;
    if (len > d->n - (first - before))
        len = d->n - (first - before);
    const uint32_t *ctx = d->seq + first - before;
    size_t need = (3 * len + 3) / 4, nstarts = 0, last_score = 0;
    for (size_t i = before; i + len - before <= d->n; i++) {
        size_t score = 0;
        for (size_t w = 0; w < len; w++)
            score += d->seq[i - before + w] == ctx[w];
        if (score < need)
            continue;
        if (nstarts && i - starts[nstarts - 1] < d->period / 2) {
            if (score > last_score) {
                starts[nstarts - 1] = i;
                last_score = score;
            }
            continue;
        }
        starts[nstarts++] = i;
        last_score = score;
    }
    return nstarts;
}

static int make_spans(const detector *d, const size_t *starts, size_t nstarts,
                      gs_detected_steps *out)
{
    /* The last iteration counts when it is complete, ending a period after its start; a partial
     * one only ends the step before it. */
    bool complete = nstarts && (double)(d->n - starts[nstarts - 1]) >=
                                   GS_TH_PERIOD_LAST_COMPLETE * (double)d->period;
    size_t nsteps = complete ? nstarts : (nstarts ? nstarts - 1 : 0);
    if (nsteps < GS_TH_PERIOD_MIN_STEPS)
        return 0;
    size_t last_op = 0;
    if (complete) {
        last_op = starts[nstarts - 1] + d->period - 1;
        last_op = last_op < d->n ? last_op : d->n - 1;
    }
    out->v = gs_array_zeroed(nsteps, sizeof *out->v);
    if (!out->v)
        return -1;
    for (size_t j = 0; j < nsteps; j++) {
        size_t s = starts[j];
        gs_detected_span *sp = &out->v[j];
        sp->host_start = d->resume[s];
        sp->host_end = j + 1 < nstarts ? d->resume[starts[j + 1]]
                                       : d->t->apis.v[d->ops[last_op].api].end;
        if (sp->host_end < sp->host_start)
            sp->host_end = sp->host_start;
    }
    out->n = nsteps;
    return 0;
}

static void detector_free(detector *d)
{
    free(d->ops);
    free(d->seq);
    free(d->resume);
    free(d->waited);
    free(d->idle);
}

int gs_steps_detect(const gs_trace *t, const gs_names *names, gs_detected_steps *out,
                    gs_error *err)
{
    memset(out, 0, sizeof *out);
    detector d = {.t = t, .names = names};
    size_t *starts = NULL;
    int rc = -1;
    int64_t pid = busiest_pid(t);
    if (pid < 0)
        return 0;
    if (collect_ops(&d, t, pid) != 0)
        goto oom;
    if (d.n < 3 * GS_TH_PERIOD_MIN_OPS) {
        rc = 0;
        goto done;
    }
    double chance = 1;
    find_period(&d, t->strings.n, &chance);
    if (d.period)
        find_steady(&d);
    if (!d.period || !accept_period(&d, chance, &out->confidence)) {
        GS_LOG(GS_LOG_INFO,
                    "%s: steps: no repeating sequence among %zu GPU launches (best period %" PRIu32
                    ", %zu launches from its steady part, %.2f of them repeat; a loop needs 3 "
                    "periods and %.2f)",
                    t->id.path, d.n, d.period, d.period ? d.n - d.steady : 0, out->confidence,
                    GS_TH_PERIOD_MATCH);
        out->confidence = 0;
        rc = 0;
        goto done;
    }
    if (host_returns(&d) != 0)
        goto oom;
    enum wait after = WAIT_NONE;
    long k = first_position(&d, &after);
    if (k == -2) {
        GS_LOG(GS_LOG_INFO,
                    "%s: steps: %zu GPU launches repeat every %" PRIu32 " (%.0f %%), but no wait "
                    "for the GPU and no pause of the host stands out where one would start: more "
                    "likely layers than a loop, no steps",
                    t->id.path, d.n, d.period, out->confidence * 100);
        out->confidence = 0;
        rc = 0;
        goto done;
    }
    starts = gs_array_new(d.n, sizeof *starts);
    if (k < 0 || !starts)
        goto oom;
    size_t first = d.steady + (size_t)k;
    size_t nstarts = find_starts(&d, first, starts);
    if (make_spans(&d, starts, nstarts, out) != 0)
        goto oom;
    out->period = d.period;
    out->pid = pid;
    out->tid = t->apis.v[d.ops[first].api].tid;
    GS_LOG(GS_LOG_INFO,
                "%s: steps: %zu GPU launches of pid %" PRId64 " repeat every %" PRIu32
                " (%.0f %% of them match one period later), steady from launch %zu; an iteration "
                "starts with %s, %s; %zu start(s) found, %zu complete step(s)",
                t->id.path, d.n, pid, d.period, out->confidence * 100, d.steady,
                gs_trace_str(t, d.seq[first]),
                after == WAIT_STRONG ? "the first launch after the host waited for the GPU"
                : after == WAIT_WEAK ? "the first launch after a pageable copy to the GPU"
                                     : "the launch after the host's longest pause",
                nstarts, out->n);
    rc = 0;
    goto done;
oom:
    gs_fail_oom(err);
    gs_detected_steps_free(out);
done:
    free(starts);
    detector_free(&d);
    return rc;
}

void gs_detected_steps_free(gs_detected_steps *d)
{
    free(d->v);
    memset(d, 0, sizeof *d);
}
