/* A stand-in for libnvidia-ml.so.1, built by the tests (tests/tests.cmake: fake-nvml/) and put
 * first on LD_LIBRARY_PATH, so that `gpuscope run` and `gpuscope monitor` load it as they load
 * the driver's. It has GPUs that answer every entry point src/probe/nvml.c reads, and is told by
 * the environment how to misbehave:
 *
 *   GS_FAKE_NVML_HANG_AFTER=N   every call after the first N blocks forever, as calls into a
 *                               driver whose GPU fell off the bus do (0: nvmlInit_v2 already)
 *   GS_FAKE_NVML_GPUS=N         GPUs (default 1, at most 8)
 *   GS_FAKE_NVML_PROCS=N        compute processes on each GPU (default 2)
 *   GS_FAKE_NVML_EXTREME=1      every number at the top of its type (memory 2^64-1 bytes,
 *                               2^32-1 mW, MHz, KB/s; every throttle bit), as a broken driver or
 *                               a bit flip can give */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe/nvml_api.h"

#define MAX_GPUS 8
#define EXPORT __attribute__((visibility("default")))

static unsigned long calls;

static long env_number(const char *name, long fallback)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 10) : fallback;
}

static int extreme(void)
{
    return env_number("GS_FAKE_NVML_EXTREME", 0) != 0;
}

/* Counts the call; blocks for good once the budget of GS_FAKE_NVML_HANG_AFTER calls is spent. */
static void enter(void)
{
    long budget = env_number("GS_FAKE_NVML_HANG_AFTER", -1);
    unsigned long n = __atomic_fetch_add(&calls, 1, __ATOMIC_SEQ_CST);
    if (budget >= 0 && n >= (unsigned long)budget)
        for (;;)
            pause(); /* a signal's handler runs, then the call goes on waiting */
}

static unsigned gpu_of(nvmlDevice_t d)
{
    return (unsigned)((uintptr_t)d - 1);
}

EXPORT nvmlReturn_t nvmlInit_v2(void)
{
    enter();
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlShutdown(void)
{
    enter();
    return NVML_SUCCESS;
}

EXPORT const char *nvmlErrorString(nvmlReturn_t r)
{
    return r == NVML_SUCCESS ? "Success" : "Fake NVML error";
}

EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *count)
{
    enter();
    long n = env_number("GS_FAKE_NVML_GPUS", 1);
    *count = (unsigned)(n < 0 ? 0 : n > MAX_GPUS ? MAX_GPUS : n);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *dev)
{
    enter();
    *dev = (nvmlDevice_t)(uintptr_t)(index + 1);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t d, char *name, unsigned int len)
{
    enter();
    snprintf(name, len, "Fake GPU %u", gpu_of(d));
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t d, char *uuid, unsigned int len)
{
    enter();
    snprintf(uuid, len, "GPU-00000000-0000-0000-0000-%012u", gpu_of(d));
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t d, nvmlPciInfo_t *pci)
{
    enter();
    memset(pci, 0, sizeof *pci);
    snprintf(pci->busId, sizeof pci->busId, "00000000:%02X:00.0", gpu_of(d) + 0x10);
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t d, int *major, int *minor)
{
    enter();
    (void)d;
    *major = 9;
    *minor = 0;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t d, nvmlUtilization_t *u)
{
    enter();
    (void)d;
    u->gpu = extreme() ? ~0u : 50;
    u->memory = extreme() ? ~0u : 20;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t d, nvmlMemory_t *m)
{
    enter();
    (void)d;
    m->total = extreme() ? ~0ull : 80ull << 30;
    m->used = extreme() ? ~0ull : 10ull << 30;
    m->free = m->total - m->used;
    return NVML_SUCCESS;
}

/* Power, temperature, clocks and PCIe: one unsigned each. */
static nvmlReturn_t put_uint(unsigned *v, unsigned normal)
{
    enter();
    *v = extreme() ? ~0u : normal;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t d, unsigned int *mw)
{
    (void)d;
    return put_uint(mw, 300000);
}

EXPORT nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t d, int sensor, unsigned int *c)
{
    (void)d;
    (void)sensor;
    return put_uint(c, 60);
}

EXPORT nvmlReturn_t nvmlDeviceGetClockInfo(nvmlDevice_t d, int type, unsigned int *mhz)
{
    (void)d;
    return put_uint(mhz, type == NVML_CLOCK_SM ? 1980 : 2619);
}

EXPORT nvmlReturn_t nvmlDeviceGetPcieThroughput(nvmlDevice_t d, int counter, unsigned int *kbps)
{
    (void)d;
    return put_uint(kbps, counter == NVML_PCIE_UTIL_TX_BYTES ? 1000 : 2000);
}

EXPORT nvmlReturn_t nvmlDeviceGetCurrentClocksThrottleReasons(nvmlDevice_t d,
                                                              unsigned long long *mask)
{
    enter();
    (void)d;
    *mask = extreme() ? ~0ull : 0;
    return NVML_SUCCESS;
}

EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t d, unsigned int *count,
                                                            nvmlProcessInfo_t *infos)
{
    enter();
    long n = env_number("GS_FAKE_NVML_PROCS", 2);
    unsigned want = (unsigned)(n < 0 ? 0 : n);
    if (!infos || *count < want) {
        *count = want;
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    for (unsigned i = 0; i < want; i++)
        infos[i] = (nvmlProcessInfo_t){
            .pid = extreme() ? ~0u - i : 1000000 + 1000 * gpu_of(d) + i,
            .usedGpuMemory = extreme() ? ~0ull - 1 - i : (uint64_t)(i + 1) << 28,
            .gpuInstanceId = ~0u,
            .computeInstanceId = ~0u};
    *count = want;
    return NVML_SUCCESS;
}
