#include "monitor/webhook.h"

#include <arpa/inet.h>
#include <ctype.h>
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

/* Appends a decoded alert name unless it is there already; "..." once the list is full. */
static void add_name(const char *raw, size_t n, char *names)
{
    char name[GS_WEBHOOK_NAMES_MAX];
    for (size_t i = 0; i < n; i++)
        name[i] = isalnum((unsigned char)raw[i]) || strchr("_:.-", raw[i]) ? raw[i] : '?';
    name[n] = '\0';
    size_t len = strlen(names);
    if (!n || (len >= 3 && !strcmp(names + len - 3, "...")))
        return;
    for (const char *p = names; (p = strstr(p, name)); p += n)
        if ((p == names || p[-1] == ' ') && (p[n] == ',' || !p[n]))
            return;
    const char *sep = len ? ", " : "";
    bool full = len + 2 + n + 5 >= GS_WEBHOOK_NAMES_MAX; /* room kept for ", ..." after it */
    const char *add = full ? "..." : name;
    size_t m = full ? 3 : n;
    memcpy(names + len, sep, strlen(sep));
    memcpy(names + len + strlen(sep), add, m + 1); /* fits: checked above */
}

/* One alert of "alerts" (its '{' read): whether it is resolved, and its labels' alertname (one
 * longer than the list could hold is left out). */
static int read_alert(gs_json *j, char *names)
{
    bool resolved = false; /* Alertmanager says each alert's; one that does not is the group's */
    char name[GS_WEBHOOK_NAMES_MAX];
    size_t name_len = 0;
    enum gs_json_tok t;
    while ((t = gs_json_next(j)) == GS_JSON_KEY) {
        bool is_status = gs_json_tok_is(j, "status"), is_labels = gs_json_tok_is(j, "labels");
        t = gs_json_next(j);
        if (is_status && t == GS_JSON_STRING) {
            resolved = gs_json_tok_is(j, "resolved");
        } else if (is_labels && t == GS_JSON_OBJECT) {
            while ((t = gs_json_next(j)) == GS_JSON_KEY) {
                bool is_name = gs_json_tok_is(j, "alertname");
                t = gs_json_next(j);
                if (is_name && t == GS_JSON_STRING && j->tok_len < sizeof name)
                    name_len = gs_json_decode(j, name);
                else if (t != GS_JSON_STRING && gs_json_skip(j) != 0)
                    return -1;
            }
            if (t != GS_JSON_OBJECT_END)
                return -1;
        } else if (t != GS_JSON_STRING && gs_json_skip(j) != 0) {
            return -1;
        }
    }
    if (t != GS_JSON_OBJECT_END)
        return -1;
    if (!resolved)
        add_name(name, name_len, names);
    return 0;
}

static int read_alerts(gs_json *j, char *names)
{
    if (j->tok_type != GS_JSON_ARRAY)
        return j->tok_type == GS_JSON_STRING ? 0 : gs_json_skip(j);
    for (enum gs_json_tok t; (t = gs_json_next(j)) != GS_JSON_ARRAY_END;) {
        if (t == GS_JSON_OBJECT ? read_alert(j, names) != 0
                                : t == GS_JSON_END || t == GS_JSON_ERROR || gs_json_skip(j) != 0)
            return -1;
    }
    return 0;
}

int gs_webhook_alert_state(const char *body, size_t len, char names[GS_WEBHOOK_NAMES_MAX])
{
    names[0] = '\0';
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
    bool bad = false;
    if (gs_json_next(&j) == GS_JSON_OBJECT)
        for (enum gs_json_tok t; !bad && (t = gs_json_next(&j)) == GS_JSON_KEY;) {
            bool is_status = gs_json_tok_is(&j, "status"), is_alerts = gs_json_tok_is(&j, "alerts");
            t = gs_json_next(&j);
            if (is_status && t == GS_JSON_STRING)
                state = gs_json_tok_is(&j, "firing") ? 1 : gs_json_tok_is(&j, "resolved") ? 0 : -2;
            else if (is_alerts)
                bad = read_alerts(&j, names) != 0;
            else if (is_status || (t != GS_JSON_STRING && gs_json_skip(&j) != 0))
                bad = true;
        }
    gs_json_free(&j);
    gs_source_close(src);
    if (state != 1)
        names[0] = '\0';
    return bad || state < 0 ? -1 : state;
}
