/* Writing the Prometheus text exposition. */
#include "monitor/prometheus.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "common/utf8.h"
#include "common/util.h"

#define MIB (1024.0 * 1024.0)

/* How a GPU family's value comes from the snapshot. */
enum derive {
    D_VALUE,   /* the metric times scale */
    D_MIB,     /* the metric in whole MiB, as DCGM reports framebuffer memory */
    D_FREE_MIB /* total - used, in whole MiB */
};

/* dcgm-exporter's names, help texts and units (its default-counters.csv); the order is that
 * file's. PCIe throughput is a rate in KB/s (DCGM's unit for the field, from the same NVML
 * call), typed gauge where dcgm-exporter's CSV says counter: a rate is not a counter. */
static const struct gpu_family {
    const char *name, *help;
    enum gs_nvml_metric metric;
    enum derive derive;
    double scale;
} gpu_families[] = {
    {"DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).", GS_NVML_SM_CLOCK_MHZ, D_VALUE, 1},
    {"DCGM_FI_DEV_MEM_CLOCK", "Memory clock frequency (in MHz).", GS_NVML_MEM_CLOCK_MHZ, D_VALUE,
     1},
    {"DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).", GS_NVML_TEMP_C, D_VALUE, 1},
    {"DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).", GS_NVML_POWER_W, D_VALUE, 1},
    {"DCGM_FI_DEV_PCIE_TX_THROUGHPUT", "PCIe TX throughput (in KB/s, 1 KB = 1024 bytes).",
     GS_NVML_PCIE_TX, D_VALUE, 1.0 / 1024},
    {"DCGM_FI_DEV_PCIE_RX_THROUGHPUT", "PCIe RX throughput (in KB/s, 1 KB = 1024 bytes).",
     GS_NVML_PCIE_RX, D_VALUE, 1.0 / 1024},
    {"DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).", GS_NVML_UTIL_GPU, D_VALUE, 1},
    {"DCGM_FI_DEV_MEM_COPY_UTIL", "Memory utilization (in %).", GS_NVML_UTIL_MEM, D_VALUE, 1},
    {"DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).", GS_NVML_MEM_USED, D_FREE_MIB, 1},
    {"DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).", GS_NVML_MEM_USED, D_MIB, 1},
    {"DCGM_FI_DEV_CLOCK_THROTTLE_REASONS",
     "Current clock throttle reasons (bit mask of NVML's nvmlClocksThrottleReason* values).",
     GS_NVML_THROTTLE, D_VALUE, 1},
};

static void put_value(FILE *out, double v)
{
    fprintf(out, " %.15g\n", v);
}

void gs_prom_label_value(FILE *out, const char *s)
{
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = gs_utf8_decode(s + i, len - i, &cp);
        if (n == 0) {
            fputs(GS_UTF8_REPLACEMENT, out);
            i++;
            continue;
        }
        if (cp == '\\')
            fputs("\\\\", out);
        else if (cp == '"')
            fputs("\\\"", out);
        else if (cp == '\n')
            fputs("\\n", out);
        else
            fwrite(s + i, 1, n, out);
        i += n;
    }
}

static void put_label(FILE *out, const char *first, const char *name, const char *v)
{
    fprintf(out, "%s%s=\"", first, name);
    gs_prom_label_value(out, v);
    fputc('"', out);
}

