#include "ingest/mem_budget.h"
#include "common/util.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool gs_mem_parse_size(const char *s, uint64_t *bytes)
{
    if (!strcasecmp(s, "none")) {
        *bytes = UINT64_MAX;
        return true;
    }
    static const char units[] = "KMGT";
    char *end;
    double v = strtod(s, &end), scale = 1;
    if (*end) {
        const char *u = end[1] == '\0' ? strchr(units, *end & ~0x20) : NULL;
        if (!u || !*u)
            return false;
        for (const char *p = units; p <= u; p++)
            scale *= 1024;
    }
    if (end == s || !(v > 0) || v * scale >= 1.8e19)
        return false;
    *bytes = (uint64_t)(v * scale);
    return true;
}

/* The value in kB of `key` in a /proc/meminfo-style file, as bytes; 0 when absent. */
static uint64_t meminfo_bytes(const char *path, const char *key)
{
    FILE *f = fopen(path, "re");
    if (!f)
        return 0;
    char line[256];
    uint64_t kb = 0;
    size_t n = strlen(key);
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, key, n) && sscanf(line + n, " %" SCNu64, &kb) == 1)
            break;
    fclose(f);
    return kb * 1024;
}

/* A cgroup v2 file holding one number ("max" when unlimited); 0 when absent or unlimited. */
static uint64_t cgroup_value(const char *path)
{
    FILE *f = fopen(path, "re");
    uint64_t v = 0;
    if (f) {
        if (fscanf(f, "%" SCNu64, &v) != 1)
            v = 0;
        fclose(f);
    }
    return v;
}

static struct {
    pthread_once_t once;
    gs_mem_budget budget;
    bool bad_env;
} cached = {PTHREAD_ONCE_INIT};

static void resolve_default(void)
{
    gs_mem_budget *b = &cached.budget;
    const char *env = getenv(GS_MEM_LIMIT_ENV);
    if (env && *env) {
        cached.bad_env = !gs_mem_parse_size(env, &b->limit);
        b->from_env = true;
        return;
    }
    uint64_t avail = meminfo_bytes("/proc/meminfo", "MemAvailable:");
    uint64_t max = cgroup_value("/sys/fs/cgroup/memory.max");
    uint64_t current = cgroup_value("/sys/fs/cgroup/memory.current");
    if (max && current < max && (!avail || max - current < avail))
        avail = max - current;
    b->limit = avail ? avail / 2 : UINT64_MAX; /* unknown: no limit rather than a wrong one */
    b->origin = "half the memory available";
    if (b->limit > GS_MEM_DEFAULT_MAX) {
        b->limit = GS_MEM_DEFAULT_MAX;
        b->origin = "the default";
    }
}

int gs_mem_budget_default(gs_mem_budget *b, gs_error *err)
{
    pthread_once(&cached.once, resolve_default);
    if (cached.bad_env)
        return gs_fail(err, GS_EXIT_USAGE,
                       "%s='%s' is not a size (e.g. 512M, 16G, or none)", GS_MEM_LIMIT_ENV,
                       getenv(GS_MEM_LIMIT_ENV));
    *b = cached.budget;
    return 0;
}

/* "1.5 GB", "64.0 MB": the limit in the message (powers of 1024, as the variable takes them). */
static void format_size(char *buf, size_t cap, uint64_t bytes)
{
    static const char *const units[] = {"bytes", "kB", "MB", "GB", "TB", "PB"};
    double v = (double)bytes;
    size_t u = 0;
    while (v >= 1024 && u + 1 < COUNT_OF(units)) {
        v /= 1024;
        u++;
    }
    snprintf(buf, cap, u ? "%.1f %s" : "%.0f %s", v, units[u]);
}

int gs_mem_budget_check(const gs_mem_budget *b, const gs_trace *t, uint64_t at, gs_error *err)
{
    uint64_t bytes = gs_trace_bytes(t);
    if (!b || b->limit == UINT64_MAX || (b->used <= b->limit && bytes <= b->limit - b->used))
        return 0;
    char limit[32];
    format_size(limit, sizeof limit, b->limit);
    const char *held = b->used ? "; the traces read before it hold part of it" : "";
    if (b->from_env)
        return gs_fail(err, GS_EXIT_INPUT,
                       "%s: byte %" PRIu64 ": the trace needs more memory than %s allows (%s%s)",
                       t->id.path, at, GS_MEM_LIMIT_ENV, limit, held);
    return gs_fail(err, GS_EXIT_INPUT,
                   "%s: byte %" PRIu64 ": the trace needs more memory than the limit of %s (%s%s; "
                   "%s=SIZE raises it)",
                   t->id.path, at, limit, b->origin, held, GS_MEM_LIMIT_ENV);
}

double gs_mem_budget_fits(const gs_mem_budget *b, uint64_t bytes)
{
    double left = b->used < b->limit ? (double)(b->limit - b->used) : 0;
    double fits = bytes ? left / (double)bytes : 1;
    return fits < 1 ? fits : 1;
}
