/* The replay graph's host lanes (replay_build.h): each launching thread's operators and calls,
 * swept in time order into points joined by segments of CPU time and the calls' durations; and
 * where a time falls on a lane. */
#include "analysis/replay/replay_model.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/replay/replay_build.h"
#include "common/vec.h"

enum item_type { ITEM_RANGE, ITEM_API, ITEM_MARK };

typedef struct lane_item {
    gs_ns start, end;
    uint32_t idx; /* range, API call, or kept step (marks: 2 * step + is_end) */
    uint8_t type;
} lane_item;

/* The lane's items come in this order: by start, the longer first, ranges before calls. */
static int item_cmp(const void *pa, const void *pb)
{
    const lane_item *a = pa, *b = pb;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end > b->end ? -1 : 1;
    if (a->type != b->type)
        return a->type - b->type;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* An item open on the lane's stack, with what encloses the time inside it (itself included):
 * known when it opens, so that each point reads it instead of walking the stack. */
typedef struct open_item {
    lane_item item;
    uint8_t flags;     /* RP_IN_* */
    uint32_t inner_op; /* the innermost operator range, GS_NONE */
} open_item;

/* What encloses the sweep's current time on a lane. */
typedef struct lane_state {
    open_item open[RP_MAX_DEPTH];
    size_t depth;
    uint32_t top_api; /* the open top-level call, GS_NONE */
} lane_state;

/* What range r says of the time inside it. */
static uint8_t range_flags(const rp_builder *b, const gs_range *r)
{
    uint8_t f = r->kind == GS_RANGE_OP ? RP_IN_OP : 0;
    if (r->kind != GS_RANGE_NVTX && gs_ctx_name(b->c, r->name, GS_NAME_DATALOADER))
        f |= RP_IN_DATA;
    if (gs_ctx_name(b->c, r->name, GS_NAME_OPTIMIZER_OP))
        f |= RP_IN_OPT;
    if (gs_ctx_name(b->c, r->name, GS_NAME_COMPILED_RANGE))
        f |= RP_IN_COMPILED;
    return f;
}

/* Opens `it` on top of the stack. */
static void push(const rp_builder *b, lane_state *s, const lane_item *it)
{
    open_item top = s->depth ? s->open[s->depth - 1] : (open_item){.inner_op = GS_NONE};
    top.item = *it;
    if (it->type == ITEM_RANGE) {
        const gs_range *r = &b->t->ranges.v[it->idx];
        top.flags |= range_flags(b, r);
        if (r->kind == GS_RANGE_OP)
            top.inner_op = it->idx;
    }
    s->open[s->depth++] = top;
}

/* Emits one point of the lane at time ts (clipped to the lane's last), joined to the previous
 * point by a segment, or by the call's edge when the previous point is the open call's start. */
static int emit(rp_builder *b, rp_lane *lane, const lane_state *s, gs_ns ts, uint32_t *out)
{
    if (lane->npoints && ts < b->time.v[lane->last]) {
        ts = b->time.v[lane->last];
        b->inputs.clipped++;
    }
    uint32_t p;
    if (rp_point(b, ts, &p) != 0)
        return -1;
    if (lane->npoints) {
        bool call = s->top_api != GS_NONE && b->call_start[s->top_api] == lane->last;
        uint8_t kind = call ? RP_CALL : RP_SEGMENT;
        const open_item *in = s->depth ? &s->open[s->depth - 1] : NULL;
        uint32_t ref = call ? s->top_api : in ? in->inner_op : GS_NONE;
        if (rp_edge_add(b, lane->last, p, ts - b->time.v[lane->last], kind, in ? in->flags : 0,
                        ref) != 0)
            return -1;
        b->edges.v[b->edges.n - 1].lane = (uint8_t)lane->id;
        if (call)
            b->call_edge[s->top_api] = (uint32_t)(b->edges.n - 1);
        else
            b->inputs.host_segments++;
    }
    rp_lane_point(lane, p);
    *out = p;
    return 0;
}

static int close_top(rp_builder *b, rp_lane *lane, lane_state *s)
{
    const lane_item *it = &s->open[s->depth - 1].item;
    gs_ns end = it->end;
    /* broken nesting: the child ends with its parent */
    if (s->depth > 1 && s->open[s->depth - 2].item.end < end)
        end = s->open[s->depth - 2].item.end;
    uint32_t p;
    if (emit(b, lane, s, end, &p) != 0)
        return -1;
    if (it->type == ITEM_API) {
        b->call_end[it->idx] = p;
        s->top_api = GS_NONE;
    } else {
        b->range_end[it->idx] = p;
    }
    s->depth--;
    return 0;
}

/* A lane's items as the sweep takes them, one at a time, in item_cmp's order: the lane's ranges
 * and calls come in the model's time order already (by start, the longer first, index), and the
 * index keeps each thread's apart (t->thread_ranges, t->thread_apis), so the next of each is the
 * next of its thread's in the window; the least of them is taken, beside the kept steps' bounds
 * (the main lane's marks, sorted). */
typedef struct lane_feed {
    const rp_builder *b;
    const uint32_t *order[2]; /* the trace's per-thread orders of ranges and of calls */
    size_t next[2], end[2];   /* the lane's thread's next range and call there, and their end */
    lane_item head[3];        /* the next range, call and mark of the lane */
    bool has[3];
    const lane_item *marks;
    size_t nmarks, mark;
} lane_feed;

/* Puts the feed on the lane's thread's ranges and calls. */
static void feed_on_lane(lane_feed *f, const rp_lane *lane)
{
    const gs_trace *t = f->b->t;
    f->order[ITEM_RANGE] = t->thread_ranges.v;
    f->order[ITEM_API] = t->thread_apis.v;
    for (int type = ITEM_RANGE; type <= ITEM_API; type++)
        gs_thread_order_span(t, type == ITEM_RANGE, lane->pid, lane->tid, &f->next[type],
                             &f->end[type]);
}

static bool in_window(const rp_builder *b, gs_ns start, gs_ns end)
{
    return end > b->w0 && start < b->w1;
}

/* Fills the feed's head of one type with its next item. */
static void feed_fill(lane_feed *f, int type)
{
    const gs_trace *t = f->b->t;
    f->has[type] = false;
    if (type == ITEM_MARK) {
        if (f->mark < f->nmarks) {
            f->head[type] = f->marks[f->mark++];
            f->has[type] = true;
        }
        return;
    }
    for (size_t *k = &f->next[type]; *k < f->end[type] && !f->has[type]; ++*k) {
        uint32_t i = f->order[type][*k];
        gs_ns start = type == ITEM_RANGE ? t->ranges.v[i].start : t->apis.v[i].start;
        gs_ns end = type == ITEM_RANGE ? t->ranges.v[i].end : t->apis.v[i].end;
        if (in_window(f->b, start, end)) {
            f->head[type] = (lane_item){start, end, i, (uint8_t)type};
            f->has[type] = true;
        }
    }
}

/* The lane's next item into *out; false when none is left. */
static bool feed_take(lane_feed *f, lane_item *out)
{
    int least = -1;
    for (int type = ITEM_RANGE; type <= ITEM_MARK; type++)
        if (f->has[type] && (least < 0 || item_cmp(&f->head[type], &f->head[least]) < 0))
            least = type;
    if (least < 0)
        return false;
    *out = f->head[least];
    feed_fill(f, least);
    return true;
}

/* The lane's points in time order, from its items: a sweep keeping the open ones on a stack. */
static int sweep_lane(rp_builder *b, rp_lane *lane, lane_feed *feed)
{
    lane_state s = {.top_api = GS_NONE};
    lane_item item;
    while (feed_take(feed, &item)) {
        const lane_item *it = &item;
        while (s.depth && s.open[s.depth - 1].item.end <= it->start)
            if (close_top(b, lane, &s) != 0)
                return -1;
        if (it->type == ITEM_API && s.top_api != GS_NONE) {
            b->call_top[it->idx] = s.top_api; /* a call inside a call: the outer one stands */
            continue;
        }
        uint32_t p;
        if (emit(b, lane, &s, it->start, &p) != 0)
            return -1;
        if (it->type == ITEM_MARK) {
            rp_step *st = &b->steps.v[it->idx / 2];
            *(it->idx % 2 ? &st->host_end : &st->host_start) = p;
            continue;
        }
        if (it->type == ITEM_API) {
            b->call_start[it->idx] = p;
            b->call_top[it->idx] = it->idx;
            b->call_lane[it->idx] = lane->id;
            s.top_api = it->idx;
            b->inputs.host_calls++;
        } else {
            b->range_start[it->idx] = p;
        }
        if (s.depth == RP_MAX_DEPTH) { /* deeper than any real stack: the item is left out */
            b->inputs.clipped++;
            if (it->type == ITEM_API)
                s.top_api = GS_NONE;
            continue;
        }
        push(b, &s, it);
    }
    while (s.depth)
        if (close_top(b, lane, &s) != 0)
            return -1;
    return 0;
}

/* The kept steps' host starts and ends, the main lane's marks, sorted. NULL out of memory. */
static lane_item *step_marks(const rp_builder *b)
{
    lane_item *marks = gs_array_new(2 * b->steps.n, sizeof *marks);
    if (!marks)
        return NULL;
    for (size_t s = 0; s < b->steps.n; s++) {
        const gs_step *st = b->steps.v[s].step;
        marks[2 * s] = (lane_item){st->host_start, st->host_start, (uint32_t)(2 * s), ITEM_MARK};
        marks[2 * s + 1] = (lane_item){st->host_end, st->host_end, (uint32_t)(2 * s + 1),
                                       ITEM_MARK};
    }
    qsort(marks, 2 * b->steps.n, sizeof *marks, item_cmp);
    return marks;
}

/* Every lane's items: its operators, annotations and calls that overlap the window, and on the
 * main lane the kept steps' host starts and ends. */
int rp_build_host(rp_builder *b)
{
    lane_item *marks = step_marks(b);
    int rc = marks ? 0 : -1;
    for (size_t l = 0; l < b->nlanes && rc == 0; l++) {
        lane_feed feed = {.b = b, .marks = marks, .nmarks = l == 0 ? 2 * b->steps.n : 0};
        feed_on_lane(&feed, &b->lanes[l]);
        for (int type = ITEM_RANGE; type <= ITEM_MARK; type++)
            feed_fill(&feed, type);
        rc = sweep_lane(b, &b->lanes[l], &feed);
    }
    free(marks);
    return rc;
}

/* Whether the lane's point i (by its place on the lane) comes before ts, or is at ts when `at`:
 * true for a first run of points, false after. */
static bool point_before(const gs_ns *time, size_t i, gs_ns ts, bool at)
{
    return time[i] < ts || (at && time[i] == ts);
}

size_t rp_lane_before(const rp_builder *b, rp_lane *lane, gs_ns ts, bool at)
{
    const gs_ns *time = b->time.v + lane->first;
    size_t n = lane->npoints, f = lane->finger < n ? lane->finger : n, lo, hi;
    /* The answer is in [lo, hi]: bracketed by steps doubling away from the last answer. */
    if (f < n && point_before(time, f, ts, at)) {
        size_t step = 1;
        lo = f + 1;
        while (lo + step - 1 < n && point_before(time, lo + step - 1, ts, at)) {
            lo += step;
            step *= 2;
        }
        hi = lo + step - 1 < n ? lo + step - 1 : n;
    } else {
        size_t step = 1;
        hi = f;
        while (hi >= step && !point_before(time, hi - step, ts, at)) {
            hi -= step;
            step *= 2;
        }
        lo = hi >= step ? hi - step + 1 : 0;
    }
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (point_before(time, mid, ts, at))
            lo = mid + 1;
        else
            hi = mid;
    }
    lane->finger = lo;
    return lo;
}
