#include "compare/match.h"
#include "common/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *gs_match_key(enum gs_match m)
{
    static const char *const keys[] = {"name", "shape", "removed", "added"};
    return (size_t)m < COUNT_OF(keys) ? keys[m] : "?";
}

typedef GS_VEC(gs_delta) delta_vec;

static double per_step(double v, size_t steps)
{
    return steps ? v / (double)steps : NAN;
}

static gs_delta make_delta(enum gs_match m, const gs_act *b, const gs_act *n,
                           const size_t steps[GS_SIDES])
{
    gs_delta d = {.match = m, .act = {b, n}};
    for (int s = 0; s < GS_SIDES; s++) {
        const gs_act *a = d.act[s];
        d.time[s] = a ? per_step((double)a->total, steps[s]) : 0;
        d.count[s] = a ? per_step((double)a->count, steps[s]) : 0;
        d.cuda[s] = a ? per_step((double)a->cuda_total, steps[s]) : 0;
        d.avg[s] = a && a->count ? (double)a->total / (double)a->count : NAN;
    }
    d.dtime = d.time[GS_SIDE_NEW] - d.time[GS_SIDE_BASE];
    d.dtime_pct = b && d.time[GS_SIDE_BASE] > 0 ? d.dtime / d.time[GS_SIDE_BASE] * 100 : NAN;
    return d;
}

static const char *delta_name(const gs_delta *d)
{
    return d->act[GS_SIDE_NEW] ? d->act[GS_SIDE_NEW]->name : d->act[GS_SIDE_BASE]->name;
}

/* |change| descending; ties (operators whose CPU time did not move) by |change of CUDA total|. */
static int cmp_matched(const void *pa, const void *pb)
{
    const gs_delta *a = pa, *b = pb;
    double x = fabs(a->dtime), y = fabs(b->dtime);
    if (x != y)
        return x > y ? -1 : 1;
    x = fabs(a->cuda[GS_SIDE_NEW] - a->cuda[GS_SIDE_BASE]);
    y = fabs(b->cuda[GS_SIDE_NEW] - b->cuda[GS_SIDE_BASE]);
    if (x != y)
        return x > y ? -1 : 1;
    return strcmp(delta_name(a), delta_name(b));
}

static double side_time(const gs_delta *d)
{
    return d->match == GS_MATCH_ADDED ? d->time[GS_SIDE_NEW] : d->time[GS_SIDE_BASE];
}

static int cmp_only(const void *pa, const void *pb)
{
    const gs_delta *a = pa, *b = pb;
    double x = side_time(a), y = side_time(b);
    if (x != y)
        return x > y ? -1 : 1;
    if (a->match != b->match)
        return a->match < b->match ? -1 : 1;
    return strcmp(delta_name(a), delta_name(b));
}

static bool shape_known(const gs_act *a)
{
    return a->grid[0] > 0 && a->block[0] > 0;
}

static bool same_shape(const gs_act *a, const gs_act *b)
{
    return !memcmp(a->grid, b->grid, sizeof a->grid) &&
           !memcmp(a->block, b->block, sizeof a->block);
}

/* How many of the n unmatched acts (pointers, NULL once taken) have a's shape. */
static size_t count_shape(const gs_act *a, const gs_act *const *v, size_t n, size_t *where)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] && same_shape(a, v[i])) {
            c++;
            *where = i;
        }
    return c;
}

/* A renamed kernel still runs as often per step; a factor of 2 either way allows for a batch of
 * a different size, and keeps apart two kernels that only happen to share a shape. */
static bool similar_rate(const gs_act *b, const gs_act *n, const size_t steps[GS_SIDES])
{
    double rb = per_step((double)b->count, steps[GS_SIDE_BASE]);
    double rn = per_step((double)n->count, steps[GS_SIDE_NEW]);
    return rn <= 2 * rb && rb <= 2 * rn;
}

