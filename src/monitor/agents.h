/* The steps of the programs a monitor watches: the statuses their on-demand agents keep in a
 * control folder (common/ondemand.h, `gpuscope run --on-demand --job DIR`). */
#ifndef GS_MONITOR_AGENTS_H
#define GS_MONITOR_AGENTS_H

#include "monitor/snapshot.h"

/* Reads every status in `folder` into out: how many agents, and the slowest of their latest
 * complete steps. Statuses that cannot be read are skipped, and so are those of processes of this
 * machine that have ended; a folder that cannot be read gives no agent. */
void gs_mon_agents_read(const char *folder, gs_mon_steps *out);

#endif
