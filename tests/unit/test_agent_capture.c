/* The agent's capture windows (src/agent/capture.h): parsing GPUSCOPE_CAPTURE, from/until bounds,
 * windows opened by an NVTX range name (push/pop and start/end), by cudaProfilerStart/Stop and
 * by a step schedule, at their exact boundaries. Every case starts from gsa_capture_init. */
#include <pthread.h>
#include <stdlib.h>

#include "check.h"
#include "agent/capture.h"

static char err[256];

static int init(const char *spec)
{
    gsa_capture_reset();
    strcpy(err, "");
    return gsa_capture_init(spec, err, sizeof err);
}

/* keeps() of [start, end] must be `want`. */
static void keeps_at(int line, int64_t start, int64_t end, bool want)
{
    bool got = gsa_capture_keeps(start, end);
    if (got != want)
        fprintf(stderr, "line %d: keeps(%" PRId64 ", %" PRId64 ") is %d, want %d\n", line, start,
                end, got, want);
    CHECK(got == want);
}
#define KEPT(s, e) keeps_at(__LINE__, s, e, true)
#define DROPPED(s, e) keeps_at(__LINE__, s, e, false)

static void push(const char *name, int64_t ts)
{
    gsa_capture_push(name, strlen(name), ts);
}

static void start(const char *name, uint64_t id, int64_t ts)
{
    gsa_capture_start(name, strlen(name), id, ts);
}

/* ---- parsing ------------------------------------------------------------------------------ */

static void check_valid(int line, const char *spec, gsa_range_mode mode)
{
    int rc = init(spec);
    if (rc != 0)
        fprintf(stderr, "line %d: '%s' refused: %s\n", line, spec, err);
    CHECK_INT(rc, 0);
    CHECK_STR(err, "");
    CHECK_INT(gsa_capture_mode(), mode);
}
#define VALID(spec, mode) check_valid(__LINE__, spec, mode)

/* An invalid spec: -1, a message naming the bad option, and then everything is kept (no mode,
 * no from/until bound left over from a valid option before the bad one). */
static void check_invalid(int line, const char *spec, const char *in_message)
{
    int rc = init(spec);
    if (rc != -1 || !strstr(err, in_message))
        fprintf(stderr, "line %d: '%s': rc %d, message '%s'\n", line, spec, rc, err);
    CHECK_INT(rc, -1);
    CHECK(strstr(err, "bad capture option") != NULL);
    CHECK(strstr(err, in_message) != NULL);
    CHECK_INT(gsa_capture_mode(), GSA_RANGE_NONE);
    keeps_at(line, 0, 0, true);
    keeps_at(line, INT64_MAX, INT64_MAX, true);
    keeps_at(line, 150, 150, true);
    /* No window mode survives: ranges and profiler calls change nothing. */
    push("train", 10);
    gsa_capture_pop(20);
    gsa_capture_profiler_api(true, 30);
    gsa_capture_profiler_api(false, 40);
    keeps_at(line, 25, 25, true);
    keeps_at(line, 50, 60, true);
}
#define INVALID(spec, in_message) check_invalid(__LINE__, spec, in_message)