/* Pairs leftovers whose shape is unique on both sides and that run about as often; taken
 * entries become NULL. */
static int match_shapes(const gs_act **left[GS_SIDES], const size_t nleft[GS_SIDES],
                        const size_t steps[GS_SIDES], delta_vec *out)
{
    const gs_act **b = left[GS_SIDE_BASE], **n = left[GS_SIDE_NEW];
    for (size_t i = 0; i < nleft[GS_SIDE_BASE]; i++) {
        size_t bi = i, ni = 0;
        if (!shape_known(b[i]) || count_shape(b[i], b, nleft[GS_SIDE_BASE], &bi) != 1 ||
            count_shape(b[i], n, nleft[GS_SIDE_NEW], &ni) != 1 || !similar_rate(b[i], n[ni], steps))
            continue;
        gs_delta *d = GS_VEC_PUSH(out);
        if (!d)
            return -1;
        *d = make_delta(GS_MATCH_SHAPE, b[i], n[ni], steps);
        b[i] = NULL;
        n[ni] = NULL;
    }
    return 0;
}

static void list_take(gs_delta_list *l, void *v, size_t n)
{
    l->v = v;
    l->n = n;
}

int gs_match_sets(const gs_act_set *set[GS_SIDES], const size_t steps[GS_SIDES], bool by_shape,
                  gs_delta_list *matched, gs_delta_list *only)
{
    delta_vec both = {0}, rest = {0};
    const gs_act **left[GS_SIDES];
    size_t nleft[GS_SIDES] = {0, 0};
    for (int s = 0; s < GS_SIDES; s++)
        left[s] = malloc((set[s]->n + 1) * sizeof *left[s]);
    int rc = left[0] && left[1] ? 0 : -1;
    /* Merge join by name: both sets are in strcmp order. */
    size_t i = 0, j = 0;
    const gs_act_set *sb = set[GS_SIDE_BASE], *sn = set[GS_SIDE_NEW];
    while (rc == 0 && (i < sb->n || j < sn->n)) {
        int c = i == sb->n ? 1 : j == sn->n ? -1 : strcmp(sb->v[i].name, sn->v[j].name);
        if (c < 0) {
            left[GS_SIDE_BASE][nleft[GS_SIDE_BASE]++] = &sb->v[i++];
        } else if (c > 0) {
            left[GS_SIDE_NEW][nleft[GS_SIDE_NEW]++] = &sn->v[j++];
        } else {
            gs_delta *d = GS_VEC_PUSH(&both);
            if (!d)
                rc = -1;
            else
                *d = make_delta(GS_MATCH_NAME, &sb->v[i++], &sn->v[j++], steps);
        }
    }
    if (rc == 0 && by_shape)
        rc = match_shapes(left, nleft, steps, &both);
    for (int s = 0; s < GS_SIDES && rc == 0; s++) {
        for (size_t k = 0; k < nleft[s] && rc == 0; k++) {
            if (!left[s][k])
                continue;
            gs_delta *d = GS_VEC_PUSH(&rest);
            if (!d)
                rc = -1;
            else if (s == GS_SIDE_BASE)
                *d = make_delta(GS_MATCH_REMOVED, left[s][k], NULL, steps);
            else
                *d = make_delta(GS_MATCH_ADDED, NULL, left[s][k], steps);
        }
    }
    free(left[0]);
    free(left[1]);
    if (rc != 0) {
        GS_VEC_FREE(&both);
        GS_VEC_FREE(&rest);
        return -1;
    }
    if (both.n)
        qsort(both.v, both.n, sizeof *both.v, cmp_matched);
    if (rest.n)
        qsort(rest.v, rest.n, sizeof *rest.v, cmp_only);
    list_take(matched, both.v, both.n);
    list_take(only, rest.v, rest.n);
    return 0;
}

void gs_delta_list_free(gs_delta_list *l)
{
    free(l->v);
    l->v = NULL;
    l->n = 0;
}
