/* Capture windows (capture.h). Windows open and close rarely (a named range, a step boundary,
 * cudaProfilerStart), so one mutex guards them; the writer asks about every record, so the
 * question is a binary search over windows kept in opening order with a running maximum of
 * their ends. */
#include "agent/capture.h"

#include <pthread.h>
#include <stdatomic.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    bool step_re_custom; /* else a step is a name that begins with ProfilerStep# */
    unsigned wait, warmup, active, repeat; /* steps=W,WU,A,R */
    unsigned long steps_seen;
    window *w;
    size_t n, cap;
    bool profiler_open;
    /* Read without the lock by every range end: only the one that matters takes it. */
    _Atomic uint64_t start_end_id; /* the start/end range that opened the window, 0 = none */
    /* On demand: the steps seen, and the one window armed. */
    gsa_step_info steps;
    int64_t step_begin;          /* when the latest step began */
    _Atomic uint64_t step_range_id; /* the start/end range of the latest step, 0 = none */
    bool armed, by_steps;
    int64_t arm_first, armed_at; /* the first step's number (-1: the next), not before armed_at */
    uint32_t arm_n;
    int64_t window_first;        /* the number of the window's first step, once open */
    uint32_t window_steps;
} c = {.lock = PTHREAD_MUTEX_INITIALIZER, .until = INT64_MAX, .steps = {-1, 0, 0}};

/* Per thread: push depth, and the depth at which the capturing range was pushed (0 = none); on
 * demand, the depth and number of the step range open on this thread. */
static __thread unsigned tls_depth __attribute__((tls_model("initial-exec")));
static __thread unsigned tls_capture_depth __attribute__((tls_model("initial-exec")));
static __thread unsigned tls_step_depth __attribute__((tls_model("initial-exec")));
static __thread int64_t tls_step_number __attribute__((tls_model("initial-exec")));

static void fix_max_from(size_t i)
{
    for (; i < c.n; i++) {
        int64_t prev = i ? c.w[i - 1].max_close : INT64_MIN;
        c.w[i].max_close = c.w[i].close > prev ? c.w[i].close : prev;
    }
}

