/* The NVML probe: loading libnvidia-ml.so.1, enumerating devices, sampling metrics. */
#include "probe/nvml.h"
#include "common/util.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* Bounds the device table; the largest NVLink systems have 16 GPUs per node. */
#define GS_NVML_MAX_DEVICES 64
/* The process list may grow between the size query and the read: retry a few times. */
#define PROC_ATTEMPTS 4
#define PROC_SLACK 8

struct gs_nvml {
    gs_nvml_api api;
    void *lib; /* NULL for a caller's table */
    unsigned ndev;
    gs_nvml_device dev[GS_NVML_MAX_DEVICES];
};

static const char *const metric_names[GS_NVML_NMETRICS] = {
    [GS_NVML_UTIL_GPU] = "gpu_util_pct",
    [GS_NVML_UTIL_MEM] = "gpu_mem_util_pct",
    [GS_NVML_MEM_USED] = "gpu_mem_used_bytes",
    [GS_NVML_MEM_TOTAL] = "gpu_mem_total_bytes",
    [GS_NVML_POWER_W] = "gpu_power_w",
    [GS_NVML_TEMP_C] = "gpu_temp_c",
    [GS_NVML_SM_CLOCK_MHZ] = "gpu_sm_clock_mhz",
    [GS_NVML_MEM_CLOCK_MHZ] = "gpu_mem_clock_mhz",
    [GS_NVML_THROTTLE] = "gpu_throttle_reasons",
    [GS_NVML_PCIE_TX] = "gpu_pcie_tx_bytes_per_s",
    [GS_NVML_PCIE_RX] = "gpu_pcie_rx_bytes_per_s",
};

const char *gs_nvml_metric_name(enum gs_nvml_metric m)
{
    return (unsigned)m < GS_NVML_NMETRICS ? metric_names[m] : NULL;
}

/* dlsym returns a void *; POSIX guarantees it converts to a function pointer of the same size. */
_Static_assert(sizeof(void *) == sizeof(nvmlInit_fn), "function pointers are data-pointer sized");

static const struct {
    const char *symbol;
    size_t offset;
    int required;
} symbols[] = {
    {"nvmlInit_v2", offsetof(gs_nvml_api, init), 1},
    {"nvmlShutdown", offsetof(gs_nvml_api, shutdown), 1},
    {"nvmlErrorString", offsetof(gs_nvml_api, error_string), 1},
    {"nvmlDeviceGetCount_v2", offsetof(gs_nvml_api, get_count), 1},
    {"nvmlDeviceGetHandleByIndex_v2", offsetof(gs_nvml_api, get_handle), 1},
    {"nvmlDeviceGetName", offsetof(gs_nvml_api, get_name), 0},
    {"nvmlDeviceGetUUID", offsetof(gs_nvml_api, get_uuid), 0},
    {"nvmlDeviceGetPciInfo_v3", offsetof(gs_nvml_api, get_pci), 0},
    {"nvmlDeviceGetCudaComputeCapability", offsetof(gs_nvml_api, get_cc), 0},
    {"nvmlDeviceGetUtilizationRates", offsetof(gs_nvml_api, get_util), 0},
    {"nvmlDeviceGetMemoryInfo", offsetof(gs_nvml_api, get_mem), 0},
    {"nvmlDeviceGetPowerUsage", offsetof(gs_nvml_api, get_power), 0},
    {"nvmlDeviceGetTemperature", offsetof(gs_nvml_api, get_temp), 0},
    {"nvmlDeviceGetClockInfo", offsetof(gs_nvml_api, get_clock), 0},
    {"nvmlDeviceGetCurrentClocksThrottleReasons", offsetof(gs_nvml_api, get_throttle), 0},
    {"nvmlDeviceGetPcieThroughput", offsetof(gs_nvml_api, get_pcie), 0},
    {"nvmlDeviceGetComputeRunningProcesses_v3", offsetof(gs_nvml_api, get_procs), 0},
};

const char *gs_nvml_strerror(const gs_nvml *n, nvmlReturn_t r)
{
    const char *s = n && n->api.error_string ? n->api.error_string(r) : NULL;
    return s ? s : "unknown NVML error";
}