static void test_parse(void)
{
    /* Everything: times are CLOCK_REALTIME ns, from 0 on. */
    VALID(NULL, GSA_RANGE_NONE);
    KEPT(0, 0);
    KEPT(INT64_MAX, INT64_MAX);
    VALID("", GSA_RANGE_NONE);
    KEPT(0, 0);
    VALID("from=100", GSA_RANGE_NONE);
    VALID("until=100", GSA_RANGE_NONE);
    VALID("from=100;until=200", GSA_RANGE_NONE);
    VALID("from=-100;until=-50", GSA_RANGE_NONE);
    VALID("until=200;from=100;", GSA_RANGE_NONE); /* any order, an empty pair */
    VALID("range=cudaProfilerApi", GSA_RANGE_PROFILER);
    VALID("range=nvtx:train", GSA_RANGE_NVTX);
    VALID("range=nvtx:a=b c", GSA_RANGE_NVTX); /* '=' and spaces belong to the name */
    VALID("steps=1,1,2,2", GSA_RANGE_STEPS);
    VALID("steps=0,0,1", GSA_RANGE_STEPS);
    VALID("steps=5,1,3,0", GSA_RANGE_STEPS);
    VALID("steps=1,1,2;step=^iter[0-9]+$", GSA_RANGE_STEPS);
    VALID("step=^iter;steps=1,1,2", GSA_RANGE_STEPS);
    VALID("step=^iter", GSA_RANGE_NONE); /* a step name alone chooses no mode */
    VALID("from=1000000000;until=2000000000;range=nvtx:x", GSA_RANGE_NVTX);

    INVALID("bogus", "bogus");
    INVALID("foo=1", "foo=1");
    INVALID("from=", "from=");
    INVALID("from=abc", "from=abc");
    INVALID("from=12x", "from=12x");
    INVALID("until=1.5", "until=1.5");
    INVALID("range=", "range=");
    INVALID("range=nvtx:", "range=nvtx:");
    INVALID("range=nvtx", "range=nvtx");
    INVALID("range=cudaProfilerAPI", "cudaProfilerAPI");
    INVALID("steps=", "steps=");
    INVALID("steps=1", "steps=1");
    INVALID("steps=1,2", "steps=1,2");
    INVALID("steps=1,2,0", "steps=1,2,0"); /* no active step */
    INVALID("steps=1,2,0,3", "steps=1,2,0,3");
    INVALID("steps=1,2,3,4,5", "steps=1,2,3,4,5");
    INVALID("steps=1,2,3,", "steps=1,2,3,");
    INVALID("steps=1,,2,3", "steps=1,,2,3");
    INVALID("steps=a,b,c", "steps=a,b,c");
    INVALID("steps=-1,2,3", "steps=-1,2,3");
    INVALID("steps=1,2,3x", "steps=1,2,3x");
    INVALID("steps=1,1,2000000", "steps=1,1,2000000");
    INVALID("step=([", "step=([");
    INVALID("Range=nvtx:x", "Range=nvtx:x");
    /* A bad option after good ones: the good ones do not stay in force. */
    INVALID("from=100;until=200;bogus=1", "bogus=1");
    INVALID("range=nvtx:train;steps=x", "steps=x");
    INVALID("steps=1,1,2,2;step=([", "step=([");
    INVALID("from=500;range=cudaProfilerApi;nope", "nope");

    /* A valid spec after an invalid one works. */
    VALID("range=nvtx:train", GSA_RANGE_NVTX);
    DROPPED(0, 0);
    push("train", 10);
    gsa_capture_pop(20);
    KEPT(15, 15);
    DROPPED(21, 30);
}

/* ---- from / until ------------------------------------------------------------------------- */

static void test_bounds(void)
{
    VALID("from=1000;until=2000", GSA_RANGE_NONE);
    DROPPED(0, 999);
    DROPPED(999, 999);
    KEPT(0, 1000);     /* ends exactly at from */
    KEPT(1000, 1000);
    KEPT(500, 1500);   /* overlaps from */
    KEPT(1200, 1300);  /* inside */
    KEPT(1500, 2500);  /* overlaps until */
    KEPT(2000, 3000);  /* starts exactly at until */
    KEPT(2000, 2000);
    DROPPED(2001, 3000);
    DROPPED(2001, 2001);
    KEPT(0, 5000);     /* spans both */
    DROPPED(0, 999);
    DROPPED(2001, INT64_MAX);

    VALID("from=1000", GSA_RANGE_NONE);
    DROPPED(0, 999);
    KEPT(999, 1000);
    KEPT(INT64_MAX - 1, INT64_MAX);

    VALID("until=1000", GSA_RANGE_NONE);
    KEPT(0, 1);
    KEPT(1000, 1001);
    DROPPED(1001, 1002);

    /* Bounds and a window together: both must hold. */
    VALID("from=150;until=350;range=cudaProfilerApi", GSA_RANGE_PROFILER);
    gsa_capture_profiler_api(true, 100);
    gsa_capture_profiler_api(false, 200);
    gsa_capture_profiler_api(true, 300);
    gsa_capture_profiler_api(false, 400);
    DROPPED(110, 120); /* in the window, before from */
    KEPT(140, 160);
    KEPT(190, 200);
    DROPPED(210, 290); /* between windows */
    KEPT(340, 360);
    DROPPED(360, 380); /* in the window, after until */
}

/* ---- range=nvtx:NAME ---------------------------------------------------------------------- */

static void *other_thread_ranges(void *arg)
{
    (void)arg;
    /* Another thread: its own depth. An unbalanced pop here closes nothing of the main one. */
    push("inner", 150);
    gsa_capture_pop(160);
    gsa_capture_pop(170);
    gsa_capture_pop(175);
    return NULL;
}