static void open_window(int64_t ts)
{
    if (c.n == c.cap) /* keep the last one open rather than lose the tail */
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
    } else if (KEY("range") && strcmp(val, "on-demand") == 0) {
        c.mode = GSA_RANGE_ON_DEMAND;
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
        c.step_re_custom = true;
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
    c.step_re_custom = false;
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
    /* On demand, one window at a time: a dormant agent stays small. */
    size_t cap = c.mode == GSA_RANGE_ON_DEMAND ? 1 : MAX_WINDOWS;
    if (c.mode != GSA_RANGE_NONE && c.cap != cap) {
        free(c.w);
        c.w = malloc(cap * sizeof *c.w);
        c.cap = c.w ? cap : 0;
    }
    gsa_capture_watches_ranges = c.w && (c.mode == GSA_RANGE_NVTX || c.mode == GSA_RANGE_STEPS ||
                                         c.mode == GSA_RANGE_ON_DEMAND);
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
    atomic_store(&c.start_end_id, 0);
    c.steps = (gsa_step_info){-1, 0, 0};
    atomic_store(&c.step_range_id, 0);
    c.armed = false;
    tls_depth = tls_capture_depth = tls_step_depth = 0;
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
    static const char prefix[] = GS_PROFILER_STEP_PREFIX;
    if (!c.step_re_custom) /* the usual case, in every NVTX call: no regex */
        return len >= sizeof prefix - 1 && memcmp(name, prefix, sizeof prefix - 1) == 0;
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

/* The time of an event whose caller did not read the clock (GSA_TS_UNREAD): read only for the
 * events that count (a step, a watched range), so that other NVTX calls of a dormant agent cost
 * no clock read. */
static int64_t when(int64_t ts)
{
    if (ts != GSA_TS_UNREAD)
        return ts;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/* ---- on demand ---- */

/* The step's number: the digits after the name's last '#' (ProfilerStep#12), else a count. */
static int64_t step_number(const char *name, size_t len)
{
    const char *hash = NULL;
    for (size_t i = len; i-- > 0;)
        if (name[i] == '#') {
            hash = name + i;
            break;
        }
    int64_t k = 0;
    size_t digits = 0;
    for (const char *p = hash ? hash + 1 : name + len; p < name + len; p++, digits++) {
        if (*p < '0' || *p > '9' || k > (INT64_MAX - 9) / 10)
            return (int64_t)c.steps.seen;
        k = k * 10 + (*p - '0');
    }
    return digits ? k : (int64_t)c.steps.seen;
}

static bool window_is_open(void)
{
    return c.n == 1 && c.w[0].close == STILL_OPEN;
}

/* Called with the lock held. A step opens the window when it is the first asked for (or a later
 * one, when the first went by before the request was read), or, when it is past the window,
 * closes it (a step whose end is never seen). */
static void od_step_began(int64_t k, int64_t ts)
{
    c.steps.number = k;
    c.steps.seen++;
    c.step_begin = ts;
    if (!c.armed || !c.by_steps)
        return;
    if (c.n == 0 && ts >= c.armed_at && (c.arm_first < 0 || k >= c.arm_first)) {
        open_window(ts);
        c.window_first = k;
        c.window_steps = 1;
    } else if (window_is_open()) {
        if (k >= c.window_first + (int64_t)c.arm_n)
            close_window(ts);
        else
            c.window_steps++;
    }
}

/* Where steps are marked once they ended (the Python hooks), the end of the step before the
 * window opens it: the first moment the next step is known to have begun. A live step opens it
 * where it begins, so that time between steps (outside every step) stays out. */
static void od_step_ended(int64_t k, int64_t ts, bool marked_after)
{
    if (k == c.steps.number && ts >= c.step_begin)
        c.steps.last_ns = ts - c.step_begin;
    if (!c.armed || !c.by_steps)
        return;
    if (c.n == 0) {
        if (marked_after && ts >= c.armed_at && (c.arm_first < 0 || k >= c.arm_first - 1)) {
            open_window(ts);
            c.window_first = k + 1;
            c.window_steps = 0;
        }
    } else if (window_is_open() && k == c.window_first + (int64_t)c.arm_n - 1) {
        close_window(ts);
    }
}

gsa_step_info gsa_capture_steps(void)
{
    pthread_mutex_lock(&c.lock);
    gsa_step_info s = c.steps;
    pthread_mutex_unlock(&c.lock);
    return s;
}

void gsa_capture_arm_steps(int64_t first, uint32_t n, int64_t armed_at)
{
    pthread_mutex_lock(&c.lock);
    c.n = 0;
    c.armed = c.mode == GSA_RANGE_ON_DEMAND && c.cap > 0 && n > 0;
    c.by_steps = true;
    c.arm_first = first;
    c.arm_n = n;
    c.armed_at = armed_at;
    c.window_steps = 0;
    pthread_mutex_unlock(&c.lock);
}

void gsa_capture_arm_time(int64_t from, int64_t until)
{
    pthread_mutex_lock(&c.lock);
    c.n = 0;
    c.armed = c.mode == GSA_RANGE_ON_DEMAND && c.cap > 0 && until >= from;
    c.by_steps = false;
    c.window_steps = 0;
    if (c.armed) {
        open_window(from);
        c.w[0].close = c.w[0].max_close = until;
    }
    pthread_mutex_unlock(&c.lock);
}

void gsa_capture_disarm(void)
{
    pthread_mutex_lock(&c.lock);
    c.armed = false;
    c.n = 0;
    pthread_mutex_unlock(&c.lock);
}

gsa_window_state gsa_capture_window(int64_t now, uint32_t *steps)
{
    pthread_mutex_lock(&c.lock);
    gsa_window_state s = !c.armed ? GSA_WINDOW_NONE
                         : c.n == 0 ? GSA_WINDOW_ARMED
                         : c.w[0].close != STILL_OPEN && c.w[0].close <= now ? GSA_WINDOW_CLOSED
                                                                             : GSA_WINDOW_OPEN;
    if (steps)
        *steps = c.by_steps ? c.window_steps : 0;
    pthread_mutex_unlock(&c.lock);
    return s;
}

/* On demand a record belongs to the window only if it overlaps it for a positive time, or is
 * an instant inside it: the step before ends, and the step after begins, on its edges. */
static bool od_keeps(int64_t start, int64_t end)
{
    if (!c.armed || c.n == 0)
        return false;
    const window *w = &c.w[0];
    return start < end ? w->open < end && w->close > start : w->open <= start && start <= w->close;
}

void gsa_capture_push_watched(const char *name, size_t len, int64_t ts)
{
    tls_depth++;
    if (c.mode == GSA_RANGE_ON_DEMAND) {
        if (!is_step_name(name, len))
            return;
        ts = when(ts);
        pthread_mutex_lock(&c.lock);
        tls_step_number = step_number(name, len);
        od_step_began(tls_step_number, ts);
        pthread_mutex_unlock(&c.lock);
        tls_step_depth = tls_depth;
        return;
    }
    bool closes;
    if (range_opened(name, len, when(ts), &closes) && closes && !tls_capture_depth)
        tls_capture_depth = tls_depth;
}

void gsa_capture_pop_watched(int64_t ts)
{
    if (tls_depth && tls_depth == tls_step_depth) {
        tls_step_depth = 0;
        ts = when(ts);
        pthread_mutex_lock(&c.lock);
        od_step_ended(tls_step_number, ts, false);
        pthread_mutex_unlock(&c.lock);
    }
    if (tls_depth && tls_depth == tls_capture_depth) {
        tls_capture_depth = 0;
        range_closed(when(ts));
    }
    if (tls_depth)
        tls_depth--;
}

void gsa_capture_start_watched(const char *name, size_t len, uint64_t id, int64_t ts)
{
    if (c.mode == GSA_RANGE_ON_DEMAND) {
        if (!is_step_name(name, len))
            return;
        ts = when(ts);
        pthread_mutex_lock(&c.lock);
        od_step_began(step_number(name, len), ts);
        atomic_store(&c.step_range_id, id);
        pthread_mutex_unlock(&c.lock);
        return;
    }
    bool closes;
    if (range_opened(name, len, when(ts), &closes) && closes) {
        pthread_mutex_lock(&c.lock);
        atomic_store(&c.start_end_id, id);
        pthread_mutex_unlock(&c.lock);
    }
}

void gsa_capture_end_watched(uint64_t id, int64_t ts)
{
    if (!id || (id != atomic_load(&c.step_range_id) && id != atomic_load(&c.start_end_id)))
        return; /* most range ends: no lock, no clock */
    ts = when(ts);
    pthread_mutex_lock(&c.lock);
    if (id == atomic_load(&c.step_range_id)) {
        atomic_store(&c.step_range_id, 0);
        od_step_ended(c.steps.number, ts, false);
    }
    if (id == atomic_load(&c.start_end_id)) {
        atomic_store(&c.start_end_id, 0);
        close_window(ts);
    }
    pthread_mutex_unlock(&c.lock);
}

void gsa_capture_marked_watched(const char *name, size_t len, uint64_t id, int64_t start,
                                int64_t end)
{
    if (c.mode != GSA_RANGE_ON_DEMAND) {
        gsa_capture_start_watched(name, len, id, start);
        gsa_capture_end_watched(id, end);
        return;
    }
    if (!is_step_name(name, len))
        return;
    pthread_mutex_lock(&c.lock);
    int64_t k = step_number(name, len);
    od_step_began(k, start);
    od_step_ended(k, end, true);
    pthread_mutex_unlock(&c.lock);
}

bool gsa_capture_keeps(int64_t start, int64_t end)
{
    if (end < c.from || start > c.until)
        return false;
    if (c.mode == GSA_RANGE_NONE)
        return true;
    pthread_mutex_lock(&c.lock);
    if (c.mode == GSA_RANGE_ON_DEMAND) {
        bool keep = od_keeps(start, end);
        pthread_mutex_unlock(&c.lock);
        return keep;
    }
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