/* Copies a NUL-terminated string NVML wrote into a fixed buffer, whatever NVML did. */
static void keep_string(char *dst, size_t cap, nvmlReturn_t r, const char *src)
{
    dst[0] = '\0';
    if (r == NVML_SUCCESS) {
        size_t len = strnlen(src, cap - 1);
        memcpy(dst, src, len);
        dst[len] = '\0';
    }
}

static void describe_device(const gs_nvml_api *a, gs_nvml_device *d)
{
    char buf[NVML_DEVICE_UUID_BUFFER_SIZE];
    _Static_assert(sizeof buf >= NVML_DEVICE_NAME_BUFFER_SIZE, "name buffer");
    if (a->get_name)
        keep_string(d->name, sizeof d->name, a->get_name(d->handle, buf, sizeof buf), buf);
    if (a->get_uuid)
        keep_string(d->uuid, sizeof d->uuid, a->get_uuid(d->handle, buf, sizeof buf), buf);
    nvmlPciInfo_t pci;
    if (a->get_pci) {
        memset(&pci, 0, sizeof pci);
        nvmlReturn_t r = a->get_pci(d->handle, &pci);
        keep_string(d->pci_bus_id, sizeof d->pci_bus_id, r, pci.busId);
    }
    nvmlMemory_t m;
    if (a->get_mem && a->get_mem(d->handle, &m) == NVML_SUCCESS)
        d->total_memory = m.total;
    int major, minor;
    if (a->get_cc && a->get_cc(d->handle, &major, &minor) == NVML_SUCCESS) {
        d->cc_major = major;
        d->cc_minor = minor;
    }
}

/* Initialises NVML through n->api and fills the device table. */
static int start(gs_nvml *n, gs_error *err)
{
    const gs_nvml_api *a = &n->api;
    if (!a->init || !a->shutdown || !a->error_string || !a->get_count || !a->get_handle)
        return gs_fail(err, GS_EXIT_ENV, "NVML not available: incomplete function table");
    nvmlReturn_t r = a->init();
    if (r != NVML_SUCCESS)
        return gs_fail(err, GS_EXIT_ENV, "NVML not available: nvmlInit_v2 failed: %s%s",
                       gs_nvml_strerror(n, r),
                       r == NVML_ERROR_DRIVER_NOT_LOADED ? " (is the NVIDIA driver loaded?)" : "");
    unsigned count = 0;
    r = a->get_count(&count);
    if (r != NVML_SUCCESS) {
        a->shutdown();
        return gs_fail(err, GS_EXIT_ENV, "NVML: cannot count the GPUs: %s",
                       gs_nvml_strerror(n, r));
    }
    for (unsigned i = 0; i < count && n->ndev < GS_NVML_MAX_DEVICES; i++) {
        gs_nvml_device *d = &n->dev[n->ndev];
        memset(d, 0, sizeof *d);
        d->index = i;
        d->cc_major = d->cc_minor = -1;
        /* A GPU outside this container's cgroup answers NO_PERMISSION: not ours to sample. */
        if (a->get_handle(i, &d->handle) != NVML_SUCCESS)
            continue;
        describe_device(a, d);
        n->ndev++;
    }
    return 0;
}

int gs_nvml_open_api(const gs_nvml_api *api, gs_nvml **out, gs_error *err)
{
    *out = NULL;
    gs_nvml *n = calloc(1, sizeof *n);
    if (!n)
        return gs_fail_oom(err);
    n->api = *api;
    if (start(n, err) != 0) {
        free(n);
        return -1;
    }
    *out = n;
    return 0;
}

int gs_nvml_open(const char *library, gs_nvml **out, gs_error *err)
{
    *out = NULL;
    if (!library)
        library = GS_NVML_LIBRARY;
    void *lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *why = dlerror();
        if (!why || strstr(why, "No such file"))
            return gs_fail(err, GS_EXIT_ENV, "NVML not available: %s not found (no NVIDIA driver)",
                           library);
        return gs_fail(err, GS_EXIT_ENV, "NVML not available: cannot load %s: %s", library, why);
    }
    gs_nvml_api api;
    memset(&api, 0, sizeof api);
    for (size_t i = 0; i < COUNT_OF(symbols); i++) {
        void *sym = dlsym(lib, symbols[i].symbol);
        if (!sym && symbols[i].required) {
            dlclose(lib);
            return gs_fail(err, GS_EXIT_ENV, "NVML not available: %s has no %s (driver too old)",
                           library, symbols[i].symbol);
        }
        memcpy((char *)&api + symbols[i].offset, &sym, sizeof sym);
    }
    if (gs_nvml_open_api(&api, out, err) != 0) {
        dlclose(lib);
        return -1;
    }
    (*out)->lib = lib;
    return 0;
}

