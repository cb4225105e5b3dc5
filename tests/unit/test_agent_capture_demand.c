/* The agent's windows on demand (src/agent/capture.h, range=on-demand): the steps a dormant agent
 * tracks for its status, and the one window armed at a time by steps or by time, kept to exactly
 * its steps whether steps are marked live (push/pop, start/end) or once they ended (the Python
 * hooks' gpuscope_range_at). */
#include <stdlib.h>

#include "check.h"
#include "agent/capture.h"

static void init_on_demand(const char *extra)
{
    char spec[128], err[256] = "";
    snprintf(spec, sizeof spec, "range=on-demand%s", extra);
    gsa_capture_reset();
    CHECK_INT(gsa_capture_init(spec, err, sizeof err), 0);
    CHECK_STR(err, "");
    CHECK_INT(gsa_capture_mode(), GSA_RANGE_ON_DEMAND);
}

static void push_step(int64_t k, int64_t ts)
{
    char name[64];
    int n = snprintf(name, sizeof name, "ProfilerStep#%lld", (long long)k);
    gsa_capture_push(name, (size_t)n, ts);
}

/* Step k as a push/pop range over [100k, 100k + 90]. */
static void live_step(int64_t k)
{
    push_step(k, 100 * k);
    gsa_capture_push("forward", 7, 100 * k + 10); /* other ranges inside are not steps */
    gsa_capture_pop(100 * k + 50);
    gsa_capture_pop(100 * k + 90);
}

/* Step k marked after it ended, as the Python hooks do: [100(k-1), 100k] by start/end at once. */
static void marked_step(int64_t k)
{
    char name[64];
    int n = snprintf(name, sizeof name, "ProfilerStep#%lld", (long long)k);
    gsa_capture_marked(name, (size_t)n, (uint64_t)(1000 + k), 100 * (k - 1), 100 * k);
}

/* Which steps among first..last the window keeps, as "K" or "." each. */
static void check_kept(int line, int64_t first, int64_t last, bool marked, const char *want)
{
    char got[64] = "";
    for (int64_t k = first; k <= last; k++) {
        int64_t a = marked ? 100 * (k - 1) : 100 * k, b = marked ? 100 * k : 100 * k + 90;
        strcat(got, gsa_capture_keeps(a, b) ? "K" : ".");
    }
    if (strcmp(got, want) != 0)
        fprintf(stderr, "line %d: kept %s, want %s\n", line, got, want);
    CHECK_STR(got, want);
}

static void test_steps_tracked(void)
{
    init_on_demand("");
    gsa_step_info s = gsa_capture_steps();
    CHECK_INT(s.number, -1);
    CHECK_INT(s.seen, 0);
    /* Dormant: nothing is kept, but steps are counted with their numbers and durations. */
    live_step(5);
    live_step(6);
    s = gsa_capture_steps();
    CHECK_INT(s.number, 6);
    CHECK_INT(s.last_ns, 90);
    CHECK_INT(s.seen, 2);
    CHECK(!gsa_capture_keeps(0, 10000));
    CHECK_INT(gsa_capture_window(10000, NULL), GSA_WINDOW_NONE);
    /* A name without a number: the count stands in. */
    gsa_capture_push("ProfilerStep#", 13, 700);
    CHECK_INT(gsa_capture_steps().number, 2);
    gsa_capture_pop(750);
    CHECK_INT(gsa_capture_steps().last_ns, 50);

    /* A custom step name. */
    init_on_demand(";step=^iter ");
    gsa_capture_push("iter 9", 6, 100);
    gsa_capture_pop(130);
    push_step(10, 200); /* no longer a step */
    gsa_capture_pop(230);
    CHECK_INT(gsa_capture_steps().number, 0);
    CHECK_INT(gsa_capture_steps().seen, 1);
    CHECK_INT(gsa_capture_steps().last_ns, 30);
}

