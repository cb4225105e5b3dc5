/* The Prometheus endpoint: GET (or HEAD) /metrics over HTTP with libmicrohttpd, rendered from
 * the feed's latest snapshot, and, when asked for, Alertmanager's POST /trigger; every other
 * path is 404 and every other method 405.
 *
 * Limits, so that a scraper on the network can always get through: the admission rules of
 * http_admit.h (a share per address, a global cap, a deadline for the headers: slow clients
 * hold only their share, and never for long when others need the room), a connection idle for
 * GS_HTTP_TIMEOUT_S seconds is closed, and the request line with its headers must fit
 * GS_HTTP_MEMORY bytes (a longer URL is answered 414, longer headers 431). Two threads serve,
 * from a pool. */
#ifndef GS_MONITOR_HTTP_H
#define GS_MONITOR_HTTP_H

#include "common/error.h"
#include "monitor/feed.h"
#include "monitor/http_admit.h"

#define GS_HTTP_TIMEOUT_S 5
#define GS_HTTP_MEMORY (16u << 10)
#define GS_HTTP_THREADS 2
#define GS_HTTP_DEFAULT_ADDR "127.0.0.1"
#define GS_HTTP_DEFAULT_PORT 9400

typedef struct gs_http gs_http;

/* `POST /trigger`, Alertmanager's webhook (webhook.h): off when NULL. Accepted only from this
 * machine, with `Authorization: Bearer TOKEN`, a body of at most GS_WEBHOOK_MAX_BODY bytes that is
 * a firing notification (a resolved one is answered 200 and does nothing). `fire` runs on a
 * server thread with the notification's firing alert names (webhook.h, "" when none) and
 * answers the HTTP status: 202 when a capture will start, 429 in the cooldown; `message` is the
 * body (a literal). */
typedef struct gs_http_trigger {
    const char *token;
    int (*fire)(void *ctx, const char *alert_names, const char **message);
    void *ctx;
} gs_http_trigger;

/* Listens on `spec`: "PORT", "ADDR:PORT" or "[IPV6]:PORT" with a numeric address (default
 * 127.0.0.1: the exporter is reachable from elsewhere only when asked). Port 0 picks a free
 * port (gs_http_port tells which). GS_EXIT_USAGE for a bad spec, GS_EXIT_ENV when it cannot
 * listen (port taken). */
int gs_http_start(const char *spec, gs_feed *feed, const gs_http_trigger *trigger, gs_http **out,
                  gs_error *err);

/* The port listened on. */
unsigned gs_http_port(const gs_http *h);
/* The address listened on, as text ("127.0.0.1", "::1"). */
const char *gs_http_addr(const gs_http *h);

/* Stops serving (cuts every connection first: a slow client does not hold up the stop) and
 * frees h. NULL is fine. */
void gs_http_stop(gs_http *h);

#endif
