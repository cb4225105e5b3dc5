#include "compare/activity.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/base/names.h"

/* One kernel or operator instance, before grouping. */
typedef struct item {
    gs_str name; /* in the set's string table */
    int32_t grid[3], block[3];
    gs_ns dur, cuda;
} item;

typedef GS_VEC(item) item_vec;

static bool in_kept_step(const gs_steps *s, gs_ns ts)
{
    long i = gs_steps_at(s, ts);
    return i >= 0 && gs_step_kept(s, (size_t)i);
}

static int add_kernels(const gs_trace *t, const gs_steps *s, gs_strtab *names, item_vec *out)
{
    gs_name_map map;
    if (gs_name_map_init(&map, names, t, NULL) != 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < t->kernels.n && rc == 0; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        if (!in_kept_step(s, k->start))
            continue;
        item *it = GS_VEC_PUSH(out);
        if (!it || (it->name = gs_name_map_get(&map, k->name)) == GS_STR_ERROR) {
            rc = -1;
            break;
        }
        memcpy(it->grid, k->grid, sizeof it->grid);
        memcpy(it->block, k->block, sizeof it->block);
        it->dur = k->end - k->start;
    }
    gs_name_map_free(&map);
    return rc;
}

/* GPU time launched inside each range: the activity's own range and every range enclosing it
 * (as the ops view's CUDA total). */
static void charge(const gs_trace *t, uint32_t op, gs_ns dur, gs_ns *cuda)
{
    for (uint32_t r = op; r != GS_NONE; r = t->ranges.v[r].parent)
        cuda[r] += dur;
}

static int add_ops(const gs_trace *t, const gs_steps *s, gs_strtab *names, item_vec *out)
{
    gs_ns *cuda = calloc(t->ranges.n + 1, sizeof *cuda);
    bool *is_step = calloc(t->ranges.n + 1, sizeof *is_step);
    gs_name_map map;
    int rc = cuda && is_step ? gs_name_map_init(&map, names, t, NULL) : -1;
    if (rc != 0) {
        free(cuda);
        free(is_step);
        return -1;
    }
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].range != GS_NONE)
            is_step[s->v[i].range] = true;
    for (size_t i = 0; i < t->kernels.n; i++)
        charge(t, t->kernels.v[i].op, t->kernels.v[i].end - t->kernels.v[i].start, cuda);
    for (size_t i = 0; i < t->memops.n; i++)
        charge(t, t->memops.v[i].op, t->memops.v[i].end - t->memops.v[i].start, cuda);
    for (size_t i = 0; i < t->ranges.n && rc == 0; i++) {
        const gs_range *r = &t->ranges.v[i];
        if (!gs_range_in_op_tree(r) || is_step[i] || !in_kept_step(s, r->start))
            continue;
        item *it = GS_VEC_PUSH(out);
        if (!it || (it->name = gs_name_map_get(&map, r->name)) == GS_STR_ERROR) {
            rc = -1;
            break;
        }
        it->dur = r->end - r->start;
        it->cuda = cuda[i];
    }
    gs_name_map_free(&map);
    free(cuda);
    free(is_step);
    return rc;
}

static int cmp_item(const void *pa, const void *pb)
{
    const item *a = pa, *b = pb;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    int c = memcmp(a->grid, b->grid, sizeof a->grid);
    return c ? c : memcmp(a->block, b->block, sizeof a->block);
}

static bool same_shape(const item *a, const item *b)
{
    return !memcmp(a->grid, b->grid, sizeof a->grid) &&
           !memcmp(a->block, b->block, sizeof a->block);
}

static int cmp_act_name(const void *a, const void *b)
{
    return strcmp(((const gs_act *)a)->name, ((const gs_act *)b)->name);
}

/* One row per name; a name's launch shape is the one with the most time (then the first in
 * (grid, block) order), so the same kernel launched two ways still has one shape to match. */
static int group(gs_act_set *set, item *items, size_t n)
{
    if (n > 1) /* items is NULL when a side has none */
        qsort(items, n, sizeof *items, cmp_item);
    set->v = calloc(n ? n : 1, sizeof *set->v);
    if (!set->v)
        return -1;
    for (size_t i = 0; i < n;) {
        gs_act *a = &set->v[set->n++];
        gs_str id = items[i].name;
        a->name = gs_str_get(&set->names, id);
        gs_ns best = -1;
        while (i < n && items[i].name == id) {
            size_t j = i;
            gs_ns shape_total = 0;
            for (; j < n && items[j].name == id && same_shape(&items[i], &items[j]); j++) {
                shape_total += items[j].dur;
                a->count++;
                a->total += items[j].dur;
                a->cuda_total += items[j].cuda;
            }
            if (shape_total > best) {
                best = shape_total;
                memcpy(a->grid, items[i].grid, sizeof a->grid);
                memcpy(a->block, items[i].block, sizeof a->block);
            }
            i = j;
        }
    }
    qsort(set->v, set->n, sizeof *set->v, cmp_act_name);
    return 0;
}

typedef int (*add_fn)(const gs_trace *t, const gs_steps *s, gs_strtab *names, item_vec *out);

static int build_set(const gs_trace *const *traces, const gs_steps *const *steps, size_t n,
                     add_fn add, gs_act_set *set)
{
    item_vec items = {0};
    int rc = gs_strtab_init(&set->names);
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = add(traces[i], steps[i], &set->names, &items);
    if (rc == 0)
        rc = group(set, items.v, items.n);
    GS_VEC_FREE(&items);
    return rc;
}

int gs_activity_build(const gs_trace *const *traces, const gs_steps *const *steps, size_t n,
                      gs_activity *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < steps[i]->n; k++)
            out->steps += gs_step_kept(steps[i], k);
    if (build_set(traces, steps, n, add_kernels, &out->kernels) != 0 ||
        build_set(traces, steps, n, add_ops, &out->ops) != 0) {
        gs_activity_free(out);
        return gs_fail_oom(err);
    }
    return 0;
}

static void free_set(gs_act_set *s)
{
    free(s->v);
    gs_strtab_free(&s->names);
    memset(s, 0, sizeof *s);
}

void gs_activity_free(gs_activity *a)
{
    free_set(&a->kernels);
    free_set(&a->ops);
}
