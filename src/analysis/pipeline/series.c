#include "analysis/pipeline/series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "common/vec.h"

/* ---- GPU utilization over time ------------------------------------------------------------- */

/* Adds [s, e) to the buckets it overlaps. */
static void add_busy(double *busy, size_t nb, double t0, double w, gs_ns s, gs_ns e)
{
    double a = (double)s - t0, z = (double)e - t0;
    size_t i = a > 0 ? (size_t)(a / w) : 0;
    for (; i < nb && (double)i * w < z; i++) {
        double lo = fmax(a, (double)i * w), hi = fmin(z, (double)(i + 1) * w);
        if (hi > lo)
            busy[i] += hi - lo;
    }
}

/* NVML's utilization per bucket, averaged over the samples (and GPUs) that fall in it; buckets
 * without a sample are left out, so a line joins the samples around them. */
static int fill_nvml(const gs_trace *t, double t0, double w, size_t nb, gs_util_series *u)
{
    double *sum = gs_array_zeroed(2 * nb, sizeof *sum), *count = sum + nb;
    if (!sum)
        return -1;
    for (size_t i = 0; i < t->counters.n; i++) {
        const gs_counter *c = &t->counters.v[i];
        if (strcmp(gs_trace_str(t, c->name), "gpu_util_pct") != 0)
            continue;
        double a = (double)c->ts - t0;
        if (a < 0 || a > w * (double)nb)
            continue;
        size_t b = a / w < (double)nb ? (size_t)(a / w) : nb - 1;
        sum[b] += c->value;
        count[b] += 1;
    }
    size_t n = 0;
    for (size_t b = 0; b < nb; b++)
        n += count[b] > 0;
    u->nvml = gs_array_new(n, sizeof *u->nvml);
    if (!u->nvml) {
        free(sum);
        return -1;
    }
    for (size_t b = 0; b < nb; b++)
        if (count[b] > 0)
            u->nvml[u->nnvml++] = (gs_util_sample){b, sum[b] / count[b]};
    free(sum);
    return 0;
}

static int fill_util(const gs_trace *t, bool span, gs_ns first, gs_ns last, gs_util_series *u)
{
    u->kernels = t->kernels.n > 0;
    u->first = first;
    u->last = last;
    if (!u->kernels || !span || last <= first)
        return 0;
    size_t nb = GS_SERIES_UTIL_BUCKETS;
    double *busy = gs_array_zeroed(nb, sizeof *busy);
    if (!busy)
        return -1;
    double t0 = (double)u->first, w = (double)(u->last - u->first) / (double)nb;
    /* The union of all kernels of the trace: kernels come sorted by start. */
    gs_ns s = t->kernels.v[0].start, e = t->kernels.v[0].end;
    for (size_t i = 1; i < t->kernels.n; i++) {
        const gs_kernel *k = &t->kernels.v[i];
        if (k->start > e) {
            add_busy(busy, nb, t0, w, s, e);
            s = k->start;
        }
        e = k->end > e ? k->end : e;
    }
    add_busy(busy, nb, t0, w, s, e);
    for (size_t i = 0; i < nb; i++)
        busy[i] = 100 * busy[i] / w;
    u->busy_pct = busy;
    u->nbusy = nb;
    return fill_nvml(t, t0, w, nb, u);
}

/* ---- steps ---------------------------------------------------------------------------------- */

static void fill_bar(const gs_bd_trace *b, size_t first, size_t last, gs_step_bar *k)
{
    *k = (gs_step_bar){.first = first, .last = last, .first_number = b->step[first].number,
                       .last_number = b->step[last].number, .min = INFINITY};
    double n = (double)(last - first + 1);
    for (size_t i = first; i <= last; i++) {
        const gs_bd_step *s = &b->step[i];
        double total = (double)(s->end - s->start);
        for (int c = 0; c < GS_BD__COUNT; c++)
            k->mean[c] += (double)s->ns[c] / n;
        k->total += total / n;
        k->min = fmin(k->min, total);
        k->max = fmax(k->max, total);
        k->warm |= s->warmup;
    }
}

