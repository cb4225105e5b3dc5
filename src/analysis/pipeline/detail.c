#include "analysis/pipeline/detail.h"

#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

int gs_rank_detail_build(gs_kernel_summary *k, gs_memcpy_summary *m, gs_rank_detail **out)
{
    gs_rank_detail *d = calloc(1, sizeof *d);
    *out = d;
    if (!d)
        return -1;
    d->kernel_first = gs_array_new(k->nrows, sizeof *d->kernel_first);
    if (!d->kernel_first) {
        gs_rank_detail_free(d);
        *out = NULL;
        return -1;
    }
    for (size_t i = 0; i < k->nrows; i++)
        d->kernel_first[i] = k->rows[i].first;
    d->kernel_durs = k->durations;
    d->memcpy_durs = m->durations;
    k->durations = NULL;
    m->durations = NULL;
    return 0;
}

void gs_rank_detail_free(gs_rank_detail *d)
{
    if (!d)
        return;
    free(d->kernel_first);
    free(d->kernel_durs);
    free(d->memcpy_durs);
    free(d);
}
