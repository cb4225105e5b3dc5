#include "analysis/ranks/detail.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/report.h"

/* A copy owned by the detail; NULL stays NULL. 0, or -1 out of memory. */
static int own(const char **s)
{
    if (!*s)
        return 0;
    *s = strdup(*s);
    return *s ? 0 : -1;
}

static int copy_facts(const gs_profile_facts *f, gs_rank_detail *d)
{
    d->devices = calloc(f->ndevices ? f->ndevices : 1, sizeof *d->devices);
    if (!d->devices)
        return -1;
    for (size_t i = 0; i < f->ndevices; i++, d->ndevices++) {
        d->devices[i] = f->devices[i];
        if (own(&d->devices[i].name) != 0)
            return -1;
    }
    return 0;
}

static int copy_gaps(const gs_idle *idle, gs_rank_detail *d)
{
    d->gaps_worth_listing = idle->gaps_worth_listing;
    d->gaps = calloc(idle->ngaps ? idle->ngaps : 1, sizeof *d->gaps);
    if (!d->gaps)
        return -1;
    for (size_t i = 0; i < idle->ngaps; i++) {
        const gs_gap *from = &idle->gaps[i];
        gs_gap *g = &d->gaps[d->ngaps++];
        *g = *from;
        const char **to[] = {&g->before, &g->after, &g->host.op, &g->host.api,
                             &g->host.sync_api};
        for (size_t k = 0; k < sizeof to / sizeof to[0]; k++)
            *to[k] = NULL; /* owned one by one below: the free must see only owned copies */
        const char *src[] = {from->before, from->after, from->host.op, from->host.api,
                             from->host.sync_api};
        for (size_t k = 0; k < sizeof to / sizeof to[0]; k++) {
            *to[k] = src[k];
            if (own(to[k]) != 0)
                return -1;
        }
    }
    return 0;
}

static gs_ns *copy_durations(const gs_ns *v, uint64_t n)
{
    gs_ns *out = malloc((n ? n : 1) * sizeof *out);
    if (out && n)
        memcpy(out, v, n * sizeof *out);
    return out;
}

static int copy_tables(const gs_report *r, gs_rank_detail *d)
{
    uint64_t nk = 0, nm = 0;
    for (size_t i = 0; i < r->kernels.nrows; i++)
        nk += r->kernels.rows[i].time.count;
    for (size_t i = 0; i < r->memcpy.nrows; i++)
        nm += r->memcpy.rows[i].time.count;
    d->kernel_first = malloc((r->kernels.nrows ? r->kernels.nrows : 1) * sizeof *d->kernel_first);
    d->kernel_durs = copy_durations(r->kernels.durations, nk);
    d->memcpy = malloc((r->memcpy.nrows ? r->memcpy.nrows : 1) * sizeof *d->memcpy);
    d->memcpy_durs = copy_durations(r->memcpy.durations, nm);
    if (!d->kernel_first || !d->kernel_durs || !d->memcpy || !d->memcpy_durs)
        return -1;
    for (size_t i = 0; i < r->kernels.nrows; i++)
        d->kernel_first[i] = r->kernels.rows[i].first;
    if (r->memcpy.nrows)
        memcpy(d->memcpy, r->memcpy.rows, r->memcpy.nrows * sizeof *d->memcpy);
    d->nmemcpy = r->memcpy.nrows;
    return 0;
}

int gs_rank_detail_build(const gs_report *r, gs_rank_detail **out)
{
    gs_rank_detail *d = calloc(1, sizeof *d);
    *out = d;
    if (!d || copy_facts(&r->facts, d) != 0 || copy_gaps(&r->idle, d) != 0 ||
        copy_tables(r, d) != 0) {
        gs_rank_detail_free(d);
        *out = NULL;
        return -1;
    }
    return 0;
}

/* The strings were copied by own(): the const in the shared structs is the analyses'. */
static void disown(const char *s)
{
    free((void *)(uintptr_t)s);
}

void gs_rank_detail_free(gs_rank_detail *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->ndevices; i++)
        disown(d->devices[i].name);
    for (size_t i = 0; i < d->ngaps; i++) {
        const gs_gap *g = &d->gaps[i];
        disown(g->before);
        disown(g->after);
        disown(g->host.op);
        disown(g->host.api);
        disown(g->host.sync_api);
    }
    free(d->devices);
    free(d->gaps);
    free(d->kernel_first);
    free(d->kernel_durs);
    free(d->memcpy);
    free(d->memcpy_durs);
    free(d);
}
