/* The NVTX half of the agent, writer side: drains every thread's ring, pairs pushes with pops
 * (per thread and domain) and starts with ends (by id, across threads), and writes ranges,
 * marks and thread names. */
#ifndef GS_AGENT_NVTX_DRAIN_H
#define GS_AGENT_NVTX_DRAIN_H

#include <stdbool.h>

#include "agent/nvtx_ring.h"

/* Any thread: makes a new thread's ring known to the writer. */
void gsa_nvtx_add_ring(gsa_ring *r);

/* The drain hook (agent.h). */
void gsa_nvtx_drain(bool final);

/* In a forked child: forget the parent's rings and pairing state (they are the parent's). */
void gsa_nvtx_drain_forked(void);

#endif
