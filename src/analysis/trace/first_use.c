#include "analysis/trace/first_use.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/stats.h"
#include "common/vec.h"

/* One operator call: its name and input shapes (string ids) and its step. */
typedef struct use {
    gs_str name, dims;
    size_t step;
} use;

static bool same_key(const use *a, const use *b)
{
    return a->name == b->name && a->dims == b->dims;
}

static int by_key_then_step(const void *pa, const void *pb)
{
    const use *a = pa, *b = pb;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    if (a->dims != b->dims)
        return a->dims < b->dims ? -1 : 1;
    return (a->step > b->step) - (a->step < b->step);
}

/* Marks in shape[] each step that called an operator with input shapes no earlier step had
 * called it with. Only a trace with recorded shapes (record_shapes) says it. */
static int mark_new_shapes(const gs_trace_ctx *c, bool *shape, gs_error *err)
{
    const gs_trace *t = c->trace;
    bool shapes = false;
    for (size_t i = 0; i < t->ranges.n && !shapes; i++)
        shapes = t->ranges.v[i].kind == GS_RANGE_OP && t->ranges.v[i].input_dims != GS_STR_EMPTY;
    if (!shapes)
        return 0;
    use *v = gs_array_new(t->ranges.n, sizeof *v);
    if (!v)
        return gs_fail_oom(err);
    size_t n = 0;
    for (size_t i = 0; i < t->ranges.n; i++) {
        const gs_range *r = &t->ranges.v[i];
        long s = r->kind == GS_RANGE_OP ? gs_steps_at(&c->steps, r->start) : -1;
        if (s >= 0)
            v[n++] = (use){r->name, r->input_dims, (size_t)s};
    }
    qsort(v, n, sizeof *v, by_key_then_step);
    for (size_t i = 0; i < n; i++)
        if (i == 0 || !same_key(&v[i], &v[i - 1]))
            shape[v[i].step] = true; /* the first step of each (operator, shapes) */
    free(v);
    return 0;
}

static void mark_code_loads(const gs_trace_ctx *c, bool *load)
{
    const gs_trace *t = c->trace;
    for (size_t i = 0; i < t->apis.n; i++) {
        if (!gs_ctx_name(c, t->apis.v[i].name, GS_NAME_CODE_LOAD))
            continue;
        long s = gs_steps_at(&c->steps, t->apis.v[i].start);
        if (s >= 0)
            load[s] = true;
    }
}

static gs_ns step_ns(const gs_step *s)
{
    return s->end - s->start;
}

/* Compares the steps after the first: those with a first use against the median of the rest. */
static void compare(const gs_steps *steps, const bool *shape, const bool *load, gs_ns *seen,
                    gs_first_use *out)
{
    size_t nseen = 0;
    gs_ns new_sum = 0, sum = 0;
    for (size_t i = 1; i < steps->n; i++) {
        out->steps++;
        sum += step_ns(&steps->v[i]);
        out->shape_steps += shape[i];
        out->load_steps += load[i];
        if (shape[i] || load[i]) {
            out->new_steps++;
            new_sum += step_ns(&steps->v[i]);
        } else {
            seen[nseen++] = step_ns(&steps->v[i]);
        }
    }
    out->mean_ns = sum / (gs_ns)out->steps;
    if (out->new_steps)
        out->new_mean_ns = new_sum / (gs_ns)out->new_steps;
    if (!nseen)
        return;
    out->seen_med_ns = gs_percentile_select(seen, nseen, 50); /* the lower middle value */
    for (size_t i = 1; i < steps->n; i++)
        if ((shape[i] || load[i]) && step_ns(&steps->v[i]) > out->seen_med_ns)
            out->extra_ns += step_ns(&steps->v[i]) - out->seen_med_ns;
}

int gs_first_use_build(const gs_trace_ctx *c, gs_first_use *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    const gs_steps *steps = &c->steps;
    if (steps->n < 2)
        return 0;
    bool *marks = gs_array_zeroed(2 * steps->n, sizeof *marks);
    gs_ns *seen = gs_array_new(steps->n, sizeof *seen);
    if (!marks || !seen) {
        free(marks);
        free(seen);
        return gs_fail_oom(err);
    }
    bool *shape = marks, *load = marks + steps->n;
    int rc = mark_new_shapes(c, shape, err);
    if (rc == 0) {
        mark_code_loads(c, load);
        compare(steps, shape, load, seen, out);
    }
    free(marks);
    free(seen);
    return rc;
}
