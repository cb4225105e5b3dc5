/* The debug log (common/log.h): levels, the sink, nothing evaluated or formatted when off,
 * one whole line per message, and lines from several threads never interleaved. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/log.h"

typedef struct captured {
    char lines[64][1100];
    size_t n;
} captured;

static void capture(void *ctx, const char *line)
{
    captured *c = ctx;
    if (c->n < 64)
        snprintf(c->lines[c->n], sizeof c->lines[c->n], "%s", line);
    c->n++;
}

static int evaluated;

/* An argument with a side effect: it must not run while the log is off. */
static int count_evaluation(void)
{
    return ++evaluated;
}

static void test_off_by_default(void)
{
    captured c = {0};
    CHECK(!gs_log_on(GS_LOG_INFO));
    GS_LOG(GS_LOG_INFO, "never %d", count_evaluation());
    CHECK_INT(evaluated, 0);
    CHECK(gs_log_clock(GS_LOG_INFO) == 0.0);
    /* A level without a sink is off too. */
    gs_log_set(GS_LOG_DETAIL, NULL, &c);
    CHECK(!gs_log_on(GS_LOG_INFO));
    GS_LOG(GS_LOG_INFO, "never %d", count_evaluation());
    CHECK_INT(evaluated, 0);
    CHECK_INT(c.n, 0);
}

static void test_levels(void)
{
    captured c = {0};
    gs_log_set(GS_LOG_INFO, capture, &c);
    CHECK(gs_log_on(GS_LOG_INFO));
    CHECK(!gs_log_on(GS_LOG_DETAIL));
    GS_LOG(GS_LOG_INFO, "read %d events from %s", 42, "a.json");
    GS_LOG(GS_LOG_DETAIL, "detail %d", count_evaluation());
    CHECK_INT(c.n, 1);
    CHECK_STR(c.lines[0], "read 42 events from a.json");
    CHECK_INT(evaluated, 0);
    CHECK(gs_log_clock(GS_LOG_INFO) > 0.0);
    CHECK(gs_log_clock(GS_LOG_DETAIL) == 0.0);

    gs_log_set(GS_LOG_DETAIL, capture, &c);
    GS_LOG(GS_LOG_DETAIL, "detail %d", count_evaluation());
    CHECK_INT(c.n, 2);
    CHECK_STR(c.lines[1], "detail 1");
    double t0 = gs_log_clock(GS_LOG_DETAIL);
    GS_LOG_TOOK(t0, "nothing");
    CHECK_INT(c.n, 3);
    CHECK(strncmp(c.lines[2], "nothing took ", 13) == 0);
    CHECK(strstr(c.lines[2], " ms") != NULL);

    gs_log_set(GS_LOG_OFF, capture, &c);
    GS_LOG(GS_LOG_INFO, "off again %d", count_evaluation());
    CHECK_INT(c.n, 3);
    CHECK_INT(evaluated, 1);
}

static void test_one_line(void)
{
    captured c = {0};
    gs_log_set(GS_LOG_INFO, capture, &c);
    /* C0, DEL, C1 (U+009B, CSI) and a byte that is not UTF-8 are shown as bytes, not obeyed;
     * other UTF-8 passes. */
    GS_LOG(GS_LOG_INFO, "%s", "odd\nname\twith\rcontrols \033[2J\x7f\xc2\x9b\xff µs");
    CHECK_STR(c.lines[0],
              "odd\\x0aname\\x09with\\x0dcontrols \\x1b[2J\\x7f\\xc2\\x9b\\xff µs");
    char big[3000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    GS_LOG(GS_LOG_INFO, "%s", big);
    size_t len = strlen(c.lines[1]);
    CHECK_INT(len, 1023);
    CHECK_STR(c.lines[1] + len - 3, "...");
    gs_log_set(GS_LOG_OFF, NULL, NULL);
}

/* ---- several threads ----------------------------------------------------------------------- */

enum { THREADS = 4, PER_THREAD = 2000 };

typedef struct shared_sink {
    atomic_int inside; /* sink calls in progress: must never exceed 1 */
    int overlaps, lines, malformed;
    int next[THREADS]; /* the message number expected next from each thread */
} shared_sink;

static void count_line(void *ctx, const char *line)
{
    shared_sink *s = ctx;
    if (atomic_fetch_add(&s->inside, 1) != 0)
        s->overlaps++;
    int thread, k;
    char tail[16];
    if (sscanf(line, "thread %d message %d %15s", &thread, &k, tail) != 3 || thread < 0 ||
        thread >= THREADS || k != s->next[thread] || strcmp(tail, "end") != 0)
        s->malformed++;
    else
        s->next[thread]++;
    s->lines++;
    atomic_fetch_sub(&s->inside, 1);
}

static void *log_many(void *arg)
{
    int id = (int)(size_t)arg;
    for (int k = 0; k < PER_THREAD; k++)
        GS_LOG(GS_LOG_INFO, "thread %d message %d %s", id, k, "end");
    return NULL;
}

static void test_threads(void)
{
    shared_sink s = {0};
    gs_log_set(GS_LOG_INFO, count_line, &s);
    pthread_t t[THREADS];
    for (size_t i = 0; i < THREADS; i++)
        CHECK(pthread_create(&t[i], NULL, log_many, (void *)i) == 0);
    for (size_t i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    gs_log_set(GS_LOG_OFF, NULL, NULL);
    CHECK_INT(s.lines, THREADS * PER_THREAD);
    CHECK_INT(s.overlaps, 0);
    CHECK_INT(s.malformed, 0);
}

int main(void)
{
    test_off_by_default();
    test_levels();
    test_one_line();
    test_threads();
    return check_done("test_log");
}
