/* Opening NVML on a thread the caller can leave. nvmlInit_v2 on a GPU that fell off the bus, or
 * a driver being reloaded, may never return; the caller (the launcher of `gpuscope run`, the
 * monitor) must still start the program, or stop on a signal. */
#ifndef GS_PROBE_NVML_GUARD_H
#define GS_PROBE_NVML_GUARD_H

#include <signal.h>
#include <stdint.h>

#include "common/error.h"
#include "probe/nvml.h"

/* gs_nvml_open(library, ...) run on a thread, waited for at most `wait_ns` (0: no time bound)
 * and until `*stop` (NULL: none) is set. When it ends in time its outcome is returned. Else it
 * fails with GS_EXIT_ENV ("NVML did not answer within 5 s: nvmlInit_v2 or the first device
 * queries hung") and the thread is left behind: it closes NVML and frees what it holds if the
 * call ever returns. */
int gs_nvml_open_guarded(const char *library, int64_t wait_ns, const volatile sig_atomic_t *stop,
                         gs_nvml **out, gs_error *err);

#endif
