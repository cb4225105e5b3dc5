/* Capture windows (capture.h). Windows open and close rarely (a named range, a step boundary,
 * cudaProfilerStart), so one mutex guards them; the writer asks about every record, so the
 * question is a binary search over windows kept in opening order with a running maximum of
 * their ends. */
#include "agent/capture.h"

#include <pthread.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/profiler_step.h"
#include "common/step_schedule.h"

#define MAX_WINDOWS 65536
#define STILL_OPEN INT64_MAX
#define NAME_MAX_LEN 256

typedef struct window {
    int64_t open, close;
    int64_t max_close; /* max of close over this and every earlier window */
} window;

bool gsa_capture_watches_ranges;

static struct {
    pthread_mutex_t lock;
    gsa_range_mode mode;
    int64_t from, until;
    char name[NAME_MAX_LEN]; /* range=nvtx:NAME */
    size_t name_len;
    regex_t step_re;
    bool step_re_ok;
    unsigned wait, warmup, active, repeat; /* steps=W,WU,A,R */
    unsigned long steps_seen;
    window *w;
    size_t n;
    bool profiler_open;
    uint64_t start_end_id; /* the start/end range that opened the window, 0 = none */
} c = {.lock = PTHREAD_MUTEX_INITIALIZER, .until = INT64_MAX};

/* Per thread: push depth, and the depth at which the capturing range was pushed (0 = none). */
static __thread unsigned tls_depth __attribute__((tls_model("initial-exec")));
static __thread unsigned tls_capture_depth __attribute__((tls_model("initial-exec")));

static void fix_max_from(size_t i)
{
    for (; i < c.n; i++) {
        int64_t prev = i ? c.w[i - 1].max_close : INT64_MIN;
        c.w[i].max_close = c.w[i].close > prev ? c.w[i].close : prev;
    }
}

static void open_window(int64_t ts)
{
    if (c.n == MAX_WINDOWS) /* keep the last one open rather than lose the tail */
        c.w[c.n - 1].close = STILL_OPEN;
    else
        c.w[c.n++] = (window){ts, STILL_OPEN, STILL_OPEN};
    fix_max_from(c.n - 1);
}

static void close_window(int64_t ts)
{
    if (c.n && c.w[c.n - 1].close == STILL_OPEN) {
        c.w[c.n - 1].close = ts;
        fix_max_from(c.n - 1);
    }
}

static int parse_steps(const char *v)
{
    gs_step_schedule sched;
    if (gs_step_schedule_parse(v, &sched) != 0)
        return -1;
    c.wait = sched.wait;
    c.warmup = sched.warmup;
    c.active = sched.active;
    c.repeat = sched.repeat;
    return 0;
}

static int parse_pair(const char *key, size_t klen, const char *val, char *err, size_t errlen)
{
#define KEY(k) (klen == strlen(k) && memcmp(key, k, klen) == 0)
    if (KEY("from") || KEY("until")) {
        char *end;
        long long ns = strtoll(val, &end, 10);
        if (end == val || *end)
            goto bad;
        *(KEY("from") ? &c.from : &c.until) = ns;
    } else if (KEY("range") && strcmp(val, "cudaProfilerApi") == 0) {
        c.mode = GSA_RANGE_PROFILER;
    } else if (KEY("range") && strncmp(val, "nvtx:", 5) == 0 && val[5] &&
               strlen(val + 5) < sizeof c.name) { /* a cut name would never match */
        c.mode = GSA_RANGE_NVTX;
        snprintf(c.name, sizeof c.name, "%s", val + 5);
        c.name_len = strlen(c.name);
    } else if (KEY("steps")) {
        if (parse_steps(val) != 0)
            goto bad;
        c.mode = GSA_RANGE_STEPS;
    } else if (KEY("step")) {
        if (c.step_re_ok)
            regfree(&c.step_re);
        c.step_re_ok = regcomp(&c.step_re, val, REG_EXTENDED | REG_NOSUB) == 0;
        if (!c.step_re_ok)
            goto bad;
    } else {
        goto bad;
    }
    return 0;
#undef KEY
bad:
    snprintf(err, errlen, "agent: bad capture option '%.*s=%s'", (int)klen, key, val);
    return -1;
}

int gsa_capture_init(const char *spec, char *err, size_t errlen)
{
    gsa_capture_reset();
    pthread_mutex_lock(&c.lock);
    c.mode = GSA_RANGE_NONE;
    c.from = 0;
    c.until = INT64_MAX;
    if (c.step_re_ok)
        regfree(&c.step_re);
    c.step_re_ok = regcomp(&c.step_re, "^" GS_PROFILER_STEP_PREFIX, REG_EXTENDED | REG_NOSUB) == 0;
    int rc = 0;
    char buf[1024];
    if (snprintf(buf, sizeof buf, "%s", spec ? spec : "") >= (int)sizeof buf) {
        snprintf(err, errlen, "agent: capture options longer than %zu bytes; capturing everything",
                 sizeof buf - 1);
        buf[0] = '\0';
        rc = -1;
    }
    for (char *save = NULL, *pair = strtok_r(buf, ";", &save); pair && rc == 0;
         pair = strtok_r(NULL, ";", &save)) {
        char *eq = strchr(pair, '=');
        if (!eq) {
            snprintf(err, errlen, "agent: bad capture option '%s'", pair);
            rc = -1;
        } else {
            rc = parse_pair(pair, (size_t)(eq - pair), eq + 1, err, errlen);
        }
    }
    if (rc != 0) {
        c.mode = GSA_RANGE_NONE; /* capture everything rather than nothing */
        c.from = 0;
        c.until = INT64_MAX;
    }
    if (c.mode != GSA_RANGE_NONE && !c.w)
        c.w = malloc(MAX_WINDOWS * sizeof *c.w);
    gsa_capture_watches_ranges = c.w && (c.mode == GSA_RANGE_NVTX || c.mode == GSA_RANGE_STEPS);
    if (c.mode != GSA_RANGE_NONE && !c.w) {
        c.mode = GSA_RANGE_NONE;
        snprintf(err, errlen, "agent: no memory for capture windows; capturing everything");
        rc = -1;
    }
    pthread_mutex_unlock(&c.lock);
    return rc;
}

