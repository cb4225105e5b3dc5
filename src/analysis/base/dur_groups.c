#include "analysis/base/dur_groups.h"

#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static int cmp_key(const gs_dur_key *a, const gs_dur_key *b)
{
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    for (size_t k = 0; k < COUNT_OF(a->tag); k++)
        if (a->tag[k] != b->tag[k])
            return a->tag[k] < b->tag[k] ? -1 : 1;
    return 0;
}

static int cmp_item(const void *pa, const void *pb)
{
    const gs_dur_item *a = pa, *b = pb;
    int c = cmp_key(&a->key, &b->key);
    if (c)
        return c;
    return a->dur < b->dur ? -1 : a->dur > b->dur;
}

int gs_dur_items_reserve(gs_dur_items *v, size_t more)
{
    if (v->cap - v->n >= more)
        return 0;
    gs_dur_item *grown = realloc(v->v, (v->n + more ? v->n + more : 1) * sizeof *grown);
    if (!grown)
        return -1;
    v->v = grown;
    v->cap = v->n + more;
    return 0;
}

int gs_dur_groups(gs_dur_item *items, size_t n, gs_dur_group **groups, size_t *ngroups)
{
    *groups = calloc(n ? n : 1, sizeof **groups);
    gs_ns *durs = malloc((n ? n : 1) * sizeof *durs);
    *ngroups = 0;
    if (!*groups || !durs) {
        free(*groups);
        free(durs);
        *groups = NULL;
        return -1;
    }
    if (n > 1) /* items is NULL when a summary met nothing */
        qsort(items, n, sizeof *items, cmp_item);
    gs_ns total = 0;
    for (size_t i = 0; i < n;) {
        gs_dur_group *g = &(*groups)[(*ngroups)++];
        g->key = items[i].key;
        size_t j = i;
        for (; j < n && cmp_key(&items[i].key, &items[j].key) == 0; j++) {
            durs[j - i] = items[j].dur;
            g->amount += items[j].amount;
        }
        g->time = gs_dur_stats_of_sorted(durs, j - i);
        total += g->time.total;
        i = j;
    }
    for (size_t k = 0; k < *ngroups; k++)
        (*groups)[k].time_pct = gs_percent((*groups)[k].time.total, total);
    free(durs);
    return 0;
}
