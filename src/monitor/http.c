/* The exporter's HTTP server (libmicrohttpd). */
#include "monitor/http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <microhttpd.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "common/dynlib.h"
#include "common/util.h"
#include "monitor/prometheus.h"
#include "monitor/webhook.h"

/* The libmicrohttpd functions the server calls, loaded when it starts (common/dynlib.h); the
 * types come from microhttpd.h, so a pointer cannot disagree with the function it holds. */
typedef struct mhd_api {
    __typeof__(MHD_start_daemon) *start_daemon;
    __typeof__(MHD_stop_daemon) *stop_daemon;
    __typeof__(MHD_get_daemon_info) *get_daemon_info;
    __typeof__(MHD_get_connection_info) *get_connection_info;
    __typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
    __typeof__(MHD_add_response_header) *add_response_header;
    __typeof__(MHD_queue_response) *queue_response;
    __typeof__(MHD_destroy_response) *destroy_response;
    __typeof__(MHD_lookup_connection_value) *lookup_connection_value;
} mhd_api;

#define SYM(name) {"MHD_" #name, offsetof(mhd_api, name)}
static const gs_dynsym mhd_syms[] = {
    SYM(start_daemon),        SYM(stop_daemon),         SYM(get_daemon_info),
    SYM(get_connection_info),
    SYM(create_response_from_buffer), SYM(add_response_header), SYM(queue_response),
    SYM(destroy_response), SYM(lookup_connection_value),
};
#undef SYM

static const gs_dynlib mhd_lib = {
    "libmicrohttpd.so.12", "monitor --serve",
    "libmicrohttpd (Debian, Ubuntu: libmicrohttpd12; Fedora, RHEL: libmicrohttpd)", mhd_syms,
    COUNT_OF(mhd_syms)};

struct gs_http {
    mhd_api mhd;
    struct MHD_Daemon *daemon;
    gs_feed *feed;
    unsigned port;
    char addr[INET6_ADDRSTRLEN];
    gs_admit admit;
    bool has_trigger;
    gs_http_trigger trigger;
    char token[GS_WEBHOOK_TOKEN_MAX];
};

/* A webhook's body, read as it arrives. */
typedef struct upload {
    size_t len;
    bool too_big;
    char data[GS_WEBHOOK_MAX_BODY];
} upload;

