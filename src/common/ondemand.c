/* The on-demand control files (ondemand.h): one table of fields per file, read and written by
 * the same loop. Used inside the agent too, so it only calls libc and never allocates. */
#include "common/ondemand.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/util.h"

enum field_type { F_I64, F_U64, F_U32, F_INT, F_LONG, F_STR, F_STATE, F_KINDS };

typedef struct field {
    const char *key;
    enum field_type type;
    size_t offset, size; /* size: F_STR's buffer */
} field;

#define FIELD(st, key, type, member)                                                           \
    {key, type, offsetof(st, member), sizeof(((st *)0)->member)}

static const field status_fields[] = {
    FIELD(gs_od_status, "pid", F_LONG, pid),
    FIELD(gs_od_status, "host", F_STR, host),
    FIELD(gs_od_status, "rank", F_INT, rank),
    FIELD(gs_od_status, "state", F_STATE, state),
    FIELD(gs_od_status, "request", F_U64, request),
    FIELD(gs_od_status, "step", F_I64, step),
    FIELD(gs_od_status, "step_ns", F_I64, step_ns),
    FIELD(gs_od_status, "steps_seen", F_U64, steps_seen),
    FIELD(gs_od_status, "updated_ns", F_I64, updated_ns),
    FIELD(gs_od_status, "windows", F_U64, windows),
    FIELD(gs_od_status, "file", F_STR, file),
    FIELD(gs_od_status, "error", F_STR, error),
};

static const field request_fields[] = {
    FIELD(gs_od_request, "id", F_U64, id),
    FIELD(gs_od_request, "targets", F_STR, targets),
    FIELD(gs_od_request, "steps", F_U32, steps),
    FIELD(gs_od_request, "start_step", F_I64, start_step),
    FIELD(gs_od_request, "from_ns", F_I64, from_ns),
    FIELD(gs_od_request, "duration_ns", F_I64, duration_ns),
    FIELD(gs_od_request, "deadline_ns", F_I64, deadline_ns),
    FIELD(gs_od_request, "kinds", F_KINDS, kinds),
    FIELD(gs_od_request, "dir", F_STR, dir),
    FIELD(gs_od_request, "output", F_STR, output),
};

static const char *const state_names[GS_OD__COUNT] = {
    [GS_OD_DORMANT] = "dormant", [GS_OD_ARMED] = "armed",   [GS_OD_RECORDING] = "recording",
    [GS_OD_WRITTEN] = "written", [GS_OD_FAILED] = "failed",
};

static const char *const kinds_names[] = {
    [GS_OD_KINDS_DEFAULT] = "", [GS_OD_KINDS_FULL] = "full", [GS_OD_KINDS_LIGHT] = "light"};

const char *gs_od_state_name(gs_od_state s)
{
    return (unsigned)s < GS_OD__COUNT ? state_names[s] : "unknown";
}

const char *gs_od_kinds_name(gs_od_kinds k)
{
    return (unsigned)k < COUNT_OF(kinds_names) ? kinds_names[k] : "";
}

int gs_od_kinds_parse(const char *s, gs_od_kinds *out)
{
    for (size_t i = 0; i < COUNT_OF(kinds_names); i++)
        if (strcmp(s, kinds_names[i]) == 0) {
            *out = (gs_od_kinds)i;
            return 0;
        }
    return -1;
}

