/* The CUPTI half of the agent (cupti_inject.c): InitializeInjection, called by the CUDA driver
 * inside cuInit when CUDA_INJECTION64_PATH names the agent. */
#ifndef GS_AGENT_CUPTI_INJECT_H
#define GS_AGENT_CUPTI_INJECT_H

#include <stdbool.h>

#include "agent/agent.h"
#include "agent/cupti_api.h"

GSA_EXPORT int InitializeInjection(void);

/* Starts CUDA tracing with the CUPTI functions in `api` (loaded by InitializeInjection, or a
 * fake in tests) in a started agent: subscribes, registers the buffer callbacks, enables the
 * activity kinds and the few API callbacks, and registers the drain hook. On failure it writes
 * a NOTE saying why and returns false; CUDA tracing stays off, NVTX is not affected. */
bool gsa_cupti_start(const gsa_cupti_api *api);

#endif
