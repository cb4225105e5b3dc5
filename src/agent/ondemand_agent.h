/* The agent's side of capture on demand (common/ondemand.h): its status file in the control
 * folder, and the requests it reads there, each turned into one window (a file of its own).
 * Writer thread only, with the agent's lock held (agent.c calls these). */
#ifndef GS_AGENT_ONDEMAND_AGENT_H
#define GS_AGENT_ONDEMAND_AGENT_H

#include <stdbool.h>

/* At start: remembers the control folder and writes the first status (dormant). False when the
 * folder is unusable (then the agent stays out of the program). */
bool gsa_od_start(const char *control, const char *host);

/* Each writer period: reads a new request, opens and ends windows, and publishes the status
 * when it changed (steps at most once a second). */
void gsa_od_poll(void);

/* At exit: a window under way is ended and written, and the status says so; a dormant agent
 * removes its status file. */
void gsa_od_exit(void);

/* In a forked child: the parent's status and window are the parent's. */
void gsa_od_forked(void);

#endif
