/* The exporter's admission rules (src/monitor/http_admit.h) on a recorded cut: a share per
 * address, the header deadline, room made at the cap by cutting the oldest connection still
 * sending its headers, never one inside a request, and everything cut at the stop. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "check.h"
#include "monitor/http_admit.h"

#define MS 1000000LL

static int cuts[256], ncuts;

static void record_cut(int fd)
{
    if (ncuts < (int)(sizeof cuts / sizeof cuts[0]))
        cuts[ncuts++] = fd;
}

static struct sockaddr_in addr_of(const char *ip)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons(40000)};
    inet_pton(AF_INET, ip, &a.sin_addr);
    return a;
}

/* Accepts and starts a connection from ip with descriptor fd at `now`; its entry, or NULL. */
static gs_admit_conn *connect_from(gs_admit *a, const char *ip, int fd, int64_t now)
{
    struct sockaddr_in sa = addr_of(ip);
    if (!gs_admit_accept(a, (struct sockaddr *)&sa, now))
        return NULL;
    return gs_admit_started(a, fd, (struct sockaddr *)&sa, now);
}

static void per_address_share(void)
{
    gs_admit a;
    gs_admit_init(&a, record_cut);
    ncuts = 0;
    for (int i = 0; i < GS_HTTP_MAX_PER_IP; i++)
        CHECK(connect_from(&a, "127.0.0.2", 10 + i, 0) != NULL);
    CHECK(connect_from(&a, "127.0.0.2", 20, 1 * MS) == NULL); /* its share is full */
    CHECK(connect_from(&a, "127.0.0.3", 21, 1 * MS) != NULL); /* another address is not */
    CHECK_INT(ncuts, 0);
    /* Past the deadline the slow ones are cut when the next connection comes, and the address
     * gets its share back. */
    CHECK(connect_from(&a, "127.0.0.2", 22, (GS_HTTP_HEADER_TIMEOUT_MS + 1) * MS) != NULL);
    CHECK_INT(ncuts, GS_HTTP_MAX_PER_IP); /* 127.0.0.3's is 1 ms short of its deadline */
    CHECK_INT(cuts[0], 10);
    gs_admit_destroy(&a);
}

static void room_at_the_cap(void)
{
    gs_admit a;
    gs_admit_init(&a, record_cut);
    ncuts = 0;
    char ip[32];
    gs_admit_conn *c[GS_HTTP_MAX_CONNECTIONS];
    /* The cap filled by addresses of one connection each, the first started earliest. */
    for (int i = 0; i < GS_HTTP_MAX_CONNECTIONS; i++) {
        snprintf(ip, sizeof ip, "10.0.%d.%d", i / 200, i % 200 + 1);
        c[i] = connect_from(&a, ip, 100 + i, i * MS);
        CHECK(c[i] != NULL);
    }
    /* The oldest is inside a request: the next oldest still sending headers is cut instead. */
    gs_admit_headers_done(&a, c[0]);
    CHECK(connect_from(&a, "192.168.0.1", 500, 100 * MS) != NULL);
    CHECK_INT(ncuts, 1);
    CHECK_INT(cuts[0], 101);
    gs_admit_closed(&a, c[1]);
    /* Every connection inside a request: a new one is refused, none is cut. */
    for (int i = 0; i < GS_HTTP_MAX_CONNECTIONS; i++)
        if (i != 1)
            gs_admit_headers_done(&a, c[i]);
    gs_admit_conn *fresh = NULL;
    for (size_t i = 0; i < sizeof a.conn / sizeof a.conn[0]; i++)
        if (a.conn[i].used && a.conn[i].fd == 500)
            fresh = &a.conn[i];
    gs_admit_headers_done(&a, fresh);
    CHECK(connect_from(&a, "192.168.0.2", 501, 200 * MS) == NULL);
    CHECK_INT(ncuts, 1);
    /* A kept-alive connection waits for its next headers from the end of its response. */
    gs_admit_request_done(&a, c[5], 300 * MS);
    CHECK(connect_from(&a, "192.168.0.3", 502, 400 * MS) != NULL);
    CHECK_INT(ncuts, 2);
    CHECK_INT(cuts[1], 105);
    gs_admit_cut_all(&a);
    CHECK_INT(ncuts, 2 + GS_HTTP_MAX_CONNECTIONS); /* all but the two cut before */
    gs_admit_destroy(&a);
}

int main(void)
{
    per_address_share();
    room_at_the_cap();
    return check_done("test_http_admit");
}
