/* The part of NVML's C ABI the probe uses, declared here so that gpuscope builds without nvml.h
 * and loads libnvidia-ml.so.1 at run time; the declarations follow NVIDIA's NVML API Reference
 * Guide and its nvml.h.
 *
 * Values and layouts are NVML's (x86_64 and aarch64 LP64); the static asserts pin the sizes the
 * driver expects. Symbol names are the *versioned* ones: nvml.h #defines nvmlInit to
 * nvmlInit_v2 and so on, and the unversioned exports keep older ABIs (a _v1 process struct is
 * smaller than the _v3 one, so mixing them would corrupt memory). */
#ifndef GS_PROBE_NVML_API_H
#define GS_PROBE_NVML_API_H

typedef int nvmlReturn_t;
enum {
    NVML_SUCCESS = 0,
    NVML_ERROR_UNINITIALIZED = 1,
    NVML_ERROR_INVALID_ARGUMENT = 2,
    NVML_ERROR_NOT_SUPPORTED = 3,
    NVML_ERROR_NO_PERMISSION = 4,
    NVML_ERROR_NOT_FOUND = 6,
    NVML_ERROR_INSUFFICIENT_SIZE = 7,
    NVML_ERROR_DRIVER_NOT_LOADED = 9,
    NVML_ERROR_FUNCTION_NOT_FOUND = 13,
    NVML_ERROR_GPU_IS_LOST = 15,
    NVML_ERROR_UNKNOWN = 999,
};

typedef struct nvmlDevice_st *nvmlDevice_t;

enum { NVML_TEMPERATURE_GPU = 0 };                         /* nvmlTemperatureSensors_t */
enum { NVML_CLOCK_SM = 1, NVML_CLOCK_MEM = 2 };            /* nvmlClockType_t */
enum { NVML_PCIE_UTIL_TX_BYTES = 0, NVML_PCIE_UTIL_RX_BYTES = 1 }; /* nvmlPcieUtilCounter_t */

#define NVML_DEVICE_NAME_BUFFER_SIZE 96 /* the _V2 sizes: enough for every current device */
#define NVML_DEVICE_UUID_BUFFER_SIZE 96
#define NVML_PCI_BUS_ID_BUFFER_SIZE 32
/* usedGpuMemory when the driver cannot tell (e.g. Windows WDDM, or not permitted). */
#define NVML_VALUE_NOT_AVAILABLE (~0ULL)

typedef struct {
    unsigned int gpu, memory; /* % of the last sample period a kernel / the memory controller was busy */
} nvmlUtilization_t;

typedef struct {
    unsigned long long total, free, used; /* bytes; v1 `used` includes driver-reserved memory */
} nvmlMemory_t;

typedef struct {
    char busIdLegacy[16];
    unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
    char busId[NVML_PCI_BUS_ID_BUFFER_SIZE]; /* "00000000:3B:00.0" */
} nvmlPciInfo_t;

typedef struct {
    unsigned int pid;
    unsigned long long usedGpuMemory; /* bytes, or NVML_VALUE_NOT_AVAILABLE */
    unsigned int gpuInstanceId, computeInstanceId; /* MIG; ~0u otherwise */
} nvmlProcessInfo_t; /* the layout of nvmlDeviceGetComputeRunningProcesses_v3 */

_Static_assert(sizeof(nvmlUtilization_t) == 8, "nvmlUtilization_t");
_Static_assert(sizeof(nvmlMemory_t) == 24, "nvmlMemory_t");
_Static_assert(sizeof(nvmlPciInfo_t) == 68, "nvmlPciInfo_t");
_Static_assert(sizeof(nvmlProcessInfo_t) == 24, "nvmlProcessInfo_t");

/* One pointer type per entry point; the comment is the symbol to dlsym. */
typedef nvmlReturn_t (*nvmlInit_fn)(void);                                      /* nvmlInit_v2 */
typedef nvmlReturn_t (*nvmlShutdown_fn)(void);                                  /* nvmlShutdown */
typedef const char *(*nvmlErrorString_fn)(nvmlReturn_t r);                      /* nvmlErrorString */
typedef nvmlReturn_t (*nvmlDeviceGetCount_fn)(unsigned int *count);             /* nvmlDeviceGetCount_v2 */
typedef nvmlReturn_t (*nvmlDeviceGetHandleByIndex_fn)(unsigned int index,
                                                      nvmlDevice_t *dev); /* nvmlDeviceGetHandleByIndex_v2 */
typedef nvmlReturn_t (*nvmlDeviceGetName_fn)(nvmlDevice_t d, char *name,
                                             unsigned int len);           /* nvmlDeviceGetName */
typedef nvmlReturn_t (*nvmlDeviceGetUUID_fn)(nvmlDevice_t d, char *uuid,
                                             unsigned int len);           /* nvmlDeviceGetUUID */
typedef nvmlReturn_t (*nvmlDeviceGetPciInfo_fn)(nvmlDevice_t d,
                                                nvmlPciInfo_t *pci);      /* nvmlDeviceGetPciInfo_v3 */
typedef nvmlReturn_t (*nvmlDeviceGetCudaComputeCapability_fn)(
    nvmlDevice_t d, int *major, int *minor);                  /* nvmlDeviceGetCudaComputeCapability */
typedef nvmlReturn_t (*nvmlDeviceGetUtilizationRates_fn)(
    nvmlDevice_t d, nvmlUtilization_t *u);                    /* nvmlDeviceGetUtilizationRates */
typedef nvmlReturn_t (*nvmlDeviceGetMemoryInfo_fn)(nvmlDevice_t d,
                                                   nvmlMemory_t *m);      /* nvmlDeviceGetMemoryInfo */
typedef nvmlReturn_t (*nvmlDeviceGetPowerUsage_fn)(nvmlDevice_t d,
                                                   unsigned int *mw);     /* nvmlDeviceGetPowerUsage */
typedef nvmlReturn_t (*nvmlDeviceGetTemperature_fn)(nvmlDevice_t d, int sensor,
                                                    unsigned int *c);     /* nvmlDeviceGetTemperature */
typedef nvmlReturn_t (*nvmlDeviceGetClockInfo_fn)(nvmlDevice_t d, int type,
                                                  unsigned int *mhz);     /* nvmlDeviceGetClockInfo */
typedef nvmlReturn_t (*nvmlDeviceGetCurrentClocksThrottleReasons_fn)(
    nvmlDevice_t d, unsigned long long *mask); /* nvmlDeviceGetCurrentClocksThrottleReasons */
/* Measures a byte counter over ~20 ms inside the call, so it blocks that long. KB/s. */
typedef nvmlReturn_t (*nvmlDeviceGetPcieThroughput_fn)(nvmlDevice_t d, int counter,
                                                       unsigned int *kbps); /* nvmlDeviceGetPcieThroughput */
/* infos == NULL or *count too small: NVML_ERROR_INSUFFICIENT_SIZE and *count = the number needed. */
typedef nvmlReturn_t (*nvmlDeviceGetComputeRunningProcesses_fn)(
    nvmlDevice_t d, unsigned int *count,
    nvmlProcessInfo_t *infos); /* nvmlDeviceGetComputeRunningProcesses_v3 */

#endif
