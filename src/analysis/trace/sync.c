#include "analysis/trace/sync.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/window.h"
#include "common/log.h"
#include "common/util.h"

/* Framework operators that synchronize (the PyTorch Performance Tuning Guide, "Avoid unnecessary
 * CPU-GPU synchronization": .item(), .cpu(), .to(), .nonzero()):
 * the outermost of them in a call's op chain names the cause, so `aten::item` wins over the
 * `aten::_local_scalar_dense` it calls and `aten::to` over `aten::copy_`. */
static const char *const sync_ops[] = {
    "aten::item",   "aten::_local_scalar_dense", "aten::nonzero", "aten::tolist",
    "aten::is_nonzero", "aten::cpu", "aten::to", "aten::_to_copy", "aten::copy_",
};

#define NO_OPERATOR "(no operator)"

static double pct(gs_ns part, gs_ns whole)
{
    return whole > 0 ? (double)part * 100.0 / (double)whole : 0.0;
}

static bool is_sync_op(const char *name)
{
    for (size_t i = 0; i < COUNT_OF(sync_ops); i++)
        if (strcmp(name, sync_ops[i]) == 0)
            return true;
    return false;
}

/* The cause's name for a call (see sync.h): walk the enclosing ranges from the innermost out. */
static const char *cause_of(const gs_trace *t, const gs_api *a, uint32_t step_range)
{
    const char *known = NULL, *outer_op = NULL, *annotation = NULL;
    for (uint32_t r = a->parent; r != GS_NONE; r = t->ranges.v[r].parent) {
        const gs_range *g = &t->ranges.v[r];
        const char *name = gs_trace_str(t, g->name);
        /* the step is no cause (legacy traces record ProfilerStep#N as an operator) */
        if (r == step_range || gs_is_profiler_step(name))
            continue;
        if (g->kind == GS_RANGE_OP) {
            outer_op = name;
            if (is_sync_op(name))
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

typedef GS_VEC(call) call_vec;

static gs_str intern(gs_strtab *names, const char *s)
{
    return gs_strtab_intern(names, s, strlen(s));
}

/* The blocking calls of one trace: per-step sums, and per-rank sums and one `call` each for the
 * calls inside the window. */
static int scan_trace(const gs_trace *t, const gs_steps *steps, const gs_window *w,
                      gs_sync_rank *r, gs_strtab *names, call_vec *calls)
{
    for (size_t s = 0; s < steps->n; s++) {
        const gs_step *st = &steps->v[s];
        r->steps[s] = (gs_sync_step){.number = st->number, .start = st->start, .end = st->end,
                                     .warmup = st->warmup};
        if (gs_step_kept(steps, s))
            r->kept_step_time += st->end - st->start;
    }
    gs_sync_kinds kinds;
    if (gs_sync_kinds_init(&kinds, t) != 0)
        return -1;
    for (size_t i = 0; i < t->apis.n; i++) {
        const gs_api *a = &t->apis.v[i];
        int kind = gs_sync_kind_of(&kinds, t, a);
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
        call *c = GS_VEC_PUSH(calls);
        if (c)
            *c = (call){.op = intern(names, cause_of(t, a, step_range)),
                        .api = intern(names, gs_trace_str(t, a->name)), .kind = (uint8_t)kind,
                        .in_kept_step = kept, .dur = dur, .gpu_wait = wait,
                        .has_wait = has_wait};
        if (!c || c->op == GS_STR_ERROR || c->api == GS_STR_ERROR) {
            gs_sync_kinds_free(&kinds);
            return -1;
        }
    }
    gs_sync_kinds_free(&kinds);
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
    s->causes = calloc(n ? n : 1, sizeof *s->causes);
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

static int build_rank(const gs_trace *t, const gs_select *sel, const gs_step_opts *step_opts,
                      gs_sync_summary *s, call_vec *calls, gs_error *err)
{
    gs_steps steps;
    gs_window w;
    if (gs_window_build(t, sel, &w, err) != 0)
        return -1;
    if (gs_steps_find(t, step_opts, &steps, err) != 0) {
        gs_window_free(&w);
        return -1;
    }
    gs_sync_rank *r = &s->ranks[s->nranks];
    *r = (gs_sync_rank){.rank = t->rank, .path = t->path, .step_source = steps.source};
    r->steps = calloc(steps.n ? steps.n : 1, sizeof *r->steps);
    int rc = r->steps ? 0 : -1;
    if (rc == 0) {
        s->nranks++;
        r->nsteps = steps.n;
        rc = scan_trace(t, &steps, &w, r, &s->names, calls);
    }
    gs_steps_free(&steps);
    gs_window_free(&w);
    if (rc == 0) {
        s->blocked += r->blocked;
        s->kept_step_time += r->kept_step_time;
        s->kept_blocked += r->kept_blocked;
    }
    return rc ? gs_fail_oom(err) : 0;
}

int gs_sync_build(const gs_profile *p, const gs_select *sel, const gs_step_opts *step_opts,
                  gs_sync_summary *out, gs_error *err)
{
    double logged_at = gs_log_clock(GS_LOG_DETAIL);
    memset(out, 0, sizeof *out);
    call_vec calls = {0};
    if (gs_strtab_init(&out->names) != 0)
        return gs_fail_oom(err);
    out->ranks = calloc(p->traces.n ? p->traces.n : 1, sizeof *out->ranks);
    int rc = out->ranks ? 0 : gs_fail_oom(err);
    for (size_t i = 0; rc == 0 && i < p->traces.n; i++)
        if (gs_selected(sel, p->traces.v[i]))
            rc = build_rank(p->traces.v[i], sel, step_opts, out, &calls, err);
    if (rc == 0 && make_causes(out, calls.v, calls.n) != 0)
        rc = gs_fail_oom(err);
    out->blocked_pct = pct(out->kept_blocked, out->kept_step_time);
    GS_VEC_FREE(&calls);
    if (rc != 0)
        gs_sync_summary_free(out);
    else
        GS_LOG_TOOK(logged_at, "sync");
    return rc;
}

void gs_sync_summary_free(gs_sync_summary *s)
{
    for (size_t i = 0; i < s->nranks; i++)
        free(s->ranks[i].steps);
    free(s->ranks);
    free(s->causes);
    gs_strtab_free(&s->names);
    memset(s, 0, sizeof *s);
}
