#include "common/out_pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct out_buf {
    char *p;
    size_t cap, used;
    bool overflow;
} out_buf;

static void put(out_buf *o, const char *s, size_t n)
{
    if (o->used + n >= o->cap) {
        o->overflow = true;
        return;
    }
    memcpy(o->p + o->used, s, n);
    o->used += n;
    o->p[o->used] = '\0';
}

static void put_number(out_buf *o, long v)
{
    char num[24];
    int n = snprintf(num, sizeof num, "%ld", v);
    put(o, num, (size_t)n);
}

int gs_expand_output(const char *pattern, long pid, long window, const char *host,
                     gs_env_lookup env, void *env_ctx, char *out, size_t cap)
{
    if (cap == 0)
        return -1;
    out_buf o = {out, cap, 0, false};
    out[0] = '\0';
    for (const char *s = pattern; *s; s++) {
        if (*s != '%') {
            put(&o, s, 1);
            continue;
        }
        switch (*++s) {
        case '%':
            put(&o, "%", 1);
            break;
        case 'p':
            put_number(&o, pid);
            break;
        case 'w':
            if (window < 0)
                return -1;
            put_number(&o, window);
            break;
        case 'h':
            put(&o, host, strlen(host));
            break;
        case 'q': {
            const char *close = s[1] == '{' ? strchr(s + 2, '}') : NULL;
            if (!close || close == s + 2)
                return -1;
            const char *value = env ? env(s + 2, (size_t)(close - (s + 2)), env_ctx) : NULL;
            if (value)
                put(&o, value, strlen(value));
            s = close;
            break;
        }
        default: /* includes the NUL of a trailing '%' */
            return -1;
        }
    }
    return o.overflow ? -1 : 0;
}

bool gs_output_is_per_process(const char *pattern)
{
    for (const char *s = pattern; *s; s++) {
        if (*s != '%')
            continue;
        s++;
        if (*s == 'p' || *s == 'q')
            return true;
        if (*s == '\0')
            break;
    }
    return false;
}

const char *gs_env_lookup_getenv(const char *name, size_t len, void *ctx)
{
    (void)ctx;
    char key[128];
    if (len >= sizeof key)
        return NULL;
    memcpy(key, name, len);
    key[len] = '\0';
    return getenv(key);
}