static void test_window_of_live_steps(void)
{
    init_on_demand("");
    for (int64_t k = 1; k <= 3; k++)
        live_step(k);
    gsa_capture_arm_steps(5, 3, 350);
    CHECK_INT(gsa_capture_window(350, NULL), GSA_WINDOW_ARMED);
    uint32_t steps = 99;
    for (int64_t k = 4; k <= 9; k++) {
        live_step(k);
        if (k == 6)
            CHECK_INT(gsa_capture_window(700, &steps), GSA_WINDOW_OPEN);
    }
    CHECK_INT(steps, 2);
    CHECK_INT(gsa_capture_window(2000, &steps), GSA_WINDOW_CLOSED);
    CHECK_INT(steps, 3);
    check_kept(__LINE__, 1, 9, false, "....KKK..");
    /* Opened at step 5's push (500), closed at step 7's pop (790): edges are not overlaps. */
    CHECK(!gsa_capture_keeps(490, 500));
    CHECK(gsa_capture_keeps(500, 500));  /* an instant on the edge is inside */
    CHECK(gsa_capture_keeps(499, 501));
    CHECK(gsa_capture_keeps(790, 790));
    CHECK(!gsa_capture_keeps(790, 800));
    CHECK(!gsa_capture_keeps(791, 791));
    /* Disarmed: nothing. */
    gsa_capture_disarm();
    CHECK(!gsa_capture_keeps(600, 600));
    CHECK_INT(gsa_capture_window(2000, NULL), GSA_WINDOW_NONE);
}

static void test_window_of_marked_steps(void)
{
    /* Steps known once they ended: the window opens where the step before the first ends. */
    init_on_demand("");
    marked_step(1);
    marked_step(2);
    gsa_capture_arm_steps(4, 3, 250);
    for (int64_t k = 3; k <= 9; k++)
        marked_step(k);
    uint32_t steps = 0;
    CHECK_INT(gsa_capture_window(2000, &steps), GSA_WINDOW_CLOSED);
    CHECK_INT(steps, 3);
    check_kept(__LINE__, 1, 9, true, "...KKK...");

    /* The next step, whichever it is. */
    init_on_demand("");
    marked_step(1);
    gsa_capture_arm_steps(-1, 2, 150);
    for (int64_t k = 2; k <= 6; k++)
        marked_step(k);
    check_kept(__LINE__, 1, 6, true, "..KK..");

    /* Live steps, the next step: it opens where the next one begins. */
    init_on_demand("");
    live_step(1);
    gsa_capture_arm_steps(-1, 2, 120);
    for (int64_t k = 2; k <= 6; k++)
        live_step(k);
    check_kept(__LINE__, 1, 6, false, ".KK...");
}

static void test_late_request(void)
{
    /* Step 3 went by before the request was read: the window takes the next steps rather than
     * waiting for ever, and says which it got. */
    init_on_demand("");
    for (int64_t k = 1; k <= 4; k++)
        live_step(k);
    gsa_capture_arm_steps(3, 2, 450);
    for (int64_t k = 5; k <= 8; k++)
        live_step(k);
    check_kept(__LINE__, 1, 8, false, "....KK..");
    /* Nothing opens before armed_at, even a step with the right number. */
    init_on_demand("");
    gsa_capture_arm_steps(2, 1, 1000);
    live_step(2);
    CHECK_INT(gsa_capture_window(2000, NULL), GSA_WINDOW_ARMED);
}

static void test_window_of_time(void)
{
    init_on_demand("");
    gsa_capture_arm_time(100, 200);
    CHECK_INT(gsa_capture_window(150, NULL), GSA_WINDOW_OPEN);
    CHECK_INT(gsa_capture_window(200, NULL), GSA_WINDOW_CLOSED);
    CHECK(gsa_capture_keeps(150, 160));
    CHECK(gsa_capture_keeps(50, 101));
    CHECK(!gsa_capture_keeps(200, 210));
    CHECK(!gsa_capture_keeps(50, 100));
    /* Steps do not close a window of time. */
    live_step(1);
    live_step(2);
    CHECK(gsa_capture_keeps(150, 160));
    /* A new arm replaces the old window. */
    gsa_capture_arm_time(300, 400);
    CHECK(!gsa_capture_keeps(150, 160));
    CHECK(gsa_capture_keeps(350, 350));
}

int main(void)
{
    test_steps_tracked();
    test_window_of_live_steps();
    test_window_of_marked_steps();
    test_late_request();
    test_window_of_time();
    return check_done("test_agent_capture_demand");
}
