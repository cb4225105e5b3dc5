#include "model/nesting.h"

int gs_nest_item_cmp(const void *pa, const void *pb)
{
    const gs_nest_item *a = pa, *b = pb;
    if (a->pid != b->pid)
        return a->pid < b->pid ? -1 : 1;
    if (a->tid != b->tid)
        return a->tid < b->tid ? -1 : 1;
    if (a->start != b->start)
        return a->start < b->start ? -1 : 1;
    if (a->end != b->end)
        return a->end > b->end ? -1 : 1;
    if (a->is_api != b->is_api)
        return a->is_api - b->is_api;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}
