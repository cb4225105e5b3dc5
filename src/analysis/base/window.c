#include "analysis/base/window.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static gs_ns step_from(const gs_step *s)
{
    return s->host_start < s->start ? s->host_start : s->start;
}

/* The kept steps, each from the earlier of its host start and its start to the later of its host
 * end and the end of its GPU work: its host range holds the launches of its work. */
static int add_kept_steps(const gs_steps *st, gs_window *w)
{
    bool seen = false;
    size_t last_kept = 0;
    w->steps_contiguous = true;
    for (size_t i = 0; i < st->n; i++) {
        if (!gs_step_kept(st, i)) {
            if (st->v[i].warmup && w->nwarmup_out++ == 0)
                w->first_warmup = st->v[i].number;
            continue;
        }
        const gs_step *s = &st->v[i];
        gs_ns lo = step_from(s);
        gs_ns hi = s->host_end > s->end ? s->host_end : s->end;
        /* Kept steps that follow one another make one part, the host's time between them
         * included: an idle gap from one into the next is the window's. */
        if (i + 1 < st->n && gs_step_kept(st, i + 1) && step_from(&st->v[i + 1]) > hi)
            hi = step_from(&st->v[i + 1]);
        if (gs_spans_add(&w->spans, lo, hi) != 0)
            return -1;
        if (!seen)
            w->first_step = s->number;
        else if (i != last_kept + 1)
            w->steps_contiguous = false;
        w->last_step = s->number;
        last_kept = i;
        seen = true;
        w->nkept++;
    }
    return 0;
}

static int add_named_ranges(const gs_trace *t, const char *name, gs_window *w)
{
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (!gs_range_in_op_tree(r) || strcmp(gs_trace_str(t, r->name), name) != 0)
            continue;
        /* An empty range still opens the window at its start. */
        if (gs_spans_add(&w->spans, r->start, r->end > r->start ? r->end : r->start + 1) != 0)
            return -1;
        w->nranges++;
    }
    return 0;
}

/* Keeps what lies in [from, to) of the merged spans. */
static int clip_to(gs_window *w, gs_ns from, gs_ns to)
{
    gs_spans cut = {0}, clipped = {0};
    int rc = gs_spans_add(&cut, from, to);
    if (rc == 0)
        rc = gs_spans_intersect(&w->spans, &cut, &clipped);
    gs_spans_free(&cut);
    if (rc != 0) {
        gs_spans_free(&clipped);
        return -1;
    }
    gs_spans_free(&w->spans);
    w->spans = clipped;
    return 0;
}

static int build_spans(const gs_trace *t, const gs_steps *st, const gs_window_spec *spec,
                       gs_window *w, gs_error *err)
{
    gs_ns from = spec->has_from ? w->origin + spec->from : w->from;
    gs_ns to = spec->has_to ? w->origin + spec->to : w->to + 1;
    if (spec->range) {
        w->kind = GS_WINDOW_RANGE;
        w->range = spec->range;
        if (add_named_ranges(t, spec->range, w) != 0)
            return gs_fail_oom(err);
        if (w->nranges == 0)
            return gs_fail(err, GS_EXIT_INPUT,
                           "%s: no operator, annotation or NVTX range is named '%s' (--range)",
                           t->id.path, spec->range);
        gs_spans_merge(&w->spans);
        if ((spec->has_from || spec->has_to) && clip_to(w, from, to) != 0)
            return gs_fail_oom(err);
    } else if (spec->has_from || spec->has_to) {
        w->kind = GS_WINDOW_TIME;
        if (gs_spans_add(&w->spans, from, to) != 0)
            return gs_fail_oom(err);
        w->from = from;
        w->to = to;
        return 0;
    } else if (!spec->all_steps) {
        w->step_source = st->source;
        w->nsteps = st->n;
        if (st->source != GS_STEPS_WINDOW && st->n > 0) {
            w->kind = GS_WINDOW_STEPS;
            if (add_kept_steps(st, w) != 0)
                return gs_fail_oom(err);
        }
        gs_spans_merge(&w->spans);
    }
    if (w->spans.n) {
        w->from = w->spans.v[0].start;
        w->to = w->spans.v[w->spans.n - 1].end;
    }
    return 0;
}

