/* A fake /proc in a temp directory for the probe and sampler tests: /proc/<pid>/stat lines as
 * proc(5) lays them out, and /proc/<pid>/status with VmRSS. */
#ifndef GS_TEST_FAKE_PROC_H
#define GS_TEST_FAKE_PROC_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char fake_proc_root[64];

static void fake_proc_init(void)
{
    snprintf(fake_proc_root, sizeof fake_proc_root, "/tmp/gs_fake_proc_XXXXXX");
    if (!mkdtemp(fake_proc_root))
        abort();
}

static void fake_proc_write(const char *pid, const char *file, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", fake_proc_root, pid);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/%s/%s", fake_proc_root, pid, file);
    FILE *f = fopen(path, "w");
    if (!f)
        abort();
    fputs(text, f);
    fclose(f);
}

/* A process: the stat line carries distinct cutime/cstime (children's time, not counted) and
 * other numbers around the fields read, so a parser off by one field reads a wrong value.
 * rss_kb < 0 writes a status without VmRSS, as for a kernel thread. */
static void fake_proc_set(int pid, const char *comm, int ppid, unsigned long long utime,
                          unsigned long long stime, unsigned long long start, long rss_kb)
{
    char name[24], text[1024];
    snprintf(name, sizeof name, "%d", pid);
    snprintf(text, sizeof text,
             "%d (%s) S %d %d %d 0 -1 4194560 1234 5678 9 10 %llu %llu 777 888 20 0 3 0 %llu "
             "123456789 4321 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 5 0 0 0 0 0\n",
             pid, comm, ppid, pid, pid, utime, stime, start);
    fake_proc_write(name, "stat", text);
    if (rss_kb < 0)
        snprintf(text, sizeof text, "Name:\t%s\nState:\tS (sleeping)\nPid:\t%d\nPPid:\t%d\n", comm,
                 pid, ppid);
    else
        snprintf(text, sizeof text,
                 "Name:\t%s\nUmask:\t0022\nState:\tS (sleeping)\nPid:\t%d\nPPid:\t%d\n"
                 "VmPeak:\t  999999 kB\nVmHWM:\t   88888 kB\nVmRSS:\t%8ld kB\nRssAnon:\t   1 kB\n",
                 comm, pid, ppid, rss_kb);
    fake_proc_write(name, "status", text);
}

static void fake_proc_remove(int pid)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%d/stat", fake_proc_root, pid);
    unlink(path);
    snprintf(path, sizeof path, "%s/%d/status", fake_proc_root, pid);
    unlink(path);
    snprintf(path, sizeof path, "%s/%d", fake_proc_root, pid);
    rmdir(path);
}

static void fake_proc_cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fake_proc_root);
    if (system(cmd) != 0)
        abort();
}

#endif
