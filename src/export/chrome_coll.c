#include "export/chrome_coll.h"

#include <stdlib.h>

/* One args record by where it was written and the id that joins it there. */
struct chrome_coll_key {
    uint8_t on; /* enum gs_coll_args_on */
    int64_t key;
    uint32_t args; /* index into t->coll_args */
};

static int cmp_key(const void *pa, const void *pb)
{
    const chrome_coll_key *a = pa, *b = pb;
    if (a->on != b->on)
        return a->on < b->on ? -1 : 1;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->args > b->args) - (a->args < b->args); /* the first in file order first */
}

int chrome_coll_index(chrome_ctx *c)
{
    const gs_trace *t = c->t;
    c->coll = NULL;
    c->ncoll = 0;
    if (t->coll_args.n == 0)
        return 0;
    chrome_coll_key *v = malloc(t->coll_args.n * sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < t->coll_args.n; i++) {
        const gs_coll_args *a = &t->coll_args.v[i];
        int64_t key = a->on == GS_COLL_ARGS_ON_KERNEL ? (int64_t)a->correlation : a->external_id;
        if (key != 0) /* 0: joined to nothing, read back or not */
            v[c->ncoll++] = (chrome_coll_key){a->on, key, (uint32_t)i};
    }
    qsort(v, c->ncoll, sizeof *v, cmp_key);
    c->coll = v;
    return 0;
}

void chrome_coll_index_free(chrome_ctx *c)
{
    free(c->coll);
    c->coll = NULL;
    c->ncoll = 0;
}

void chrome_write_coll_args(chrome_ctx *c, enum gs_coll_args_on on, int64_t key)
{
    if (key == 0 || c->ncoll == 0)
        return;
    size_t lo = 0, hi = c->ncoll;
    const chrome_coll_key want = {(uint8_t)on, key, 0};
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_key(&c->coll[mid], &want) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == c->ncoll || c->coll[lo].on != on || c->coll[lo].key != key)
        return;
    const gs_trace *t = c->t;
    const gs_coll_args *a = &t->coll_args.v[c->coll[lo].args];
    chrome_arg_str(c, "Collective name", gs_trace_str(t, a->collective));
    if (a->in_nelems >= 0)
        chrome_arg_int(c, "In msg nelems", a->in_nelems);
    if (a->out_nelems >= 0)
        chrome_arg_int(c, "Out msg nelems", a->out_nelems);
    if (a->dtype != GS_STR_EMPTY)
        chrome_arg_str(c, "dtype", gs_trace_str(t, a->dtype));
    if (a->group_size > 0)
        chrome_arg_int(c, "Group size", a->group_size);
    if (a->group != GS_STR_EMPTY)
        chrome_arg_str(c, "Process Group Name", gs_trace_str(t, a->group));
}
