/* A fake NVML for the probe and sampler tests: GPUs whose every answer (value and return code)
 * the test sets, and call counters. Handles are pointers to the fake GPUs. */
#ifndef GS_TEST_FAKE_NVML_H
#define GS_TEST_FAKE_NVML_H

#include <string.h>

#include "probe/nvml.h"

#define FAKE_MAX_GPUS 4
#define FAKE_MAX_PROCS 256

typedef struct fake_gpu {
    nvmlReturn_t handle_rc, util_rc, mem_rc, power_rc, temp_rc, sm_rc, memclk_rc, throttle_rc,
        pcie_rc, procs_rc, cc_rc;
    const char *name, *uuid, *bus_id;
    int cc_major, cc_minor;
    nvmlUtilization_t util;
    nvmlMemory_t mem;
    unsigned mw, temp_c, sm_mhz, mem_mhz, tx_kbps, rx_kbps;
    unsigned long long throttle;
    unsigned nprocs;
    unsigned procs_grow; /* processes that start after each INSUFFICIENT_SIZE answer */
    nvmlProcessInfo_t procs[FAKE_MAX_PROCS];
    int proc_calls, pcie_calls;
} fake_gpu;

static struct {
    nvmlReturn_t init_rc;
    unsigned ngpus;
    fake_gpu gpu[FAKE_MAX_GPUS];
    int inits, shutdowns;
} fake;

static fake_gpu *fake_of(nvmlDevice_t d)
{
    return (fake_gpu *)(void *)d;
}

static nvmlReturn_t fake_init(void)
{
    fake.inits++;
    return fake.init_rc;
}

static nvmlReturn_t fake_shutdown(void)
{
    fake.shutdowns++;
    return NVML_SUCCESS;
}

static const char *fake_error_string(nvmlReturn_t r)
{
    switch (r) {
    case NVML_ERROR_DRIVER_NOT_LOADED: return "Driver Not Loaded";
    case NVML_ERROR_GPU_IS_LOST: return "GPU is lost";
    default: return "Fake error";
    }
}

static nvmlReturn_t fake_count(unsigned *n)
{
    *n = fake.ngpus;
    return NVML_SUCCESS;
}

static nvmlReturn_t fake_handle(unsigned i, nvmlDevice_t *d)
{
    if (i >= fake.ngpus)
        return NVML_ERROR_INVALID_ARGUMENT;
    *d = (nvmlDevice_t)(void *)&fake.gpu[i];
    return fake.gpu[i].handle_rc;
}

static nvmlReturn_t fake_copy(const char *s, char *out, unsigned len)
{
    if (!s)
        return NVML_ERROR_NOT_SUPPORTED;
    if (strlen(s) + 1 > len)
        return NVML_ERROR_INSUFFICIENT_SIZE;
    memcpy(out, s, strlen(s) + 1);
    return NVML_SUCCESS;
}

static nvmlReturn_t fake_name(nvmlDevice_t d, char *out, unsigned len)
{
    return fake_copy(fake_of(d)->name, out, len);
}

static nvmlReturn_t fake_uuid(nvmlDevice_t d, char *out, unsigned len)
{
    return fake_copy(fake_of(d)->uuid, out, len);
}

static nvmlReturn_t fake_pci(nvmlDevice_t d, nvmlPciInfo_t *p)
{
    return fake_copy(fake_of(d)->bus_id, p->busId, sizeof p->busId);
}

static nvmlReturn_t fake_cc(nvmlDevice_t d, int *major, int *minor)
{
    *major = fake_of(d)->cc_major;
    *minor = fake_of(d)->cc_minor;
    return fake_of(d)->cc_rc;
}

static nvmlReturn_t fake_util(nvmlDevice_t d, nvmlUtilization_t *u)
{
    *u = fake_of(d)->util;
    return fake_of(d)->util_rc;
}

static nvmlReturn_t fake_mem(nvmlDevice_t d, nvmlMemory_t *m)
{
    *m = fake_of(d)->mem;
    return fake_of(d)->mem_rc;
}

static nvmlReturn_t fake_power(nvmlDevice_t d, unsigned *mw)
{
    *mw = fake_of(d)->mw;
    return fake_of(d)->power_rc;
}

static nvmlReturn_t fake_temp(nvmlDevice_t d, int sensor, unsigned *c)
{
    *c = fake_of(d)->temp_c;
    return sensor == NVML_TEMPERATURE_GPU ? fake_of(d)->temp_rc : NVML_ERROR_INVALID_ARGUMENT;
}

static nvmlReturn_t fake_clock(nvmlDevice_t d, int type, unsigned *mhz)
{
    fake_gpu *g = fake_of(d);
    if (type == NVML_CLOCK_SM) {
        *mhz = g->sm_mhz;
        return g->sm_rc;
    }
    if (type == NVML_CLOCK_MEM) {
        *mhz = g->mem_mhz;
        return g->memclk_rc;
    }
    return NVML_ERROR_INVALID_ARGUMENT;
}

static nvmlReturn_t fake_throttle(nvmlDevice_t d, unsigned long long *mask)
{
    *mask = fake_of(d)->throttle;
    return fake_of(d)->throttle_rc;
}

static nvmlReturn_t fake_pcie(nvmlDevice_t d, int counter, unsigned *kbps)
{
    fake_gpu *g = fake_of(d);
    g->pcie_calls++;
    *kbps = counter == NVML_PCIE_UTIL_TX_BYTES ? g->tx_kbps : g->rx_kbps;
    return g->pcie_rc;
}

/* NVML's contract: too small a buffer (or none) gives INSUFFICIENT_SIZE and the count needed. */
static nvmlReturn_t fake_procs(nvmlDevice_t d, unsigned *count, nvmlProcessInfo_t *infos)
{
    fake_gpu *g = fake_of(d);
    g->proc_calls++;
    if (g->procs_rc != NVML_SUCCESS)
        return g->procs_rc;
    if (!infos || *count < g->nprocs) {
        *count = g->nprocs;
        for (unsigned k = 0; k < g->procs_grow && g->nprocs < FAKE_MAX_PROCS; k++, g->nprocs++)
            g->procs[g->nprocs] = (nvmlProcessInfo_t){9000 + g->nprocs, 4096, ~0u, ~0u};
        return NVML_ERROR_INSUFFICIENT_SIZE;
    }
    memcpy(infos, g->procs, g->nprocs * sizeof *infos);
    *count = g->nprocs;
    return NVML_SUCCESS;
}

/* Resets the fake to `n` GPUs answering NVML_SUCCESS with zero values, and fills `api`. */
static void fake_reset(unsigned n, gs_nvml_api *api)
{
    memset(&fake, 0, sizeof fake);
    fake.ngpus = n;
    *api = (gs_nvml_api){fake_init,  fake_shutdown, fake_error_string, fake_count,  fake_handle,
                         fake_name,  fake_uuid,     fake_pci,          fake_cc,     fake_util,
                         fake_mem,   fake_power,    fake_temp,         fake_clock,  fake_throttle,
                         fake_pcie,  fake_procs};
}

#endif
