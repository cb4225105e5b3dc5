/* Step detection (steps.h): find the host ranges, extend them to the GPU work they launched and
 * trim the tail exactly as the TensorBoard profiler plugin's StepParser did
 * (torch_tb_profiler/profiler/event_parser.py), so that per-step numbers agree with it; then flag
 * warm-up steps and compute the statistics over the steps kept (doc/design.md §10). */
#include "analysis/base/steps.h"

#include "analysis/base/name_rules.h"
#include "analysis/base/stats.h"
#include "analysis/base/step_detect.h"
#include "analysis/base/sync_calls.h"
#include "analysis/base/thresholds.h"

#include <inttypes.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/vec.h"

/* Steps listed one by one at -vv, at most. */
#define LOG_STEPS 50

/* What the GPU activities launched by one API call span (a graph launch launches many). */
typedef struct launch_span {
    gs_ns start, end;
    uint32_t n;
} launch_span;

/* What a step's range must match: the profiler's step name (judged once per name in names) or
 * the --step expression. */
typedef struct range_match {
    const gs_trace *t;
    const gs_names *names;
    const regex_t *re;
} range_match;

typedef bool (*range_pred)(const range_match *m, const gs_range *r);

static bool matches_regex(const range_match *m, const gs_range *r)
{
    if (r->kind != GS_RANGE_ANNOTATION && r->kind != GS_RANGE_NVTX)
        return false;
    return regexec(m->re, gs_trace_str(m->t, r->name), 0, NULL, 0) == 0;
}

static bool is_profiler_step(const range_match *m, const gs_range *r)
{
    /* Legacy (autograd profiler) traces record the step as an operator; traces recorded by
     * gpuscope run, as the NVTX range the program pushed under torch.profiler's name. */
    if (r->kind != GS_RANGE_ANNOTATION && r->kind != GS_RANGE_OP && r->kind != GS_RANGE_NVTX)
        return false;
    return gs_names_get(m->names, r->name, GS_NAME_PROFILER_STEP) != 0;
}

typedef struct thread_pick {
    int64_t pid, tid;
    size_t matches;         /* on that thread */
    size_t total, nthreads; /* over every thread, for the debug log */
} thread_pick;

typedef GS_VEC(uint32_t) range_list;

/* The (pid, tid) holding the most matching ranges: steps are one thread's loop; a second thread
 * with a few matches (a DataLoader worker, a helper) must not interleave with it. The first
 * thread seen wins a tie, so the answer is the same on every run. The matching ranges, in
 * order, go into *matched (a few per step: the ranges are read once). 1 found, 0 none, -1 out of
 * memory. */
static int busiest_thread(const range_match *m, range_pred pred, thread_pick *pick,
                          range_list *matched)
{
    typedef struct {
        int64_t pid, tid;
        size_t n;
    } tcount;
    const gs_trace *t = m->t;
    GS_VEC(tcount) counts = {0};
    int rc = 0;
    for (size_t i = 0; i < t->ranges.n && rc == 0; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (!pred(m, r))
            continue;
        size_t j = 0;
        while (j < counts.n && (counts.v[j].pid != r->pid || counts.v[j].tid != r->tid))
            j++;
        tcount *c = j < counts.n ? &counts.v[j] : GS_VEC_PUSH(&counts);
        uint32_t *at = GS_VEC_PUSH(matched);
        if (!c || !at) {
            rc = -1;
            break;
        }
        *at = (uint32_t)i;
        c->pid = r->pid;
        c->tid = r->tid;
        c->n++;
    }
    size_t best = 0;
    for (size_t j = 0; j < counts.n; j++) {
        if (counts.v[j].n > counts.v[best].n)
            best = j;
    }
    int found = rc == 0 && counts.n > 0;
    *pick = (thread_pick){.nthreads = counts.n};
    for (size_t j = 0; j < counts.n; j++)
        pick->total += counts.v[j].n;
    if (found) {
        pick->pid = counts.v[best].pid;
        pick->tid = counts.v[best].tid;
        pick->matches = counts.v[best].n;
    }
    GS_VEC_FREE(&counts);
    return rc < 0 ? -1 : found;
}

