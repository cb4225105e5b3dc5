#include "common/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* A message longer than this is cut, and ends in "...". */
enum { LINE_MAX_BYTES = 1024, ONCE_SLOTS = 4096 };

atomic_int gs_log_threshold;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static gs_log_sink sink;
static void *sink_ctx;
/* Hashes of the GS_LOG_ONCE messages written (0 = free slot); when full, repeats get through. */
static uint64_t seen[ONCE_SLOTS];

void gs_log_set(int level, gs_log_sink s, void *ctx)
{
    pthread_mutex_lock(&lock);
    sink = s;
    sink_ctx = ctx;
    memset(seen, 0, sizeof seen);
    atomic_store(&gs_log_threshold, s ? level : GS_LOG_OFF);
    pthread_mutex_unlock(&lock);
}

static uint64_t hash_line(const char *s)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h ? h : 1;
}

/* Whether the message is new (and now remembered). Called with the lock held. */
static bool first_time(const char *line)
{
    uint64_t h = hash_line(line);
    for (size_t i = 0; i < ONCE_SLOTS; i++) {
        uint64_t *slot = &seen[(h + i) % ONCE_SLOTS];
        if (*slot == h)
            return false;
        if (*slot == 0) {
            *slot = h;
            return true;
        }
    }
    return true;
}

static void emit(bool once, const char *fmt, va_list ap)
{
    char line[LINE_MAX_BYTES];
    int n = vsnprintf(line, sizeof line, fmt, ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof line)
        memcpy(line + sizeof line - 4, "...", 4);
    /* One message, one line: a path or a name with a newline must not start another. */
    for (char *p = line; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
    pthread_mutex_lock(&lock);
    if (sink && (!once || first_time(line)))
        sink(sink_ctx, line);
    pthread_mutex_unlock(&lock);
}

void gs_log_write(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(false, fmt, ap);
    va_end(ap);
}

void gs_log_write_once(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(true, fmt, ap);
    va_end(ap);
}

void gs_log_append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
}

double gs_log_clock(int level)
{
    if (!gs_log_on(level))
        return 0;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double gs_log_peak_rss_mb(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        return 0;
    return (double)ru.ru_maxrss * 1024 / 1e6; /* Linux: kilobytes */
}