void gs_nvml_close(gs_nvml *n)
{
    if (!n)
        return;
    n->api.shutdown();
    if (n->lib)
        dlclose(n->lib);
    free(n);
}

unsigned gs_nvml_device_count(const gs_nvml *n)
{
    return n ? n->ndev : 0;
}

const gs_nvml_device *gs_nvml_device_at(const gs_nvml *n, unsigned i)
{
    return n && i < n->ndev ? &n->dev[i] : NULL;
}

/* Records one metric's outcome. */
static void put(gs_nvml_sample *s, enum gs_nvml_metric m, nvmlReturn_t r, double v)
{
    if (r == NVML_SUCCESS && !(v <= GS_NVML_MAX_VALUE))
        r = NVML_ERROR_UNKNOWN;
    if (r == NVML_SUCCESS) {
        s->avail[m] = GS_NVML_OK;
        s->value[m] = v;
        return;
    }
    s->avail[m] = r == NVML_ERROR_NOT_SUPPORTED || r == NVML_ERROR_FUNCTION_NOT_FOUND
                      ? GS_NVML_UNSUPPORTED
                      : GS_NVML_FAILED;
    if (s->avail[m] == GS_NVML_FAILED && s->error == NVML_SUCCESS)
        s->error = r;
}

/* A metric read by a call that takes (device, arg, unsigned *): clocks, temperature, PCIe. */
typedef nvmlReturn_t (*uint_arg_fn)(nvmlDevice_t d, int arg, unsigned int *v);

static void put_uint(gs_nvml_sample *s, enum gs_nvml_metric m, uint_arg_fn fn, nvmlDevice_t h,
                     int arg, double scale)
{
    unsigned v = 0;
    nvmlReturn_t r = fn ? fn(h, arg, &v) : NVML_ERROR_FUNCTION_NOT_FOUND;
    put(s, m, r, (double)v * scale);
}

/* Ensures room for `cap` processes in both the driver's and our own array. */
static int reserve_procs(gs_nvml_sample *s, nvmlProcessInfo_t **raw, size_t cap)
{
    if (cap <= s->procs_cap && *raw)
        return 0;
    if (cap < s->procs_cap)
        cap = s->procs_cap;
    gs_nvml_proc *p = realloc(s->procs, cap * sizeof *p);
    if (!p)
        return -1;
    s->procs = p;
    nvmlProcessInfo_t *q = realloc(*raw, cap * sizeof *q);
    if (!q)
        return -1;
    *raw = q;
    s->procs_cap = cap;
    return 0;
}