static int64_t step_number(const gs_trace *t, const gs_range *r, size_t index, bool profiler)
{
    if (!profiler)
        return (int64_t)index;
    return strtoll(gs_trace_str(t, r->name) + strlen(GS_PROFILER_STEP_PREFIX), NULL, 10);
}

/* Host ranges on the busiest thread, outermost only (ranges are sorted by start, so a range that
 * starts before the previous kept one ends is nested in it or overlaps it). */
static int collect_ranges(const range_match *m, range_pred pred, bool profiler, gs_steps *out,
                          gs_error *err)
{
    const gs_trace *t = m->t;
    thread_pick pick;
    range_list matched = {0};
    int found = busiest_thread(m, pred, &pick, &matched);
    if (found <= 0) {
        GS_VEC_FREE(&matched);
        return found < 0 ? gs_fail_oom(err) : 0;
    }
    size_t cap = 0;
    for (size_t k = 0; k < matched.n; k++) {
        uint32_t i = matched.v[k];
        const gs_range *r = &t->ranges.v[i];
        if (r->pid != pick.pid || r->tid != pick.tid)
            continue;
        if (out->n && r->start < out->v[out->n - 1].host_end)
            continue;
        if (gs_grow((void **)&out->v, &cap, out->n + 1, sizeof *out->v) != 0) {
            GS_VEC_FREE(&matched);
            return gs_fail_oom(err);
        }
        size_t n = out->n++;
        out->v[n] = (gs_step){
            .number = step_number(t, r, n, profiler),
            .range = i,
            .host_start = r->start,
            .host_end = r->end,
            .start = r->start,
            .end = r->end,
        };
    }
    GS_LOG(GS_LOG_INFO,
                "%s: steps: %zu %s range(s) on %zu thread(s); the busiest, pid %" PRId64
                " tid %" PRId64 ", has %zu, of which %zu outermost are the steps",
                t->id.path, pick.total, profiler ? GS_PROFILER_STEP_PREFIX "N" : "matching",
                pick.nthreads, pick.pid, pick.tid, pick.matches, out->n);
    GS_VEC_FREE(&matched);
    return 0;
}

/* For each API call, the span and count of the GPU activities it launched: kernels and memory
 * operations linked to it (a CUDA graph launch links many): the plugin's runtime device nodes. */
static launch_span *launch_spans(const gs_trace *t, gs_error *err)
{
    launch_span *ls = gs_array_zeroed(t->apis.n, sizeof *ls);
    if (!ls) {
        gs_fail_oom(err);
        return NULL;
    }
    for (size_t i = 0; i < t->kernels.n + t->memops.n; i++) {
        uint32_t api;
        gs_ns start, end;
        if (i < t->kernels.n) {
            api = t->kernels.v[i].api;
            start = t->kernels.v[i].start;
            end = t->kernels.v[i].end;
        } else {
            const gs_memop *m = &t->memops.v[i - t->kernels.n];
            api = m->api;
            start = m->start;
            end = m->end;
        }
        if (api == GS_NONE || api >= t->apis.n)
            continue;
        launch_span *s = &ls[api];
        if (!s->n || start < s->start)
            s->start = start;
        if (!s->n || end > s->end)
            s->end = end;
        s->n++;
    }
    return ls;
}