static enum MHD_Result reply(const mhd_api *m, struct MHD_Connection *c, unsigned status,
                             const char *body, const char *allow)
{
    struct MHD_Response *r =
        m->create_response_from_buffer(strlen(body), (void *)body, MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    m->add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
    if (allow)
        m->add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
    enum MHD_Result rc = m->queue_response(c, status, r);
    m->destroy_response(r);
    return rc;
}

/* POST /trigger. Every check that needs no body is made on the first call, before a byte of it
 * is read: a refused request uploads nothing. */
static enum MHD_Result handle_trigger(gs_http *h, struct MHD_Connection *c, const char *method,
                                      const char *data, size_t *size, void **con_cls)
{
    const mhd_api *m = &h->mhd;
    upload *u = *con_cls;
    if (!u) {
        if (strcmp(method, MHD_HTTP_METHOD_POST) != 0)
            return reply(m, c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed: use POST\n",
                         "POST");
        const union MHD_ConnectionInfo *peer =
            m->get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
        if (!gs_webhook_loopback(peer ? peer->client_addr : NULL))
            return reply(m, c, MHD_HTTP_FORBIDDEN, "forbidden: /trigger is for this machine\n",
                         NULL);
        const char *auth = m->lookup_connection_value(c, MHD_HEADER_KIND,
                                                      MHD_HTTP_HEADER_AUTHORIZATION);
        if (!gs_webhook_authorized(auth, h->token))
            return reply(m, c, MHD_HTTP_UNAUTHORIZED, "unauthorized: a bearer token is needed\n",
                         NULL);
        const char *length = m->lookup_connection_value(c, MHD_HEADER_KIND,
                                                        MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (length && strtoull(length, NULL, 10) > GS_WEBHOOK_MAX_BODY)
            return reply(m, c, MHD_HTTP_CONTENT_TOO_LARGE, "too large\n", NULL);
        if (!(u = calloc(1, sizeof *u)))
            return MHD_NO;
        *con_cls = u;
        return MHD_YES;
    }
    if (*size) {
        size_t room = sizeof u->data - u->len, n = *size < room ? *size : room;
        memcpy(u->data + u->len, data, n);
        u->len += n;
        u->too_big |= n < *size;
        *size = 0;
        return MHD_YES;
    }
    if (u->too_big)
        return reply(m, c, MHD_HTTP_CONTENT_TOO_LARGE, "too large\n", NULL);
    char names[GS_WEBHOOK_NAMES_MAX];
    int state = gs_webhook_alert_state(u->data, u->len, names);
    if (state < 0)
        return reply(m, c, MHD_HTTP_BAD_REQUEST,
                     "bad request: not an Alertmanager notification (no \"status\")\n", NULL);
    if (state == 0)
        return reply(m, c, MHD_HTTP_OK, "resolved: nothing to do\n", NULL);
    const char *message = "";
    int status = h->trigger.fire(h->trigger.ctx, names, &message);
    return reply(m, c, (unsigned)status, message, NULL);
}

/* Answers on the first call, before any request body is read: nothing here but /trigger takes a
 * body, and answering early lets MHD close the connection instead of reading what a client
 * uploads. */
static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
                              const char *method, const char *version, const char *data,
                              size_t *size, void **con_cls)
{
    gs_http *h = cls;
    (void)version;
    const mhd_api *m = &h->mhd;
    const union MHD_ConnectionInfo *info =
        m->get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    gs_admit_headers_done(&h->admit, info ? info->socket_context : NULL);
    if (h->has_trigger && strcmp(url, "/trigger") == 0)
        return handle_trigger(h, c, method, data, size, con_cls);
    if (strcmp(url, "/metrics") != 0)
        return reply(m, c, MHD_HTTP_NOT_FOUND, "not found: the metrics are at /metrics\n", NULL);
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return reply(m, c, MHD_HTTP_METHOD_NOT_ALLOWED, "method not allowed: use GET\n",
                     "GET, HEAD");
    size_t len = 0;
    char *text = gs_feed_metrics(h->feed, &len);
    if (!text)
        return reply(m, c, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory\n", NULL);
    struct MHD_Response *r = m->create_response_from_buffer(len, text, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(text);
        return MHD_NO;
    }
    m->add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, GS_PROM_CONTENT_TYPE);
    enum MHD_Result rc = m->queue_response(c, MHD_HTTP_OK, r);
    m->destroy_response(r);
    return rc;
}

static enum MHD_Result accept_policy(void *cls, const struct sockaddr *addr, socklen_t len)
{
    (void)len;
    gs_http *h = cls;
    return gs_admit_accept(&h->admit, addr, gs_mono_ns()) ? MHD_YES : MHD_NO;
}

static void notify_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                              enum MHD_ConnectionNotificationCode code)
{
    gs_http *h = cls;
    if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        gs_admit_closed(&h->admit, *socket_context);
        *socket_context = NULL;
        return;
    }
    const union MHD_ConnectionInfo *fd =
        h->mhd.get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    const union MHD_ConnectionInfo *addr =
        h->mhd.get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    *socket_context = fd ? gs_admit_started(&h->admit, fd->connect_fd,
                                            addr ? addr->client_addr : NULL, gs_mono_ns())
                         : NULL;
}

/* A response is sent: a kept-alive connection waits for its next request's headers. */
static void request_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                              enum MHD_RequestTerminationCode code)
{
    (void)code;
    free(*con_cls); /* a webhook's body */
    *con_cls = NULL;
    gs_http *h = cls;
    const union MHD_ConnectionInfo *info =
        h->mhd.get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    gs_admit_request_done(&h->admit, info ? info->socket_context : NULL, gs_mono_ns());
}

static void cut_connection(int fd)
{
    shutdown(fd, SHUT_RDWR);
}

