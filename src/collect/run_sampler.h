/* The samples of a run folder (`gpuscope run`'s, a capture's window): the sampler thread
 * writing GS_RUN_SAMPLER_FILE in the folder, merged into every output (run_outputs.h), and the
 * NVML it reads, given back at the end unless a call that never returned still holds it. */
#ifndef GS_COLLECT_RUN_SAMPLER_H
#define GS_COLLECT_RUN_SAMPLER_H

#include <stdint.h>

#include "collect/sampler.h"
#include "common/error.h"
#include "probe/nvml.h"

typedef struct gs_run_sampler {
    gs_nvml *nvml; /* owned from start on */
    gs_sampler *smp;
    int fd;
    uint64_t samples; /* taken, once stopped */
} gs_run_sampler;

/* Samples process `pid`'s tree (and the GPUs, with `nvml`; NULL: the CPU only) into
 * dir/GS_RUN_SAMPLER_FILE, keeping [from, until] (0: unbounded). 0, or -1 with err when it did
 * not start (stop is still to be called: it closes NVML). */
int gs_run_sampler_start(gs_run_sampler *rs, const char *dir, gs_nvml *nvml, long pid,
                         double rate_hz, int64_t from, int64_t until, gs_error *err);

/* Stops it, waiting GS_SAMPLER_STOP_WAIT_NS at most: a sampler stuck in NVML is abandoned with a
 * note in its file. -1 with err when the sampler had failed. */
int gs_run_sampler_stop(gs_run_sampler *rs, gs_error *err);

#endif