/* First API call starting at or after ts (apis are sorted by start). */
static size_t first_api_from(const gs_trace *t, gs_ns ts)
{
    size_t lo = 0, hi = t->apis.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->apis.v[mid].start < ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

typedef struct device_span {
    gs_ns start, end; /* start > end when the step launched nothing */
    uint32_t n;
} device_span;

/* The plugin's _find_device_steps: API calls wholly inside the host step launch its GPU work. */
static void find_device_steps(const gs_trace *t, const launch_span *ls, int64_t pid,
                              const gs_steps *s, device_span *dev)
{
    for (size_t i = 0; i < s->n; i++) {
        const gs_step *st = &s->v[i];
        device_span d = {.start = INT64_MAX, .end = INT64_MIN};
        for (size_t a = first_api_from(t, st->host_start);
             a < t->apis.n && t->apis.v[a].start < st->host_end; a++) {
            const gs_api *api = &t->apis.v[a];
            if (api->end > st->host_end || api->pid != pid || !ls[a].n)
                continue;
            d.start = ls[a].start < d.start ? ls[a].start : d.start;
            d.end = ls[a].end > d.end ? ls[a].end : d.end;
            d.n += ls[a].n;
        }
        dev[i] = d;
    }
}

/* Whether GPU activity launched by API call `api` counts as launched inside a step. */
static bool launched_in_step(const gs_trace *t, uint32_t api, int64_t pid, const gs_steps *s)
{
    if (api == GS_NONE || api >= t->apis.n || t->apis.v[api].pid != pid)
        return false;
    long st = gs_steps_at(s, t->apis.v[api].start);
    return st >= 0 && t->apis.v[api].end <= s->v[st].host_end;
}

/* Where the first step may start: its host start, pushed later by GPU work launched outside
 * every step that finished before the first step's first kernel (the previous iteration's tail,
 * still running when the profiler began), as the plugin's prev_step_end_time. Called while the
 * steps still hold their host spans. */
static gs_ns first_step_floor(const gs_trace *t, int64_t pid, const gs_steps *s,
                              const device_span *dev)
{
    gs_ns floor_ts = s->v[0].host_start;
    if (dev[0].n == 0)
        return floor_ts;
    for (size_t i = 0; i < t->kernels.n + t->memops.n; i++) {
        bool kernel = i < t->kernels.n;
        gs_ns end = kernel ? t->kernels.v[i].end : t->memops.v[i - t->kernels.n].end;
        uint32_t api = kernel ? t->kernels.v[i].api : t->memops.v[i - t->kernels.n].api;
        if (end < dev[0].start && end > floor_ts && !launched_in_step(t, api, pid, s))
            floor_ts = end;
    }
    return floor_ts;
}

/* The plugin's _update_steps_duration plus its tail trimming. */
static void extend_and_trim(const gs_trace *t, const launch_span *ls, int64_t pid, gs_steps *s,
                            device_span *dev)
{
    find_device_steps(t, ls, pid, s, dev);
    bool uses_gpu = false;
    for (size_t i = 0; i < s->n; i++)
        uses_gpu = uses_gpu || dev[i].n > 0;
    if (!uses_gpu) {
        GS_LOG(GS_LOG_INFO, "%s: steps: none launched GPU work: they keep their host spans",
                    t->id.path);
        return;
    }
    gs_ns prev_end = first_step_floor(t, pid, s, dev);
    for (size_t i = 0; i < s->n; i++) {
        gs_step *st = &s->v[i];
        st->gpu_ops = dev[i].n;
        st->start = prev_end > st->host_start ? prev_end : st->host_start;
        gs_ns end = st->host_end;
        if (dev[i].n && dev[i].end > end)
            end = dev[i].end;
        st->end = end > st->start ? end : st->start;
        prev_end = st->end;
    }
    size_t last = s->n;
    while (last > 0 && dev[last - 1].n == 0)
        last--;
    if (s->n > 1 && last > 0) {
        size_t keep = last;
        if (last >= 2 && (double)dev[last - 2].n * GS_TH_TAIL_GPU_OPS_RATIO > (double)dev[last - 1].n)
            keep = last - 1;
        GS_LOG(GS_LOG_INFO,
                    "%s: steps: extended to the GPU work they launched; %zu trailing step(s) "
                    "without GPU work dropped, %zu for launching under %.1fx the GPU work of the "
                    "step before (as the TensorBoard plugin does)",
                    t->id.path, s->n - last, last - keep, GS_TH_TAIL_GPU_OPS_RATIO);
        s->n = keep;
    }
}

/* Warm-up: the leading steps each slower than GS_TH_WARMUP_FACTOR × the median of the steps after
 * it; the first step that is not ends the warm-up. The last step is never warm-up. */
static void flag_warmup(const gs_trace *t, gs_steps *s, gs_ns *buf)
{
    for (size_t i = 0; i + 1 < s->n; i++) {
        size_t m = s->n - i - 1;
        for (size_t j = 0; j < m; j++)
            buf[j] = s->v[i + 1 + j].end - s->v[i + 1 + j].start;
        double med = (double)gs_percentile_select(buf, m, 50);
        gs_ns dur = s->v[i].end - s->v[i].start;
        bool warm = (double)dur > GS_TH_WARMUP_FACTOR * med;
        GS_LOG(GS_LOG_INFO,
                    "%s: step %" PRId64 " %s: %.3f ms is %.2fx the median %.3f ms of the "
                    "%zu step(s) after it (warm-up above %.1fx)",
                    t->id.path, s->v[i].number,
                    warm ? "is warm-up" : "is not warm-up: the warm-up ends", (double)dur / 1e6,
                    med > 0 ? (double)dur / med : 0.0, med / 1e6, m, GS_TH_WARMUP_FACTOR);
        if (!warm)
            break;
        s->v[i].warmup = true;
        s->nwarmup++;
    }
}

static void compute_stats(gs_steps *s, gs_ns *buf)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (gs_step_kept(s, i))
            buf[n++] = s->v[i].end - s->v[i].start;
    }
    gs_step_stats st = {.n = n};
    if (n) {
        double sum = 0, sq = 0;
        st.min = st.max = buf[0];
        for (size_t i = 0; i < n; i++) {
            sum += (double)buf[i];
            st.min = buf[i] < st.min ? buf[i] : st.min;
            st.max = buf[i] > st.max ? buf[i] : st.max;
        }
        double mean = sum / (double)n;
        for (size_t i = 0; i < n; i++)
            sq += ((double)buf[i] - mean) * ((double)buf[i] - mean);
        st.mean = (gs_ns)llround(mean);
        st.std = (gs_ns)llround(sqrt(sq / (double)n));
        st.med = gs_percentile_select(buf, n, 50);
        st.p95 = gs_percentile_select(buf, n, 95);
        st.p99 = gs_percentile_select(buf, n, 99);
    }
    s->stats = st;
}

