/* The notes of the agent (agent.h's gsa_note): queued by any thread, written into the trace by
 * the writer at its next period. */
#ifndef GS_AGENT_AGENT_NOTES_H
#define GS_AGENT_AGENT_NOTES_H

/* Writer only: writes the queued notes (and how many were lost to a full queue) as NOTE records. */
void gsa_notes_write(void);

/* Around fork (agent.c's handlers): the queue's lock is held across it; a child starts with
 * none of its parent's notes. */
enum gsa_fork_stage { GSA_FORK_PREPARE, GSA_FORK_PARENT, GSA_FORK_CHILD };
void gsa_notes_fork(enum gsa_fork_stage stage);

#endif
