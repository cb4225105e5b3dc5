/* The NVML probe: GPU devices and their live metrics, for `gpuscope run` (the launcher's sampler)
 * and `gpuscope monitor`.
 *
 * NVML is reached through a table of function pointers: gs_nvml_open fills it from
 * libnvidia-ml.so.1 (dlopen, so gpuscope runs on machines without a driver), tests fill it with
 * fakes. A metric NVML does not support on a device (NOT_SUPPORTED, a missing entry point) is
 * normal and reads as absent; other failures are kept apart so a caller can tell them. */
#ifndef GS_PROBE_NVML_H
#define GS_PROBE_NVML_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "probe/nvml_api.h"

/* The entry points. Those from init to get_handle are required; any other may be NULL (an older
 * driver without it), and its metric is then unsupported. */
typedef struct gs_nvml_api {
    nvmlInit_fn init;
    nvmlShutdown_fn shutdown;
    nvmlErrorString_fn error_string;
    nvmlDeviceGetCount_fn get_count;
    nvmlDeviceGetHandleByIndex_fn get_handle;
    nvmlDeviceGetName_fn get_name;
    nvmlDeviceGetUUID_fn get_uuid;
    nvmlDeviceGetPciInfo_fn get_pci;
    nvmlDeviceGetCudaComputeCapability_fn get_cc;
    nvmlDeviceGetUtilizationRates_fn get_util;
    nvmlDeviceGetMemoryInfo_fn get_mem;
    nvmlDeviceGetPowerUsage_fn get_power;
    nvmlDeviceGetTemperature_fn get_temp;
    nvmlDeviceGetClockInfo_fn get_clock;
    nvmlDeviceGetCurrentClocksThrottleReasons_fn get_throttle;
    nvmlDeviceGetPcieThroughput_fn get_pcie;
    nvmlDeviceGetComputeRunningProcesses_fn get_procs;
} gs_nvml_api;

#define GS_NVML_LIBRARY "libnvidia-ml.so.1" /* the unversioned .so comes only with dev packages */

/* A GPU as NVML enumerates it: in PCI order, ignoring CUDA_VISIBLE_DEVICES, so match CUDA
 * devices to it by UUID. Strings are empty and numbers 0 (compute capability -1) when unknown. */
typedef struct gs_nvml_device {
    unsigned index;
    nvmlDevice_t handle;
    char name[NVML_DEVICE_NAME_BUFFER_SIZE];
    char uuid[NVML_DEVICE_UUID_BUFFER_SIZE]; /* "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */
    char pci_bus_id[NVML_PCI_BUS_ID_BUFFER_SIZE];
    uint64_t total_memory; /* bytes */
    int cc_major, cc_minor;
} gs_nvml_device;

typedef struct gs_nvml gs_nvml;

/* Loads `library` (NULL: GS_NVML_LIBRARY), initialises NVML and enumerates the devices. Without
 * the library, an entry point or a working driver it fails with GS_EXIT_ENV and a message that
 * says which, e.g. "NVML not available: libnvidia-ml.so.1 not found (no NVIDIA driver)". A
 * machine with a driver and no GPU opens with 0 devices. */
int gs_nvml_open(const char *library, gs_nvml **out, gs_error *err);

/* The same over a caller's table (copied), with no library: for tests. */
int gs_nvml_open_api(const gs_nvml_api *api, gs_nvml **out, gs_error *err);

/* Shuts NVML down and unloads it. NULL is fine. */
void gs_nvml_close(gs_nvml *n);

unsigned gs_nvml_device_count(const gs_nvml *n);
/* Device `i` (0 <= i < count), NULL otherwise. Devices NVML would not hand out (no permission,
 * lost) are left out, so `i` is not always the NVML index: read `index`. */
const gs_nvml_device *gs_nvml_device_at(const gs_nvml *n, unsigned i);

/* NVML's text for a return code (for messages). */
const char *gs_nvml_strerror(const gs_nvml *n, nvmlReturn_t r);