/* Where the whole-trace window starts when no steps are found: after start-up, that is, after
 * the last CUDA call that took GS_TH_SETUP_CALL_NS or more without waiting for the GPU (creating
 * a context, loading modules, a first cudaFree initialising the allocator), provided GPU work
 * follows it. The first event when there is none. */
static gs_ns window_start(const gs_trace *t, const gs_names *names, gs_ns first)
{
    gs_ns last_gpu = INT64_MIN, start = first;
    for (size_t i = 0; i < t->kernels.n; i++)
        last_gpu = t->kernels.v[i].start > last_gpu ? t->kernels.v[i].start : last_gpu;
    for (size_t i = 0; i < t->memops.n; i++)
        last_gpu = t->memops.v[i].start > last_gpu ? t->memops.v[i].start : last_gpu;
    for (size_t i = 0; i < t->apis.n; i++) {
        const gs_api *a = &t->apis.v[i];
        if (a->end - a->start >= GS_TH_SETUP_CALL_NS && a->end > start && a->end < last_gpu &&
            !gs_sync_kind_blocks(gs_sync_call_kind(t, names, a)))
            start = a->end;
    }
    if (start > first)
        GS_LOG(GS_LOG_INFO,
                    "%s: steps: the window starts %.3f ms into the trace, after the last CUDA call "
                    "of %.0f ms or more that did not wait for the GPU (start-up)",
                    t->id.path, (double)(start - first) / 1e6, GS_TH_SETUP_CALL_NS / 1e6);
    return start;
}

