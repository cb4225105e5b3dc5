/* The launcher's sampler: NVML metrics of every GPU and CPU/memory of the target's process tree,
 * at a fixed rate, as COUNTER records of a .gst file (doc/FORMAT.md).
 *
 * Counters (gst_counter: ts = CLOCK_REALTIME ns, device = NVML index or -1 for the host):
 *   gpu_util_pct             % of the last period a kernel was running (not SM occupancy)
 *   gpu_mem_util_pct         % of the last period device memory was read or written
 *   gpu_mem_used_bytes       device memory in use (includes the driver's reservation)
 *   gpu_mem_total_bytes      device memory size
 *   gpu_power_w              board power draw, watts
 *   gpu_temp_c               GPU die temperature, Celsius
 *   gpu_sm_clock_mhz         SM clock
 *   gpu_mem_clock_mhz        memory clock
 *   gpu_throttle_reasons     NVML's clocks-throttle reason bit mask (0 none, 0x1 GPU idle)
 *   gpu_pcie_tx_bytes_per_s  PCIe sent by the GPU, over ~20 ms; at most once a second
 *   gpu_pcie_rx_bytes_per_s  PCIe received by the GPU, likewise
 *   gpu_proc_mem_bytes:<pid> device memory of one compute process on the GPU (any process,
 *                            not only the target's; absent when NVML cannot tell)
 *   host_cpu_pct             CPU of the target's process tree since the previous sample,
 *                            100 = one core busy (absent on the first sample)
 *   host_rss_bytes           resident memory summed over the tree
 *   host_procs               processes in the tree (0 once the target has exited)
 * A metric a GPU does not support, or whose NVML call failed, is left out of that sample.
 * The file also holds a DEVICE record per GPU: id = NVML index, name, UUID, total memory,
 * compute capability (NVML does not give the SM count: 0). */
#ifndef GS_COLLECT_SAMPLER_H
#define GS_COLLECT_SAMPLER_H

#include <stdint.h>

#include "common/error.h"
#include "probe/nvml.h"

typedef struct gs_sampler_opts {
    int fd;                /* the trace file: the header is written at create; never closed */
    gs_nvml *nvml;         /* NULL: host counters only; not owned, must outlive the sampler */
    const char *proc_root; /* "/proc"; NULL: no host counters */
    int64_t root_pid;      /* the target */
    double rate_hz;        /* samples per second, > 0 and <= 1000 */
    int64_t from_ns;       /* CLOCK_REALTIME window of the samples kept; 0 = unbounded */
    int64_t until_ns;
} gs_sampler_opts;

typedef struct gs_sampler gs_sampler;

/* Starts the trace on `o->fd`: file header, the GPUs' DEVICE records. */
int gs_sampler_create(const gs_sampler_opts *o, gs_sampler **out, gs_error *err);

/* Takes one sample dated `now_ns` (CLOCK_REALTIME) and flushes it to the file. Outside the
 * window nothing is written, but /proc is still read so the first sample inside has a CPU %.
 * NVML failures only leave counters out; -1 for a write error or out of memory. */
int gs_sampler_tick(gs_sampler *s, int64_t now_ns, gs_error *err);

/* Runs gs_sampler_tick on a thread at rate_hz, on absolute deadlines (no drift), until stop,
 * a failed tick, or the end of the window. Not while another thread calls gs_sampler_tick. */
int gs_sampler_start(gs_sampler *s, gs_error *err);

/* How long a stop waits for a thread inside NVML: one sample of every GPU takes well under a
 * second (PCIe throughput, the slowest query, ~20 ms per direction and GPU). */
#define GS_SAMPLER_STOP_WAIT_NS 2000000000LL

/* What gs_sampler_stop returns when it gave up on the thread. */
#define GS_SAMPLER_ABANDONED 1

/* Ends the thread and flushes: 0, or -1 with the first error of a tick or of the flush. Without
 * a running thread it only flushes. A thread still inside an NVML call after `wait_ns` (a hung
 * GPU or driver: the call may never return) is abandoned: a note saying so is written after the
 * samples taken so far, the file is left complete, and GS_SAMPLER_ABANDONED is returned (with
 * a message in err only if that write failed). The thread then writes nothing more; it may
 * still be in NVML, so the caller must not close the gs_nvml, and the sampler is never freed
 * (destroy does nothing). The fd may be closed. */
int gs_sampler_stop(gs_sampler *s, int64_t wait_ns, gs_error *err);

/* Samples taken (ticks inside the window) since create. */
uint64_t gs_sampler_samples(gs_sampler *s);

/* Stops a running thread (abandoning it as gs_sampler_stop does) and frees; the caller closes the
 * fd. NULL is fine. */
void gs_sampler_destroy(gs_sampler *s);

#endif
