/* The exporter's admission rules (http_admit.h): per-address share, global cap, header deadline. */
#include "monitor/http_admit.h"

#include <netinet/in.h>
#include <string.h>

#include "common/util.h"

#define NS_PER_MS 1000000LL

void gs_admit_init(gs_admit *a, void (*cut)(int fd))
{
    memset(a, 0, sizeof *a);
    pthread_mutex_init(&a->mu, NULL);
    a->cut = cut;
}

void gs_admit_destroy(gs_admit *a)
{
    pthread_mutex_destroy(&a->mu);
}

/* The address bytes of addr (without the port), false for a family other than IPv4 and IPv6. */
static bool ip_of(const struct sockaddr *addr, uint8_t ip[16], uint8_t *len)
{
    if (addr && addr->sa_family == AF_INET) {
        memcpy(ip, &((const struct sockaddr_in *)(const void *)addr)->sin_addr, 4);
        *len = 4;
        return true;
    }
    if (addr && addr->sa_family == AF_INET6) {
        memcpy(ip, &((const struct sockaddr_in6 *)(const void *)addr)->sin6_addr, 16);
        *len = 16;
        return true;
    }
    *len = 0;
    return false;
}

static bool live(const gs_admit_conn *c)
{
    return c->used && !c->cut;
}

static void cut_one(gs_admit *a, gs_admit_conn *c)
{
    c->cut = true;
    a->cut(c->fd);
}

bool gs_admit_accept(gs_admit *a, const struct sockaddr *addr, int64_t now_ns)
{
    uint8_t ip[16], len;
    ip_of(addr, ip, &len);
    pthread_mutex_lock(&a->mu);
    unsigned total = 0, mine = 0;
    gs_admit_conn *oldest = NULL; /* the live connection sending its headers the longest */
    for (size_t i = 0; i < COUNT_OF(a->conn); i++) {
        gs_admit_conn *c = &a->conn[i];
        if (live(c) && c->reading && now_ns - c->since_ns > GS_HTTP_HEADER_TIMEOUT_MS * NS_PER_MS)
            cut_one(a, c);
        if (!live(c))
            continue;
        total++;
        mine += c->iplen == len && memcmp(c->ip, ip, len) == 0;
        if (c->reading && (!oldest || c->since_ns < oldest->since_ns))
            oldest = c;
    }
    bool take = mine < GS_HTTP_MAX_PER_IP && (total < GS_HTTP_MAX_CONNECTIONS || oldest);
    if (take && total >= GS_HTTP_MAX_CONNECTIONS)
        cut_one(a, oldest);
    pthread_mutex_unlock(&a->mu);
    return take;
}

gs_admit_conn *gs_admit_started(gs_admit *a, int fd, const struct sockaddr *addr, int64_t now_ns)
{
    pthread_mutex_lock(&a->mu);
    gs_admit_conn *c = NULL;
    for (size_t i = 0; i < COUNT_OF(a->conn) && !c; i++)
        if (!a->conn[i].used)
            c = &a->conn[i];
    if (c) {
        *c = (gs_admit_conn){.used = true, .reading = true, .fd = fd, .since_ns = now_ns};
        ip_of(addr, c->ip, &c->iplen);
    }
    pthread_mutex_unlock(&a->mu);
    return c;
}

void gs_admit_headers_done(gs_admit *a, gs_admit_conn *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&a->mu);
    c->reading = false;
    pthread_mutex_unlock(&a->mu);
}

void gs_admit_request_done(gs_admit *a, gs_admit_conn *c, int64_t now_ns)
{
    if (!c)
        return;
    pthread_mutex_lock(&a->mu);
    c->reading = true;
    c->since_ns = now_ns;
    pthread_mutex_unlock(&a->mu);
}

void gs_admit_closed(gs_admit *a, gs_admit_conn *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&a->mu);
    c->used = false;
    pthread_mutex_unlock(&a->mu);
}

void gs_admit_cut_all(gs_admit *a)
{
    pthread_mutex_lock(&a->mu);
    for (size_t i = 0; i < COUNT_OF(a->conn); i++)
        if (live(&a->conn[i]))
            cut_one(a, &a->conn[i]);
    pthread_mutex_unlock(&a->mu);
}
