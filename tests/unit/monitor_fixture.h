/* The monitor's fixture: two fake GPUs and a fake /proc, sampled three times by the real live
 * source. test_monitor_log.c writes the samples with the real log writer and checks them against
 * tests/data/monitor/two_gpus.jsonl, the log every --replay test reads. */
#ifndef GS_TEST_MONITOR_FIXTURE_H
#define GS_TEST_MONITOR_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "fake_nvml.h"
#include "monitor/live.h"

/* A fake /proc in a temp directory: the host files and /proc/<pid>/comm. */
static char fake_proc_root[64];

static void fake_proc_init(void)
{
    snprintf(fake_proc_root, sizeof fake_proc_root, "/tmp/gs_monproc_XXXXXX");
    if (!mkdtemp(fake_proc_root))
        abort();
}

static void fake_proc_write(const char *dir, const char *file, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", fake_proc_root, dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/%s/%s", fake_proc_root, dir, file);
    FILE *f = fopen(path, "w");
    if (!f)
        abort();
    fputs(text, f);
    fclose(f);
}

static void fake_proc_cleanup(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", fake_proc_root);
    if (system(cmd) != 0)
        abort();
}

#define FIXTURE_T0_MS 1717000000000LL
#define FIXTURE_SAMPLES 3
/* Sample times: the second comes 0.5 s after the first, so it shows the PCIe reading carried
 * over (read at most once a second); the third reads PCIe again. */
static const int64_t fixture_ts_ms[FIXTURE_SAMPLES] = {FIXTURE_T0_MS, FIXTURE_T0_MS + 500,
                                                       FIXTURE_T0_MS + 1500};

static void fixture_host(int k)
{
    char text[512];
    /* Busy and idle jiffies grow by different amounts each sample: CPU % 25 then 62.5. */
    static const unsigned long long busy[] = {1000, 1100, 1600}, idle[] = {9000, 9300, 9600};
    snprintf(text, sizeof text, "cpu  %llu 0 0 %llu 0 0 0 0 0 0\ncpu0 1 0 0 1 0 0 0 0 0 0\n",
             busy[k], idle[k]);
    fake_proc_write(".", "stat", text);
    snprintf(text, sizeof text, "MemTotal:       %llu kB\nMemFree:         1000 kB\n"
             "MemAvailable:   %llu kB\n", 65536000ULL, 40000000ULL - 1000000ULL * (unsigned)k);
    fake_proc_write(".", "meminfo", text);
}

static void fixture_proc(const char *pid, const char *comm)
{
    fake_proc_write(pid, "comm", comm);
}

static void fixture_gpus(gs_nvml_api *api)
{
    fake_reset(2, api);
    fake_gpu *a = &fake.gpu[0], *b = &fake.gpu[1];
    a->name = "NVIDIA H100 80GB HBM3";
    a->uuid = "GPU-6f1a2b3c-0000-4d5e-8f90-aabbccddeeff";
    a->bus_id = "00000000:3B:00.0";
    a->mem = (nvmlMemory_t){85520809984ULL, 0, 0};
    b->name = "NVIDIA A100-SXM4-40GB";
    b->uuid = "GPU-0badc0de-1111-2222-3333-444455556666";
    b->bus_id = "00000000:86:00.0";
    b->mem = (nvmlMemory_t){42949672960ULL, 0, 0};
    b->power_rc = NVML_ERROR_NOT_SUPPORTED; /* e.g. a board without a power sensor */
    a->nprocs = 2;
    a->procs[0] = (nvmlProcessInfo_t){4242, 40ULL << 30, ~0u, ~0u};
    a->procs[1] = (nvmlProcessInfo_t){4300, 2ULL << 30, ~0u, ~0u};
    b->nprocs = 3;
    b->procs[0] = (nvmlProcessInfo_t){4242, 10ULL << 30, ~0u, ~0u};
    b->procs[1] = (nvmlProcessInfo_t){5150, NVML_VALUE_NOT_AVAILABLE, ~0u, ~0u};
    b->procs[2] = (nvmlProcessInfo_t){7777, 512ULL << 20, ~0u, ~0u}; /* not in our /proc */
    fixture_proc("4242", "python\n");
    fixture_proc("4300", "my\"job\\1\n"); /* a quote and a backslash: escaping everywhere */
    fixture_proc("5150", "tritonserver\n");
}

/* The fake's answers for sample k. */
static void fixture_step(int k)
{
    fake_gpu *a = &fake.gpu[0], *b = &fake.gpu[1];
    static const unsigned util_a[] = {87, 91, 12}, util_b[] = {0, 45, 99};
    a->util = (nvmlUtilization_t){util_a[k], 40 + (unsigned)k};
    b->util = (nvmlUtilization_t){util_b[k], 3 * (unsigned)k};
    a->mem.used = (45ULL << 30) + ((unsigned long long)k << 28);
    a->mem.free = a->mem.total - a->mem.used;
    b->mem.used = (10ULL << 30) + (600ULL << 20);
    b->mem.free = b->mem.total - b->mem.used;
    a->mw = 512345 - 1000 * (unsigned)k;
    a->temp_c = 67 + (unsigned)k;
    b->temp_c = 41;
    a->sm_mhz = 1980;
    a->mem_mhz = 2619;
    b->sm_mhz = k == 0 ? 210 : 1410;
    b->mem_mhz = 1215;
    b->memclk_rc = k == 2 ? NVML_ERROR_UNKNOWN : NVML_SUCCESS; /* one failed read */
    a->throttle = k == 0 ? 0x4 : 0;
    b->throttle = k == 0 ? 0x1 : 0x44;
    a->tx_kbps = 1000 * (unsigned)(k + 1);
    a->rx_kbps = 250000 * (unsigned)(k + 1);
    b->tx_kbps = 7;
    b->rx_kbps = 0;
    fixture_host(k);
}

#endif
