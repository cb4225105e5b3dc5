/* `monitor --serve`'s Alertmanager webhook (`POST /trigger`, off unless a token is given): who
 * may call it and what a notification says. The HTTP side is http.c's. */
#ifndef GS_MONITOR_WEBHOOK_H
#define GS_MONITOR_WEBHOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "common/error.h"

#define GS_WEBHOOK_MAX_BODY (64u << 10) /* Alertmanager's notifications are a few kB */
#define GS_WEBHOOK_TOKEN_MAX 256

/* Reads the token: the first line of `path`, which no one but its owner may read (it is a
 * password). 0, or -1 with err (GS_EXIT_USAGE). */
int gs_webhook_read_token(const char *path, char *out, size_t cap, gs_error *err);

/* Whether the peer is this machine (127.0.0.0/8, ::1, or IPv4-mapped loopback). */
bool gs_webhook_loopback(const struct sockaddr *peer);

/* Whether an Authorization header is "Bearer TOKEN": compared in time that does not depend on
 * where they differ. */
bool gs_webhook_authorized(const char *header, const char *token);

#define GS_WEBHOOK_NAMES_MAX 160 /* the alert names said in the monitor's message */

/* An Alertmanager notification's top-level "status": 1 firing, 0 resolved, -1 when the body is
 * not such a notification (not JSON, or no status). `names` gets the distinct `alertname`
 * labels of its alerts but the resolved, ", " between them, cut to fit with "..."; a byte that
 * is not a letter, digit or one of "_:.-" is written '?' (the names go to a terminal). */
int gs_webhook_alert_state(const char *body, size_t len, char names[GS_WEBHOOK_NAMES_MAX]);

#endif