static void test_nvtx_push_pop(void)
{
    VALID("range=nvtx:train", GSA_RANGE_NVTX);
    DROPPED(0, 10); /* no window yet */
    push("forward", 50);
    gsa_capture_pop(60);
    push("trai", 70);     /* a prefix of the name */
    gsa_capture_pop(71);
    push("training", 72); /* the name is a prefix of this */
    gsa_capture_pop(73);
    DROPPED(0, 99);

    push("train", 100);   /* window 1 opens */
    push("inner", 150);   /* nested ranges of other names do not close it */
    push("deeper", 155);
    gsa_capture_pop(165);
    gsa_capture_pop(180);
    push("train", 190);   /* nor does a nested range of the same name */
    gsa_capture_pop(195);
    KEPT(196, 197);
    pthread_t t;
    CHECK_INT(pthread_create(&t, NULL, other_thread_ranges, NULL), 0);
    pthread_join(t, NULL);
    KEPT(250, 260);
    gsa_capture_pop(300); /* window 1 closes at NAME's pop */

    push("other", 400);   /* between windows: dropped */
    gsa_capture_pop(450);
    /* A second range of NAME opens a second window; the name need not be NUL-terminated. */
    gsa_capture_push("trainXYZ", 5, 500);
    push("x", 520);
    gsa_capture_pop(530);
    gsa_capture_pop(600);
    gsa_capture_pop(650); /* unbalanced: harmless */

    DROPPED(0, 99);
    KEPT(0, 100);
    KEPT(100, 100);
    KEPT(160, 170);
    KEPT(299, 299);
    KEPT(300, 300);
    KEPT(300, 310);
    DROPPED(301, 399);
    DROPPED(301, 499);
    DROPPED(420, 430);
    KEPT(450, 500);
    KEPT(550, 550);
    KEPT(250, 550);  /* spans the gap: overlaps both */
    KEPT(0, 1000);
    KEPT(600, 700);
    DROPPED(601, 700);
    DROPPED(INT64_MAX, INT64_MAX);

    /* A window still open keeps everything after its start. */
    push("train", 1000);
    KEPT(5000, 6000);
    KEPT(INT64_MAX, INT64_MAX);
    DROPPED(700, 999);
    gsa_capture_pop(2000);
    DROPPED(2001, 5000);
    KEPT(550, 550);  /* earlier windows are still known */

    /* reset forgets the windows (init re-reads the spec). */
    gsa_capture_reset();
    DROPPED(550, 550);
    DROPPED(1500, 1500);

    /* The name with '=' in it. */
    VALID("range=nvtx:a=b c", GSA_RANGE_NVTX);
    push("a", 10);
    gsa_capture_pop(20);
    push("a=b c", 30);
    gsa_capture_pop(40);
    DROPPED(15, 15);
    KEPT(35, 35);
}

static void test_nvtx_start_end(void)
{
    VALID("range=nvtx:train", GSA_RANGE_NVTX);
    start("other", 41, 900);
    start("train", 42, 1000);   /* window opens */
    start("other2", 43, 1100);
    gsa_capture_end(43, 1200);  /* another range's end: still open */
    gsa_capture_end(41, 1250);
    gsa_capture_end(999, 1260); /* an unknown id */
    start("train", 44, 1300);   /* nested same name: does not take over */
    gsa_capture_end(44, 1350);
    KEPT(1400, 1400);
    gsa_capture_end(42, 1500);  /* closes */
    gsa_capture_end(42, 1600);  /* again: nothing */
    start("train", 45, 2000);
    gsa_capture_end(45, 2100);

    DROPPED(0, 999);
    KEPT(999, 1000);
    KEPT(1210, 1220);
    KEPT(1500, 1500);
    DROPPED(1501, 1999);
    KEPT(2000, 2050);
    KEPT(2100, 2200);
    DROPPED(2101, 2200);

    /* A push/pop NAME range opened while no window is open closes at its pop even when a
     * start/end range of NAME was opened inside it. */
    VALID("range=nvtx:train", GSA_RANGE_NVTX);
    push("train", 100);
    start("train", 7, 150);
    gsa_capture_pop(200);
    gsa_capture_end(7, 300);
    KEPT(200, 200);
    DROPPED(201, 250);
}

/* ---- range=cudaProfilerApi ---------------------------------------------------------------- */

