/* What `monitor` does besides showing samples: watches them for a --trigger condition, answers
 * Alertmanager's webhook, and starts `gpuscope capture` of the watched programs when either
 * asks, at most once per --cooldown (doc/monitor.md). */
#ifndef GS_CMD_MONITOR_WATCH_H
#define GS_CMD_MONITOR_WATCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "monitor/http.h"
#include "monitor/snapshot.h"
#include "monitor/trigger.h"
#include "monitor/webhook.h"

#define GS_WATCH_MAX_CHILDREN 64
#define GS_WATCH_MAX_TRIGGERS 8 /* --trigger given more often is a usage error */

typedef struct gs_watch {
    gs_trigger triggers[GS_WATCH_MAX_TRIGGERS]; /* any that fires captures */
    size_t ntriggers;
    const char *agents;         /* --agents DIR: captured with `capture --job DIR` */
    size_t capture_steps;       /* --capture-steps (0 with a duration) */
    double capture_duration_s;  /* --capture-duration */
    const char *capture_output; /* --capture-output, NULL = each run's own -o */
    int64_t cooldown_ms;
    /* The cooldown is on the samples' clock (a replayed log's time), the webhook's too. */
    _Atomic int64_t last_capture_ms; /* INT64_MIN: none yet */
    _Atomic int64_t sample_ms;       /* the latest sample's time; INT64_MIN: none yet */
    _Atomic bool webhook_pending;
    pthread_mutex_t webhook_lock;                 /* for the names: written by a server thread */
    char webhook_names[GS_WEBHOOK_NAMES_MAX]; /* the accepted notification's alerts */
    gs_snapshot latest;         /* the GPU processes a capture without --agents asks */
    pid_t children[GS_WATCH_MAX_CHILDREN];
    size_t nchildren;
} gs_watch;

/* Whether anything is watched (a trigger or the webhook). */
bool gs_watch_active(const gs_watch *w, bool webhook);

/* Each sample, on the main thread: reaps finished captures, feeds the trigger and starts a
 * capture when it fired or a webhook asked. -1 when memory is exhausted. */
int gs_watch_sample(gs_watch *w, const gs_snapshot *s);

/* Between samples (a replayed log has ended, the exporter serves on): reaps finished captures
 * and starts the one a webhook asked for. */
void gs_watch_idle(gs_watch *w);

/* The webhook's fire callback (gs_http_trigger.fire), on a server thread. */
int gs_watch_webhook(void *ctx, const char *alert_names, const char **message);

/* At the end: waits for the captures under way, says how each ended; frees w. */
void gs_watch_finish(gs_watch *w);

#endif
