/* GPU utilization, estimated SM efficiency and estimated achieved occupancy per device
 * (gpu_metrics.h), each clipped to the window as the plugin clips to its "all steps" range. */
#include "analysis/trace/gpu_metrics.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/base/intervals.h"
#include "common/util.h"

/* The plugin caps the summed blocks per SM of concurrent kernels at one full GPU. */
#define SM_EFFICIENCY_CAP 1.0

typedef struct endpoint {
    gs_ns ts;
    int is_end; /* starts sort before ends at the same time, as the plugin's sweep */
    double value;
} endpoint;

static int cmp_endpoint(const void *a, const void *b)
{
    const endpoint *x = a, *y = b;
    if (x->ts != y->ts)
        return (x->ts > y->ts) - (x->ts < y->ts);
    return x->is_end - y->is_end;
}

/* Σ min(Σ running blocks per SM, cap) × length over [ws, we), by a sweep over kernel ends. */
static double sm_busy(endpoint *ep, size_t n, gs_ns ws, gs_ns we)
{
    qsort(ep, n, sizeof *ep, cmp_endpoint);
    double level = 0, sum = 0;
    for (size_t i = 0; i + 1 <= n; i++) {
        level += ep[i].is_end ? -ep[i].value : ep[i].value;
        if (i + 1 == n)
            break;
        gs_ns a = ep[i].ts > ws ? ep[i].ts : ws, b = ep[i + 1].ts < we ? ep[i + 1].ts : we;
        if (b > a && level > 0)
            sum += (level < SM_EFFICIENCY_CAP ? level : SM_EFFICIENCY_CAP) * (double)(b - a);
    }
    return sum;
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
        if (gs_spans_add(&busy, k->start, k->end) != 0) {
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
        m->sm_efficiency = sm_busy(ep, nep, ws, we) / window;
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
    int32_t *ids = malloc(t->kernels.n * sizeof *ids);
    endpoint *ep = malloc(2 * t->kernels.n * sizeof *ep);
    if (!ids || !ep)
        goto oom;
    for (size_t i = 0; i < t->kernels.n; i++)
        ids[i] = t->kernels.v[i].device;
    qsort(ids, t->kernels.n, sizeof *ids, gs_cmp_i32);
    size_t nd = 0;
    for (size_t i = 0; i < t->kernels.n; i++) {
        if (!nd || ids[nd - 1] != ids[i])
            ids[nd++] = ids[i];
    }
    out->v = calloc(nd, sizeof *out->v);
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
