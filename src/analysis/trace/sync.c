#include "analysis/trace/sync.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "common/util.h"
#include "common/vec.h"

#define NO_OPERATOR "(no operator)"

static double pct(gs_ns part, gs_ns whole)
{
    return whole > 0 ? (double)part * 100.0 / (double)whole : 0.0;
}

/* The cause's name for a call (see sync.h): walk the enclosing ranges from the innermost out.
 * The outermost synchronizing operator (the name rules' SYNC_OP) of the chain names the cause, so
 * `aten::item` wins over the `aten::_local_scalar_dense` it calls and `aten::to` over
 * `aten::copy_`. */
static const char *cause_of(const gs_trace_ctx *c, const gs_api *a, uint32_t step_range)
{
    const gs_trace *t = c->trace;
    const char *known = NULL, *outer_op = NULL, *annotation = NULL;
    for (uint32_t r = a->parent; r != GS_NONE; r = t->ranges.v[r].parent) {
        const gs_range *g = &t->ranges.v[r];
        const char *name = gs_trace_str(t, g->name);
        /* the step is no cause (legacy traces record ProfilerStep#N as an operator) */
        if (r == step_range || gs_ctx_name(c, g->name, GS_NAME_PROFILER_STEP))
            continue;
        if (g->kind == GS_RANGE_OP) {
            outer_op = name;
            if (gs_ctx_name(c, g->name, GS_NAME_SYNC_OP))
                known = name;
        } else if (!annotation) {
            annotation = name;
        }
    }
    return known ? known : outer_op ? outer_op : annotation ? annotation : NO_OPERATOR;
}

/* One blocking call as the cause table groups it. */
typedef struct call {
    gs_str op, api; /* ids in the summary's table */
    uint8_t kind;
    bool in_kept_step;
    gs_ns dur, gpu_wait;
    bool has_wait; /* a GPU-side sync record is linked to the call */
} call;

static int cmp_call(const void *pa, const void *pb)
{
    const call *a = pa, *b = pb;
    if (a->op != b->op)
        return a->op < b->op ? -1 : 1;
    if (a->api != b->api)
        return a->api < b->api ? -1 : 1;
    return (a->kind > b->kind) - (a->kind < b->kind);
}

/* The blocking calls of the traces added, until _finish. */
struct gs_sync_calls {
    call *v;
    size_t n, cap;
};
typedef struct gs_sync_calls call_vec;

static gs_str intern(gs_strtab *names, const char *s)
{
    return gs_strtab_intern(names, s, strlen(s));
}

/* The blocking calls of one trace: per-step sums, and per-rank sums and one `call` each for the
 * calls inside the window. */
static int scan_trace(const gs_trace_ctx *c, gs_sync_rank *r, gs_strtab *names, call_vec *calls)
{
    const gs_trace *t = c->trace;
    const gs_steps *steps = &c->steps;
    const gs_window *w = &c->window;
    for (size_t s = 0; s < steps->n; s++) {
        const gs_step *st = &steps->v[s];
        r->steps[s] = (gs_sync_step){.number = st->number, .start = st->start, .end = st->end,
                                     .warmup = st->warmup};
        if (gs_step_kept(steps, s))
            r->kept_step_time += st->end - st->start;
    }
    for (size_t i = 0; i < t->apis.n; i++) {
        const gs_api *a = &t->apis.v[i];
        int kind = gs_sync_call_kind(t, &c->names, a);
        if (kind < 0)
            continue;
        long s = steps->n ? gs_steps_at(steps, a->start) : -1;
        gs_ns dur = a->end - a->start;
        gs_ns wait = 0;
        bool has_wait = a->gpu_class == GS_GPU_SYNC && a->gpu != GS_NONE;
        if (has_wait)
            wait = t->syncs.v[a->gpu].end - t->syncs.v[a->gpu].start;
        bool kept = s >= 0 && gs_step_kept(steps, (size_t)s);
        bool inside = gs_window_holds(w, a->start);
        if (kind == GS_SYNC_WAIT_EVENT) {
            r->wait_event_calls += inside;
            dur = 0; /* the host does not wait; the row only counts calls */
        } else {
            if (s >= 0) {
                r->steps[s].calls++;
                r->steps[s].blocked += dur;
            }
            if (!inside)
                continue;
            r->calls++;
            r->blocked += dur;
            r->gpu_wait += wait;
            if (kept)
                r->kept_blocked += dur;
        }
        if (!inside)
            continue;
        uint32_t step_range = s >= 0 ? steps->v[s].range : GS_NONE;
        call *x = GS_VEC_PUSH(calls);
        if (x)
            *x = (call){.op = intern(names, cause_of(c, a, step_range)),
                        .api = intern(names, gs_trace_str(t, a->name)), .kind = (uint8_t)kind,
                        .in_kept_step = kept, .dur = dur, .gpu_wait = wait,
                        .has_wait = has_wait};
        if (!x || x->op == GS_STR_ERROR || x->api == GS_STR_ERROR)
            return -1;
    }
    for (size_t s = 0; s < steps->n; s++) {
        gs_ns d = steps->v[s].end - steps->v[s].start;
        r->steps[s].pct = pct(r->steps[s].blocked, d);
    }
    r->blocked_pct = pct(r->kept_blocked, r->kept_step_time);
    return 0;
}

