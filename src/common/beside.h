/* Two parts of one job on two cores: a function runs on a second thread while the caller does
 * its own part, then the caller joins it. When no thread can be had, the function runs on the
 * caller's thread before the caller's part: the same result, one after the other. The two parts
 * must write different data. */
#ifndef GS_COMMON_BESIDE_H
#define GS_COMMON_BESIDE_H

#include <pthread.h>
#include <stdbool.h>

typedef struct gs_beside {
    pthread_t thread;
    bool threaded;
    void *result; /* fn's, when it ran here */
} gs_beside;

/* Starts fn(arg) beside the caller (or runs it now). */
void gs_beside_start(gs_beside *b, void *(*fn)(void *), void *arg);

/* Waits for fn and returns what it returned. */
void *gs_beside_join(gs_beside *b);

#endif
