#include "monitor/webhook.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest/json.h"
#include "ingest/source.h"

int gs_webhook_read_token(const char *path, char *out, size_t cap, gs_error *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return gs_fail(err, GS_EXIT_USAGE, "--trigger-token-file %s: %s", path, strerror(e));
    }
    if (st.st_mode & (S_IRWXG | S_IRWXO)) {
        close(fd);
        return gs_fail(err, GS_EXIT_USAGE,
                       "--trigger-token-file %s can be read by others: it is a password "
                       "(chmod 600 it)",
                       path);
    }
    ssize_t n = read(fd, out, cap - 1);
    int e = errno;
    close(fd);
    if (n < 0) /* a folder */
        return gs_fail(err, GS_EXIT_USAGE, "--trigger-token-file %s: %s", path, strerror(e));
    out[n] = '\0';
    size_t len = strcspn(out, "\r\n");
    /* A token cut short would let a prefix of it in: refuse one that does not fit. */
    if (len == cap - 1)
        return gs_fail(err, GS_EXIT_USAGE,
                       "--trigger-token-file %s: its first line is longer than %zu bytes", path,
                       cap - 2);
    out[len] = '\0';
    if (!out[0])
        return gs_fail(err, GS_EXIT_USAGE, "--trigger-token-file %s: no token on its first line",
                       path);
    return 0;
}

bool gs_webhook_loopback(const struct sockaddr *peer)
{
    if (!peer)
        return false;
    if (peer->sa_family == AF_INET) {
        const struct sockaddr_in *a = (const struct sockaddr_in *)peer;
        return (ntohl(a->sin_addr.s_addr) >> 24) == 127;
    }
    if (peer->sa_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)peer)->sin6_addr;
        if (IN6_IS_ADDR_LOOPBACK(a))
            return true;
        return IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127;
    }
    return false;
}

bool gs_webhook_authorized(const char *header, const char *token)
{
    static const char scheme[] = "Bearer ";
    if (!header || strncmp(header, scheme, sizeof scheme - 1) != 0)
        return false;
    const char *given = header + sizeof scheme - 1;
    size_t n = strlen(given), m = strlen(token);
    /* Every byte of the token is compared, whatever the first difference. */
    unsigned diff = (unsigned)(n ^ m);
    for (size_t i = 0; i < m; i++)
        diff |= (unsigned char)token[i] ^ (unsigned char)(i < n ? given[i] : 0);
    return diff == 0;
}

int gs_webhook_alert_state(const char *body, size_t len)
{
    gs_error err;
    gs_source *src = gs_source_memory(body, len, "webhook", &err);
    gs_json j;
    if (!src)
        return -1;
    if (gs_json_init(&j, src, &err) != 0) {
        gs_source_close(src);
        return -1;
    }
    int state = -1;
    if (gs_json_next(&j) == GS_JSON_OBJECT)
        for (enum gs_json_tok t; state < 0 && (t = gs_json_next(&j)) == GS_JSON_KEY;) {
            bool is_status = gs_json_tok_is(&j, "status");
            t = gs_json_next(&j);
            if (is_status && t == GS_JSON_STRING)
                state = gs_json_tok_is(&j, "firing") ? 1 : gs_json_tok_is(&j, "resolved") ? 0 : -1;
            else if (is_status || (t != GS_JSON_STRING && gs_json_skip(&j) != 0))
                break;
        }
    gs_json_free(&j);
    gs_source_close(src);
    return state;
}
