/* Writing the monitor's JSONL log. */
#include "monitor/jsonl.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/json_write.h"

static const char *const avail_names[] = {
    [GS_NVML_UNSUPPORTED] = "unsupported",
    [GS_NVML_FAILED] = "failed",
};

const char *gs_jsonl_avail_name(int avail)
{
    return avail == GS_NVML_UNSUPPORTED || avail == GS_NVML_FAILED ? avail_names[avail] : NULL;
}

int gs_jsonl_avail_parse(const char *name, size_t len)
{
    for (int a = GS_NVML_UNSUPPORTED; a <= GS_NVML_FAILED; a++)
        if (strlen(avail_names[a]) == len && memcmp(avail_names[a], name, len) == 0)
            return a;
    return -1;
}

const char *gs_jsonl_number(char buf[GS_JSONL_NUMBER_BUF], double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0) /* 2^53: every integer below is exact */
        snprintf(buf, GS_JSONL_NUMBER_BUF, "%.0f", v);
    else if (isfinite(v))
        snprintf(buf, GS_JSONL_NUMBER_BUF, "%.3f", v);
    else
        snprintf(buf, GS_JSONL_NUMBER_BUF, "null"); /* JSON has no NaN or infinity */
    return buf;
}

void gs_jsonl_put_metric(gs_json_writer *w, const char *key, bool known, double v)
{
    char text[GS_JSONL_NUMBER_BUF];
    if (known)
        gs_json_put_raw(w, key, gs_jsonl_number(text, v));
    else
        gs_json_put_null(w, key);
}

const char *gs_jsonl_ts(char buf[GS_JSONL_NUMBER_BUF], int64_t ts_ms)
{
    snprintf(buf, GS_JSONL_NUMBER_BUF, "%" PRId64 ".%03d", ts_ms / 1000, (int)(ts_ms % 1000));
    return buf;
}

void gs_jsonl_put_processes(gs_json_writer *w, const gs_mon_gpu *g)
{
    if (g->procs_avail != GS_NVML_OK) {
        gs_json_put_null(w, "processes");
        return;
    }
    gs_json_begin_array(w, "processes", GS_JSON_COMPACT);
    for (size_t p = 0; p < g->nprocs; p++) {
        const gs_mon_proc *pr = &g->procs[p];
        gs_json_begin_object(w, NULL, GS_JSON_COMPACT);
        gs_json_put_uint(w, "pid", pr->pid);
        gs_json_put_str(w, "name", pr->name);
        gs_jsonl_put_metric(w, "gpu_memory_bytes", pr->known, (double)pr->used_bytes);
        gs_json_end(w);
    }
    gs_json_end(w);
}

/* "unavailable": why each absent metric is absent, so a reader tells unsupported from failed. */
static void put_unavailable(gs_json_writer *w, const gs_mon_gpu *g)
{
    gs_json_begin_object(w, "unavailable", GS_JSON_COMPACT);
    for (int m = 0; m < GS_NVML_NMETRICS; m++) {
        const char *why = gs_jsonl_avail_name(g->avail[m]);
        if (why)
            gs_json_put_str(w, gs_nvml_metric_name(m), why);
    }
    const char *why = gs_jsonl_avail_name(g->procs_avail);
    if (why)
        gs_json_put_str(w, "processes", why);
    gs_json_end(w);
}

void gs_jsonl_line(FILE *out, const gs_snapshot *s, size_t i)
{
    char ts[GS_JSONL_NUMBER_BUF];
    gs_json_writer w;
    gs_json_writer_init(&w, out);
    gs_json_begin_object(&w, NULL, GS_JSON_COMPACT);
    gs_json_put_raw(&w, "ts", gs_jsonl_ts(ts, s->ts_ms));
    gs_json_put_str(&w, "hostname", s->hostname);
    if (i < s->ngpus) {
        const gs_mon_gpu *g = &s->gpus[i];
        gs_json_put_uint(&w, "gpu", g->index);
        gs_json_put_str(&w, "name", g->name);
        gs_json_put_str(&w, "uuid", g->uuid);
        gs_json_put_str(&w, "pci_bus_id", g->pci_bus_id);
        for (int m = 0; m < GS_NVML_NMETRICS; m++)
            gs_jsonl_put_metric(&w, gs_nvml_metric_name(m), g->avail[m] == GS_NVML_OK,
                                g->value[m]);
        put_unavailable(&w, g);
        gs_jsonl_put_processes(&w, g);
    }
    const gs_host_usage *h = &s->host;
    gs_jsonl_put_metric(&w, "host_cpu_pct", h->have_cpu, h->cpu_pct);
    gs_jsonl_put_metric(&w, "host_mem_used_bytes", h->have_mem, (double)h->mem_used_bytes);
    gs_jsonl_put_metric(&w, "host_mem_total_bytes", h->have_mem, (double)h->mem_total_bytes);
    if (s->steps.watched) {
        gs_json_put_uint(&w, "agents", s->steps.agents);
        gs_jsonl_put_metric(&w, "step_ns", s->steps.step_ns > 0, (double)s->steps.step_ns);
        if (s->steps.step_ns > 0 && s->steps.slowest_pid > 0) {
            if (s->steps.has_rank)
                gs_json_put_uint(&w, "step_rank", s->steps.slowest_rank);
            gs_json_put_str(&w, "step_host", s->steps.slowest_host);
            gs_json_put_uint(&w, "step_pid", s->steps.slowest_pid);
        }
    }
    gs_json_end(&w);
}

/* write(2) of a regular file returns short only when the disk is full or a limit is hit; the
 * rest is then written too (the line is whole or the error is reported). */
static int write_all(int fd, const char *p, size_t n, gs_error *err)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return gs_fail(err, GS_EXIT_ENV, "cannot write the monitor log: %s",
                           w < 0 ? strerror(errno) : "no progress");
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int gs_jsonl_append(int fd, const gs_snapshot *s, gs_error *err)
{
    size_t lines = s->ngpus ? s->ngpus : 1;
    for (size_t i = 0; i < lines; i++) {
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        if (!out)
            return gs_fail_oom(err);
        gs_jsonl_line(out, s, i);
        if (fclose(out) != 0) {
            free(text);
            return gs_fail_oom(err);
        }
        int rc = write_all(fd, text, len, err);
        free(text);
        if (rc)
            return -1;
    }
    return 0;
}