static int sample_procs(const gs_nvml_api *a, nvmlDevice_t h, gs_nvml_sample *s)
{
    s->nprocs = 0;
    if (!a->get_procs) {
        s->procs_avail = GS_NVML_UNSUPPORTED;
        return 0;
    }
    /* The driver's array is scratch: it lives only for this call. */
    nvmlProcessInfo_t *raw = NULL;
    size_t want = s->procs_cap > PROC_SLACK ? s->procs_cap : PROC_SLACK;
    nvmlReturn_t r = NVML_ERROR_INSUFFICIENT_SIZE;
    unsigned got = 0;
    for (int attempt = 0; attempt < PROC_ATTEMPTS && r == NVML_ERROR_INSUFFICIENT_SIZE; attempt++) {
        if (reserve_procs(s, &raw, want) != 0) {
            free(raw);
            return -1;
        }
        got = (unsigned)s->procs_cap;
        r = a->get_procs(h, &got, raw);
        /* `got` is now the number needed; more may start before the next call. */
        if (r == NVML_ERROR_INSUFFICIENT_SIZE)
            want = (size_t)got + PROC_SLACK > want ? (size_t)got + PROC_SLACK : want + PROC_SLACK;
        if (r == NVML_ERROR_INSUFFICIENT_SIZE && got > GS_NVML_MAX_PROCS)
            break;
    }
    if (r == NVML_SUCCESS) {
        size_t n = got < s->procs_cap ? got : s->procs_cap;
        for (size_t i = 0; i < n; i++) {
            int known = raw[i].usedGpuMemory != NVML_VALUE_NOT_AVAILABLE &&
                        (double)raw[i].usedGpuMemory <= GS_NVML_MAX_VALUE;
            s->procs[i] = (gs_nvml_proc){raw[i].pid, known, known ? raw[i].usedGpuMemory : 0};
        }
        s->nprocs = n;
    }
    free(raw);
    s->procs_avail = r == NVML_SUCCESS                ? GS_NVML_OK
                     : r == NVML_ERROR_NOT_SUPPORTED ? GS_NVML_UNSUPPORTED
                                                     : GS_NVML_FAILED;
    if (s->procs_avail == GS_NVML_FAILED && s->error == NVML_SUCCESS)
        s->error = r;
    return 0;
}

int gs_nvml_sample_device(gs_nvml *n, unsigned i, unsigned flags, gs_nvml_sample *s,
                          gs_error *err)
{
    if (!n || i >= n->ndev)
        return gs_fail(err, GS_EXIT_USAGE, "NVML: no device %u", i);
    const gs_nvml_api *a = &n->api;
    nvmlDevice_t h = n->dev[i].handle;
    memset(s->value, 0, sizeof s->value);
    memset(s->avail, 0, sizeof s->avail);
    s->error = NVML_SUCCESS;
    s->procs_avail = GS_NVML_NOT_READ;
    s->nprocs = 0;

    nvmlUtilization_t u = {0, 0};
    nvmlReturn_t r = a->get_util ? a->get_util(h, &u) : NVML_ERROR_FUNCTION_NOT_FOUND;
    put(s, GS_NVML_UTIL_GPU, r, u.gpu);
    put(s, GS_NVML_UTIL_MEM, r, u.memory);

    nvmlMemory_t m = {0, 0, 0};
    r = a->get_mem ? a->get_mem(h, &m) : NVML_ERROR_FUNCTION_NOT_FOUND;
    put(s, GS_NVML_MEM_USED, r, (double)m.used);
    put(s, GS_NVML_MEM_TOTAL, r, (double)m.total);

    unsigned mw = 0;
    r = a->get_power ? a->get_power(h, &mw) : NVML_ERROR_FUNCTION_NOT_FOUND;
    put(s, GS_NVML_POWER_W, r, mw / 1000.0);

    put_uint(s, GS_NVML_TEMP_C, a->get_temp, h, NVML_TEMPERATURE_GPU, 1);
    put_uint(s, GS_NVML_SM_CLOCK_MHZ, a->get_clock, h, NVML_CLOCK_SM, 1);
    put_uint(s, GS_NVML_MEM_CLOCK_MHZ, a->get_clock, h, NVML_CLOCK_MEM, 1);

    unsigned long long mask = 0;
    r = a->get_throttle ? a->get_throttle(h, &mask) : NVML_ERROR_FUNCTION_NOT_FOUND;
    put(s, GS_NVML_THROTTLE, r, (double)mask);

    if (flags & GS_NVML_WITH_PCIE) {
        /* NVML documents "KB/s" without defining KB; 1024 bytes is assumed (unverified). */
        put_uint(s, GS_NVML_PCIE_TX, a->get_pcie, h, NVML_PCIE_UTIL_TX_BYTES, 1024);
        put_uint(s, GS_NVML_PCIE_RX, a->get_pcie, h, NVML_PCIE_UTIL_RX_BYTES, 1024);
    }
    if ((flags & GS_NVML_WITH_PROCS) && sample_procs(a, h, s) != 0)
        return gs_fail_oom(err);
    return 0;
}

void gs_nvml_sample_free(gs_nvml_sample *s)
{
    free(s->procs);
    s->procs = NULL;
    s->nprocs = s->procs_cap = 0;
}
