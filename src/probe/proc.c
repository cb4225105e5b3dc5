/* Process-tree and host CPU and memory from /proc. */
#include "probe/proc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/nvml.h" /* GS_NVML_MAX_VALUE: the largest value the monitor keeps */

/* Reads a small /proc file whole into buf (NUL-terminated); its length, or -1. */
static ssize_t read_small(int dirfd, const char *path, char *buf, size_t cap)
{
    int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t used = 0;
    while (used + 1 < cap) {
        ssize_t r = read(fd, buf + used, cap - 1 - used);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        used += (size_t)r;
    }
    close(fd);
    buf[used] = '\0';
    return (ssize_t)used;
}

/* Parses /proc/<pid>/stat: "pid (comm) state ppid ...". comm may hold spaces and ')' (it is
 * whatever the process named itself), so the fields start after the *last* ')'. */
static int parse_stat(const char *buf, size_t len, gs_proc_info *p)
{
    const char *close_paren = memrchr(buf, ')', len);
    if (!close_paren)
        return -1;
    const char *s = close_paren + 1;
    /* Field numbers as in proc(5); field 3 (state) is the first after comm. */
    int64_t ppid = 0;
    uint64_t utime = 0, stime = 0, start = 0;
    int field = 3, found = 0;
    while (*s && field <= 22) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        char *end;
        if (field == 4 || field == 14 || field == 15 || field == 22) {
            errno = 0;
            unsigned long long v = strtoull(s, &end, 10);
            if (end == s || errno)
                return -1;
            if (field == 4)
                ppid = (int64_t)v;
            else if (field == 14)
                utime = v;
            else if (field == 15)
                stime = v;
            else
                start = v;
            found++;
            s = end;
        }
        while (*s && *s != ' ')
            s++;
        field++;
    }
    if (found != 4)
        return -1;
    p->ppid = ppid;
    p->cpu_ticks = utime + stime;
    p->start_ticks = start;
    return 0;
}

/* VmRSS from /proc/<pid>/status, in bytes; 0 when absent (kernel threads, zombies). */
static uint64_t parse_rss(const char *buf)
{
    const char *line = strstr(buf, "\nVmRSS:");
    if (!line)
        return 0;
    unsigned long long kb = strtoull(line + 7, NULL, 10);
    return (uint64_t)kb * 1024;
}

static int push(gs_proc_info **v, size_t *n, size_t *cap, const gs_proc_info *p)
{
    if (*n == *cap) {
        size_t ncap = *cap ? 2 * *cap : 256;
        gs_proc_info *nv = realloc(*v, ncap * sizeof *nv);
        if (!nv)
            return -1;
        *v = nv;
        *cap = ncap;
    }
    (*v)[(*n)++] = *p;
    return 0;
}

static int by_ppid(const void *a, const void *b)
{
    const gs_proc_info *x = a, *y = b;
    return (x->ppid > y->ppid) - (x->ppid < y->ppid);
}

static int by_pid(const void *a, const void *b)
{
    const gs_proc_info *x = a, *y = b;
    return (x->pid > y->pid) - (x->pid < y->pid);
}

/* Every process under the root directory into t->all. */
static int scan(DIR *d, gs_proc_tree *t)
{
    char buf[1024], path[32];
    struct dirent *e;
    t->nall = 0;
    while ((e = readdir(d)) != NULL) {
        char *end;
        long long pid = strtoll(e->d_name, &end, 10);
        if (*end || end == e->d_name || pid <= 0)
            continue; /* not a process: self, net, sys, ... */
        snprintf(path, sizeof path, "%lld/stat", pid);
        ssize_t len = read_small(dirfd(d), path, buf, sizeof buf);
        gs_proc_info p = {.pid = pid};
        if (len <= 0 || parse_stat(buf, (size_t)len, &p) != 0)
            continue; /* exited since readdir, or not a stat line */
        if (push(&t->all, &t->nall, &t->allcap, &p) != 0)
            return -1;
    }
    return 0;
}