int gs_window_build(const gs_trace *t, gs_ns first, gs_ns last, const gs_steps *steps,
                    const gs_window_spec *spec, gs_window *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    out->origin = out->from = first;
    out->to = last;
    if (!spec || !spec->on)
        return 0;
    if (build_spans(t, steps, spec, out, err) != 0) {
        gs_window_free(out);
        return -1;
    }
    return 0;
}

void gs_window_free(gs_window *w)
{
    gs_spans_free(&w->spans);
    memset(w, 0, sizeof *w);
}

long gs_window_part_at(const gs_window *w, gs_ns ts)
{
    if (w->kind == GS_WINDOW_WHOLE)
        return 0;
    size_t lo = 0, hi = w->spans.n; /* the first span ending after ts */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->spans.v[mid].end <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < w->spans.n && w->spans.v[lo].start <= ts ? (long)lo : -1;
}

bool gs_window_holds(const gs_window *w, gs_ns ts)
{
    return gs_window_part_at(w, ts) >= 0;
}

static const char *source_name(enum gs_step_source s)
{
    switch (s) {
    case GS_STEPS_PROFILER:
        return "ProfilerStep#N";
    case GS_STEPS_REGEX:
        return "the --step ranges";
    default:
        return "steps found";
    }
}

static double ms_from(const gs_window *w, gs_ns ts)
{
    return (double)(ts - w->origin) / 1e6;
}

const char *gs_window_describe(const gs_window *w, char *buf, size_t cap)
{
    if (!cap)
        return buf;
    buf[0] = '\0';
    switch (w->kind) {
    case GS_WINDOW_WHOLE:
        break;
    case GS_WINDOW_STEPS: {
        char kept[64], out[96] = "";
        if (w->nkept == 1)
            snprintf(kept, sizeof kept, "step %lld", (long long)w->first_step);
        else if (w->steps_contiguous)
            snprintf(kept, sizeof kept, "steps %lld-%lld", (long long)w->first_step,
                     (long long)w->last_step);
        else
            snprintf(kept, sizeof kept, "%zu steps", w->nkept);
        if (w->nwarmup_out == 1)
            snprintf(out, sizeof out, "warm-up step %lld and ", (long long)w->first_warmup);
        else if (w->nwarmup_out > 1)
            snprintf(out, sizeof out, "%zu warm-up steps and ", w->nwarmup_out);
        if (w->nkept == 0)
            snprintf(buf, cap, "over no step: all %zu steps are warm-up (--keep-warmup to count "
                     "them, --all-steps for the whole trace)", w->nsteps);
        else
            snprintf(buf, cap, "over %s of %zu (%s); %sthe time outside the steps left out "
                     "(--all-steps for the whole trace)", kept, w->nsteps,
                     source_name(w->step_source), out);
        break;
    }
    case GS_WINDOW_TIME:
        snprintf(buf, cap, "over %.3f ms to %.3f ms from the trace's first event (--from, --to)",
                 ms_from(w, w->from), ms_from(w, w->to));
        break;
    case GS_WINDOW_RANGE:
        snprintf(buf, cap, "over the %zu range%s named '%s' and the GPU work launched in %s "
                 "(--range)", w->nranges, w->nranges == 1 ? "" : "s", w->range,
                 w->nranges == 1 ? "it" : "them");
        break;
    }
    return buf;
}

bool gs_window_parse_time(const char *text, gs_ns *out)
{
    static const struct { const char *unit; double ns; } units[] = {
        {"ns", 1}, {"us", 1e3}, {"µs", 1e3}, {"ms", 1e6}, {"s", 1e9}, {"", 1e6}};
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    if (end == text || errno || !isfinite(v) || v < 0)
        return false;
    for (size_t i = 0; i < COUNT_OF(units); i++) {
        if (strcmp(end, units[i].unit) != 0)
            continue;
        double ns = v * units[i].ns;
        if (ns > (double)GS_TIME_MAX)
            return false;
        *out = (gs_ns)llround(ns);
        return true;
    }
    return false;
}