/* "PORT", "ADDR:PORT", "[V6]:PORT" into a socket address. */
static int parse_spec(const char *spec, struct sockaddr_storage *ss, gs_error *err)
{
    char host[INET6_ADDRSTRLEN + 2] = GS_HTTP_DEFAULT_ADDR;
    const char *port = spec, *colon = strrchr(spec, ':');
    if (colon) {
        const char *h = spec;
        size_t n = (size_t)(colon - spec);
        if (n >= 2 && spec[0] == '[' && colon[-1] == ']') {
            h++;
            n -= 2;
        }
        if (n == 0 || n >= sizeof host)
            return gs_fail(err, GS_EXIT_USAGE, "--serve: bad address in '%s'", spec);
        memcpy(host, h, n);
        host[n] = '\0';
        port = colon + 1;
    }
    char *end;
    errno = 0;
    long p = strtol(port, &end, 10);
    if (!*port || *end || errno || p < 0 || p > 65535)
        return gs_fail(err, GS_EXIT_USAGE, "--serve: '%s' wants [ADDR:]PORT with PORT 0-65535",
                       spec);
    struct addrinfo hints = {.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV,
                             .ai_socktype = SOCK_STREAM};
    struct addrinfo *ai = NULL;
    if (getaddrinfo(host, port, &hints, &ai) != 0 || !ai)
        return gs_fail(err, GS_EXIT_USAGE, "--serve: '%s' is not a numeric IPv4 or IPv6 address",
                       host);
    memset(ss, 0, sizeof *ss);
    memcpy(ss, ai->ai_addr, ai->ai_addrlen);
    freeaddrinfo(ai);
    return 0;
}

int gs_http_start(const char *spec, gs_feed *feed, const gs_http_trigger *trigger, gs_http **out,
                  gs_error *err)
{
    *out = NULL;
    struct sockaddr_storage ss;
    if (parse_spec(spec, &ss, err))
        return -1;
    gs_http *h = calloc(1, sizeof *h);
    if (!h)
        return gs_fail_oom(err);
    h->feed = feed;
    if (trigger) {
        h->has_trigger = true;
        h->trigger = *trigger;
        snprintf(h->token, sizeof h->token, "%s", trigger->token);
    }
    if (gs_dynlib_load(&mhd_lib, &h->mhd, err) != 0) {
        free(h);
        return -1;
    }
    gs_admit_init(&h->admit, cut_connection);
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_AUTO;
    if (ss.ss_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    errno = 0;
    /* The limits are the accept policy's (http_admit.h); the server's own limit only bounds the
     * connections already cut and not yet closed on top of them. */
    h->daemon = h->mhd.start_daemon(
        flags, 0, accept_policy, h, handle, h, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
        MHD_OPTION_THREAD_POOL_SIZE, (unsigned)GS_HTTP_THREADS, MHD_OPTION_CONNECTION_LIMIT,
        (unsigned)(GS_HTTP_MAX_CONNECTIONS + GS_HTTP_CUT_SLACK), MHD_OPTION_NOTIFY_CONNECTION,
        notify_connection, h, MHD_OPTION_NOTIFY_COMPLETED, request_completed, h,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)GS_HTTP_TIMEOUT_S,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)GS_HTTP_MEMORY, MHD_OPTION_END);
    if (!h->daemon) {
        int e = errno;
        gs_admit_destroy(&h->admit);
        free(h);
        return gs_fail(err, GS_EXIT_ENV, "cannot listen on %s%s%s", spec, e ? ": " : "",
                       e ? strerror(e) : "");
    }
    const union MHD_DaemonInfo *info =
        h->mhd.get_daemon_info(h->daemon, MHD_DAEMON_INFO_BIND_PORT);
    h->port = info ? info->port : 0;
    const void *a = ss.ss_family == AF_INET6
                        ? (const void *)&((struct sockaddr_in6 *)&ss)->sin6_addr
                        : (const void *)&((struct sockaddr_in *)&ss)->sin_addr;
    inet_ntop(ss.ss_family, a, h->addr, sizeof h->addr);
    *out = h;
    return 0;
}

unsigned gs_http_port(const gs_http *h)
{
    return h->port;
}

const char *gs_http_addr(const gs_http *h)
{
    return h->addr;
}

void gs_http_stop(gs_http *h)
{
    if (!h)
        return;
    gs_admit_cut_all(&h->admit);
    h->mhd.stop_daemon(h->daemon);
    gs_admit_destroy(&h->admit);
    free(h);
}