gsa_range_mode gsa_capture_mode(void)
{
    return c.mode;
}

void gsa_capture_reset(void)
{
    pthread_mutex_init(&c.lock, NULL); /* also right after fork, where it may have been held */
    c.n = 0;
    c.steps_seen = 0;
    c.profiler_open = false;
    c.start_end_id = 0;
    tls_depth = tls_capture_depth = 0;
}

void gsa_capture_profiler_api(bool start, int64_t ts)
{
    if (c.mode != GSA_RANGE_PROFILER)
        return;
    pthread_mutex_lock(&c.lock);
    if (start && !c.profiler_open)
        open_window(ts);
    else if (!start && c.profiler_open)
        close_window(ts);
    c.profiler_open = start;
    pthread_mutex_unlock(&c.lock);
}

static bool is_capture_name(const char *name, size_t len)
{
    return len == c.name_len && memcmp(name, c.name, len) == 0;
}

static bool is_step_name(const char *name, size_t len)
{
    char buf[NAME_MAX_LEN];
    if (!c.step_re_ok || len >= sizeof buf)
        return false;
    memcpy(buf, name, len);
    buf[len] = '\0';
    return regexec(&c.step_re, buf, 0, NULL, 0) == 0;
}

/* Position of the next step in the schedule: whether it is the first or last kept step of a
 * cycle. Called with the lock held, once per step range. */
static void step_began(int64_t ts, bool *keep, bool *last_of_cycle)
{
    unsigned long cycle = c.wait + c.warmup + c.active;
    unsigned long k = c.steps_seen++;
    unsigned long pos = k % cycle;
    bool in_repeat = c.repeat == 0 || k / cycle < c.repeat;
    *keep = in_repeat && pos >= c.wait + c.warmup;
    *last_of_cycle = *keep && pos == cycle - 1;
    if (*keep && pos == c.wait + c.warmup)
        open_window(ts);
}

/* A range opened: returns whether it is the capturing range. */
static bool range_opened(const char *name, size_t len, int64_t ts, bool *closes_at_end)
{
    *closes_at_end = false;
    if (c.mode == GSA_RANGE_NVTX) {
        if (!is_capture_name(name, len))
            return false;
        pthread_mutex_lock(&c.lock);
        bool was_open = c.n && c.w[c.n - 1].close == STILL_OPEN;
        if (!was_open)
            open_window(ts);
        pthread_mutex_unlock(&c.lock);
        *closes_at_end = !was_open;
        return true;
    }
    if (c.mode == GSA_RANGE_STEPS && is_step_name(name, len)) {
        bool keep, last;
        pthread_mutex_lock(&c.lock);
        step_began(ts, &keep, &last);
        pthread_mutex_unlock(&c.lock);
        *closes_at_end = last;
        return true;
    }
    return false;
}

static void range_closed(int64_t ts)
{
    pthread_mutex_lock(&c.lock);
    close_window(ts);
    pthread_mutex_unlock(&c.lock);
}

void gsa_capture_push_watched(const char *name, size_t len, int64_t ts)
{
    tls_depth++;
    bool closes;
    if (range_opened(name, len, ts, &closes) && closes && !tls_capture_depth)
        tls_capture_depth = tls_depth;
}

void gsa_capture_pop_watched(int64_t ts)
{
    if (tls_depth && tls_depth == tls_capture_depth) {
        tls_capture_depth = 0;
        range_closed(ts);
    }
    if (tls_depth)
        tls_depth--;
}

void gsa_capture_start_watched(const char *name, size_t len, uint64_t id, int64_t ts)
{
    bool closes;
    if (range_opened(name, len, ts, &closes) && closes) {
        pthread_mutex_lock(&c.lock);
        c.start_end_id = id;
        pthread_mutex_unlock(&c.lock);
    }
}

void gsa_capture_end_watched(uint64_t id, int64_t ts)
{
    pthread_mutex_lock(&c.lock);
    if (id && id == c.start_end_id) {
        c.start_end_id = 0;
        close_window(ts);
    }
    pthread_mutex_unlock(&c.lock);
}

bool gsa_capture_keeps(int64_t start, int64_t end)
{
    if (end < c.from || start > c.until)
        return false;
    if (c.mode == GSA_RANGE_NONE)
        return true;
    pthread_mutex_lock(&c.lock);
    /* The last window opened at or before `end`; any overlap has a close at or after `start`. */
    size_t lo = 0, hi = c.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c.w[mid].open <= end)
            lo = mid + 1;
        else
            hi = mid;
    }
    bool keep = lo > 0 && c.w[lo - 1].max_close >= start;
    pthread_mutex_unlock(&c.lock);
    return keep;
}
