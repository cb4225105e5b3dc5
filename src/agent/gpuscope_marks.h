/* gpuscope's own marking API, exported by the agent (libgpuscope_agent.so) for programs and
 * hooks that have no NVTX: the Python hooks of `gpuscope run` (python/gpuscope_hooks/, doc/run.md)
 * load the agent with ctypes.CDLL from $GPUSCOPE_AGENT and mark steps, DataLoader fetches and
 * operators through it, on the CPU build of PyTorch as on the CUDA one.
 *
 * Each call writes the record an NVTX call would (default domain): a range is a .gst NVTX range,
 * read back as an NVTX range (doc/FORMAT.md), so steps, breakdown, ops and report treat it as the
 * program's own. The agent starts itself on the first call when CUDA and NVTX never loaded it
 * (a CPU-only program) and writes its per-process file, which `gpuscope run` merges.
 *
 * Outside `gpuscope run` (no GPUSCOPE_RUN_DIR), or with the nvtx part off (--trace), every call
 * does nothing and returns -1 or 0. Any thread; no call blocks, allocates after the thread's
 * first, prints or fails the program. Names longer than 1024 bytes are cut. */
#ifndef GS_AGENT_GPUSCOPE_MARKS_H
#define GS_AGENT_GPUSCOPE_MARKS_H

#include <stdint.h>

#define GSA_API __attribute__((visibility("default")))

/* Opens a range on the calling thread (as nvtxRangePushA). Returns its nesting level from 0, or
 * -1 when nothing is recorded. */
GSA_API int gpuscope_range_push(const char *name);

/* Closes the calling thread's innermost open range (as nvtxRangePop): the level it had, or -1. */
GSA_API int gpuscope_range_pop(void);

/* An instant (as nvtxMarkA). */
GSA_API void gpuscope_mark(const char *name);

/* A whole range whose times are known only afterwards, e.g. a training step that began at the
 * previous step's end: [start_ns, end_ns] on gpuscope_now_ns()'s clock, on the calling thread,
 * as a start/end range. 0, or -1 when not recorded (end before start, or no room). */
GSA_API int gpuscope_range_at(const char *name, int64_t start_ns, int64_t end_ns);

/* The clock of every record: CLOCK_REALTIME in ns, what Python's time.time_ns() reads. */
GSA_API int64_t gpuscope_now_ns(void);

/* 1 when calls are recorded (the agent runs in this process and the nvtx part is on), else 0.
 * Starts the agent when it has not started. */
GSA_API int gpuscope_recording(void);

/* 1 once the program's own NVTX calls (not this API) opened a range named ProfilerStep#N: it
 * marks its steps itself (torch.profiler under emit_nvtx, hand-written ranges). */
GSA_API int gpuscope_program_marks_steps(void);

#endif
