/* What `gpuscope monitor` shows at one instant: the GPUs of one host with their metrics and GPU
 * processes, and the host's own CPU and memory. Every source (live NVML, a replayed log) yields
 * snapshots; every output (table, csv, json, JSONL log, Prometheus text) reads only them. */
#ifndef GS_MONITOR_SNAPSHOT_H
#define GS_MONITOR_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "probe/nvml.h"
#include "probe/proc.h"

#define GS_MON_NAME_MAX 96      /* device names and UUIDs: NVML's _V2 buffer sizes */
#define GS_MON_BUS_ID_MAX 32
#define GS_MON_PROC_NAME_MAX 64 /* /proc/<pid>/comm holds at most 15 bytes; logs may hold more */
#define GS_MON_HOST_MAX 256
#define GS_MON_AGENT_HOST_MAX 64 /* an agent's host as its status writes it (common/ondemand.h) */

typedef struct gs_mon_proc {
    uint32_t pid;
    char name[GS_MON_PROC_NAME_MAX]; /* empty when unknown (the process is in another namespace) */
    bool known;                      /* false when NVML could not tell its memory */
    uint64_t used_bytes;
} gs_mon_proc;

/* The metrics are the probe's (enum gs_nvml_metric) with their availability (enum gs_nvml_avail):
 * a value counts only where avail is GS_NVML_OK. */
typedef struct gs_mon_gpu {
    unsigned index; /* NVML's index */
    char name[GS_MON_NAME_MAX];
    char uuid[GS_MON_NAME_MAX];
    char pci_bus_id[GS_MON_BUS_ID_MAX];
    double value[GS_NVML_NMETRICS];
    uint8_t avail[GS_NVML_NMETRICS];
    uint8_t procs_avail;
    gs_mon_proc *procs; /* by descending GPU memory */
    size_t nprocs, procs_cap;
} gs_mon_gpu;

/* The training steps of the programs the monitor watches (`--agents DIR`: their on-demand
 * agents' statuses, common/ondemand.h). */
typedef struct gs_mon_steps {
    bool watched;      /* a folder is watched (written to the log only then) */
    uint32_t agents;   /* the processes whose agent is there */
    int64_t step_ns;   /* the slowest of their latest complete steps; 0 = none known */
    /* Which process took step_ns: known when slowest_pid > 0; its rank when has_rank. */
    uint32_t slowest_pid;
    bool has_rank;
    uint32_t slowest_rank;
    char slowest_host[GS_MON_AGENT_HOST_MAX];
} gs_mon_steps;

typedef struct gs_snapshot {
    int64_t ts_ms; /* wall clock, ms since the epoch: the log's resolution */
    char hostname[GS_MON_HOST_MAX];
    gs_host_usage host;
    gs_mon_steps steps;
    gs_mon_gpu *gpus; /* by NVML index */
    size_t ngpus, gpus_cap;
} gs_snapshot;

/* Empties s, keeping its memory for the next sample. */
void gs_snapshot_clear(gs_snapshot *s);
void gs_snapshot_free(gs_snapshot *s);

/* Appends a zeroed GPU (all metrics GS_NVML_NOT_READ); NULL when memory is exhausted. */
gs_mon_gpu *gs_snapshot_add_gpu(gs_snapshot *s);
/* Appends a process to a GPU; NULL when memory is exhausted. */
gs_mon_proc *gs_mon_gpu_add_proc(gs_mon_gpu *g);
/* Orders a GPU's processes by descending GPU memory (unknown last), then by pid. */
void gs_mon_gpu_sort_procs(gs_mon_gpu *g);

/* Reads that failed in this sample (metrics and process lists marked GS_NVML_FAILED): what a
 * replayed log counts as NVML errors. */
uint64_t gs_snapshot_failed_reads(const gs_snapshot *s);

/* Deep copy into dst (whose memory is reused); -1 when memory is exhausted. */
int gs_snapshot_copy(gs_snapshot *dst, const gs_snapshot *src);

/* A value as a 64-bit integer, saturating (NaN: 0): converting a double beyond the integer's
 * range is undefined behaviour, and values come from a driver, /proc or a log. */
int64_t gs_mon_int(double v);
/* A throttle-reason metric as its bit mask (0 when negative or NaN, saturating above). */
unsigned long long gs_mon_mask(double v);

/* Copies a string into a fixed buffer, cut at a byte boundary that keeps UTF-8 whole. */
void gs_mon_strlcpy(char *dst, size_t cap, const char *src, size_t len);

/* NVML's clock throttle reason bits, named as nvidia-smi -q names them. */
typedef struct gs_throttle_reason {
    unsigned long long bit;
    const char *name;
} gs_throttle_reason;

extern const gs_throttle_reason gs_throttle_reasons[];
extern const size_t gs_throttle_nreasons;

/* The names of the bits set in mask, separated by `sep` ("none" when no bit is set; unknown bits
 * as hex). Always NUL-terminated. */
void gs_throttle_names(unsigned long long mask, const char *sep, char *buf, size_t cap);

#endif