static int whole_window(const gs_trace *t, const gs_names *names, bool from_first, gs_steps *out,
                        gs_error *err)
{
    gs_ns first, last;
    out->source = GS_STEPS_WINDOW;
    if (!gs_trace_span(t, &first, &last))
        return 0;
    out->v = calloc(1, sizeof *out->v);
    if (!out->v)
        return gs_fail_oom(err);
    gs_ns start = from_first ? first : window_start(t, names, first);
    uint32_t ops = 0;
    for (size_t i = 0; i < t->kernels.n; i++)
        ops += t->kernels.v[i].start >= start;
    for (size_t i = 0; i < t->memops.n; i++)
        ops += t->memops.v[i].start >= start;
    out->n = 1;
    out->v[0] = (gs_step){.range = GS_NONE,
                          .host_start = start,
                          .host_end = last,
                          .start = start,
                          .end = last,
                          .gpu_ops = ops};
    return 0;
}

static const char *source_name(enum gs_step_source s)
{
    return s == GS_STEPS_PROFILER  ? GS_PROFILER_STEP_PREFIX "N"
           : s == GS_STEPS_REGEX   ? "--step"
           : s == GS_STEPS_DETECTED ? "the repeating kernel sequence"
                                   : "the whole trace";
}

/* Steps from the repeating launch sequence; none when it finds no period. */
static int detected_steps(const gs_trace *t, const gs_names *names, gs_steps *out, int64_t *pid,
                          gs_error *err)
{
    gs_detected_steps det;
    if (gs_steps_detect(t, names, &det, err) != 0)
        return -1;
    if (!det.n)
        return 0;
    out->v = gs_array_zeroed(det.n, sizeof *out->v);
    if (!out->v) {
        gs_detected_steps_free(&det);
        return gs_fail_oom(err);
    }
    for (size_t i = 0; i < det.n; i++) {
        const gs_detected_span *sp = &det.v[i];
        out->v[i] = (gs_step){.number = (int64_t)i,
                              .range = GS_NONE,
                              .host_start = sp->host_start,
                              .host_end = sp->host_end,
                              .start = sp->host_start,
                              .end = sp->host_end};
    }
    out->n = det.n;
    out->source = GS_STEPS_DETECTED;
    out->period = det.period;
    out->confidence = det.confidence;
    *pid = det.pid;
    gs_detected_steps_free(&det);
    return 0;
}

/* What was found, and at -vv each step (the first LOG_STEPS). */
static void log_steps(const gs_trace *t, const gs_steps *s)
{
    GS_LOG(GS_LOG_INFO,
                "%s: %zu step(s) from %s, %zu warm-up, %zu in the statistics%s: mean %.3f ms, "
                "median %.3f ms, min %.3f ms, max %.3f ms",
                t->id.path, s->n, source_name(s->source), s->nwarmup, s->stats.n,
                s->keep_warmup ? " (--keep-warmup)" : "", (double)s->stats.mean / 1e6,
                (double)s->stats.med / 1e6, (double)s->stats.min / 1e6,
                (double)s->stats.max / 1e6);
    for (size_t i = 0; i < s->n && i < LOG_STEPS && gs_log_on(GS_LOG_DETAIL); i++) {
        const gs_step *st = &s->v[i];
        GS_LOG(GS_LOG_DETAIL,
                    "%s: step %" PRId64 ": at %.3f ms, host %.3f ms, extended to %.3f ms, "
                    "%" PRIu32 " GPU activities%s",
                    t->id.path, st->number, (double)(st->start - s->v[0].start) / 1e6,
                    (double)(st->host_end - st->host_start) / 1e6,
                    (double)(st->end - st->start) / 1e6, st->gpu_ops,
                    st->warmup ? ", warm-up" : "");
    }
}