static int format(const field *fields, size_t n, const void *obj, char *buf, size_t cap)
{
    const char *base = obj;
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        const field *f = &fields[i];
        const void *p = base + f->offset;
        char value[GS_OD_PATH_MAX];
        switch (f->type) {
        case F_I64: snprintf(value, sizeof value, "%" PRId64, *(const int64_t *)p); break;
        case F_U64: snprintf(value, sizeof value, "%" PRIu64, *(const uint64_t *)p); break;
        case F_U32: snprintf(value, sizeof value, "%" PRIu32, *(const uint32_t *)p); break;
        case F_INT: snprintf(value, sizeof value, "%d", *(const int *)p); break;
        case F_LONG: snprintf(value, sizeof value, "%ld", *(const long *)p); break;
        case F_STATE:
            snprintf(value, sizeof value, "%s", gs_od_state_name(*(const gs_od_state *)p));
            break;
        case F_KINDS:
            snprintf(value, sizeof value, "%s", gs_od_kinds_name(*(const gs_od_kinds *)p));
            break;
        case F_STR: {
            /* One line per field: a newline in a path or message would start a false key. */
            snprintf(value, sizeof value, "%s", (const char *)p);
            for (char *c = value; *c; c++)
                if (*c == '\n' || *c == '\r')
                    *c = ' ';
            break;
        }
        }
        int w = snprintf(buf + used, cap - used, "%s=%s\n", f->key, value);
        if (w < 0 || (size_t)w >= cap - used)
            return -1;
        used += (size_t)w;
    }
    return 0;
}

static int parse_number(const char *v, enum field_type type, void *p)
{
    errno = 0;
    char *end;
    if (type == F_U64 || type == F_U32) {
        if (*v == '-')
            return -1;
        unsigned long long x = strtoull(v, &end, 10);
        if (end == v || *end || errno || (type == F_U32 && x > UINT32_MAX))
            return -1;
        if (type == F_U64)
            *(uint64_t *)p = x;
        else
            *(uint32_t *)p = (uint32_t)x;
        return 0;
    }
    long long x = strtoll(v, &end, 10);
    if (end == v || *end || errno)
        return -1;
    if (type == F_INT && (x < INT32_MIN || x > INT32_MAX))
        return -1;
    if (type == F_I64)
        *(int64_t *)p = x;
    else if (type == F_LONG)
        *(long *)p = (long)x;
    else
        *(int *)p = (int)x;
    return 0;
}

static int parse_value(const field *f, const char *v, void *obj)
{
    void *p = (char *)obj + f->offset;
    switch (f->type) {
    case F_STR:
        if (strlen(v) >= f->size)
            return -1;
        for (const char *c = v; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f) /* a path or message has none */
                return -1;
        memcpy(p, v, strlen(v) + 1);
        return 0;
    case F_STATE:
        for (int s = 0; s < GS_OD__COUNT; s++)
            if (strcmp(v, state_names[s]) == 0) {
                *(gs_od_state *)p = (gs_od_state)s;
                return 0;
            }
        return -1;
    case F_KINDS:
        return gs_od_kinds_parse(v, p);
    default:
        return parse_number(v, f->type, p);
    }
}

static int parse(const field *fields, size_t n, const char *text, size_t len, void *obj,
                 char *err, size_t errlen)
{
    char line[GS_OD_PATH_MAX + 64];
    for (size_t at = 0; at < len;) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t end = nl ? (size_t)(nl - text) : len;
        size_t n_line = end - at;
        at = end + 1;
        if (n_line == 0)
            continue;
        if (n_line >= sizeof line) {
            snprintf(err, errlen, "a line of %zu bytes", n_line);
            return -1;
        }
        memcpy(line, text + end - n_line, n_line);
        line[n_line] = '\0';
        char *eq = strchr(line, '=');
        if (!eq) {
            snprintf(err, errlen, "a line without '=': '%.60s'", line);
            return -1;
        }
        *eq = '\0';
        for (size_t i = 0; i < n; i++)
            if (strcmp(line, fields[i].key) == 0 && parse_value(&fields[i], eq + 1, obj) != 0) {
                snprintf(err, errlen, "bad %s '%.60s'", line, eq + 1);
                return -1;
            }
    }
    return 0;
}

int gs_od_status_format(const gs_od_status *s, char *buf, size_t cap)
{
    return format(status_fields, COUNT_OF(status_fields), s, buf, cap);
}

int gs_od_request_format(const gs_od_request *r, char *buf, size_t cap)
{
    return format(request_fields, COUNT_OF(request_fields), r, buf, cap);
}

int gs_od_status_parse(const char *text, size_t len, gs_od_status *s, char *err, size_t errlen)
{
    *s = (gs_od_status){.rank = -1, .step = -1};
    return parse(status_fields, COUNT_OF(status_fields), text, len, s, err, errlen);
}

