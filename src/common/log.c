#include "common/log.h"
#include "common/term_text.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

/* A message longer than this is cut, and ends in "...". */
enum { LINE_MAX_BYTES = 1024 };

atomic_int gs_log_threshold;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static gs_log_sink sink;
static void *sink_ctx;

void gs_log_set(int level, gs_log_sink s, void *ctx)
{
    pthread_mutex_lock(&lock);
    sink = s;
    sink_ctx = ctx;
    atomic_store(&gs_log_threshold, s ? level : GS_LOG_OFF);
    pthread_mutex_unlock(&lock);
}

static void emit(const char *fmt, va_list ap)
{
    char text[LINE_MAX_BYTES], line[LINE_MAX_BYTES];
    int n = vsnprintf(text, sizeof text, fmt, ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof text)
        memcpy(text + sizeof text - 4, "...", 4);
    /* One message, one line, that cannot drive the terminal: a path or a name with a newline
     * must not start another line, nor one with an escape sequence clear the screen. */
    gs_term_escape(line, sizeof line, text);
    pthread_mutex_lock(&lock);
    if (sink)
        sink(sink_ctx, line);
    pthread_mutex_unlock(&lock);
}

void gs_log_write(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(fmt, ap);
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