static int detect(const gs_trace *t, const gs_names *names, const gs_step_opts *opts,
                  gs_steps *out, int64_t *pid, gs_error *err)
{
    if (opts && opts->regex) {
        regex_t re;
        int rc = regcomp(&re, opts->regex, REG_EXTENDED | REG_NOSUB);
        if (rc != 0) {
            char why[128];
            regerror(rc, &re, why, sizeof why);
            return gs_fail(err, GS_EXIT_USAGE, "--step '%s': %s", opts->regex, why);
        }
        out->source = GS_STEPS_REGEX;
        GS_LOG(GS_LOG_INFO, "%s: steps: --step '%s' (annotation and NVTX ranges)", t->id.path,
                    opts->regex);
        rc = collect_ranges(&(range_match){t, names, &re}, matches_regex, false, out, err);
        regfree(&re);
        if (rc != 0)
            return rc;
        if (!out->n)
            return gs_fail(err, GS_EXIT_USAGE,
                           "%s: --step '%s' matches no annotation or NVTX range",
                           t->id.path ? t->id.path : "trace", opts->regex);
        *pid = t->ranges.v[out->v[0].range].pid;
        return 0;
    }
    if (!opts || !opts->detect) {
        out->source = GS_STEPS_PROFILER;
        if (collect_ranges(&(range_match){t, names, NULL}, is_profiler_step, true, out, err) != 0)
            return -1;
        if (out->n) {
            *pid = t->ranges.v[out->v[0].range].pid;
            return 0;
        }
        GS_LOG(GS_LOG_INFO,
                    "%s: steps: no " GS_PROFILER_STEP_PREFIX "N range (annotation, operator or "
                    "NVTX) and no --step: looking for a repeating sequence of GPU launches",
                    t->id.path);
    }
    bool plugin = opts && opts->plugin_rules && !opts->detect;
    if (!plugin && detected_steps(t, names, out, pid, err) != 0)
        return -1;
    if (out->n)
        return 0;
    GS_LOG(GS_LOG_INFO, "%s: steps: the whole trace is one window%s", t->id.path,
                plugin ? " (the TensorBoard plugin's rule)" : "");
    return whole_window(t, names, plugin, out, err);
}

int gs_steps_find(const gs_trace *t, const gs_names *names, const gs_step_opts *opts,
                  gs_steps *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    out->keep_warmup = opts && opts->keep_warmup;
    int64_t pid = -1;
    if (detect(t, names, opts, out, &pid, err) != 0) {
        gs_steps_free(out);
        return -1;
    }
    if (!out->n)
        return 0;
    gs_ns *buf = gs_array_new(out->n, sizeof *buf);
    device_span *dev = gs_array_new(out->n, sizeof *dev);
    launch_span *ls = out->source == GS_STEPS_WINDOW ? NULL : launch_spans(t, err);
    if (!buf || !dev || (out->source != GS_STEPS_WINDOW && !ls)) {
        free(buf);
        free(dev);
        free(ls);
        gs_steps_free(out);
        return gs_fail_oom(err);
    }
    if (ls)
        extend_and_trim(t, ls, pid, out, dev);
    flag_warmup(t, out, buf);
    compute_stats(out, buf);
    if (gs_log_on(GS_LOG_INFO))
        log_steps(t, out);
    free(buf);
    free(dev);
    free(ls);
    return 0;
}

void gs_steps_free(gs_steps *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}

int gs_steps_copy(gs_steps *dst, const gs_steps *src)
{
    *dst = *src;
    dst->v = gs_array_new(src->n, sizeof *dst->v);
    if (!dst->v) {
        memset(dst, 0, sizeof *dst);
        return -1;
    }
    if (src->n)
        memcpy(dst->v, src->v, src->n * sizeof *dst->v);
    return 0;
}

long gs_steps_at(const gs_steps *s, gs_ns ts)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) { /* first step starting after ts */
        size_t mid = lo + (hi - lo) / 2;
        if (s->v[mid].start <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || ts >= s->v[lo - 1].end)
        return -1;
    return (long)(lo - 1);
}