static void put_header(FILE *out, const char *name, const char *type, const char *help)
{
    fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* dcgm-exporter's label set: gpu, UUID, pci_bus_id, device, modelName, Hostname. */
static void put_gpu_labels(FILE *out, const gs_snapshot *s, const gs_mon_gpu *g)
{
    char num[16], device[24];
    snprintf(num, sizeof num, "%u", g->index);
    snprintf(device, sizeof device, "nvidia%u", g->index);
    put_label(out, "{", "gpu", num);
    put_label(out, ",", "UUID", g->uuid);
    put_label(out, ",", "pci_bus_id", g->pci_bus_id);
    put_label(out, ",", "device", device);
    put_label(out, ",", "modelName", g->name);
    put_label(out, ",", "Hostname", s->hostname);
    fputc('}', out);
}

static bool derive(const struct gpu_family *f, const gs_mon_gpu *g, double *v)
{
    if (g->avail[f->metric] != GS_NVML_OK)
        return false;
    double x = g->value[f->metric];
    switch (f->derive) {
    case D_VALUE:
        *v = x * f->scale;
        return true;
    case D_MIB:
        *v = floor(x / MIB);
        return true;
    case D_FREE_MIB:
        if (g->avail[GS_NVML_MEM_TOTAL] != GS_NVML_OK || g->value[GS_NVML_MEM_TOTAL] < x)
            return false;
        *v = floor((g->value[GS_NVML_MEM_TOTAL] - x) / MIB);
        return true;
    }
    return false;
}

static void put_gpu_family(FILE *out, const gs_snapshot *s, const struct gpu_family *f)
{
    bool any = false;
    for (size_t i = 0; i < s->ngpus; i++) {
        double v;
        if (!derive(f, &s->gpus[i], &v))
            continue;
        if (!any)
            put_header(out, f->name, "gauge", f->help);
        any = true;
        fputs(f->name, out);
        put_gpu_labels(out, s, &s->gpus[i]);
        put_value(out, v);
    }
}

/* A process NVML lists more than once on a GPU (once per MIG instance) is one series, with
 * the sum of its entries: a repeated series would make the whole scrape invalid. */
static bool seen_before(const gs_mon_gpu *g, size_t p)
{
    for (size_t q = 0; q < p; q++)
        if (g->procs[q].known && g->procs[q].pid == g->procs[p].pid)
            return true;
    return false;
}

static uint64_t pid_bytes(const gs_mon_gpu *g, uint32_t pid)
{
    uint64_t sum = 0;
    for (size_t q = 0; q < g->nprocs; q++)
        if (g->procs[q].known && g->procs[q].pid == pid)
            sum += g->procs[q].used_bytes;
    return sum;
}

/* What dcgm-exporter cannot say: GPU memory per process (NVIDIA/dcgm-exporter#109). */
static void put_processes(FILE *out, const gs_snapshot *s)
{
    static const char name[] = "gpuscope_process_gpu_memory_bytes";
    bool any = false;
    for (size_t i = 0; i < s->ngpus; i++) {
        const gs_mon_gpu *g = &s->gpus[i];
        for (size_t p = 0; p < g->nprocs; p++) {
            const gs_mon_proc *pr = &g->procs[p];
            if (!pr->known || seen_before(g, p))
                continue;
            if (!any)
                put_header(out, name, "gauge",
                           "GPU memory used by a process (NVML usedGpuMemory).");
            any = true;
            char pid[16], gpu[16];
            snprintf(pid, sizeof pid, "%" PRIu32, pr->pid);
            snprintf(gpu, sizeof gpu, "%u", g->index);
            fputs(name, out);
            put_label(out, "{", "pid", pid);
            put_label(out, ",", "process", pr->name);
            put_label(out, ",", "gpu", gpu);
            put_label(out, ",", "UUID", g->uuid);
            put_label(out, ",", "Hostname", s->hostname);
            fputc('}', out);
            put_value(out, (double)pid_bytes(g, pr->pid));
        }
    }
}

static void put_host_metric(FILE *out, const gs_snapshot *s, const char *name, const char *help,
                            double v)
{
    put_header(out, name, "gauge", help);
    fputs(name, out);
    put_label(out, "{", "Hostname", s->hostname);
    fputc('}', out);
    put_value(out, v);
}

static void put_host(FILE *out, const gs_snapshot *s)
{
    const gs_host_usage *h = &s->host;
    if (h->have_cpu)
        put_host_metric(out, s, "gpuscope_host_cpu_percent",
                        "Host CPU busy over the last interval, all cores (0-100).", h->cpu_pct);
    if (h->have_mem) {
        put_host_metric(out, s, "gpuscope_host_memory_used_bytes",
                        "Host memory in use (MemTotal - MemAvailable).", (double)h->mem_used_bytes);
        put_host_metric(out, s, "gpuscope_host_memory_total_bytes", "Host memory (MemTotal).",
                        (double)h->mem_total_bytes);
    }
    /* What an alert on a job's pace reads (and starts a capture with, through /trigger). */
    if (s->steps.watched) {
        put_host_metric(out, s, "gpuscope_agents",
                        "Processes run with gpuscope run --on-demand in the watched folder.",
                        (double)s->steps.agents);
        if (s->steps.step_ns > 0)
            put_host_metric(out, s, "gpuscope_step_seconds",
                            "The slowest watched process's latest training step.",
                            (double)s->steps.step_ns / 1e9);
    }
}

static void put_health(FILE *out, const gs_prom_health *h)
{
    static const struct {
        const char *name, *type, *help;
        bool of_sample; /* means nothing before the first sample: left out rather than 0 */
    } fam[] = {
        {"gpuscope_exporter_up", "gauge", "1 when the exporter has a sample to serve.", false},
        {"gpuscope_exporter_scrapes_total", "counter", "Requests for /metrics, this one included.",
         false},
        {"gpuscope_exporter_samples_total", "counter", "Samples taken or replayed.", false},
        {"gpuscope_exporter_last_sample_age_seconds", "gauge",
         "Age of the sample served (on the log's clock under --replay).", true},
        {"gpuscope_exporter_nvml_errors_total", "counter",
         "NVML reads that failed (not counting metrics the GPU does not support).", false},
    };
    double v[] = {h->up, (double)h->scrapes, (double)h->samples, h->sample_age_s,
                  (double)h->nvml_errors};
    _Static_assert(COUNT_OF(v) == COUNT_OF(fam), "one value per family");
    for (size_t i = 0; i < COUNT_OF(fam); i++) {
        if (fam[i].of_sample && !h->up)
            continue;
        put_header(out, fam[i].name, fam[i].type, fam[i].help);
        fputs(fam[i].name, out);
        put_value(out, v[i]);
    }
}

void gs_prom_write(FILE *out, const gs_snapshot *s, const gs_prom_health *h)
{
    if (s) {
        for (size_t f = 0; f < COUNT_OF(gpu_families); f++)
            put_gpu_family(out, s, &gpu_families[f]);
        put_processes(out, s);
        put_host(out, s);
    }
    put_health(out, h);
}