/* The metrics of one sample; the names are the counter names of the .gst trace. */
enum gs_nvml_metric {
    GS_NVML_UTIL_GPU,        /* gpu_util_pct: % of time a kernel ran, not SM occupancy */
    GS_NVML_UTIL_MEM,        /* gpu_mem_util_pct */
    GS_NVML_MEM_USED,        /* gpu_mem_used_bytes */
    GS_NVML_MEM_TOTAL,       /* gpu_mem_total_bytes */
    GS_NVML_POWER_W,         /* gpu_power_w */
    GS_NVML_TEMP_C,          /* gpu_temp_c */
    GS_NVML_SM_CLOCK_MHZ,    /* gpu_sm_clock_mhz */
    GS_NVML_MEM_CLOCK_MHZ,   /* gpu_mem_clock_mhz */
    GS_NVML_THROTTLE,        /* gpu_throttle_reasons: NVML's clocks-throttle reason bit mask */
    GS_NVML_PCIE_TX,         /* gpu_pcie_tx_bytes_per_s */
    GS_NVML_PCIE_RX,         /* gpu_pcie_rx_bytes_per_s */
    GS_NVML_NMETRICS
};

/* The counter name of a metric. */
const char *gs_nvml_metric_name(enum gs_nvml_metric m);

/* Past this no metric is real (bytes, W, MHz, %, a bit mask): a value above it is a broken
 * driver's, or NVML's all-ones "not available" (~0ULL), and reads as GS_NVML_FAILED. So every value
 * kept fits a 64-bit integer, and the monitor's log, which refuses more, reads it back. */
#define GS_NVML_MAX_VALUE 9e18

/* More compute processes than this on one GPU is a broken driver's answer (each holds a context
 * of hundreds of MB): the list reads as GS_NVML_FAILED rather than growing without bound. It
 * also bounds the monitor's log lines (replay.h). */
#define GS_NVML_MAX_PROCS 65536

enum gs_nvml_avail {
    GS_NVML_NOT_READ = 0, /* not asked for in this sample (PCIe without GS_NVML_WITH_PCIE) */
    GS_NVML_OK,
    GS_NVML_UNSUPPORTED,  /* NOT_SUPPORTED, or no entry point: normal, the value is absent */
    GS_NVML_FAILED,       /* any other error: absent too, with the code in `error` */
};

typedef struct gs_nvml_proc {
    uint32_t pid;
    int known;            /* 0 when NVML could not tell the memory (usedGpuMemory == ~0ULL, or
                             above GS_NVML_MAX_VALUE) */
    uint64_t used_bytes;
} gs_nvml_proc;

/* One sample of one device. Reuse it across calls (the process list keeps its memory) and free
 * it with gs_nvml_sample_free. */
typedef struct gs_nvml_sample {
    double value[GS_NVML_NMETRICS];
    uint8_t avail[GS_NVML_NMETRICS]; /* enum gs_nvml_avail */
    uint8_t procs_avail;             /* enum gs_nvml_avail of `procs` */
    gs_nvml_proc *procs;
    size_t nprocs, procs_cap;
    nvmlReturn_t error; /* the first code behind a GS_NVML_FAILED, NVML_SUCCESS if none */
} gs_nvml_sample;

enum {
    /* Also read PCIe throughput. Each direction blocks ~20 ms in the driver: ask at most 1 Hz. */
    GS_NVML_WITH_PCIE = 1u << 0,
    /* Also list the compute processes and their GPU memory. */
    GS_NVML_WITH_PROCS = 1u << 1,
};

/* Reads device `i` (as in gs_nvml_device_at) into `s`. Per-metric failures go in `s`; -1 (with
 * `err`) only for a bad index or out of memory for the process list. */
int gs_nvml_sample_device(gs_nvml *n, unsigned i, unsigned flags, gs_nvml_sample *s,
                          gs_error *err);
void gs_nvml_sample_free(gs_nvml_sample *s);

#endif
