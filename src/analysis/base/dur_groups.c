#include "analysis/base/dur_groups.h"

#include <stdlib.h>

#include "common/hashtab.h"
#include "common/util.h"
#include "common/vec.h"
#include "model/time_sort.h"

static int cmp_key(const gs_dur_key *a, const gs_dur_key *b)
{
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    for (size_t k = 0; k < COUNT_OF(a->tag); k++)
        if (a->tag[k] != b->tag[k])
            return a->tag[k] < b->tag[k] ? -1 : 1;
    return 0;
}

/* ---- the items in (key, duration) order ---------------------------------------------------- */

/* A distinct key, in the order of its first item, and where its group goes in key order. */
typedef struct distinct_key {
    gs_dur_key key;
    uint32_t group;
} distinct_key;

typedef struct key_slot {
    uint32_t hash; /* gs_hashtab's key */
    uint32_t group;
} key_slot;

static int cmp_distinct(const void *pa, const void *pb)
{
    return cmp_key(&((const distinct_key *)pa)->key, &((const distinct_key *)pb)->key);
}

/* Each item's group (group_of), numbered in key order; *nkeys, how many. A few hundred keys for
 * hundreds of thousands of items: the keys are sorted, the items only counted into place. */
static int rank_keys(const gs_dur_item *items, size_t n, uint32_t *group_of, size_t *nkeys)
{
    gs_hashtab slots = GS_HASHTAB_EMPTY(key_slot);
    GS_VEC(distinct_key) keys = {0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        uint32_t hash = gs_hash_bytes(&items[i].key, sizeof items[i].key);
        gs_hashpos pos;
        key_slot *e = gs_hashtab_find(&slots, hash, &pos);
        while (e && cmp_key(&keys.v[e->group].key, &items[i].key) != 0)
            e = gs_hashtab_next(&slots, &pos);
        distinct_key *k = e ? NULL : GS_VEC_PUSH(&keys);
        if (!e && (!k || !(e = gs_hashtab_add(&slots, hash)))) {
            rc = -1;
            break;
        }
        if (k) {
            *k = (distinct_key){items[i].key, (uint32_t)(keys.n - 1)};
            e->group = k->group;
        }
        group_of[i] = e->group;
    }
    gs_hashtab_free(&slots);
    if (rc == 0 && keys.n) {
        qsort(keys.v, keys.n, sizeof *keys.v, cmp_distinct);
        uint32_t *rank = gs_array_new(keys.n, sizeof *rank);
        if (!rank)
            rc = -1;
        for (size_t k = 0; rank && k < keys.n; k++)
            rank[keys.v[k].group] = (uint32_t)k;
        for (size_t i = 0; rank && i < n; i++)
            group_of[i] = rank[group_of[i]];
        free(rank);
    }
    *nkeys = keys.n;
    GS_VEC_FREE(&keys);
    return rc;
}

/* Moves each items[i] to its place dest[i], in place: each cycle of the permutation followed
 * once, its places marked done (GS_NONE) in dest. A sorted copy would be as large as the items
 * (11 MB for a quarter of a million kernels), made while the other analyses hold theirs. */
static void permute(gs_dur_item *items, uint32_t *dest, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (dest[i] == GS_NONE)
            continue;
        gs_dur_item carried = items[i]; /* on its way to dest[i] */
        size_t j = dest[i];
        dest[i] = GS_NONE;
        while (j != i) {
            gs_dur_item displaced = items[j];
            items[j] = carried;
            carried = displaced;
            size_t next = dest[j];
            dest[j] = GS_NONE;
            j = next;
        }
        items[i] = carried;
    }
}

/* Sorts items by key, then duration; ties keep their order. */
static int sort_items(gs_dur_item *items, size_t n)
{
    uint32_t *group_of = gs_array_new(n, sizeof *group_of), *order = gs_array_new(n, sizeof *order);
    uint64_t *dur = gs_array_new(n, sizeof *dur);
    size_t nkeys = 0, *at = NULL;
    int rc = group_of && order && dur ? rank_keys(items, n, group_of, &nkeys) : -1;
    if (rc == 0 && !(at = gs_array_zeroed(nkeys + 1, sizeof *at)))
        rc = -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        dur[i] = gs_radix_key(items[i].dur);
        order[i] = (uint32_t)i;
        at[group_of[i] + 1]++;
    }
    if (rc == 0)
        rc = gs_radix_order(dur, n, order);
    if (rc == 0) {
        for (size_t k = 1; k <= nkeys; k++)
            at[k] += at[k - 1];
        for (size_t k = 0; k < n; k++) /* each item's group becomes its place */
            group_of[order[k]] = (uint32_t)at[group_of[order[k]]]++;
        permute(items, group_of, n);
    }
    free(group_of);
    free(order);
    free(dur);
    free(at);
    return rc;
}

/* ---- groups ------------------------------------------------------------------------------- */

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
    *groups = gs_array_zeroed(n, sizeof **groups);
    gs_ns *durs = gs_array_new(n, sizeof *durs);
    *ngroups = 0;
    /* items is NULL when a summary met nothing */
    if (!*groups || !durs || (n > 1 && sort_items(items, n) != 0)) {
        free(*groups);
        free(durs);
        *groups = NULL;
        return -1;
    }
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
