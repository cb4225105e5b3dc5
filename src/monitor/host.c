/* Host CPU (/proc/stat), memory (/proc/meminfo) and process names (/proc/<pid>/comm). */
#include "monitor/host.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Reads a small /proc file whole; returns its length, or -1. */
static long read_small(const char *root, const char *name, char *buf, size_t cap)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = '\0';
    return (long)n;
}

/* The aggregate "cpu " line: user nice system idle iowait irq softirq steal (guest time is
 * already inside user and nice). Busy is everything but idle and iowait. */
static bool read_cpu(const char *root, uint64_t *busy, uint64_t *total)
{
    char buf[1024];
    if (read_small(root, "stat", buf, sizeof buf) < 0 || strncmp(buf, "cpu ", 4) != 0)
        return false;
    uint64_t v[8] = {0};
    int n = sscanf(buf + 4, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
                            " %" SCNu64 " %" SCNu64,
                   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
    if (n < 4)
        return false;
    *total = 0;
    for (int i = 0; i < 8; i++)
        *total += v[i];
    *busy = *total - v[3] - v[4];
    return true;
}

/* The value in kB of "key:" in /proc/meminfo, as bytes. */
static bool meminfo_field(const char *text, const char *key, uint64_t *bytes)
{
    const char *p = strstr(text, key);
    uint64_t kb;
    if (!p || (p != text && p[-1] != '\n') || sscanf(p + strlen(key), " %" SCNu64, &kb) != 1)
        return false;
    *bytes = kb * 1024;
    return true;
}

void gs_host_read(gs_host_probe *h, gs_mon_host *out)
{
    memset(out, 0, sizeof *out);
    uint64_t busy, total;
    if (read_cpu(h->proc_root, &busy, &total)) {
        /* Counters only grow; a smaller total means a different /proc, not negative time. */
        if (h->have_prev && total > h->prev_total && busy >= h->prev_busy) {
            out->have_cpu = true;
            out->cpu_pct = 100.0 * (double)(busy - h->prev_busy) / (double)(total - h->prev_total);
        }
        h->have_prev = true;
        h->prev_busy = busy;
        h->prev_total = total;
    } else {
        h->have_prev = false;
    }
    char buf[4096];
    uint64_t mem_total, avail;
    if (read_small(h->proc_root, "meminfo", buf, sizeof buf) >= 0 &&
        meminfo_field(buf, "MemTotal:", &mem_total) &&
        meminfo_field(buf, "MemAvailable:", &avail) && avail <= mem_total) {
        out->have_mem = true;
        out->mem_total_bytes = mem_total;
        out->mem_used_bytes = mem_total - avail;
    }
}

void gs_host_proc_name(const char *proc_root, uint32_t pid, char *buf, size_t cap)
{
    char name[32];
    snprintf(name, sizeof name, "%" PRIu32 "/comm", pid);
    long n = read_small(proc_root, name, buf, cap);
    if (n < 0) {
        buf[0] = '\0';
        return;
    }
    buf[strcspn(buf, "\n")] = '\0';
}
