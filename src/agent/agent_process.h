/* What the agent says about its process (the PROCESS record, where its file goes) and how it
 * keeps its descriptors out of the program's way. Used by the agent's core (agent.c). */
#ifndef GS_AGENT_AGENT_PROCESS_H
#define GS_AGENT_AGENT_PROCESS_H

#include <stdint.h>

/* `fd` moved to a high number (or any from 3 up), close-on-exec; the original is closed. A
 * negative fd is returned as it is. */
int gsa_move_high(int fd);

/* An integer from the environment, `fallback` when unset or not a whole int32. */
int32_t gsa_env_int(const char *name, int32_t fallback);

/* Writes dir/<pid>.target: `pattern` (an -o pattern) expanded in this process, with its pid,
 * environment (%q{RANK}) and `window` (%w; -1 outside capture windows). Nothing when the
 * pattern is NULL or does not expand: the launcher falls back to the unexpanded pattern. */
void gsa_write_target(const char *dir, const char *pattern, long window, const char *host);

/* Writer only: the PROCESS record of this process (pid, rank, world size, host, command). */
void gsa_write_process_record(const char *host);

#endif