static void test_profiler_api(void)
{
    VALID("range=cudaProfilerApi", GSA_RANGE_PROFILER);
    DROPPED(0, 10);
    /* NVTX ranges mean nothing in this mode. */
    push("train", 10);
    gsa_capture_pop(20);
    DROPPED(15, 15);
    gsa_capture_profiler_api(false, 50);  /* a stop before any start: ignored */
    DROPPED(40, 60);
    gsa_capture_profiler_api(true, 100);
    gsa_capture_profiler_api(false, 200);
    gsa_capture_profiler_api(false, 250); /* a second stop: ignored */
    gsa_capture_profiler_api(true, 300);
    gsa_capture_profiler_api(true, 350);  /* a second start: the same window */
    gsa_capture_profiler_api(false, 400);
    gsa_capture_profiler_api(true, 500);  /* never stopped */

    DROPPED(0, 99);
    KEPT(90, 100);
    KEPT(150, 150);
    KEPT(200, 200);
    DROPPED(201, 299);
    DROPPED(240, 260);
    KEPT(300, 300);
    KEPT(340, 360);
    KEPT(400, 410);
    DROPPED(401, 499);
    KEPT(500, 500);
    KEPT(1000000, 2000000);

    /* In NVTX mode the profiler API opens nothing. */
    VALID("range=nvtx:train", GSA_RANGE_NVTX);
    gsa_capture_profiler_api(true, 100);
    gsa_capture_profiler_api(false, 200);
    DROPPED(150, 150);

    /* Many windows: past the table's size the last one stays open rather than lose the tail;
     * the earlier ones keep their gaps. */
    VALID("range=cudaProfilerApi", GSA_RANGE_PROFILER);
    enum { N = 65536 + 10 };
    for (int64_t i = 0; i < N; i++) {
        gsa_capture_profiler_api(true, 10 * i);
        gsa_capture_profiler_api(false, 10 * i + 5);
    }
    KEPT(10 * 100 + 5, 10 * 100 + 6);
    DROPPED(10 * 100 + 6, 10 * 100 + 9);
    DROPPED(10 * 60000 + 6, 10 * 60000 + 9);
    KEPT(10 * 65535 + 2, 10 * 65535 + 2);
    KEPT(10 * 65536 + 2, 10 * 65536 + 2);   /* past the table: still kept */
    KEPT(10 * (N - 1) + 2, 10 * (N - 1) + 2);
    DROPPED(10 * N + 100, 10 * N + 200);     /* after the last stop */
}

/* ---- steps -------------------------------------------------------------------------------- */

enum { STEP_NS = 100, STEP_LEN = 90 }; /* step i runs [100 i, 100 i + 90] */

/* Runs `n` steps named prefix+i from time `t0` with push/pop (or start/end), each with
 * non-step ranges around and inside it; `decoy` is pushed between steps and must not count. */
static void run_steps(const char *prefix, int n, bool start_end, const char *decoy)
{
    for (int i = 0; i < n; i++) {
        int64_t t = (int64_t)i * STEP_NS;
        char name[64];
        snprintf(name, sizeof name, "%s%d", prefix, i);
        push("dataloader", t - 8); /* between steps */
        push(decoy, t - 6);
        gsa_capture_pop(t - 4);
        gsa_capture_pop(t - 2);
        push("MyProfilerStep#0", t - 1); /* not a step by the default name */
        gsa_capture_pop(t - 1);
        if (start_end)
            start(name, 1000 + (uint64_t)i, t);
        else
            push(name, t);
        push("forward", t + 10);
        push("ProfilerStep", t + 20); /* no '#': not a step either */
        gsa_capture_pop(t + 30);
        gsa_capture_pop(t + 40);
        if (start_end)
            gsa_capture_end(1000 + (uint64_t)i, t + STEP_LEN);
        else
            gsa_capture_pop(t + STEP_LEN);
    }
}

/* Checks which steps are kept against a schedule of two characters per step: 'K' (kept) or '.'
 * (dropped) for the step, then '-' when the gap after it is inside a window or ' ' when not. */
static void check_steps(int line, const char *schedule)
{
    int n = (int)strlen(schedule) / 2;
    for (int i = 0; i < n + 3; i++) {
        int64_t t = (int64_t)i * STEP_NS;
        bool k = i < n && schedule[2 * i] == 'K';
        bool gap = i < n && schedule[2 * i + 1] == '-';
        bool next = i + 1 < n && schedule[2 * i + 2] == 'K';
        keeps_at(line, t + 45, t + 46, k);
        keeps_at(line, t, t, k);                       /* its first instant */
        keeps_at(line, t + STEP_LEN, t + STEP_LEN, k); /* its last instant */
        keeps_at(line, t + STEP_LEN + 1, t + STEP_NS - 1, gap);
        /* A record spanning the step's end and the next step's start. */
        keeps_at(line, t + STEP_LEN - 1, t + STEP_NS, k || next);
    }
}

