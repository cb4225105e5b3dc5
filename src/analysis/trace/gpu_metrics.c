/* GPU utilization, estimated SM efficiency and estimated achieved occupancy per device
 * (gpu_metrics.h), each clipped to the window as the plugin clips to its "all steps" range. */
#include "analysis/trace/gpu_metrics.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/intervals.h"
#include "common/util.h"
#include "common/vec.h"
#include "model/time_sort.h"

/* The plugin caps the summed blocks per SM of concurrent kernels at one full GPU. */
#define SM_EFFICIENCY_CAP 1.0

typedef struct endpoint {
    gs_ns ts;
    int is_end; /* starts sort before ends at the same time, as the plugin's sweep */
    double value;
} endpoint;

/* Σ min(Σ running blocks per SM, cap) × length over [ws, we), by a sweep over the kernels' starts
 * and ends in time order: a start before an end at the same time, as the plugin's sweep, else in
 * the order they came. 0, or -1 out of memory. */
static int sm_busy(const endpoint *ep, size_t n, gs_ns ws, gs_ns we, double *busy)
{
    gs_ns lo = ep[0].ts;
    for (size_t i = 1; i < n; i++)
        lo = ep[i].ts < lo ? ep[i].ts : lo;
    uint64_t *key = gs_array_new(n, sizeof *key);
    uint32_t *order = gs_array_new(n, sizeof *order);
    for (size_t i = 0; key && order && i < n; i++) {
        /* times lie within +-GS_TIME_MAX: an offset from the earliest fits in 63 bits */
        key[i] = (uint64_t)(ep[i].ts - lo) << 1 | (uint64_t)ep[i].is_end;
        order[i] = (uint32_t)i;
    }
    if (!key || !order || gs_radix_order(key, n, order) != 0) {
        free(key);
        free(order);
        return -1;
    }
    double level = 0, sum = 0;
    for (size_t i = 0; i < n; i++) {
        const endpoint *e = &ep[order[i]];
        level += e->is_end ? -e->value : e->value;
        if (i + 1 == n)
            break;
        gs_ns next = ep[order[i + 1]].ts;
        gs_ns a = e->ts > ws ? e->ts : ws, b = next < we ? next : we;
        if (b > a && level > 0)
            sum += (level < SM_EFFICIENCY_CAP ? level : SM_EFFICIENCY_CAP) * (double)(b - a);
    }
    free(key);
    free(order);
    *busy = sum;
    return 0;
}

static int measure_device(const gs_trace *t, int32_t dev, gs_ns ws, gs_ns we,
                          gs_gpu_device_metrics *m, endpoint *ep)
{
    gs_spans busy = {0};
    size_t nep = 0;
    double occ_sum = 0, occ_time = 0;
    memset(m, 0, sizeof *m);
    m->device = dev;
    for (size_t i = 0; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        if (k->device != dev)
            continue;
        if (gs_spans_unite(&busy, k->start, k->end) != 0) {
            gs_spans_free(&busy);
            return -1;
        }
        if (k->blocks_per_sm > 0 && k->end > k->start) {
            ep[nep++] = (endpoint){k->start, 0, k->blocks_per_sm};
            ep[nep++] = (endpoint){k->end, 1, k->blocks_per_sm};
        }
        gs_ns a = k->start > ws ? k->start : ws, b = k->end < we ? k->end : we;
        if (k->occupancy_pct >= 0 && b > a) {
            occ_sum += (double)k->occupancy_pct * (double)(b - a);
            occ_time += (double)(b - a);
        }
    }
    gs_spans_merge(&busy);
    m->busy_ns = gs_spans_overlap(&busy, ws, we);
    gs_spans_free(&busy);
    double window = (double)(we - ws);
    m->utilization = window > 0 ? (double)m->busy_ns / window : 0;
    if (nep && window > 0) {
        double sm = 0;
        if (sm_busy(ep, nep, ws, we, &sm) != 0)
            return -1;
        m->sm_efficiency = sm / window;
        m->has_sm_efficiency = true;
    }
    if (occ_time > 0) {
        m->occupancy_pct = occ_sum / occ_time;
        m->has_occupancy = true;
    }
    return 0;
}

int gs_gpu_metrics_compute(const gs_trace *t, gs_ns window_start, gs_ns window_end,
                           gs_gpu_metrics *out, gs_error *err)
{
    memset(out, 0, sizeof *out);
    out->window_start = window_start;
    out->window_end = window_end;
    if (!t->kernels.n)
        return 0;
    int32_t *ids = gs_array_new(t->kernels.n, sizeof *ids);
    endpoint *ep = gs_array_new(2 * t->kernels.n, sizeof *ep);
    if (!ids || !ep)
        goto oom;
    /* The kernels' devices, ascending: a few, each put in its place when first met. */
    size_t nd = 0;
    for (size_t i = 0; i < t->kernels.n; i++) {
        int32_t dev = t->kernels.v[i].device;
        size_t at = 0;
        while (at < nd && ids[at] < dev)
            at++;
        if (at < nd && ids[at] == dev)
            continue;
        memmove(ids + at + 1, ids + at, (nd - at) * sizeof *ids);
        ids[at] = dev;
        nd++;
    }
    out->v = gs_array_zeroed(nd, sizeof *out->v);
    if (!out->v)
        goto oom;
    out->n = nd;
    for (size_t d = 0; d < nd; d++) {
        if (measure_device(t, ids[d], window_start, window_end, &out->v[d], ep) != 0)
            goto oom;
    }
    free(ids);
    free(ep);
    return 0;
oom:
    free(ids);
    free(ep);
    gs_gpu_metrics_free(out);
    return gs_fail_oom(err);
}

void gs_gpu_metrics_free(gs_gpu_metrics *m)
{
    free(m->v);
    m->v = NULL;
    m->n = 0;
}