int gs_od_request_parse(const char *text, size_t len, gs_od_request *r, char *err, size_t errlen)
{
    *r = (gs_od_request){.start_step = -1};
    if (parse(request_fields, COUNT_OF(request_fields), text, len, r, err, errlen) != 0)
        return -1;
    if (r->id == 0) {
        snprintf(err, errlen, "a request without an id");
        return -1;
    }
    if (r->steps == 0 && r->duration_ns <= 0) {
        snprintf(err, errlen, "a request with neither steps nor a duration");
        return -1;
    }
    if (!r->dir[0]) {
        snprintf(err, errlen, "a request without a folder for its files");
        return -1;
    }
    return 0;
}

bool gs_od_request_targets(const gs_od_request *r, const char *host, long pid)
{
    if (strcmp(r->targets, "*") == 0)
        return true;
    char me[GS_OD_HOST_MAX + 32];
    int n = snprintf(me, sizeof me, "%s:%ld", host, pid);
    for (const char *t = r->targets; (t = strstr(t, me)); t += n)
        if ((t == r->targets || t[-1] == ',') && (t[n] == ',' || t[n] == '\0'))
            return true;
    return false;
}

int gs_od_status_name(const char *host, long pid, char *out, size_t cap)
{
    int n = snprintf(out, cap, "%s.%ld" GS_OD_AGENT_SUFFIX, host, pid);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

int gs_od_write_file(const char *dir, const char *name, const char *text, size_t len)
{
    char tmp[GS_OD_PATH_MAX], path[GS_OD_PATH_MAX];
    int a = snprintf(tmp, sizeof tmp, "%s/.%s.%ld.tmp", dir, name, (long)getpid());
    int b = snprintf(path, sizeof path, "%s/%s", dir, name);
    if (a < 0 || (size_t)a >= sizeof tmp || b < 0 || (size_t)b >= sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    /* Readable by all: the folder is private already, and root's requests must be readable by
     * the user's agent. */
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    ssize_t w = write(fd, text, len);
    int saved = errno;
    close(fd);
    if (w != (ssize_t)len || rename(tmp, path) != 0) {
        saved = w != (ssize_t)len ? (w < 0 ? saved : ENOSPC) : errno;
        unlink(tmp);
        errno = saved;
        return -1;
    }
    return 0;
}

long gs_od_read_file(const char *dir, const char *name, char *buf, size_t cap, struct stat *st)
{
    char path[GS_OD_PATH_MAX];
    int n = snprintf(path, sizeof path, "%s/%s", dir, name);
    if (n < 0 || (size_t)n >= sizeof path || cap == 0) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return -1;
    struct stat local;
    if (fstat(fd, st ? st : &local) != 0 || !S_ISREG((st ? st : &local)->st_mode)) {
        close(fd);
        errno = EINVAL;
        return -1;
    }
    size_t used = 0;
    for (ssize_t r; used < cap - 1 && (r = read(fd, buf + used, cap - 1 - used)) != 0;) {
        if (r < 0) {
            if (errno == EINTR)
                continue;
            close(fd);
            return -1;
        }
        used += (size_t)r;
    }
    close(fd);
    buf[used] = '\0';
    return (long)used;
}

bool gs_od_trusted_owner(uid_t owner, uid_t euid)
{
    return owner == euid || owner == 0;
}

bool gs_od_process_ended(long pid)
{
    /* kill(0 or -1, 0) would ask about groups, and a pid past pid_t about another process: no
     * such pid is a process. */
    if (pid <= 0 || pid > INT_MAX)
        return true;
    if (kill((pid_t)pid, 0) != 0)
        return errno == ESRCH;
    /* A zombie answers kill(): its parent has not waited for it, or ended first and left it to
     * an init that reaps late. Its state is the letter after the name's closing parenthesis. */
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT; /* reaped since */
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    text[n > 0 ? n : 0] = '\0';
    const char *paren = strrchr(text, ')');
    return paren && paren[1] == ' ' && (paren[2] == 'Z' || paren[2] == 'X');
}
