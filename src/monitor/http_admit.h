/* Which connections the exporter takes, so that a fresh client is always served however many
 * slow clients there are (slowloris):
 *
 *   - an address holds at most GS_HTTP_MAX_PER_IP connections: more from it are refused;
 *   - a connection must send its request line and headers within GS_HTTP_HEADER_TIMEOUT_MS of
 *     its start (or of the previous response, on a kept-alive connection): one later is cut
 *     when the next connection arrives, which is when its place matters;
 *   - at GS_HTTP_MAX_CONNECTIONS the oldest connection still sending its headers is cut to make
 *     room; only when every connection is inside a request is a new one refused.
 *
 * The table is filled from libmicrohttpd's callbacks (http.c): the accept policy asks
 * gs_admit_accept, the connection notifications report start and close, the request handler
 * and the completion notification the request's progress. Cutting is shutdown(2) of the
 * socket, which the server then sees as closed. Every function is thread-safe. */
#ifndef GS_MONITOR_HTTP_ADMIT_H
#define GS_MONITOR_HTTP_ADMIT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#define GS_HTTP_MAX_CONNECTIONS 64
#define GS_HTTP_MAX_PER_IP 16
#define GS_HTTP_HEADER_TIMEOUT_MS 2000
/* Connections cut but not yet closed by the server also count in its own limit: room for them. */
#define GS_HTTP_CUT_SLACK 32

typedef struct gs_admit_conn {
    bool used;
    bool reading;   /* waiting for (the rest of) a request line and its headers */
    bool cut;       /* shut down by us: leaving, counts no more */
    int fd;
    uint8_t ip[16]; /* the client's address: 4 bytes (IPv4) or 16 (IPv6) */
    uint8_t iplen;
    int64_t since_ns; /* start of the wait for headers, CLOCK_MONOTONIC */
} gs_admit_conn;

typedef struct gs_admit {
    pthread_mutex_t mu;
    void (*cut)(int fd); /* shutdown(fd, SHUT_RDWR); tests record instead */
    gs_admit_conn conn[GS_HTTP_MAX_CONNECTIONS + GS_HTTP_CUT_SLACK];
} gs_admit;

void gs_admit_init(gs_admit *a, void (*cut)(int fd));
void gs_admit_destroy(gs_admit *a);

/* A new connection from `addr` at `now_ns`: true to take it (cutting a late or the oldest
 * header-sending connection when that makes room), false to refuse it. */
bool gs_admit_accept(gs_admit *a, const struct sockaddr *addr, int64_t now_ns);

/* The server started a connection: its entry (to keep as the connection's context), or NULL
 * when the table is full (the connection is then not tracked and cannot be cut). */
gs_admit_conn *gs_admit_started(gs_admit *a, int fd, const struct sockaddr *addr, int64_t now_ns);
/* Its request line and headers are all in: it is no longer cut for being slow. */
void gs_admit_headers_done(gs_admit *a, gs_admit_conn *c);
/* Its response is sent: on a kept-alive connection the next request's headers are waited for. */
void gs_admit_request_done(gs_admit *a, gs_admit_conn *c, int64_t now_ns);
/* The server closed it. NULL is fine. */
void gs_admit_closed(gs_admit *a, gs_admit_conn *c);
/* Cuts every connection: so that stopping the server does not wait for slow clients. */
void gs_admit_cut_all(gs_admit *a);

#endif