/* Equal runs of steps, as few steps per bar as keep the bars within GS_SERIES_STEP_BARS. */
static int fill_bars(const gs_bd_trace *b, gs_rank_series *out)
{
    size_t n = b->steps.n;
    if (n == 0)
        return 0;
    size_t per = n > GS_SERIES_STEP_BARS ? (n + GS_SERIES_STEP_BARS - 1) / GS_SERIES_STEP_BARS : 1;
    size_t nb = (n + per - 1) / per;
    out->bars = gs_array_new(nb, sizeof *out->bars);
    if (!out->bars)
        return -1;
    for (size_t i = 0; i < nb; i++)
        fill_bar(b, i * per, i * per + per - 1 < n ? i * per + per - 1 : n - 1, &out->bars[i]);
    out->nbars = nb;
    return 0;
}

/* ---- memory --------------------------------------------------------------------------------- */

static bool charted(const gs_mem_device *d, bool gpu_only)
{
    return d->npoints > 0 && (!gpu_only || d->device_type == GS_MEM_DEVICE_CUDA);
}

static void fill_chart(const gs_mem_device *d, gs_ns end, size_t first, gs_mem_chart *c)
{
    *c = (gs_mem_chart){
        .device_type = d->device_type, .device = d->device,
        .cuda_allocator = d->allocator == GS_MEM_CUDA, .origin = d->origin, .end = end,
        .peak_allocated = d->peak_allocated, .reserved_at_peak = d->reserved_at_peak,
        .peak_reserved = d->peak_reserved, .peak_ts = d->peak_ts, .peak_step = d->peak_step,
        .fragmentation = d->fragmentation, .fragmented = d->fragmented,
        .device_memory = d->device_memory, .headroom = d->headroom, .peak_pct = d->peak_pct,
        .fit_steps = d->fit_steps, .slope = d->slope, .r2 = d->r2, .leak = d->leak,
        .first = first, .npoints = d->npoints};
}

/* The charts end at the trace's last timestamp, or at their last point without one. */
static int fill_memory(const gs_memory_summary *mem, bool span, gs_ns last, gs_rank_series *out)
{
    bool gpu_only = false;
    size_t ncharts = 0, npoints = 0;
    for (size_t k = 0; k < mem->ndevices; k++)
        gpu_only |= charted(&mem->devices[k], false) &&
                    mem->devices[k].device_type == GS_MEM_DEVICE_CUDA;
    for (size_t k = 0; k < mem->ndevices; k++)
        if (charted(&mem->devices[k], gpu_only)) {
            ncharts++;
            npoints += mem->devices[k].npoints;
        }
    out->memory = gs_array_zeroed(ncharts, sizeof *out->memory);
    out->mem_points = gs_array_new(npoints, sizeof *out->mem_points);
    if (!out->memory || !out->mem_points)
        return -1;
    for (size_t k = 0; k < mem->ndevices; k++) {
        const gs_mem_device *d = &mem->devices[k];
        if (!charted(d, gpu_only))
            continue;
        gs_mem_chart *c = &out->memory[out->nmemory];
        fill_chart(d, span ? last : d->points[d->npoints - 1].ts, out->nmem_points, c);
        if (d->peak_op && !(c->peak_op = strdup(d->peak_op)))
            return -1;
        out->nmemory++;
        memcpy(out->mem_points + out->nmem_points, d->points, d->npoints * sizeof *d->points);
        out->nmem_points += d->npoints;
    }
    return 0;
}

int gs_rank_series_build(const gs_trace_ctx *c, const gs_bd_trace *bd,
                         const gs_memory_summary *mem, gs_rank_series *out)
{
    memset(out, 0, sizeof *out);
    out->has_util = out->has_steps = out->has_memory = true;
    /* the context's span is the trace's (gs_trace_span), found once */
    bool span = c->has_span;
    gs_ns first = span ? c->first : 0, last = span ? c->last : 0;
    if (fill_util(c->trace, span, first, last, &out->util) != 0 || fill_bars(bd, out) != 0 ||
        fill_memory(mem, span, last, out) != 0) {
        gs_rank_series_free(out);
        return -1;
    }
    return 0;
}

void gs_rank_series_free(gs_rank_series *s)
{
    free(s->util.busy_pct);
    free(s->util.nvml);
    free(s->bars);
    for (size_t i = 0; i < s->nmemory; i++)
        free(s->memory[i].peak_op);
    free(s->memory);
    free(s->mem_points);
    memset(s, 0, sizeof *s);
}