/* Causes: blocked desc, calls desc, then names, so the order is total. */
static int cmp_cause(const void *pa, const void *pb)
{
    const gs_sync_cause *a = pa, *b = pb;
    if (a->blocked != b->blocked)
        return a->blocked > b->blocked ? -1 : 1;
    if (a->calls != b->calls)
        return a->calls > b->calls ? -1 : 1;
    int c = strcmp(a->op, b->op);
    return c ? c : strcmp(a->api, b->api);
}

static int make_causes(gs_sync_summary *s, call *calls, size_t n)
{
    if (n)
        qsort(calls, n, sizeof *calls, cmp_call); /* calls is NULL when there are none */
    s->causes = gs_array_zeroed(n, sizeof *s->causes);
    if (!s->causes)
        return -1;
    for (size_t i = 0; i < n;) {
        gs_sync_cause *c = &s->causes[s->ncauses++];
        c->op = gs_str_get(&s->names, calls[i].op);
        c->api = gs_str_get(&s->names, calls[i].api);
        c->kind = calls[i].kind;
        gs_ns kept = 0;
        size_t j = i;
        for (; j < n && cmp_call(&calls[i], &calls[j]) == 0; j++) {
            c->calls++;
            c->blocked += calls[j].dur;
            c->gpu_wait += calls[j].gpu_wait;
            c->gpu_wait_records += calls[j].has_wait;
            c->max = calls[j].dur > c->max ? calls[j].dur : c->max;
            kept += calls[j].in_kept_step ? calls[j].dur : 0;
        }
        c->step_pct = pct(kept, s->kept_step_time);
        i = j;
    }
    qsort(s->causes, s->ncauses, sizeof *s->causes, cmp_cause);
    return 0;
}

static int build_rank(const gs_trace_ctx *c, gs_sync_summary *s)
{
    const gs_trace *t = c->trace;
    gs_sync_rank *grown = realloc(s->ranks, (s->nranks + 1) * sizeof *grown);
    if (!grown)
        return -1;
    s->ranks = grown;
    gs_sync_rank *r = &s->ranks[s->nranks];
    *r = (gs_sync_rank){.rank = t->id.rank, .step_source = c->steps.source};
    r->path = strdup(t->id.path);
    r->steps = gs_array_zeroed(c->steps.n, sizeof *r->steps);
    s->nranks++; /* freed with the summary from here on */
    if (!r->path || !r->steps)
        return -1;
    r->nsteps = c->steps.n;
    if (scan_trace(c, r, &s->names, s->calls) != 0)
        return -1;
    s->blocked += r->blocked;
    s->kept_step_time += r->kept_step_time;
    s->kept_blocked += r->kept_blocked;
    return 0;
}

int gs_sync_init(gs_sync_summary *s, gs_error *err)
{
    memset(s, 0, sizeof *s);
    s->calls = calloc(1, sizeof *s->calls);
    if (!s->calls || gs_strtab_init(&s->names) != 0) {
        gs_sync_summary_free(s);
        return gs_fail_oom(err);
    }
    return 0;
}

int gs_sync_add(gs_sync_summary *s, const gs_trace_ctx *c, gs_error *err)
{
    if (build_rank(c, s) != 0) {
        gs_sync_summary_free(s);
        return gs_fail_oom(err);
    }
    return 0;
}

int gs_sync_finish(gs_sync_summary *s, gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    int rc = make_causes(s, s->calls->v, s->calls->n);
    GS_VEC_FREE(s->calls);
    free(s->calls);
    s->calls = NULL;
    if (rc != 0) {
        gs_sync_summary_free(s);
        return gs_fail_oom(err);
    }
    s->blocked_pct = pct(s->kept_blocked, s->kept_step_time);
    gs_stable_sort_by_i32(s->ranks, s->nranks, sizeof *s->ranks, offsetof(gs_sync_rank, rank));
    GS_LOG_TOOK(logged_at, "sync");
    return 0;
}

int gs_sync_build(const gs_trace_ctx *c, gs_sync_summary *out, gs_error *err)
{
    return gs_sync_init(out, err) != 0 || gs_sync_add(out, c, err) != 0
               ? -1
               : gs_sync_finish(out, err);
}

void gs_sync_summary_free(gs_sync_summary *s)
{
    for (size_t i = 0; i < s->nranks; i++) {
        free(s->ranks[i].path);
        free(s->ranks[i].steps);
    }
    free(s->ranks);
    free(s->causes);
    gs_strtab_free(&s->names);
    if (s->calls) {
        GS_VEC_FREE(s->calls);
        free(s->calls);
    }
    memset(s, 0, sizeof *s);
}