/* First index in `all` (sorted by ppid) whose ppid is >= ppid. */
static size_t first_child(const gs_proc_info *all, size_t n, int64_t ppid)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (all[mid].ppid < ppid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int gs_proc_read_tree(const char *proc_root, int64_t root_pid, gs_proc_tree *t, gs_error *err)
{
    DIR *d = opendir(proc_root);
    if (!d)
        return gs_fail(err, GS_EXIT_ENV, "cannot read %s: %s", proc_root, strerror(errno));
    t->n = 0;
    t->cpu_ticks = t->rss_bytes = 0;
    int rc = scan(d, t);
    for (size_t i = 0; rc == 0 && i < t->nall; i++)
        if (t->all[i].pid == root_pid)
            rc = push(&t->v, &t->n, &t->cap, &t->all[i]);
    if (rc == 0 && t->nall)
        qsort(t->all, t->nall, sizeof *t->all, by_ppid);
    /* Breadth first: t->v is the queue. Each process has one parent, so only the root could be
     * reached twice, through a parent cycle: the kernel has none, but a fake /proc might. */
    for (size_t q = 0; rc == 0 && q < t->n; q++) {
        int64_t parent = t->v[q].pid;
        for (size_t i = first_child(t->all, t->nall, parent);
             rc == 0 && i < t->nall && t->all[i].ppid == parent; i++)
            if (t->all[i].pid != root_pid)
                rc = push(&t->v, &t->n, &t->cap, &t->all[i]);
    }
    if (rc == 0 && t->n)
        qsort(t->v, t->n, sizeof *t->v, by_pid);
    char buf[4096], path[32];
    for (size_t i = 0; rc == 0 && i < t->n; i++) {
        gs_proc_info *p = &t->v[i];
        snprintf(path, sizeof path, "%lld/status", (long long)p->pid);
        p->rss_bytes = read_small(dirfd(d), path, buf, sizeof buf) > 0 ? parse_rss(buf) : 0;
        t->cpu_ticks += p->cpu_ticks;
        t->rss_bytes += p->rss_bytes;
    }
    closedir(d);
    return rc == 0 ? 0 : gs_fail_oom(err);
}

uint64_t gs_proc_ticks_between(const gs_proc_tree *prev, const gs_proc_tree *cur)
{
    uint64_t ticks = 0;
    size_t j = 0;
    for (size_t i = 0; i < cur->n; i++) {
        const gs_proc_info *c = &cur->v[i];
        while (j < prev->n && prev->v[j].pid < c->pid)
            j++;
        const gs_proc_info *p = j < prev->n && prev->v[j].pid == c->pid ? &prev->v[j] : NULL;
        if (!p || p->start_ticks != c->start_ticks)
            ticks += c->cpu_ticks; /* born since prev (or a new process on a reused pid) */
        else if (c->cpu_ticks > p->cpu_ticks)
            ticks += c->cpu_ticks - p->cpu_ticks;
    }
    return ticks;
}

double gs_proc_cpu_pct(const gs_proc_tree *prev, const gs_proc_tree *cur, int64_t dt_ns,
                       long ticks_per_s)
{
    if (dt_ns <= 0 || ticks_per_s <= 0)
        return 0;
    double busy_s = (double)gs_proc_ticks_between(prev, cur) / (double)ticks_per_s;
    return 100.0 * busy_s / ((double)dt_ns / 1e9);
}

long gs_proc_ticks_per_second(void)
{
    long hz = sysconf(_SC_CLK_TCK);
    return hz > 0 ? hz : 100; /* USER_HZ is 100 on every Linux ABI */
}

void gs_proc_tree_free(gs_proc_tree *t)
{
    free(t->v);
    free(t->all);
    *t = (gs_proc_tree){0};
}

/* ---- the host: /proc/stat, /proc/meminfo, /proc/<pid>/comm ---------------------------------- */

/* A small file of the /proc root whole into buf (NUL-terminated); its length, or -1. */
static ssize_t read_host_file(const char *root, const char *name, char *buf, size_t cap)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, name);
    return read_small(AT_FDCWD, path, buf, cap);
}

/* The aggregate "cpu " line: user nice system idle iowait irq softirq steal (guest time is
 * already inside user and nice). Busy is everything but idle and iowait. */
static bool read_cpu(const char *root, uint64_t *busy, uint64_t *total)
{
    char buf[1024];
    if (read_host_file(root, "stat", buf, sizeof buf) < 0 || strncmp(buf, "cpu ", 4) != 0)
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

/* The value in kB of "key:" in /proc/meminfo, as bytes; one past GS_NVML_MAX_VALUE bytes is no
 * machine's, and would not fit the monitor's log. */
static bool meminfo_field(const char *text, const char *key, uint64_t *bytes)
{
    const char *p = strstr(text, key);
    uint64_t kb;
    if (!p || (p != text && p[-1] != '\n') || sscanf(p + strlen(key), " %" SCNu64, &kb) != 1 ||
        (double)kb * 1024 > GS_NVML_MAX_VALUE)
        return false;
    *bytes = kb * 1024;
    return true;
}

void gs_host_read(gs_host_probe *h, gs_host_usage *out)
{
    memset(out, 0, sizeof *out);
    uint64_t busy, total;
    if (read_cpu(h->proc_root, &busy, &total)) {
        /* Counters only grow, and busy time within the total; else this is a different /proc
         * (or a wrapped sum), not a CPU use. */
        if (h->have_prev && total > h->prev_total && busy >= h->prev_busy &&
            busy - h->prev_busy <= total - h->prev_total) {
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
    if (read_host_file(h->proc_root, "meminfo", buf, sizeof buf) >= 0 &&
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
    if (read_host_file(proc_root, name, buf, cap) < 0) {
        buf[0] = '\0';
        return;
    }
    buf[strcspn(buf, "\n")] = '\0';
}
