/* The monitor's snapshot: memory handling, process order and throttle reason names. */
#include "monitor/snapshot.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

/* nvml.h's nvmlClocksThrottleReason* bits, with the names of `nvidia-smi --query-gpu`'s
 * clocks_throttle_reasons.* fields. */
const gs_throttle_reason gs_throttle_reasons[] = {
    {0x1, "gpu_idle"},
    {0x2, "applications_clocks_setting"},
    {0x4, "sw_power_cap"},
    {0x8, "hw_slowdown"},
    {0x10, "sync_boost"},
    {0x20, "sw_thermal_slowdown"},
    {0x40, "hw_thermal_slowdown"},
    {0x80, "hw_power_brake_slowdown"},
    {0x100, "display_clock_setting"},
};
const size_t gs_throttle_nreasons = COUNT_OF(gs_throttle_reasons);

void gs_throttle_names(unsigned long long mask, const char *sep, char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    if (mask == 0) {
        snprintf(buf, cap, "none");
        return;
    }
    unsigned long long known = 0;
    for (size_t i = 0; i < gs_throttle_nreasons; i++) {
        known |= gs_throttle_reasons[i].bit;
        if (!(mask & gs_throttle_reasons[i].bit) || len >= cap)
            continue;
        int n = snprintf(buf + len, cap - len, "%s%s", len ? sep : "", gs_throttle_reasons[i].name);
        len += n > 0 ? (size_t)n : 0;
    }
    if ((mask & ~known) && len < cap)
        snprintf(buf + len, cap - len, "%s0x%llx", len ? sep : "", mask & ~known);
}

void gs_mon_strlcpy(char *dst, size_t cap, const char *src, size_t len)
{
    if (len >= cap) {
        len = cap - 1;
        /* Back off continuation bytes so a multi-byte character is not cut in half. */
        while (len > 0 && ((unsigned char)src[len] & 0xc0) == 0x80)
            len--;
    }
    memcpy(dst, src, len);
    dst[len] = '\0';
}

void gs_snapshot_clear(gs_snapshot *s)
{
    for (size_t i = 0; i < s->ngpus; i++)
        s->gpus[i].nprocs = 0;
    s->ngpus = 0;
    s->ts_ms = 0;
    s->hostname[0] = '\0';
    memset(&s->host, 0, sizeof s->host);
    s->steps = (gs_mon_steps){0};
}

void gs_snapshot_free(gs_snapshot *s)
{
    /* Slots past ngpus keep their process arrays for reuse: free every slot ever made. */
    for (size_t i = 0; i < s->gpus_cap; i++)
        free(s->gpus[i].procs);
    free(s->gpus);
    memset(s, 0, sizeof *s);
}

gs_mon_gpu *gs_snapshot_add_gpu(gs_snapshot *s)
{
    if (s->ngpus == s->gpus_cap) {
        size_t cap = s->gpus_cap ? 2 * s->gpus_cap : 4;
        gs_mon_gpu *v = realloc(s->gpus, cap * sizeof *v);
        if (!v)
            return NULL;
        memset(v + s->gpus_cap, 0, (cap - s->gpus_cap) * sizeof *v);
        s->gpus = v;
        s->gpus_cap = cap;
    }
    gs_mon_gpu *g = &s->gpus[s->ngpus++];
    gs_mon_proc *procs = g->procs;
    size_t cap = g->procs_cap;
    memset(g, 0, sizeof *g);
    g->procs = procs;
    g->procs_cap = cap;
    return g;
}

gs_mon_proc *gs_mon_gpu_add_proc(gs_mon_gpu *g)
{
    if (g->nprocs == g->procs_cap) {
        size_t cap = g->procs_cap ? 2 * g->procs_cap : 8;
        gs_mon_proc *v = realloc(g->procs, cap * sizeof *v);
        if (!v)
            return NULL;
        g->procs = v;
        g->procs_cap = cap;
    }
    gs_mon_proc *p = &g->procs[g->nprocs++];
    memset(p, 0, sizeof *p);
    return p;
}

static int by_memory(const void *a, const void *b)
{
    const gs_mon_proc *x = a, *y = b;
    if (x->known != y->known)
        return x->known ? -1 : 1;
    if (x->used_bytes != y->used_bytes)
        return x->used_bytes > y->used_bytes ? -1 : 1;
    return (x->pid > y->pid) - (x->pid < y->pid);
}

void gs_mon_gpu_sort_procs(gs_mon_gpu *g)
{
    if (g->nprocs > 1)
        qsort(g->procs, g->nprocs, sizeof *g->procs, by_memory);
}

uint64_t gs_snapshot_failed_reads(const gs_snapshot *s)
{
    uint64_t n = 0;
    for (size_t i = 0; i < s->ngpus; i++) {
        for (int m = 0; m < GS_NVML_NMETRICS; m++)
            n += s->gpus[i].avail[m] == GS_NVML_FAILED;
        n += s->gpus[i].procs_avail == GS_NVML_FAILED;
    }
    return n;
}

int gs_snapshot_copy(gs_snapshot *dst, const gs_snapshot *src)
{
    gs_snapshot_clear(dst);
    dst->ts_ms = src->ts_ms;
    memcpy(dst->hostname, src->hostname, sizeof dst->hostname);
    dst->host = src->host;
    dst->steps = src->steps;
    for (size_t i = 0; i < src->ngpus; i++) {
        const gs_mon_gpu *g = &src->gpus[i];
        gs_mon_gpu *d = gs_snapshot_add_gpu(dst);
        if (!d)
            return -1;
        gs_mon_proc *procs = d->procs;
        size_t cap = d->procs_cap;
        *d = *g;
        d->procs = procs;
        d->procs_cap = cap;
        d->nprocs = 0;
        for (size_t p = 0; p < g->nprocs; p++) {
            gs_mon_proc *q = gs_mon_gpu_add_proc(d);
            if (!q)
                return -1;
            *q = g->procs[p];
        }
    }
    return 0;
}

int64_t gs_mon_int(double v)
{
    if (!(v == v))
        return 0;
    /* 2^63 is exact as a double; INT64_MAX is not. */
    if (v >= 9223372036854775808.0)
        return INT64_MAX;
    return v <= -9223372036854775808.0 ? INT64_MIN : (int64_t)v;
}

unsigned long long gs_mon_mask(double v)
{
    if (!(v > 0))
        return 0;
    return v >= 18446744073709551616.0 ? ULLONG_MAX : (unsigned long long)v;
}
