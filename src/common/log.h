/* The debug log: what was read, by which reader, and what each analysis decided, for people who
 * want to see why gpuscope says what it says (`gpuscope -v`, `-vv`, GPUSCOPE_DEBUG;
 * doc/debugging.md).
 *
 * The core never prints: it hands each line to the sink the command installed once, before any
 * work starts. Off (the default), GS_LOG costs one relaxed load and one branch: its arguments are
 * not evaluated, nothing is formatted or allocated. On, each message is formatted on the caller's
 * stack and given to the sink whole, one call at a time, from whichever thread logs (the analyses
 * run on two threads, the rank workers on another), so lines never interleave.
 *
 * The agent (src/agent/) must never log: it runs inside the user's process. */
#ifndef GS_COMMON_LOG_H
#define GS_COMMON_LOG_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

enum gs_log_level {
    GS_LOG_OFF = 0,
    GS_LOG_INFO = 1,   /* -v: inputs, readers, steps, each rule's decision, ranks */
    GS_LOG_DETAIL = 2, /* -vv: per-stream counts, per-step lists, timings */
};

/* Receives one message: no prefix, no newline, no control characters. */
typedef void (*gs_log_sink)(void *ctx, const char *line);

/* Installs the sink and its level (GS_LOG_OFF, or a NULL sink, turns the log off). Call it
 * before any thread that logs starts. */
void gs_log_set(int level, gs_log_sink sink, void *ctx);

/* The level in force; read by GS_LOG. Written only by gs_log_set. */
extern atomic_int gs_log_threshold;

static inline bool gs_log_on(int level)
{
    return atomic_load_explicit(&gs_log_threshold, memory_order_relaxed) >= level;
}

void gs_log_write(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One message at `level`. The arguments are evaluated only when the level is on. */
#define GS_LOG(level, ...)                                                                         \
    do {                                                                                           \
        if (__builtin_expect(gs_log_on(level), 0))                                                 \
            gs_log_write(__VA_ARGS__);                                                             \
    } while (0)

/* Appends to a message built in parts in buf (cap bytes); what does not fit is dropped. */
void gs_log_append(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Seconds on a monotonic clock when `level` is on, else 0 (no clock read): for timings. */
double gs_log_clock(int level);

/* -vv: "WHAT took N ms" since `since`, a gs_log_clock(GS_LOG_DETAIL) reading. */
#define GS_LOG_TOOK(since, what)                                                                   \
    GS_LOG(GS_LOG_DETAIL, "%s took %.1f ms", (what),                                             \
           (gs_log_clock(GS_LOG_DETAIL) - (since)) * 1e3)

/* The process's peak resident memory so far, in MB (0 when unknown). */
double gs_log_peak_rss_mb(void);

#endif
