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

/* Integers exactly (bytes exceed what %g keeps), fractions (watts from mW, CPU %) to 0.001. */
void gs_jsonl_number(FILE *out, double v)
{
    if (v == floor(v) && fabs(v) < 9007199254740992.0)
        fprintf(out, "%.0f", v);
    else
        gs_json_number(out, v, 3);
}

static void put_key(FILE *out, const char *k)
{
    fprintf(out, ",\"%s\":", k);
}

static void put_host_fields(FILE *out, const gs_host_usage *h)
{
    put_key(out, "host_cpu_pct");
    h->have_cpu ? gs_jsonl_number(out, h->cpu_pct) : (void)fputs("null", out);
    put_key(out, "host_mem_used_bytes");
    h->have_mem ? gs_jsonl_number(out, (double)h->mem_used_bytes) : (void)fputs("null", out);
    put_key(out, "host_mem_total_bytes");
    h->have_mem ? gs_jsonl_number(out, (double)h->mem_total_bytes) : (void)fputs("null", out);
}

static void put_processes(FILE *out, const gs_mon_gpu *g)
{
    put_key(out, "processes");
    if (g->procs_avail != GS_NVML_OK) {
        fputs("null", out);
        return;
    }
    fputc('[', out);
    for (size_t p = 0; p < g->nprocs; p++) {
        const gs_mon_proc *pr = &g->procs[p];
        fprintf(out, "%s{\"pid\":%" PRIu32 ",\"name\":", p ? "," : "", pr->pid);
        gs_json_string(out, pr->name);
        fputs(",\"gpu_memory_bytes\":", out);
        pr->known ? gs_jsonl_number(out, (double)pr->used_bytes) : (void)fputs("null", out);
        fputc('}', out);
    }
    fputc(']', out);
}

/* "unavailable": why each absent metric is absent, so a reader tells unsupported from failed. */
static void put_unavailable(FILE *out, const gs_mon_gpu *g)
{
    int n = 0;
    put_key(out, "unavailable");
    fputc('{', out);
    for (int m = 0; m < GS_NVML_NMETRICS; m++) {
        const char *why = gs_jsonl_avail_name(g->avail[m]);
        if (why)
            fprintf(out, "%s\"%s\":\"%s\"", n++ ? "," : "", gs_nvml_metric_name(m), why);
    }
    const char *why = gs_jsonl_avail_name(g->procs_avail);
    if (why)
        fprintf(out, "%s\"processes\":\"%s\"", n ? "," : "", why);
    fputc('}', out);
}

void gs_jsonl_line(FILE *out, const gs_snapshot *s, size_t i)
{
    fprintf(out, "{\"ts\":%" PRId64 ".%03d", s->ts_ms / 1000, (int)(s->ts_ms % 1000));
    put_key(out, "hostname");
    gs_json_string(out, s->hostname);
    if (i < s->ngpus) {
        const gs_mon_gpu *g = &s->gpus[i];
        fprintf(out, ",\"gpu\":%u", g->index);
        put_key(out, "name");
        gs_json_string(out, g->name);
        put_key(out, "uuid");
        gs_json_string(out, g->uuid);
        put_key(out, "pci_bus_id");
        gs_json_string(out, g->pci_bus_id);
        for (int m = 0; m < GS_NVML_NMETRICS; m++) {
            put_key(out, gs_nvml_metric_name(m));
            g->avail[m] == GS_NVML_OK ? gs_jsonl_number(out, g->value[m]) : (void)fputs("null", out);
        }
        put_unavailable(out, g);
        put_processes(out, g);
    }
    put_host_fields(out, &s->host);
    fputs("}\n", out);
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