static void test_steps(void)
{
    /* W=1, WU=1, A=2, R=2 over 10 steps: cycles 0-3 and 4-7 keep steps 2-3 and 6-7. */
    static const char two_cycles[] = ". . K-K . . K-K . . ";
    VALID("steps=1,1,2,2", GSA_RANGE_STEPS);
    DROPPED(0, 1000);
    run_steps("ProfilerStep#", 10, false, "iter 3");
    check_steps(__LINE__, two_cycles);
    KEPT(190, 200);  /* ends at step 2's start */
    DROPPED(150, 199);
    KEPT(390, 400);  /* starts at step 3's end */
    DROPPED(391, 400);
    KEPT(0, 10000);

    /* The same with start/end step ranges. */
    VALID("steps=1,1,2,2", GSA_RANGE_STEPS);
    run_steps("ProfilerStep#", 10, true, "iter 3");
    check_steps(__LINE__, two_cycles);

    /* A custom step name: ranges with the default name no longer count. */
    VALID("steps=1,1,2,2;step=^iter [0-9]+$", GSA_RANGE_STEPS);
    run_steps("iter ", 10, false, "ProfilerStep#3");
    check_steps(__LINE__, two_cycles);
    VALID("step=^iter [0-9]+$;steps=1,1,2,2", GSA_RANGE_STEPS);
    run_steps("ProfilerStep#", 10, false, "x");
    DROPPED(INT64_MIN, INT64_MAX);

    /* R=0: for ever. W=0, WU=1, A=1: every odd step, each its own window. */
    VALID("steps=0,1,1,0", GSA_RANGE_STEPS);
    run_steps("ProfilerStep#", 60, false, "iter 3");
    char odd[121] = "";
    for (int i = 0; i < 60; i++)
        strcat(odd, i % 2 ? "K " : ". ");
    check_steps(__LINE__, odd);

    /* No R: one cycle. W=2, WU=0, A=3: steps 2-4 only. */
    VALID("steps=2,0,3", GSA_RANGE_STEPS);
    run_steps("ProfilerStep#", 12, false, "iter 3");
    check_steps(__LINE__, ". . K-K-K . . . . . . . ");

    /* W=0, WU=0, A=1, R=3: steps 0, 1, 2, each in its own window. */
    VALID("steps=0,0,1,3", GSA_RANGE_STEPS);
    run_steps("ProfilerStep#", 6, false, "iter 3");
    check_steps(__LINE__, "K K K . . . ");

    /* W=0, WU=0, A=2, R=0: kept steps back to back, but a window per cycle. */
    VALID("steps=0,0,2,0", GSA_RANGE_STEPS);
    run_steps("ProfilerStep#", 6, true, "iter 3");
    check_steps(__LINE__, "K-K K-K K-K ");

    /* Step ranges nested in another range: still counted, and the window still closes. */
    VALID("steps=1,0,1,1", GSA_RANGE_STEPS);
    push("epoch", 0);
    run_steps("ProfilerStep#", 4, false, "iter 3");
    gsa_capture_pop(1000);
    check_steps(__LINE__, ". K . . ");
}

/* KNOWN BUG (not fixed here): range=nvtx:NAME keeps at most 255 bytes of NAME (capture.c's
 * NAME_MAX_LEN), while the agent matches ranges by their whole name (up to GSA_NAME_MAX = 1024):
 * a longer NAME is accepted but never matches, so the run silently captures nothing. Either
 * refusing the spec (-1, a message, capture everything) or matching is right; this is neither. */
static void test_long_nvtx_name(void)
{
    char name[301], spec[320];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    snprintf(spec, sizeof spec, "range=nvtx:%s", name);
    int rc = init(spec);
    push(name, 100);
    gsa_capture_pop(200);
    if (rc == 0)
        KEPT(150, 150); /* accepted: its range must open the window */
    else
        CHECK_INT(gsa_capture_mode(), GSA_RANGE_NONE);
}

int main(void)
{
    test_parse();
    test_bounds();
    test_nvtx_push_pop();
    test_nvtx_start_end();
    test_profiler_api();
    test_steps();
    test_long_nvtx_name();
    return check_done("test_agent_capture");
}
